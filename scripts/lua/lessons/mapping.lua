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
        local insitu, intransit = both(state.params)
        return state.params.mapping == "intransit" and intransit < insitu,
          ("in situ %.1f s, in transit %.1f s"):format(insitu, intransit)
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
        return insitu < intransit, ("data_scaling %g: in situ %.1f s, in transit %.1f s"):format(
          state.params.data_scaling, insitu, intransit)
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
        local off = math.abs(state.params.data_scaling - x) / x
        return off <= 0.1, ("data_scaling %g is %.0f%% from the crossover"):format(
          state.params.data_scaling, 100 * off)
      end,
      hint = {
        "It lies between the last value where in transit won and the first where in situ did.",
        "Halve that interval until the two makespans are close (c shows the crossover plot).",
      },
      solution = { data_scaling = 17 },
    },
  },
}
