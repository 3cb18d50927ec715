"""The sandbox under attack, for tests/lua/isolation.py: a script, an analytics file, a lesson and
the explorer's helpers that first replace whatever the sandbox's own functions could call (every
global, every library function, the string metatable's __index) and then write outside the
current directory; bytecode handed to every way of loading code; code loaded from outside the
current directory and the script's, by '..', an absolute path or a symbolic link. Each must end
in a Lua error (exit 2), never a write, a load or a crash."""
import glob
import json
import os
import subprocess

# Replaces, one at a time, each global, each library function and the string metatable's __index
# by a liar (nothing, or for `type` a wrong answer), tries every way of writing OUT-TAG-* under it
# (caught: the file must not appear), puts it back; then all of them at once, and one write left
# uncaught: the error that must end the file. 4242 and 4243 are links in the current directory
# to files outside it (a number is a path to io.open).
ATTACK = r'''
local OUT = "@OUT@"
local pcall, pairs, type, setmetatable, getmetatable, tostring =
  pcall, pairs, type, setmetatable, getmetatable, tostring
local io_open, io_output = io.open, io.output
local G, smt, strlib = _G, getmetatable(""), string
local function liar(name)
  if name == "type" then -- the mode is a string, the path is not
    return function(v) if v == nil then return "nil" end
      return #tostring(v) <= 3 and "string" or "number" end
  end
  return function() end
end
local function try(tag)
  local p = OUT .. "-" .. tag
  pcall(function() local f = io_open(p .. "-w", "w") f:write("x") f:close() end)
  pcall(function() local f = io_open(p .. "-a", "a+") f:write("x") f:close() end)
  pcall(function() io_output(p .. "-o") end)
  pcall(function() local f = io_open(4242, "w") f:write("x") f:close() end)
  pcall(function() io_output(4243) end)
end
local tables = {}
for name, v in pairs(G) do
  if type(v) == "table" and name ~= "_G" then tables[name] = v end
end
local function each(fn)
  for name, v in pairs(G) do fn(G, name, name) end
  for lib, t in pairs(tables) do
    for name, v in pairs(t) do
      if type(v) == "function" then fn(t, name, lib .. "." .. name) end
    end
  end
end
local names = {}
each(function(t, k, tag) names[#names + 1] = {t, k, tag} end)
for _, n in pairs(names) do
  local t, k, tag = n[1], n[2], n[3]
  local keep = t[k]
  t[k] = type(keep) == "table" and {} or liar(k)
  try(tag)
  t[k] = keep
end
smt.__index = setmetatable({}, {__index = function(_, k) return liar(k) end})
try("string-metatable-table")
smt.__index = function(_, k) return liar(k) end
try("string-metatable-function")
smt.__index = strlib
for _, n in pairs(names) do
  local t, k = n[1], n[2]
  t[k] = type(t[k]) == "table" and {} or liar(k)
end
smt.__index = function(_, k) return liar(k) end
local f = io_open(OUT .. "-last", "w")
f:write("x")
f:close()
'''


def attack(out):
    return ATTACK.replace("@OUT@", out)


def written(out):
    """The files written at out-*, removed (they were not to be there)."""
    files = sorted(glob.glob(out + "*"))
    for f in files:
        os.remove(f)
    return files


def no_escape(p, out, what, words="the sandbox only writes inside the current directory"):
    files = written(out)
    assert not files, f"{what} wrote outside the current directory: {files}"
    assert p.returncode == 2, f"{what}: exit {p.returncode}: {p.stderr[:300]}"
    assert words in p.stderr.splitlines()[0], f"{what}: {p.stderr[:300]}"


def links(cwd, out):
    for n in ("4242", "4243"):
        link = os.path.join(cwd, n)
        if not os.path.islink(link):
            os.symlink(f"{out}-link{n}", link)


# One byte changed in a valid chunk: LOADK becomes GETUPVAL 250 of a function with one upvalue,
# which dereferences a pointer past the array (exit 139 when Lua runs it).
def bytecode(situ, d):
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "dump.lua"), "w") as f:
        f.write('local f = assert(io.open("mod.luac", "wb"))\n'
                'f:write(string.dump(load(\'local x = "abc" return x\'), true)) f:close()\n')
    p = situ("script", "--unsafe", "dump.lua", cwd=d)
    assert p.returncode == 0, f"string.dump: {p.stderr[:300]}"
    b = bytearray(open(os.path.join(d, "mod.luac"), "rb").read())
    i = b.find(bytes([3, 0, 0, 0]))  # LOADK 0 0
    assert b.startswith(b"\x1bLua") and i > 0, b
    b[i:i + 4] = bytes([9, 0, 250, 0])  # GETUPVAL 0 250
    with open(os.path.join(d, "mod.lua"), "wb") as f:
        f.write(b)


def said(p, ways, words):
    """Each way on its own line of stdout, followed by `refused`."""
    lines = dict(line.split("\t", 1) for line in p.stdout.splitlines() if "\t" in line)
    bad = {w: lines.get(w, "(nothing printed)") for w in ways if lines.get(w) != "refused"}
    assert not bad, f"not refused ({words}): {bad}; stderr {p.stderr[:300]}"


SAYS = r'''
local function says(what, words, f, ...)
  local ok, a, b = pcall(f, ...)
  local msg = tostring(ok and (a == nil and b or a) or a)
  print(what .. "\t" .. (msg:find(words, 1, true) and "refused" or "NOT refused: " .. msg))
end
'''

BYTECODE_WAYS = ("load", "load reader", "loadfile", "dofile", "searcher")


def checks(situ, tmp, pane):
    """(title, test) pairs; situ(*args, cwd=...) runs the binary, pane(*args) the explorer."""
    out = os.path.join("/tmp", f"situ-escape-{os.getpid()}")

    def write(path, text):
        with open(path, "w") as f:
            f.write(text)
        return path

    def replaced_script():
        links(tmp, out)
        path = write(os.path.join(tmp, "attack.lua"), attack(out))
        no_escape(situ("script", path), out, "situ script")

    def replaced_analytics():
        links(tmp, out)
        body = attack(out).replace("\n", "\n  ")
        path = write(os.path.join(tmp, "attack-analytics.lua"),
                     "return { name = 'attack', cost = function(ctx)\n  %s\n  return 1\nend }\n"
                     % body)
        for cmd in ("model", "run"):
            # io.open is refused in an analytics file whatever its mode (content_alone), so the
            # uncaught write that ends it is refused as such.
            no_escape(situ(cmd, "--analytics", path), out, f"situ {cmd} --analytics",
                      "io.open is refused in an analytics file")

    def replaced_lesson():
        links(tmp, out)
        path = write(os.path.join(tmp, "attack-lesson.lua"),
                     attack(out) + "return { title = 't', steps = { { text = 'a' } } }\n")
        no_escape(situ("lesson", path, "--headless"), out, "situ lesson --headless")

    def replaced_explorer():
        """The scenario host (situ __scenario) and the analytics evaluator (situ __evaluate)."""
        links(tmp, out)
        scen = write(os.path.join(tmp, "attack-panel.lua"), attack(out))
        an = write(os.path.join(tmp, "attack-eval.lua"),
                   "return { name = 'attack', cost = function(ctx)\n%s\nreturn 1\nend }\n"
                   % attack(out))
        try:
            t = pane("--script", scen, cols=300)  # the whole error on its line
            try:
                t.wait_for("the sandbox only writes inside the current directory")
            finally:
                t.close()
            t = pane("--analytics", an)
            try:
                t.wait_for("the analytics gives no numbers", timeout=30)
            finally:
                t.close()
        finally:
            files = written(out)
        assert not files, f"the explorer's helpers wrote outside: {files}"

    def bytecode_everywhere():
        d = os.path.join(tmp, "bytecode")
        bytecode(situ, d)
        path = write(os.path.join(d, "bc.lua"), SAYS + r'''
local bc = io.open("mod.lua", "rb"):read("a")
says("load", "binary chunk", load, bc)
local i = 0
says("load reader", "binary chunk", load, function()
  i = i + 1
  if i <= #bc then return bc:sub(i, i) end
end)
says("loadfile", "binary chunk", loadfile, "mod.lua")
says("dofile", "binary chunk", dofile, "mod.lua")
says("searcher", "binary chunk", package.searchers[2], "mod")
require "mod"
''')
        p = situ("script", path, cwd=d)
        said(p, BYTECODE_WAYS, "bytecode")
        assert p.returncode == 2 and "attempt to load a binary chunk" in p.stderr, \
            f"situ script: exit {p.returncode}: {p.stderr[:300]}"
        lesson = write(os.path.join(d, "bc-lesson.lua"),
                       'require "mod"\nreturn { title = "t", steps = { { text = "a" } } }\n')
        p = situ("lesson", lesson, "--headless", cwd=d)
        assert p.returncode == 2 and "attempt to load a binary chunk" in p.stderr, \
            f"situ lesson: exit {p.returncode}: {p.stderr[:300]}"
        an = write(os.path.join(d, "bc-analytics.lua"),
                   'package.searchers[2]("mod")()\nreturn { name = "x" }\n')
        p = situ("model", "--analytics", an, cwd=d)
        assert p.returncode == 2 and "require is refused" in p.stderr, \
            f"analytics: exit {p.returncode}: {p.stderr[:300]}"

    def code_stays_inside():
        proj, outside = os.path.join(tmp, "proj"), os.path.join(tmp, "outside")
        for d in (proj, outside, os.path.join(proj, "sub"), os.path.join(tmp, "elsewhere")):
            os.makedirs(d, exist_ok=True)
        write(os.path.join(outside, "evil.lua"), 'return "evil"\n')
        write(os.path.join(proj, "sub", "ok.lua"), "return 7\n")
        write(os.path.join(proj, "ok2.lua"), "return 8\n")
        for name, target in (("link.lua", os.path.join(outside, "evil.lua")),
                             ("linkdir", outside)):
            if not os.path.islink(os.path.join(proj, name)):
                os.symlink(target, os.path.join(proj, name))
        evil = os.path.join(outside, "evil.lua")
        words = "the sandbox loads code only from"
        text = SAYS + f'''
says("dofile ..", "{words}", dofile, "../outside/evil.lua")
says("dofile absolute", "{words}", dofile, "{evil}")
says("dofile link", "{words}", dofile, "link.lua")
says("loadfile ..", "{words}", loadfile, "sub/../../outside/evil.lua")
says("loadfile link dir", "{words}", loadfile, "linkdir/evil.lua")
says("loadfile stdin", "not standard input", loadfile)
says("dofile stdin", "not standard input", dofile)
says("require link dir", "{words}", require, "linkdir.evil")
package.path = "../outside/?.lua;" .. package.path
says("require ..", "{words}", require, "evil")
print("inside", dofile("sub/../sub/ok.lua"), (require "ok2"))
dofile("link.lua")
'''
        write(os.path.join(proj, "t.lua"), text)
        last = text.splitlines().index('dofile("link.lua")') + 1
        ways = ("dofile ..", "dofile absolute", "dofile link", "loadfile ..", "loadfile link dir",
                "loadfile stdin", "dofile stdin", "require link dir", "require ..")
        p = situ("script", "t.lua", cwd=proj)
        said(p, ways, "code from outside")
        assert "inside\t7\t8" in p.stdout, p.stdout
        first = p.stderr.splitlines()[0] if p.stderr else ""
        assert p.returncode == 2 and first.startswith(f"situ: t.lua:{last}: 'link.lua': {words}"), \
            f"exit {p.returncode}: {p.stderr[:300]}"
        # Run from another directory: the script's own directory still holds code, the current
        # directory too, and nothing else.
        path = write(os.path.join(proj, "t2.lua"), SAYS + f'''
print("beside", (require "ok2"))
says("cwd-relative ..", "{words}", dofile, "../outside/evil.lua")
''')
        p = situ("script", path, cwd=os.path.join(tmp, "elsewhere"))
        said(p, ("cwd-relative ..",), "code from outside")
        assert p.returncode == 0 and "beside\t8" in p.stdout, f"{p.returncode}: {p.stderr}"

    def own_checks_keep_theirs():
        """Situ's own Lua (the checks of analytics and lesson files) runs with the globals the
        sandbox built, not the file's: a file that replaces them still loads as written."""
        tamper = ("type = function() return 'table' end\n"
                  "pairs = function() return function() end end\nipairs = pairs\n"
                  "error = function() end\ntostring = function() return '' end\n")
        an = write(os.path.join(tmp, "tamper-analytics.lua"), tamper +
                   "return { name = 'tamper', cost = function(ctx)\n"
                   "  return ctx.particles * ctx.analytics_cost * ctx.compute_scaling * 2 end }\n")
        base = situ("model", "--json", "--nodes", "2")
        mine = situ("model", "--json", "--nodes", "2", "--analytics", an)
        assert base.returncode == 0 and mine.returncode == 0, mine.stderr[:300]
        a, b = json.loads(base.stdout), json.loads(mine.stdout)
        assert b["config"]["analytics"] == an, b["config"].get("analytics")
        assert b["stage"]["A"] > 1.9 * a["stage"]["A"], (a["stage"], b["stage"])
        lesson = write(os.path.join(tmp, "tamper-lesson.lua"), tamper +
                       "return { title = 'tampered', steps = { { text = 'first' },\n"
                       "  { text = 'second', config = { ratio = 7 } } } }\n")
        p = situ("lesson", lesson, "--headless")
        assert p.returncode == 0 and "second" in p.stdout, f"{p.returncode}: {p.stderr[:300]}"

    def content_alone():
        """A helper read by io.open / io.lines / io.input and handed to load would change the
        results with the file's content unchanged, and so would the clock: the disk cache would
        then answer with results of another helper or another day."""
        d = os.path.join(tmp, "content")
        os.makedirs(d, exist_ok=True)
        write(os.path.join(d, "helper.txt"), "return 1e-7\n")
        for way, code in (("io.open", 'load(io.open("helper.txt"):read("a"))()'),
                          ("io.lines", 'io.lines("helper.txt")()'),
                          ("io.input with a file name", 'io.input("helper.txt")'),
                          ("os.time", "os.time()"), ("os.clock", "os.clock()"),
                          ("os.date", "os.date()"), ("math.randomseed", "math.randomseed(1)")):
            an = write(os.path.join(d, "a.lua"),
                       "return { name = 'x', cost = function(ctx) local v = %s return 1e-7 end }\n"
                       % code)
            for cmd in ("model", "run"):
                p = situ(cmd, "--analytics", an, "--iterations", "80", "--stride", "40", cwd=d)
                assert p.returncode == 2 and len(p.stderr.splitlines()) == 1 and \
                    f"a.lua:1: {way} is refused in an analytics file" in p.stderr, \
                    f"{way}, situ {cmd}: exit {p.returncode}: {p.stderr[:300]}"
        an = write(os.path.join(d, "r.lua"), "local x = math.random()\n"
                   "return { name = 'r', cost = function(ctx) return 1e-7 * (1 + x) end }\n")
        spans = {json.loads(situ("model", "--analytics", an, "--json", cwd=d).stdout)["makespan"]
                 for _ in range(3)}
        assert len(spans) == 1, f"math.random differs between evaluations: {spans}"

    return [
        ("sandbox: replaced globals and string methods cannot write outside (situ script)",
         replaced_script),
        ("sandbox: ... (an analytics file: situ model, situ run)", replaced_analytics),
        ("sandbox: ... (a lesson: situ lesson --headless)", replaced_lesson),
        ("sandbox: ... (the explorer's scenario host and analytics evaluator)",
         replaced_explorer),
        ("sandbox: bytecode is refused by every way of loading code, never a crash",
         bytecode_everywhere),
        ("sandbox: code loads only from the current directory and the script's",
         code_stays_inside),
        ("sandbox: a file that replaces globals still loads as written", own_checks_keep_theirs),
        ("sandbox: an analytics file's numbers come from its content alone (no file read, no "
         "clock, the same random numbers)", content_alone),
    ]
