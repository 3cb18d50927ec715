-- scripts/lua/examples/crossover.lua: where in situ and in transit cross (the paper's Fig. 9).
-- situ script scripts/lua/examples/crossover.lua [run]
local base = situ.params{ nodes = 16, ratio = 15, analytics = "scatter", iterations = 2000 }

-- The makespans on a log grid of data scaling, with the model.
local rs = situ.sweep{ base = base, mapping = { "insitu", "intransit" },
                       data_scaling = { 1, 10, 100, 1000 }, model = true }
situ.table(rs, { "mapping", "data_scaling", "makespan", "efficiency", "scenario" })

local x, info = situ.crossover{ base = base, from = 1, to = 1000 }
print(("model: the mappings cross at data_scaling %.1f (%s below, %s above)"):format(
  x, info.below, info.above))

if arg[1] == "run" then -- the same search on SimGrid simulations (a few seconds)
  local y = situ.crossover{ base = base, from = 1, to = 1000, by = "run" }
  print(("simulation: they cross at data_scaling %.1f"):format(y))
end
