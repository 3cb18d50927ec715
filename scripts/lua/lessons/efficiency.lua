-- Lesson: the efficiency metric and idle time (the paper's Fig. 8 and eq. 4-6).
-- Run it with `situ lesson efficiency --headless`, or open it in the explorer.

local function with(p, changes)
  local q = {}
  for k, v in pairs(p) do q[k] = v end
  for k, v in pairs(changes) do q[k] = v end
  return q
end

return {
  title = "The efficiency metric and idle time (Fig. 8)",
  description = "idle time and eta on 2 nodes: the ratio, its sweet spot, free analytics capacity",
  steps = {
    {
      text = [[
One step of the workflow is S (the simulation computes `stride` iterations) and Ing (it
hands its state to the DTL) on one side, R (the analytics retrieves the state) and A (it
analyses it) on the other. Whichever side is faster waits: the idle time per step is
I = |(S + Ing) - (R + A)|, and the efficiency is eta = 1 - I / max(S + Ing, R + A).

This is the paper's (1000, 50) case: an analysis every 1000 iterations, 50 times the thermo
cost, on 2 nodes (64 cores). With ratio 1, half the cores analyse: look how idle they are.]],
      config = { nodes = 2, stride = 1000, compute_scaling = 50, ratio = 1 },
    },
    {
      text = [[
The ratio R gives more cores to the simulation and fewer to the analytics. Raise it until
the roles swap: the simulation starts waiting for the analytics (scenario IS).]],
      goal = function(state)
        local m = state.model
        return m.scenario == "IS",
          ("ratio %d: scenario %s, eta %.3f"):format(state.params.ratio, m.scenario, m.efficiency)
      end,
      hint = {
        "Which side waits now? The one with too many cores.",
        "Valid ratios on 32-core nodes are 1, 3, 7, 15 and 31: the larger, the fewer analytics cores.",
      },
      solution = { ratio = 31 },
    },
    {
      text = [[
Between the two extremes there is a sweet spot. Find a ratio with eta >= 0.7.]],
      goal = function(state)
        local eta = state.model.efficiency
        return eta >= 0.7, ("ratio %d: eta %.3f"):format(state.params.ratio, eta)
      end,
      hint = {
        "The analytics must be a little faster than the simulation, not much.",
        "Step through the ratios one by one and watch eta: it rises, then falls.",
      },
      solution = { ratio = 15 },
    },
    {
      text = [[
At ratio 15 the analytics still idles about a quarter of the run. Idle analytics cores are
almost free capacity: raise compute_scaling (a heavier analysis) until the workflow is
idle-free, eta >= 0.95, without making the run more than 4% longer than with
compute_scaling = 50. The steps keep their length (the simulation sets it); only the last
analysis, which ends after the simulation (the pipeline's drain), gets longer.]],
      config = { ratio = 15 },
      goal = function(state)
        local p, m = state.params, state.model
        local before = situ.model(with(p, { compute_scaling = 50 })).makespan
        local ok = m.efficiency >= 0.95 and m.makespan <= 1.04 * before
        return ok, ("compute_scaling %g: eta %.3f, makespan %.1f s (%.1f s at 50)"):format(
          p.compute_scaling, m.efficiency, m.makespan, before)
      end,
      hint = {
        "Compare the two bars: how much of the analytics' time is idle?",
        "The analysis can grow by about its idle share: read it off the bars (t gives seconds).",
        last_resort = "compute_scaling near 50 divided by eta at compute_scaling 50; then e.",
      },
      solution = { compute_scaling = 69 },
    },
  },
}
