-- The sandbox every interpreter of Situ starts with unless --unsafe: what would let a script run
-- programs, load native code, touch the debug machinery or write outside the current directory is
-- replaced by a function that says so. Reading files stays allowed. Compiled into situ (engine/
-- script.c, chunk "sandbox"): editing the installed copy changes nothing, there is none.
-- Arguments: open_write (engine/lua/script.c: checks the path, opens without following a link), and
-- self_contained (analytics files: dofile, loadfile and require are refused).
local open_write, self_contained = ...
local function denied(name)
  return function() error(name .. ' is not available in the sandbox '
    .. '(--unsafe lifts it)', 2) end
end
for _, f in ipairs{'execute', 'exit', 'remove', 'rename', 'tmpname', 'getenv',
                   'setlocale'} do
  os[f] = denied('os.' .. f)
end
io.popen = denied('io.popen')
io.tmpfile = denied('io.tmpfile')
package.loadlib = denied('package.loadlib')
package.cpath = ''
local searchers = package.searchers
local function no_c_module(name)
  return '\n\tno C modules in the sandbox (--unsafe lifts it)'
end
searchers[3], searchers[4] = no_c_module, nil
debug, package.loaded.debug = nil, nil
local open, output, rawload, rawloadfile = io.open, io.output, load, loadfile
function io.open(path, mode)
  if mode ~= nil and type(mode) ~= 'string' then
    error("bad argument #2 to 'open' (string expected)", 2)
  end
  if mode and mode:find('[wa+]') and type(path) == 'string' then
    local f, why, code = open_write(path, mode)
    if f == false then error(why, 2) end
    return f, why, code
  end
  return open(path, mode)
end
function io.output(file)
  if type(file) == 'string' then
    local f, why = open_write(file, 'w')
    if not f then error(why, 2) end
    return output(f)
  end
  return output(file)
end
function load(chunk, name, mode, env)
  if env == nil then return rawload(chunk, name, 't') end
  return rawload(chunk, name, 't', env)
end
function loadfile(name, mode, env)
  if env == nil then return rawloadfile(name, 't') end
  return rawloadfile(name, 't', env)
end
function dofile(name)
  local f = assert(loadfile(name))
  return f()
end
string.dump = denied('string.dump')
if self_contained then
  local why = ' is refused in an analytics file: it must be self-contained, so that '
    .. 'results cached for its content cannot go stale through another file'
  local function refused(name)
    return function() error(name .. why, 2) end
  end
  dofile, loadfile, require = refused('dofile'), refused('loadfile'), refused('require')
  package.loaded._G.dofile = dofile
end
