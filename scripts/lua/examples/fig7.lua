-- scripts/lua/examples/fig7.lua: the paper's Fig. 7, four (stride, cost) pairs with the same
-- amount of analysis, two ratios, 1 to 8 nodes. The model by default; `run` simulates them.
-- situ script scripts/lua/examples/fig7.lua [run] [OUT.csv]
local simulate = arg[1] == "run"
local results = {}
for _, pair in ipairs{ { 20, 1 }, { 200, 10 }, { 500, 25 }, { 1000, 50 } } do
  local base = situ.params{ stride = pair[1], compute_scaling = pair[2] }
  local rs = situ.sweep{ base = base, ratio = { 15, 31 }, nodes = { 1, 2, 4, 8 },
                         model = not simulate }
  for _, r in ipairs(rs) do results[#results + 1] = r end
end
situ.table(results, { "stride", "compute_scaling", "ratio", "nodes", "efficiency", "makespan" })
if arg[2] then situ.csv(arg[2], results) end
