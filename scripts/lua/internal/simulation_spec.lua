-- Checks what a simulation profile returned and fills in the defaults. Compiled into situ
-- (engine/lua/simulation.c, chunk "simulation"). Arguments: the file's value and its path;
-- returns {name, description, params, dims, periodic, particles, cost, halo, halo_period,
-- state} with every function present and each declared parameter checked for shape (the
-- parameter table checks names, ranges and defaults when it declares them).
local spec, path = ...
local function fail(msg) error(path .. ': ' .. msg, 0) end
if type(spec) ~= 'table' then
  fail('a simulation profile returns a table {name = ..., cost = function(ctx) ... end, '
    .. '...}; this one returned ' .. (spec == nil and 'nothing' or 'a ' .. type(spec)))
end
local known = {name = true, description = true, params = true, decomposition = true,
               particles = true, cost = true, halo = true, halo_period = true, state = true}
for k in pairs(spec) do
  if not known[k] then
    fail(('unknown field %q (a simulation profile has name, description, params, '
      .. 'decomposition, particles, cost, halo, halo_period, state)'):format(tostring(k)))
  end
end
if type(spec.name) ~= 'string' or spec.name == '' then
  fail('name must be a non-empty string')
end
if spec.description ~= nil and type(spec.description) ~= 'string' then
  fail('description must be a string')
end
for _, k in ipairs{'particles', 'cost', 'halo'} do
  if spec[k] == nil then fail(k .. ' is missing') end
end
local out = {name = spec.name, description = spec.description or '', params = {}}

local d = spec.decomposition or {dims = 3, periodic = true}
if type(d) ~= 'table' then fail('decomposition must be a table {dims = 1|2|3, periodic = true|false}') end
for k in pairs(d) do
  if k ~= 'dims' and k ~= 'periodic' then
    fail(('decomposition: unknown field %q (dims, periodic)'):format(tostring(k)))
  end
end
if d.dims ~= 1 and d.dims ~= 2 and d.dims ~= 3 then
  fail('decomposition.dims must be 1, 2 or 3, not ' .. tostring(d.dims))
end
if d.periodic ~= nil and type(d.periodic) ~= 'boolean' then
  fail('decomposition.periodic must be true or false, not ' .. tostring(d.periodic))
end
out.dims, out.periodic = math.tointeger(d.dims), d.periodic ~= false

local ps = spec.params or {}
if type(ps) ~= 'table' then fail('params must be a list of {name = ..., default = ..., ...}') end
local pknown = {name = true, default = true, min = true, max = true, unit = true, help = true,
                scale = true}
for i, p in ipairs(ps) do
  local where = ('params[%d]'):format(i)
  if type(p) ~= 'table' then fail(where .. ' must be a table {name = ..., default = ..., ...}') end
  for k in pairs(p) do
    if not pknown[k] then
      fail(('%s: unknown field %q (name, default, min, max, unit, help, scale)')
        :format(where, tostring(k)))
    end
  end
  if type(p.name) ~= 'string' then fail(where .. '.name must be a string') end
  for _, k in ipairs{'default', 'min', 'max'} do
    if type(p[k]) ~= 'number' then
      fail(('%s (%s).%s must be a number'):format(where, p.name, k))
    end
  end
  for _, k in ipairs{'unit', 'help'} do
    if p[k] ~= nil and type(p[k]) ~= 'string' then
      fail(('%s (%s).%s must be a string'):format(where, p.name, k))
    end
  end
  if p.scale ~= nil and p.scale ~= 'log' and p.scale ~= 'linear' then
    fail(('%s (%s).scale must be "log" or "linear"'):format(where, p.name))
  end
  out.params[i] = {name = p.name, default = p.default, min = p.min, max = p.max,
                   unit = p.unit or '', help = p.help or '',
                   log = p.scale == 'log' or (p.scale == nil and p.min > 0 and p.max >= 100 * p.min)}
end

for _, k in ipairs{'particles', 'cost', 'halo', 'halo_period', 'state'} do
  local f = spec[k]
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
    fail(('%s must be a function(ctx)%s, not a %s'):format(k,
      k == 'halo' and ' or a table {x = B, y = B, z = B}' or ' or a number', type(f)))
  end
  out[k] = f
end
return out
