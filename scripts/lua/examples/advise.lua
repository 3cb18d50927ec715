-- scripts/lua/examples/advise.lua: the paper's Fig. 8 question, by eta and by balance.
-- situ script scripts/lua/examples/advise.lua [VERIFY]
-- For the (stride 1000, analytics cost x50) workflow on 1 to 8 nodes, which ratio? eta and the
-- sweet spot (balance: both components busy, and alike) may not agree; SimGrid checks the best.
local verify = tonumber(arg[1] or "1")
local question = { stride = 1000, compute_scaling = 50, ratio = { 1, 3, 7, 15, 31 },
                   nodes = "1..8", verify = verify }

local best = {}
for _, objective in ipairs{ "efficiency", "balance" } do
  question.objective = objective
  local rs = situ.advise(question)
  local c = rs[1]
  best[objective] = c
  print(("%-10s best of %d: ratio %2d on %d node(s), %s %.3f by the model%s"):format(
    objective, rs.n, c.config.ratio, c.config.nodes, objective, c.model.objective,
    c.simgrid and (", %.3f by SimGrid"):format(c.simgrid.objective) or ""))
end

local e, b = best.efficiency.config, best.balance.config
if e.ratio ~= b.ratio or e.nodes ~= b.nodes then
  print(("eta prefers ratio %d on %d node(s), the sweet spot ratio %d on %d: the paper's " ..
         "contradiction"):format(e.ratio, e.nodes, b.ratio, b.nodes))
else
  print("eta and the sweet spot agree here")
end
