-- scripts/lua/examples/quickstart.lua: one configuration, the model and one simulation.
-- situ script scripts/lua/examples/quickstart.lua
local cfg = situ.params{ ratio = 15, stride = 200, compute_scaling = 10, iterations = 2000 }
print("particles per analysis:", situ.model(cfg).particles)

local m = situ.model(cfg)    -- instant: the analytic model
local r = situ.run(cfg)      -- a SimGrid simulation in a child process
print(("model: makespan %.2f s, efficiency %.3f, %s"):format(m.makespan, m.efficiency, m.scenario))
print(("run:   makespan %.2f s, efficiency %.3f, %s"):format(r.makespan, r.efficiency, r.scenario))
print(("A per step: model %.3f s, simulated %.3f s"):format(m.stage.A, r.stage.A))
situ.table({ m, r }, { "makespan", "efficiency", "stage.S", "stage.A", "scenario" })
