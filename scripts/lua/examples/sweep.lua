-- scripts/lua/examples/sweep.lua: ratio x nodes, simulated in parallel, as a table and a CSV.
-- situ script scripts/lua/examples/sweep.lua [OUT.csv]
local base = situ.params{ stride = 1000, compute_scaling = 50 }
local rs = situ.sweep{ base = base, ratio = { 7, 15, 31 }, nodes = { 1, 2, 4 } }

situ.table(rs, { "nodes", "ratio", "efficiency", "makespan", "sim_idle", "analytics_idle" })

-- The best ratio for each node count, by makespan.
local best = {}
for _, r in ipairs(rs) do
  local n = r.config.nodes
  if not best[n] or r.makespan < best[n].makespan then best[n] = r end
end
for _, n in ipairs{ 1, 2, 4 } do
  print(("%d node(s): ratio %d is fastest (%.1f s)"):format(n, best[n].config.ratio,
    best[n].makespan))
end

if arg[1] then
  print(("wrote %d rows to %s"):format(situ.csv(arg[1], rs), arg[1]))
end
