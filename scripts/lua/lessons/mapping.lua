-- Lesson: in situ or in transit? (the paper's Fig. 9)
-- Run it with `situ lesson mapping --headless`, or open it in the explorer.

local function with(p, changes)
  local q = {}
  for k, v in pairs(p) do q[k] = v end
  for k, v in pairs(changes) do q[k] = v end
  return q
end

-- Makespans of both mappings for the configuration p.
local function both(p)
  local insitu = situ.model(with(p, { mapping = "insitu" })).makespan
  local intransit = situ.model(with(p, { mapping = "intransit" })).makespan
  return insitu, intransit
end

return {
  title = "In situ or in transit? (Fig. 9)",
  description = "the scatter analytics on 16 nodes: which mapping wins, and where they cross",
  steps = {
    {
      text = [[
In situ, the analytics cores sit on every node beside the simulation: states move through
shared memory, but the analytics is scattered over 16 nodes. In transit, a whole node is
dedicated to the analytics: it is gathered on one node, but every state crosses the network.

The `scatter` analytics (scripts/lua/analytics/scatter.lua) allgathers a density grid among
its actors after each analysis: the more nodes it spans, the longer it takes. Here it runs
in situ on 16 nodes, ratio 15 (2 analytics cores per node).]],
      config = { nodes = 16, ratio = 15, mapping = "insitu", analytics = "scatter",
                 data_scaling = 1 },
    },
    {
      text = [[
Switch the mapping to in transit (ratio 15 then means one whole analytics node). With this
little data, which mapping finishes first?]],
      goal = function(state)
        -- Direction only: which mapping is on screen, never the other one's makespan.
        local insitu, intransit = both(state.params)
        if state.params.mapping ~= "intransit" then
          return false, "still in situ: switch the mapping, then compare"
        end
        return intransit < insitu, "in transit on screen: compare its makespan with in situ's"
      end,
      hint = {
        "Move the mapping slider (or press m), then compare the two makespans.",
        "The slider goes insitu, intransit; hostfile is skipped here: it needs a hostfile.",
      },
      solution = { mapping = "intransit" },
    },
    {
      text = [[
Now scale up the data each analysis receives (data_scaling). In transit, every byte crosses
the analytics node's link; in situ, it stays on the node. Find a data_scaling where in situ
is faster again.]],
      config = { mapping = "intransit" },
      goal = function(state)
        local insitu, intransit = both(state.params)
        return insitu < intransit, ("data_scaling %g: %s"):format(state.params.data_scaling,
          insitu < intransit and "in situ finishes first" or "in transit still finishes first")
      end,
      hint = {
        "In transit, every byte crosses one link: make each analysis receive more.",
        "Go up by factors of ten until the winner changes.",
      },
      solution = { data_scaling = 100 },
    },
    {
      text = [[
Somewhere in between the two makespans cross: the tipping point the paper's Fig. 9 shows.
Put data_scaling within 10% of it (situ.crossover finds it in a scenario script).]],
      goal = function(state)
        local x = situ.crossover{ base = state.params, from = 1, to = 1000 }
        if not x then return false, "no crossover between 1 and 1000 for this configuration" end
        -- Which way to go, never how far: the distance would give the crossover away.
        local d = state.params.data_scaling
        if math.abs(d - x) / x <= 0.1 then
          return true, ("data_scaling %g: the two makespans are close"):format(d)
        end
        return false, ("data_scaling %g: %s"):format(d, d < x
          and "in transit still wins here: the crossover is further up"
          or "in situ already wins here: the crossover is further down")
      end,
      hint = {
        "It lies between the last value where in transit won and the first where in situ did.",
        "Halve that interval until the two makespans are close (c shows the crossover plot).",
      },
      solution = { data_scaling = 17 },
    },
  },
}
