-- scripts/lua/examples/analytics.lua: compare analytics on one configuration.
-- situ script scripts/lua/examples/analytics.lua
local here = arg[0]:match("(.*/)") or "./"
local mine = here .. "analytics/sampled.lua"

for _, name in ipairs{ "", "thermo", "histogram", "scatter", mine } do
  local cfg = situ.params{ nodes = 4, analytics = name }
  local a = situ.analytics(cfg)   -- what one analysis costs and moves
  local m = situ.model(cfg)
  local label = name == "" and "(built-in)" or a.name
  print(("%-10s cost %8.3f s  bytes %10.4g  exchange %-9s %8.0f B  A %.4f s  eta %.3f"):format(
    label, a.cost, a.bytes, a.exchange.pattern, a.exchange.bytes, m.stage.A, m.efficiency))
end
