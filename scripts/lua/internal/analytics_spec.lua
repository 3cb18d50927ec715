-- Checks what an analytics file returned and fills in the defaults, which are the built-in's
-- formulas (wrk writes its defaults in Lua too). Compiled into situ (engine/lua/analytics.c, chunk
-- "analytics"). Arguments: the file's value and its path; returns {name, description, cost, bytes,
-- exchange} with every function present.
local spec, path = ...
-- Captured here, from Situ's own copies of the libraries (engine/lua/sandbox.c), and never a
-- method call on a string: a file may replace string.format or the string metatable's __index,
-- and the messages below must still be Situ's. Keys are walked raw (next), as C reads them.
local error, format, next, tostring, type, ipairs = error, string.format, next, tostring, type,
  ipairs
local huge = math.huge
local function fail(msg) error(path .. ': ' .. msg, 0) end
if type(spec) ~= 'table' then
  fail('an analytics file returns a table {name = ..., cost = function(ctx) ... end, '
    .. '...}; this one returned ' .. (spec == nil and 'nothing' or 'a ' .. type(spec)))
end
local known = {name = true, description = true, cost = true, bytes = true,
               exchange = true}
for k in next, spec do
  if not known[k] then
    fail(format('unknown field %q (an analytics has name, description, cost, bytes, '
      .. 'exchange)', tostring(k)))
  end
end
if type(spec.name) ~= 'string' or spec.name == '' then
  fail('name must be a non-empty string')
end
if spec.description ~= nil and type(spec.description) ~= 'string' then
  fail('description must be a string')
end
local defaults = {
  cost = function(ctx)
    return ctx.particles * ctx.analytics_cost * ctx.compute_scaling
  end,
  bytes = function(ctx) return ctx.particles * ctx.data_size * ctx.data_scaling end,
  exchange = function(ctx) return {pattern = 'none', bytes = 0} end,
}
local out = {name = spec.name, description = spec.description or ''}
for _, k in ipairs{'cost', 'bytes', 'exchange'} do
  local f = spec[k]
  if f == nil then
    f = defaults[k]
  elseif type(f) == 'number' and k ~= 'exchange' then
    if f ~= f or f < 0 or f == huge then
      fail(k .. ' must be a finite number >= 0, not ' .. tostring(f))
    end
    local c = f
    f = function() return c end
  elseif type(f) == 'table' and k == 'exchange' then
    local t = f
    f = function() return t end
  elseif type(f) ~= 'function' then
    fail(format('%s must be a function(ctx)%s, not a %s', k,
      k == 'exchange' and ' or a table' or ' or a number', type(f)))
  end
  out[k] = f
end
return out
