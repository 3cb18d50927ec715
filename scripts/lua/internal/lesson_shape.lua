-- The shape of a lesson, checked in Lua where the error messages are easiest to write. Compiled
-- into situ (engine/scenario/lesson.c, chunk "lesson"). Arguments: the lesson file's value and its path;
-- returns the lesson table, checked.
local spec, path = ...
-- Captured here, from Situ's own copies of the libraries (engine/lua/sandbox.c), and never a
-- method call on a string: a lesson may replace string.format or the string metatable's
-- __index, and the messages below must still be Situ's. Tables are read raw (next, rawlen,
-- rawget), as engine/scenario/lesson.c reads them.
local error, format, next, tostring, type, ipairs = error, string.format, next, tostring, type,
  ipairs
local rawget, rawlen, mathtype = rawget, rawlen, math.type
local function fail(msg) error(path .. ': ' .. msg, 0) end
if type(spec) ~= 'table' then
  fail('a lesson returns a table {title = ..., steps = {...}}; this one returned '
    .. (spec == nil and 'nothing' or 'a ' .. type(spec)))
end
for k in next, spec do
  if k ~= 'title' and k ~= 'steps' and k ~= 'description' then
    fail(format('unknown field %q (a lesson has title, description, steps)', tostring(k)))
  end
end
if type(spec.title) ~= 'string' then fail('title must be a string') end
-- Raw, as engine/scenario/lesson.c reads the steps: a __len or __index of the file's own
-- cannot make this check see steps that the lesson does not have.
if type(spec.steps) ~= 'table' or rawlen(spec.steps) == 0 then
  fail('steps must be a non-empty list of steps')
end
local known = {text = true, config = true, goal = true, hint = true, solution = true,
  question = true, answer = true}
for i = 1, rawlen(spec.steps) do
  local st = rawget(spec.steps, i)
  local where = 'step ' .. i .. ': '
  if type(st) ~= 'table' then fail(where .. 'expected a table, got a ' .. type(st)) end
  for k in next, st do
    if not known[k] then
      fail(where .. format('unknown field %q (a step has text, config, goal, hint, '
        .. 'solution, question, answer)', tostring(k)))
    end
  end
  if type(st.text) ~= 'string' then fail(where .. 'text must be a string') end
  for _, k in ipairs{'config', 'solution'} do
    if st[k] ~= nil and type(st[k]) ~= 'table' then
      fail(where .. k .. ' must be a table of parameters')
    end
  end
  if st.goal ~= nil and type(st.goal) ~= 'function' then
    fail(where .. 'goal must be a function(state)')
  end
  for _, k in ipairs{'question', 'answer'} do
    if st[k] ~= nil and type(st[k]) ~= 'string' then
      fail(where .. k .. ' must be a string')
    end
  end
  if st.question ~= nil and st.goal == nil then
    fail(where .. 'a question needs a goal(state) that checks state.answer')
  end
  if st.answer ~= nil and st.question == nil then
    fail(where .. 'answer is the answer to the question, and there is none')
  end
  -- A graded hint may end in a last resort (hint = {"a nudge", last_resort = "..."}): the
  -- explorer asks before it shows it, since it may give the answer away.
  local h = st.hint
  local graded = type(h) == 'table' and rawlen(h) <= 4
    and (rawlen(h) >= 1 or rawget(h, 'last_resort') ~= nil)
  if graded then
    for k, v in next, h do
      if (mathtype(k) ~= 'integer' and k ~= 'last_resort') or type(v) ~= 'string' then
        graded = false
      end
    end
  end
  if h ~= nil and type(h) ~= 'string' and not graded then
    fail(where .. 'hint must be a string, or a list of 1 to 4 strings (a nudge first, '
      .. 'then more) and an optional last_resort = "..." (shown only on request)')
  end
end
return spec
