-- Checks what a simulation profile returned and fills in the defaults. Compiled into situ
-- (engine/lua/simulation.c, chunk "simulation"). Arguments: the file's value and its path;
-- returns {name, description, params, dims, periodic, particles, cost, halo, halo_period,
-- state} with every function present and each declared parameter checked for shape (the
-- parameter table checks names, ranges and defaults when it declares them).
local spec, path = ...
-- Captured here, from Situ's own copies of the libraries (engine/lua/sandbox.c), and never a
-- method call on a string: a profile may replace string.format or the string metatable's
-- __index, and the messages below must still be Situ's (as analytics_spec.lua). Tables are
-- walked and read raw (next, rawget), as C reads them: a __pairs or __index cannot hide a field.
local error, format, next, tostring, type, ipairs, rawget = error, string.format, next, tostring,
  type, ipairs, rawget
local tointeger = math.tointeger
local function fail(msg) error(path .. ': ' .. msg, 0) end
if type(spec) ~= 'table' then
  fail('a simulation profile returns a table {name = ..., cost = function(ctx) ... end, '
    .. '...}; this one returned ' .. (spec == nil and 'nothing' or 'a ' .. type(spec)))
end
local known = {name = true, description = true, params = true, decomposition = true,
               uses = true, particles = true, cost = true, halo = true, halo_period = true,
               state = true}
for k in next, spec do
  if not known[k] then
    fail(format('unknown field %q (a simulation profile has name, description, params, '
      .. 'decomposition, uses, particles, cost, halo, halo_period, state)', tostring(k)))
  end
end
local function get(t, k) return rawget(t, k) end
-- A list's items, raw, from 1 to the first nil (ipairs would call an __index).
local function items(t)
  local i = 0
  return function()
    i = i + 1
    local v = rawget(t, i)
    if v ~= nil then return i, v end
  end
end
if type(get(spec, 'name')) ~= 'string' or get(spec, 'name') == '' then
  fail('name must be a non-empty string')
end
if get(spec, 'description') ~= nil and type(get(spec, 'description')) ~= 'string' then
  fail('description must be a string')
end
for _, k in ipairs{'particles', 'cost', 'halo'} do
  if get(spec, k) == nil then fail(k .. ' is missing') end
end
local out = {name = get(spec, 'name'), description = get(spec, 'description') or '', params = {},
             uses = {}}

-- The built-in melt's parameters a profile reads (ctx.region, ...) are named in uses: the others
-- are not its parameters, so its ctx lacks them and the explorer offers no slider for them.
local melt = {region = true, sim_cost = true, halo_period = true}
local uses = get(spec, 'uses') or {}
if type(uses) ~= 'table' then fail('uses must be a list of names: region, sim_cost, halo_period') end
for i, name in items(uses) do
  if not melt[name] then
    fail(format('uses[%d]: %s is not a parameter of the built-in melt (region, sim_cost, '
      .. 'halo_period)', i, tostring(name)))
  end
  out.uses[#out.uses + 1] = name
end

local d = get(spec, 'decomposition') or {dims = 3, periodic = true}
if type(d) ~= 'table' then fail('decomposition must be a table {dims = 1|2|3, periodic = true|false}') end
for k in next, d do
  if k ~= 'dims' and k ~= 'periodic' then
    fail(format('decomposition: unknown field %q (dims, periodic)', tostring(k)))
  end
end
local dims, periodic = get(d, 'dims'), get(d, 'periodic')
if dims ~= 1 and dims ~= 2 and dims ~= 3 then
  fail('decomposition.dims must be 1, 2 or 3, not ' .. tostring(dims))
end
if periodic ~= nil and type(periodic) ~= 'boolean' then
  fail('decomposition.periodic must be true or false, not ' .. tostring(periodic))
end
out.dims, out.periodic = tointeger(dims), periodic ~= false

local ps = get(spec, 'params') or {}
if type(ps) ~= 'table' then fail('params must be a list of {name = ..., default = ..., ...}') end
local pknown = {name = true, default = true, min = true, max = true, unit = true, help = true,
                scale = true}
for i, p in items(ps) do
  local where = format('params[%d]', i)
  if type(p) ~= 'table' then fail(where .. ' must be a table {name = ..., default = ..., ...}') end
  for k in next, p do
    if not pknown[k] then
      fail(format('%s: unknown field %q (name, default, min, max, unit, help, scale)', where,
        tostring(k)))
    end
  end
  local pname = get(p, 'name')
  if type(pname) ~= 'string' then fail(where .. '.name must be a string') end
  for _, k in ipairs{'default', 'min', 'max'} do
    if type(get(p, k)) ~= 'number' then
      fail(format('%s (%s).%s must be a number', where, pname, k))
    end
  end
  for _, k in ipairs{'unit', 'help'} do
    if get(p, k) ~= nil and type(get(p, k)) ~= 'string' then
      fail(format('%s (%s).%s must be a string', where, pname, k))
    end
  end
  local scale, lo, hi = get(p, 'scale'), get(p, 'min'), get(p, 'max')
  if scale ~= nil and scale ~= 'log' and scale ~= 'linear' then
    fail(format('%s (%s).scale must be "log" or "linear"', where, pname))
  end
  out.params[i] = {name = pname, default = get(p, 'default'), min = lo, max = hi,
                   unit = get(p, 'unit') or '', help = get(p, 'help') or '',
                   log = scale == 'log' or (scale == nil and lo > 0 and hi >= 100 * lo)}
end

for _, k in ipairs{'particles', 'cost', 'halo', 'halo_period', 'state'} do
  local f = get(spec, k)
  if f == nil then
    f = k == 'halo_period' and 1 or 0
  end
  if type(f) == 'number' and k ~= 'halo' then
    local c = f
    f = function() return c end
  elseif type(f) == 'table' and k == 'halo' then
    local t = f
    f = function() return t end
  elseif type(f) ~= 'function' then
    fail(format('%s must be a function(ctx)%s, not a %s', k,
      k == 'halo' and ' or a table {x = B, y = B, z = B}' or ' or a number', type(f)))
  end
  out[k] = f
end
return out
