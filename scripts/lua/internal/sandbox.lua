-- The sandbox every interpreter of Situ starts with unless --unsafe: what would let a script run
-- programs, load native code or bytecode, touch the debug machinery, write outside the current
-- directory or load code from outside its directories is replaced. Reading files stays allowed.
-- Compiled into situ (engine/lua/sandbox.c, chunk "sandbox"): editing the installed copy changes
-- nothing, there is none.
-- Built once, before any user code: everything the functions below call is captured here as a
-- local, then _ENV is nil, so no global is looked up at call time (one would be an error). The
-- checks are C closures (engine/lua/sandbox.c) that hold what they call. User code then gets
-- its own copy of the globals.
-- Arguments: the checked functions (open, output, load, loadfile, dofile, require, searcher:
-- require's Lua searcher), and self_contained: nil, or what the file is in messages ("an
-- analytics file", "a simulation profile file"), whose dofile, loadfile, require, reading files
-- or standard input and the clock are refused, and whose random numbers are seeded the same at
-- every evaluation. Returns then the function that seeds them (script_pcall calls it before each
-- evaluation), nothing otherwise.
local checked, self_contained = ...
local G, error, ipairs, type = _G, error, ipairs, type
local os, io, package, string, math = os, io, package, string, math
G.debug, package.loaded.debug = nil, nil
local _ENV = nil -- from here on, a global is an error

local function denied(name)
  local msg = name .. ' is not available in the sandbox (--unsafe lifts it)'
  return function() error(msg, 2) end
end
for _, f in ipairs{'execute', 'exit', 'remove', 'rename', 'tmpname', 'getenv',
                   'setlocale'} do
  os[f] = denied('os.' .. f)
end
io.popen = denied('io.popen')
io.tmpfile = denied('io.tmpfile')
package.loadlib = denied('package.loadlib')
string.dump = denied('string.dump')

io.open, io.output = checked.open, checked.output
G.load, G.loadfile, G.dofile = checked.load, checked.loadfile, checked.dofile
G.require = checked.require -- Lua's, once the name is whole C text (no NUL byte)
-- require: package.preload, then Lua source found on package.path inside the sandbox (the
-- current directory; the script's is added in front when it is known), never a C module.
package.cpath = ''
package.path = './?.lua;./?/init.lua'
local searchers = package.searchers
searchers[2] = checked.searcher
searchers[3] = function() return 'no C modules in the sandbox (--unsafe lifts it)' end
searchers[4] = nil

if self_contained then
  local why = ' is refused in ' .. self_contained .. ': it must be self-contained, so that '
    .. 'results cached for its content cannot go stale through another file or the clock'
  local function refused(name)
    local msg = name .. why
    return function() error(msg, 2) end
  end
  G.dofile, G.loadfile, G.require = refused('dofile'), refused('loadfile'), refused('require')
  searchers[2] = refused('require')
  -- Nothing but the file's content may decide its numbers: no file read (a file read and handed
  -- to load is a helper file by another name; standard input is /dev/null here, set by
  -- script_redirect_io through io.input with a handle), no clock, and the same random numbers
  -- at every evaluation (Lua 5.4 seeds them randomly at start).
  io.open, io.lines = refused('io.open'), refused('io.lines')
  local input, input_why = io.input, 'io.input with a file name' .. why
  io.input = function(file)
    if type(file) == 'string' then error(input_why, 2) end
    return input(file)
  end
  for _, f in ipairs{'time', 'clock', 'date'} do
    os[f] = refused('os.' .. f)
  end
  local randomseed = math.randomseed
  local function reseed() randomseed(0x5174) end
  reseed()
  math.randomseed = refused('math.randomseed')
  return reseed
end
