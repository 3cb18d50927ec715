#!/usr/bin/env python3
"""Lua tests: custom analytics, scenarios (`situ script`), lessons and the sandbox, through the
real binary. Usage: python3 tests/lua/run.py ./situ

Covers every function of the `situ` module, every error path (syntax, runtime, wrong return
types, endless loop, memory bomb, sandbox escapes), that the Lua thermo gives exactly the
built-in's results, that scatter has an in-situ/in-transit crossover, the exchange patterns in
the model and the engine, the three lessons headless, every example script in the repo, and
that docs/lua.md shows the example files as they are. Ends with 'lua: N passed, M failed'."""
import glob
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import suite  # noqa: E402

SITU = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "./situ")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TMP = tempfile.mkdtemp(prefix="situ-lua.")
passed, failed = 0, 0


def situ(*args, cwd=None, timeout=120, env=None):
    return subprocess.run([SITU, *args], capture_output=True, text=True, timeout=timeout,
                          cwd=cwd or TMP, env=dict(os.environ, **(env or {})))


def write(name, text):
    path = os.path.join(TMP, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    return path


def script(text, *args, name="t.lua", opts=(), timeout=120, env=None):
    """Runs a scenario from text in TMP; returns the completed process."""
    write(name, text)
    return situ("script", *opts, name, *args, timeout=timeout, env=env)


def ok(p, what="situ"):
    if p.returncode != 0:
        raise AssertionError(f"{what}: exit {p.returncode}: {p.stderr.strip()[:400]}")
    return p


def lua_error(p, where, message, code=2, traceback=None):
    """Exit code, one line 'situ: WHERE: ...message...' first, nothing on stdout past prints."""
    if p.returncode != code:
        raise AssertionError(f"exit {p.returncode}, expected {code}: {p.stderr.strip()[:300]}")
    lines = p.stderr.splitlines()
    if not lines or not lines[0].startswith(f"situ: {where}"):
        raise AssertionError(f"first stderr line {lines[:1]} does not start with 'situ: {where}'")
    if message not in lines[0]:
        raise AssertionError(f"'{message}' not in {lines[0]!r}")
    if traceback is True and "stack traceback:" not in p.stderr:
        raise AssertionError("no traceback")
    if traceback is False and len(lines) != 1:
        raise AssertionError(f"expected one line, got {len(lines)}: {p.stderr[:300]}")


def check(name, fn):
    global passed, failed
    if not suite.selected(name):  # CASE=PATTERN (tests/suite.py)
        return
    t0 = time.time()
    try:
        fn()
        passed += 1
        print(f"ok   {name} ({time.time() - t0:.1f} s)")
    except Exception as e:  # a failed check names itself and goes on
        failed += 1
        print(f"FAIL {name}: {str(e)[:600]}")


def model(*args):
    return json.loads(ok(situ("model", "--json", *args)).stdout)


def run(*args):
    return json.loads(ok(situ("run", "--json", *args)).stdout)


def close(a, b, tol, what):
    if abs(a - b) > tol * max(abs(a), abs(b)):
        raise AssertionError(f"{what}: {a:.6g} vs {b:.6g} (more than {100 * tol:g}% apart)")


def strip(r, *keys):
    r = dict(r)
    for k in ("wall_seconds",) + keys:
        r.pop(k, None)
    return r


# A helper every scenario below can use: results as JSON on stdout, one per line.
JSON_LUA = r'''
local function encode(v)
  local t = type(v)
  if t == "table" then
    if #v > 0 or next(v) == nil then
      local out = {}
      for i, x in ipairs(v) do out[i] = encode(x) end
      return "[" .. table.concat(out, ",") .. "]"
    end
    local keys = {}
    for k in pairs(v) do keys[#keys + 1] = k end
    table.sort(keys)
    local out = {}
    for _, k in ipairs(keys) do out[#out + 1] = string.format("%q:%s", k, encode(v[k])) end
    return "{" .. table.concat(out, ",") .. "}"
  elseif t == "string" then
    return string.format("%q", v)
  elseif t == "number" then
    if math.type(v) == "integer" then return tostring(v) end
    if v ~= v then return '"nan"' end
    return string.format("%.17g", v)
  elseif t == "nil" then
    return "null"
  end
  return tostring(v)
end
function emit(v) print(encode(v)) end
'''


def emitted(p):
    return [json.loads(line) for line in ok(p).stdout.splitlines() if line.strip()]


# --- custom analytics ---------------------------------------------------------------------

BAD_ANALYTICS = {  # file body, line expected in the message, words expected in it
    "string": ('return {\n  name = "s",\n  cost = function(ctx)\n    return "abc"\n  end,\n}\n',
               3, 'cost returned the string "abc"'),
    "negative": ('return {\n  name = "n",\n  cost = function(ctx) return -1 end,\n}\n', 3,
                 "cost returned -1"),
    "nan": ('return {\n  name = "x",\n  bytes = function(ctx) return 0/0 end,\n}\n', 3,
            "bytes returned NaN"),
    "inf": ('return {\n  name = "x",\n  bytes = function(ctx) return math.huge end,\n}\n', 3,
            "bytes returned inf"),
    "nothing": ('return {\n  name = "x",\n  cost = function(ctx) end,\n}\n', 3,
                "cost returned nothing"),
    "pattern": ('return {\n  name = "x",\n  exchange = function(ctx)\n'
                '    return { pattern = "broadcast", bytes = 1 }\n  end,\n}\n', 3,
                "pattern is the string \"broadcast\""),
    "exchange bytes": ('return {\n  name = "x",\n  exchange = function(ctx)\n'
                       '    return { pattern = "allreduce" }\n  end,\n}\n', 3,
                       "exchange(ctx).bytes returned nothing"),
    "runtime": ('return {\n  name = "x",\n  cost = function(ctx)\n'
                '    return ctx.particles * nil\n  end,\n}\n', 4, "arithmetic on a nil value"),
    "ctx typo": ('return {\n  name = "x",\n  cost = function(ctx)\n    return ctx.particle\n'
                 '  end,\n}\n', 4, "ctx.particle: no such field"),
    "syntax": ('return {\n  name = "x"\n  cost = 1,\n}\n', 3, "'}' expected"),
    "sandbox": ('return {\n  name = "x",\n  cost = function(ctx)\n    os.execute("true")\n'
                '    return 1\n  end,\n}\n', 4, "os.execute is not available"),
    "endless loop": ('return {\n  name = "x",\n  cost = function(ctx)\n    while true do end\n'
                     '  end,\n}\n', 4, "stopped after 100000000 instructions"),
    "memory bomb": ('local t = {}\nreturn {\n  name = "x",\n  cost = function(ctx)\n'
                    '    for i = 1, 1e9 do t[i] = string.rep("y", 1e6) .. i end\n  end,\n}\n',
                    4, "out of memory: over the limit of 64 MiB"),
}


def bad_analytics(kind):
    body, line, words = BAD_ANALYTICS[kind]

    def test():
        path = write(f"bad_{kind.replace(' ', '_')}.lua", body)
        # `situ run` checks with the model first: once is enough for the slow ones.
        for cmd in ("model",) if kind in ("endless loop", "memory bomb") else ("model", "run"):
            lua_error(situ(cmd, "--analytics", path), f"{path}:{line}:", words, 2, False)
    return test


def bad_shape():
    path = write("shape.lua", 'return {\n  name = "x",\n  coast = 1,\n}\n')
    lua_error(situ("model", "--analytics", path), f"{path}: unknown field \"coast\"", "", 2,
              False)
    path = write("shape2.lua", "return 42\n")
    lua_error(situ("model", "--analytics", path), f"{path}: an analytics file returns a table",
              "returned a number", 2, False)
    lua_error(situ("model", "--analytics", "nosuch"), "analytics: no analytics named 'nosuch'",
              "scatter", 2, False)


THERMO_CONFIGS = [
    [],
    ["--nodes", "4", "--mapping", "intransit", "--ratio", "7"],
    ["--compute-scaling", "10", "--data-scaling", "100", "--stride", "200", "--dtl", "queue"],
    ["--region", "37", "--analytics-cost", "3.3e-7", "--data-size", "64", "--nodes", "3"],
]


def thermo_model():
    for args in THERMO_CONFIGS:
        a, b = model(*args), model(*args, "--analytics", "thermo")
        assert b["config"]["analytics"] == "thermo"
        a.pop("config"), b.pop("config")
        assert a == b, f"{args}: {[k for k in a if a[k] != b[k]]} differ"


def thermo_run():
    for args in (["--iterations", "400", "--nodes", "2"],
                 ["--iterations", "400", "--nodes", "2", "--fidelity", "full"],
                 ["--iterations", "400", "--nodes", "3", "--mapping", "intransit", "--ratio", "3"]):
        a = run(*args)
        b = run(*args, "--analytics", "thermo")
        # Else the comparison below could be of the built-in with itself.
        assert b["config"]["analytics"] == "thermo", f"{args}: ran {b['config']['analytics']!r}"
        a, b = strip(a, "config"), strip(b, "config")
        assert a == b, f"{args}: {[k for k in a if a[k] != b[k]]} differ"


def scatter_crossover():
    base = ["--nodes", "16", "--ratio", "15", "--analytics", "scatter"]
    ms = {(m, ds): model(*base, "--mapping", m, "--data-scaling", ds)["makespan"]
          for m in ("insitu", "intransit") for ds in ("1", "10", "100", "1000")}
    assert ms["insitu", "1"] > 2 * ms["intransit", "1"], ms
    assert ms["insitu", "10"] > ms["intransit", "10"], ms
    assert ms["insitu", "100"] < ms["intransit", "100"] / 4, ms
    assert ms["insitu", "1000"] < ms["intransit", "1000"] / 20, ms
    # Scattered over more nodes, the in-situ analysis gets slower (though it has more cores).
    a = [model("--nodes", n, "--analytics", "scatter")["stage"]["A"] for n in ("4", "8", "16")]
    assert a[0] < a[1] < a[2], a


def scatter_crossover_run():
    base = ["--nodes", "16", "--ratio", "15", "--analytics", "scatter", "--iterations", "1000"]
    for ds, faster in (("1", "intransit"), ("100", "insitu")):
        r = {m: run(*base, "--mapping", m, "--data-scaling", ds)["makespan"]
             for m in ("insitu", "intransit")}
        assert min(r, key=r.get) == faster, f"data_scaling {ds}: {r}"


def exchange_patterns():
    for pattern in ("allreduce", "allgather", "gather"):
        path = write(f"x_{pattern}.lua", f'return {{ name = "{pattern}", exchange = '
                     f'function(ctx) return {{ pattern = "{pattern}", bytes = 4e6 }} end }}\n')
        args = ["--nodes", "8", "--ratio", "7", "--iterations", "400", "--analytics", path]
        m, plain = model(*args), model(*args[:-2])
        assert m["stage"]["A"] > plain["stage"]["A"] + 1e-3, f"{pattern}: no exchange time in A"
        r = run(*args)
        close(r["makespan"], m["makespan"], 0.10, f"{pattern} makespan run vs model")
        c = r["conservation"]
        assert c["puts"] == c["gets"] == c["analyses"] == r["sim_cores"] * r["steps"], c
        net = sum(l["bytes"] for l in r["links"] if not l["name"].endswith("loopback"))
        base = sum(l["bytes"] for l in run(*args[:-2])["links"]
                   if not l["name"].endswith("loopback"))
        assert net > base + 4e6 * r["steps"], f"{pattern}: exchange bytes not on the links"
        # One analytics node: nothing to exchange.
        one = ["--nodes", "4", "--mapping", "intransit", "--ratio", "3", "--analytics", path]
        assert model(*one)["stage"]["A"] == model(*one[:-2])["stage"]["A"]


def exchange_full_fidelity():
    path = write("x_full.lua", 'return { name = "g", exchange = { pattern = "allgather", '
                 'bytes = 2e6 } }\n')
    args = ["--nodes", "4", "--ratio", "7", "--iterations", "400", "--analytics", path]
    fast, full = run(*args), run(*args, "--fidelity", "full")
    close(full["makespan"], fast["makespan"], 0.02, "full vs fast")


def step_dependent():
    path = write("spiky.lua", 'return { name = "spiky", cost = function(ctx)\n'
                 '  local base = ctx.particles * ctx.analytics_cost * ctx.compute_scaling\n'
                 '  return ctx.step % 10 == 9 and 20 * base or base\nend }\n')
    args = ["--iterations", "2000", "--analytics", path]
    m, r = model(*args), run(*args)
    a = r["per_step"]["analytics_active"]
    assert a[9] > 15 * a[0] and abs(a[8] - a[0]) < 1e-6 * a[0], a[:12]
    # The model sums the steps' periods: with the queue DTL (no transfers) at 100 steps it is
    # within 2% of the simulation; it used to evaluate step 0 only and be 2x short.
    mq, rq = model(*args, "--dtl", "queue"), run(*args, "--dtl", "queue")
    close(mq["makespan"], rq["makespan"], 0.02, "step-dependent makespan, queue")
    close(mq["efficiency"], rq["efficiency"], 0.02, "step-dependent efficiency, queue")
    close(m["makespan"], r["makespan"], 0.02, "step-dependent makespan, mailbox")
    late = write("late.lua", 'return { name = "late", cost = function(ctx)\n'
                 '  if ctx.step == 3 then error("step 3 breaks") end\n  return 1\nend }\n')
    # The model evaluates every step before any simulation: a later step's error is bad input.
    p = situ("run", "--analytics", late, "--iterations", "400")
    lua_error(p, f"{late}:2:", "step 3 breaks", 2, False)


def analytics_names():
    for name in ("thermo", "histogram", "scatter"):
        r = model("--analytics", name)
        assert r["config"]["analytics"] == name and r["makespan"] > 0
    h, t = model("--analytics", "histogram"), model()
    assert h["stage"]["A"] > 5 * t["stage"]["A"], "histogram is heavier than thermo"
    # Names resolve from any directory (the data directory), paths relative to the cwd.
    elsewhere = os.path.join(TMP, "elsewhere")
    os.makedirs(elsewhere, exist_ok=True)
    ok(situ("model", "--analytics", "scatter", cwd=elsewhere))
    write("elsewhere/mine.lua", 'return { name = "mine" }\n')
    ok(situ("model", "--analytics", "mine.lua", cwd=elsewhere))


def analytics_print_to_stderr():
    path = write("chatty.lua", 'return { name = "chatty", cost = function(ctx)\n'
                 '  print("cost called") return 1 end }\n')
    p = ok(situ("model", "--json", "--analytics", path))
    json.loads(p.stdout)
    assert "cost called" in p.stderr


# --- the situ module ----------------------------------------------------------------------

def api_params():
    out = emitted(script(JSON_LUA + '''
local c = situ.params{ ratio = 31, stride = "200", ["data-scaling"] = 10, mapping = "insitu" }
emit{ ratio = c.ratio, stride = c.stride, ds = c.data_scaling, mapping = c.mapping,
      mt = math.type(c.ratio), n = (function() local n = 0 for _ in pairs(c) do n = n + 1 end
      return n end)(), iterations = c.iterations }
c.ratio = 15
emit{ again = situ.params(c).ratio, defaults = situ.params().ratio }
'''))
    keys = re.findall(r"^  --([a-z-]+) ", ok(situ("--help")).stdout, re.M)
    # Every parameter of the table is a field: as many as --help lists.
    assert out[0] == {"ratio": 31, "stride": 200, "ds": 10.0, "mapping": "insitu",
                      "mt": "integer", "n": len(keys), "iterations": 8000}, out[0]
    assert out[1] == {"again": 15, "defaults": 15}, out[1]
    p = emitted(script(JSON_LUA + 'local k = {} for key in pairs(situ.params()) do '
                       'k[#k + 1] = key end table.sort(k) emit(k)\n'))
    assert p[0] == sorted(k.replace("-", "_") for k in keys), p[0]


def api_params_errors():
    for body, words in (("situ.params{ ratio = 14 }", "ratio: 14 is not realisable"),
                        ("situ.params{ ratoi = 14 }", "unknown parameter 'ratoi'"),
                        ("situ.params{ ratio = true }", "ratio: expected a number"),
                        ("situ.params{ mapping = 2 }", "mapping: expected a string"),
                        ("situ.params{ analytics = 'nosuch' }", "no analytics named"),
                        ("situ.model{ nodes = 1, mapping = 'intransit' }", "at least 2 nodes")):
        lua_error(script("local x = 1\n" + body + "\n"), "t.lua:2:", words, 2, True)


def api_model():
    out = emitted(script(JSON_LUA + 'emit(situ.model(situ.params{ ratio = 7, nodes = 2 }))\n'))
    cli = model("--ratio", "7", "--nodes", "2")
    assert set(out[0]) == set(cli), set(out[0]) ^ set(cli)
    # The CLI prints 12 significant digits; Lua has the whole double.
    for k in ("makespan", "efficiency", "sim_active", "analytics_idle", "particles"):
        close(out[0][k], cli[k], 1e-11, k)
    for k in cli["stage"]:
        close(out[0]["stage"][k], cli["stage"][k], 1e-11, "stage." + k)
    assert out[0]["scenario"] == cli["scenario"]


def api_model_caution():
    # Where the actors may drift apart, Lua gets the CLI's caution and range, the same numbers.
    drift = ("--nodes", "4", "--mapping", "intransit", "--region", "20", "--iterations", "400")
    out = emitted(script(JSON_LUA + "emit(situ.model{ nodes = 4, mapping = 'intransit', "
                         "region = 20, iterations = 400 })\n"))
    cli = model(*drift)
    assert "upper bound" in out[0].get("warning", ""), out[0].get("warning")
    assert out[0]["warning"] == cli["warning"]
    close(out[0]["analytics_active_drifted"], cli["analytics_active_drifted"], 1e-11, "drifted")
    assert out[0]["analytics_active_drifted"] < out[0]["analytics_active"]


def api_run():
    out = emitted(script(JSON_LUA + 'local r = situ.run{ iterations = 400, nodes = 2 }\n'
                         'r.wall_seconds = nil emit(r)\n'))
    cli = strip(run("--iterations", "400", "--nodes", "2"))
    lua = out[0]
    assert set(lua) == set(cli), set(lua) ^ set(cli)
    for k in ("makespan", "efficiency", "stage", "per_step", "conservation", "activities"):
        assert lua[k] == cli[k], f"{k} differs"


def api_run_failure():
    # A simulation child that dies (the test hook of sim_isolate.c) is a failed run, exit 3.
    p = script('local ok, e = pcall(situ.run, { iterations = 400 })\n'
               'print(ok, e)\nsitu.run{ iterations = 400 }\n',
               env={"SITU_TEST_FAULT": "abort:iterations=400"})
    assert "false\tsitu.run: simulation crashed (Aborted)" in p.stdout, p.stdout
    lua_error(p, "t.lua:3: situ.run: simulation crashed", "Aborted", 3, True)


def api_run_failure_is_per_call():
    """The status is the ending error's: a failure caught by pcall leaves a later mistake at 2;
    the same failure rethrown is still 3."""
    fault = {"SITU_TEST_FAULT": "abort:iterations=400"}
    caught = 'local ok, e = pcall(situ.run, { iterations = 400 })\nassert(not ok)\n'
    lua_error(script(caught + 'error("a later mistake")\n', env=fault), "t.lua:3:",
              "a later mistake", 2)
    lua_error(script(caught + 'error(e, 0)\n', env=fault),
              "t.lua:3: situ.run: simulation crashed", "Aborted", 3)


def api_sweep():
    out = emitted(script(JSON_LUA + '''
local rs = situ.sweep{ base = { iterations = 400 }, ratio = { 15, 31 }, nodes = { 1, 2 } }
local ms = situ.sweep{ base = { iterations = 400 }, ratio = { 15, 31 }, nodes = { 1, 2 },
                       model = true, jobs = 1 }
local out = {}
for i, r in ipairs(rs) do
  out[i] = { nodes = r.config.nodes, ratio = r.config.ratio, makespan = r.makespan,
             fidelity = r.fidelity, model = ms[i].makespan, steps = #r.per_step.sim_active }
end
emit(out)
local one = situ.sweep{ base = {}, ratio = 7, model = true }
emit{ #one, one[1].config.ratio }
'''))
    rows = out[0]
    assert [(r["nodes"], r["ratio"]) for r in rows] == [(1, 15), (1, 31), (2, 15), (2, 31)], rows
    for r in rows:
        assert r["fidelity"] == "fast" and r["steps"] == 20
        cli = run("--iterations", "400", "--nodes", str(r["nodes"]), "--ratio", str(r["ratio"]))
        assert r["makespan"] == cli["makespan"], r
        close(r["model"], r["makespan"], 0.1, "model vs run")
    assert out[1] == [1, 7], out[1]


def api_sweep_errors():
    write("late.lua", 'return { name = "late", cost = function(ctx)\n'
          '  if ctx.step == 3 then error("step 3 breaks") end\n  return 1\nend }\n')
    p = script(JSON_LUA + 'local rs = situ.sweep{ base = { iterations = 400 }, '
               'analytics = { "", "thermo" } }\n'
               'emit{ rs[1].error or "", rs[2].error, rs[2].config.analytics }\n'
               'situ.table(rs, { "analytics", "makespan" })\n',
               env={"SITU_TEST_FAULT": "abort:analytics=thermo"})
    out = ok(p).stdout.splitlines()
    assert json.loads(out[0]) == ["", "simulation crashed (Aborted)", "thermo"], out[0]
    assert re.search(r"thermo\s+-\s+simulation crashed", p.stdout), p.stdout
    # A later step's Lua error is found by the model first: the sweep stops at bad input.
    lua_error(script('situ.sweep{ base = { iterations = 400 }, analytics = { "late.lua" } }\n'),
              "t.lua:1: situ.sweep:", "late.lua:2: step 3 breaks", 2)
    lua_error(script("situ.sweep{ base = {}, ratio = { 15, 14 } }\n"), "t.lua:1: situ.sweep:",
              "ratio: 14 is not realisable", 2)
    lua_error(script("situ.sweep{ base = {}, ratoi = { 15 } }\n"), "t.lua:1: situ.sweep:",
              "unknown parameter 'ratoi'", 2)


def api_advise():
    # The same question through situ.advise and `situ advise --json`: the same ranking.
    axes = ["--stride:compute-scaling", "20:1,200:10,1000:50", "--ratio", "3,7,15,31",
            "--nodes", "1..4", "--iterations", "2000"]
    cli = [json.loads(l) for l in ok(situ("advise", "--json", "--objective", "balance",
                                          "--verify", "0", *axes)).stdout.splitlines()]
    out = emitted(script(JSON_LUA + '''
local rs = situ.advise{ base = { iterations = 2000 }, nodes = "1..4", ratio = { 3, 7, 15, 31 },
                        ["stride:compute_scaling"] = { "20:1", { 200, 10 }, "1000:50" },
                        objective = "balance", verify = 1, top = 5 }
local t = {}
for i, c in ipairs(rs) do
  t[i] = { c.rank, c.config.stride, c.config.ratio, c.config.nodes, c.model.objective }
end
emit{ n = rs.n, candidates = rs.candidates, objective = rs.objective, front = #rs.front,
      top = t, sim = rs[1].simgrid.makespan, sim_rank = rs[1].simgrid_rank,
      second = rs[2].simgrid == nil }
'''))
    r = out[0]
    assert r["n"] == len(cli) == 48 and r["candidates"] == 48, r
    assert r["objective"] == "balance" and len(r["top"]) == 5, r
    for got, want in zip(r["top"], cli):
        assert got[:4] == [want["rank"], want["config"]["stride"], want["config"]["ratio"],
                           want["config"]["nodes"]], (got, want["config"])
        close(got[4], want["model"]["objective"], 1e-12, "the model's balance")
    assert r["front"] == sum(c["pareto"] for c in cli), r
    c = cli[0]["config"]
    run = json.loads(ok(situ("run", "--json", "--stride", str(c["stride"]), "--compute-scaling",
                             str(c["compute_scaling"]), "--ratio", str(c["ratio"]), "--nodes",
                             str(c["nodes"]), "--iterations", "2000")).stdout)
    close(r["sim"], run["makespan"], 1e-9, "SimGrid's makespan in situ.advise")
    assert r["sim_rank"] == 1 and r["second"], r
    lua_error(script("situ.advise{ ratio = { 15 }, objective = 'speed' }\n"),
              "t.lua:1: situ.advise:", "objective: 'speed' is not known", 2)
    lua_error(script("situ.advise{ ratoi = { 15 } }\n"), "t.lua:1: situ.advise:",
              "unknown parameter 'ratoi'", 2)
    lua_error(script("situ.advise{ nodes = '5..1' }\n"), "t.lua:1: situ.advise:",
              "nodes: '5..1' is not a range", 2)
    lua_error(script("situ.advise{ ratio = { 5 } }\n"), "t.lua:1: situ.advise:",
              "ratio: 5 is not realisable", 2)


def api_crossover():
    out = emitted(script(JSON_LUA + '''
local base = situ.params{ nodes = 16, analytics = "scatter" }
local x, info = situ.crossover{ base = base, from = 1, to = 1000 }
local none = situ.crossover{ base = { nodes = 16 } }
local y, rinfo = situ.crossover{ base = { nodes = 16, analytics = "scatter", iterations = 1000 },
                                 by = "run", jobs = 4 }
emit{ x = x, info = info, none = none == nil, y = y, by = rinfo.by }
local a = situ.model{ nodes = 16, analytics = "scatter", mapping = "insitu", data_scaling = x }
local b = situ.model{ nodes = 16, analytics = "scatter", mapping = "intransit", data_scaling = x }
emit{ a.makespan, b.makespan }
'''))
    r = out[0]
    assert 10 < r["x"] < 30, r
    assert r["info"]["below"] == "intransit" and r["info"]["above"] == "insitu", r
    assert r["info"]["low"] <= r["x"] <= r["info"]["high"] and r["info"]["by"] == "model"
    assert r["none"], "thermo's mappings do not cross"
    assert r["by"] == "run"
    close(r["y"], r["x"], 0.15, "crossover by run vs model")
    close(out[1][0], out[1][1], 0.01, "makespans at the crossover")
    lua_error(script("situ.crossover{ base = { nodes = 1 } }\n"), "t.lua:1: situ.crossover:",
              "at least 2 nodes", 2)
    lua_error(script("situ.crossover{ base = { nodes = 4 }, by = 'guess' }\n"),
              "t.lua:1: situ.crossover:", 'by must be "model" or "run"', 2)


def api_inline():
    # mapping=inline through situ.run, situ.crossover (any two mappings) and situ.advise
    out = emitted(script(JSON_LUA + '''
local cfg = { nodes = 2, iterations = 200, mapping = "inline", analytics = "scatter" }
local r, m = situ.run(cfg), situ.model(cfg)
emit{ r.scenario, r.efficiency, r.analytics_cores, r.makespan, m.makespan }
local base = { nodes = 16, analytics = "scatter", iterations = 2000 }
local x, info = situ.crossover{ base = base, mappings = { "intransit", "inline" } }
emit{ x = x, below = info.below, above = info.above }
base.data_scaling = x
base.mapping = "intransit"
local a = situ.model(base)
base.mapping = "inline"
emit{ a.makespan, situ.model(base).makespan }
local rs = situ.advise{ base = { iterations = 400 }, ratio = { 1, 15 }, nodes = 2,
                        mapping = { "insitu", "inline" }, objective = "makespan" }
emit{ n = rs.n, candidates = rs.candidates, first = rs[1].config.mapping }
'''))
    assert out[0][:3] == ["inline", 1, 0], out[0]
    close(out[0][3], out[0][4], 0.02, "situ.run vs situ.model, inline")
    r = out[1]
    assert 1 < r["x"] < 1000 and r["below"] == "intransit" and r["above"] == "inline", r
    close(out[2][0], out[2][1], 0.01, "makespans at the crossover")
    assert out[3] == {"n": 3, "candidates": 4, "first": "inline"}, out[3]  # inline ranked once
    lua_error(script("situ.crossover{ base = { nodes = 4 }, mappings = { 'inline' } }\n"),
              "t.lua:1: situ.crossover:", "mappings must be two distinct names", 2)


def api_strategies():
    # situ.crossover over strategies: two (the search, DTL names kept), or more (who is fastest
    # where, by the model); each range's strategy checked against situ.model in its middle.
    out = emitted(script(JSON_LUA + '''
local base = { nodes = 16, analytics = "scatter", iterations = 2000 }
local x, info = situ.crossover{ base = base, strategies = { "insitu:mailbox", "intransit:mailbox" } }
emit{ x = x, below = info.below, above = info.above }
local sts = { "insitu", "intransit", "inline", "insitu:queue" }
local y, many = situ.crossover{ base = base, strategies = sts }
emit{ y = y, ranges = many.ranges, by = many.by }
for _, r in ipairs(many.ranges) do
  local mid, best, who = math.sqrt(r.from * r.to), math.huge, nil
  for _, s in ipairs(sts) do
    local m, d = s:match("^([^:]+):?(.*)$")
    local cfg = { nodes = 16, analytics = "scatter", iterations = 2000, mapping = m,
                  data_scaling = mid }
    if d ~= "" then cfg.dtl = d end
    local t = situ.model(cfg).makespan
    if t < best then best, who = t, s end
  end
  emit{ r.strategy, who }
end
'''))
    r = out[0]
    assert 10 < r["x"] < 30 and r["below"] == "intransit:mailbox" and r["above"] == "insitu:mailbox", r
    m = out[1]
    assert m["by"] == "model" and len(m["ranges"]) >= 2, m
    assert m["ranges"][0]["from"] == 1 and m["ranges"][-1]["to"] == 1000, m
    assert m["y"] == m["ranges"][0]["to"], m
    for a, b in zip(m["ranges"], m["ranges"][1:]):
        assert a["to"] == b["from"] and a["strategy"] != b["strategy"], m
    for named, fastest in out[2:]:
        assert named == fastest, f"range says {named}, the model {fastest}"
    lua_error(script("situ.crossover{ base = { nodes = 4 }, strategies = { 'insitu', 'intransit:mailx' } }\n"),
              "t.lua:1: situ.crossover:", "unknown dtl 'mailx'", 2)
    lua_error(script("situ.crossover{ base = { nodes = 4 }, strategies = { 'insitu', 'intransit', 'inline' }, by = 'run' }\n"),
              "t.lua:1: situ.crossover:", 'by "run" compares two strategies', 2)
    lua_error(script("situ.crossover{ base = { nodes = 4 }, strategies = { 'insitu', 'insitu' } }\n"),
              "t.lua:1: situ.crossover:", "named twice", 2)


def api_analytics():
    out = emitted(script(JSON_LUA + '''
emit(situ.analytics{ nodes = 16, analytics = "scatter" })
emit(situ.analytics{})
'''))
    s, t = out
    assert s["name"] == "scatter" and s["exchange"] == {"pattern": "allgather",
                                                        "bytes": 96 ** 3 * 4}, s
    assert s["bytes"] == 1372000 * 8 and s["exchange_time"] > 0.05, s
    assert t["name"] == "thermo" and t["cost"] == 1372000 * 7.93e-7, t
    assert t["exchange"]["pattern"] == "none" and t["exchange_time"] == 0


def api_table():
    p = ok(script('''
local rs = situ.sweep{ base = {}, ratio = { 7, 15 }, nodes = { 1, 2 }, model = true }
situ.table(rs)
situ.table(rs, { "ratio", "stage.A", "A", "sim_cores" })
situ.table(situ.model{})
'''))
    lines = p.stdout.splitlines()
    assert lines[0].split() == ["nodes", "ratio", "makespan", "efficiency", "scenario"], lines[0]
    assert lines[1].split()[:2] == ["1", "7"] and len(lines[1].split()) == 5, lines[1]
    assert lines[5].split() == ["ratio", "stage.A", "A", "sim_cores"], lines[5]
    a = lines[6].split()
    assert a[0] == "7" and a[1] == a[2] and a[3] == "28", lines[6]
    assert lines[10].split() == ["makespan", "efficiency", "scenario"], lines[10]
    assert len(lines) == 12
    lua_error(script("situ.table({}, { 1 })\n"), "t.lua:1:", "column 1 is a number", 2)


def api_csv_files():
    os.makedirs(os.path.join(TMP, "sub"), exist_ok=True)
    p = ok(script('''
local rs = situ.sweep{ base = {}, ratio = { 7, 15, 31 }, model = true }
print(situ.csv("out.csv", rs))
print(situ.csv("sub/cols.csv", rs, { "ratio", "makespan", "stage.A" }))
'''))
    assert p.stdout.split() == ["3", "3"], p.stdout
    rows = open(os.path.join(TMP, "out.csv")).read().splitlines()
    sweep_header = ok(situ("sweep", "--model", "--ratio", "7")).stdout.splitlines()[0]
    assert rows[0] == sweep_header, f"{rows[0]}\n{sweep_header}"
    assert len(rows) == 4 and rows[1].split(",")[2] == "7"
    cols = open(os.path.join(TMP, "sub", "cols.csv")).read().splitlines()
    assert cols[0] == "ratio,makespan,stage.A" and len(cols) == 4, cols
    assert not glob.glob(os.path.join(TMP, "*.tmp")), "temporary file left behind"
    for path in ("/tmp/situ-lua-escape.csv", "../escape.csv", "sub/../../escape.csv"):
        lua_error(script(f'situ.csv("{path}", situ.model{{}})\n'), "t.lua:1: situ.csv:",
                  "the sandbox only writes inside the current directory", 2)
        # Each refused path, where it would have landed (the scripts run in TMP).
        assert not os.path.exists(os.path.join(TMP, path)), f"{path} was written"


def api_arg_require_version():
    write("helper.lua", "return { twice = function(x) return 2 * x end }\n")
    out = emitted(script(JSON_LUA + 'local h = require "helper"\nlocal s = require "situ"\n'
                         'emit{ arg[0], arg[1], arg[2], #arg, h.twice(21), s == situ,'
                         ' type(situ.version) }\n', "one", "two words"))
    assert out[0] == ["t.lua", "one", "two words", 2, 42, True, "string"], out[0]
    assert situ("--version").stdout.split()[1] in ok(script('print(situ.version)\n')).stdout


# --- errors, limits and the sandbox -------------------------------------------------------

def err_syntax():
    lua_error(script("local x = = 1\n"), "t.lua:1:", "unexpected symbol", 2, False)


def err_runtime():
    p = script("local t = nil\nprint(t.x)\n")
    lua_error(p, "t.lua:2:", "attempt to index a nil value", 2, True)
    lua_error(script("error({})\n"), "t.lua:1:", "error object is a table value", 2)
    lua_error(script("error('no position', 0)\n"), "t.lua:1:", "no position", 2)
    assert not script("print(1)\nos.exit = nil\n").stderr


def err_loop():
    t0 = time.time()
    p = script("local i = 0\nwhile true do i = i + 1 end\n")
    lua_error(p, "t.lua:2:", "stopped after 1000000000 instructions", 2)
    assert "--max-instructions" in p.stderr and time.time() - t0 < 30
    p = script("while true do pcall(function() while true do end end) end\n",
               opts=("--max-instructions", "1000000"), timeout=30)
    lua_error(p, "t.lua:1:", "stopped after 1000000 instructions", 2)


def err_memory():
    # The position is the line the count hook saw last (every 1000 instructions): the whole
    # loop on one line, so that it does not depend on how much memory was in use before.
    p = script("local t = {}\nlocal i = 0\n"
               "while true do i = i + 1; t[i] = string.rep('x', 1000000) .. i end\n")
    lua_error(p, "t.lua:3:", "out of memory: over the limit of 256 MiB", 2, False)
    p = script("local s = 'x'\nwhile true do s = s .. s end\n", opts=("--max-memory", "16"))
    lua_error(p, "t.lua:", "over the limit of 16 MiB", 2, False)


SANDBOX = {  # code, message
    "os.execute": ('os.execute("touch pwned")', "os.execute is not available in the sandbox"),
    "io.popen": ('io.popen("touch pwned")', "io.popen is not available in the sandbox"),
    "package.loadlib": ('package.loadlib("libc.so.6", "system")',
                        "package.loadlib is not available"),
    "C module": ('require "lfs"', "module 'lfs' not found"),
    "os.remove": ('os.remove("t.lua")', "os.remove is not available"),
    "write /tmp": ('io.open("/tmp/situ-lua-x", "w")', "the sandbox only writes inside"),
    "write ..": ('io.open("../situ-lua-x", "w")', "the sandbox only writes inside"),
    "append ..": ('io.open("a/../../situ-lua-x", "a+")', "the sandbox only writes inside"),
    "io.output": ('io.output("/tmp/situ-lua-x")', "the sandbox only writes inside"),
    "symlink": ('io.open("link/situ-lua-x", "w")', "leads out of the current directory"),
    "bytecode": ('load("\\27Lua")', "attempt to load a binary chunk"),
    "debug": ('debug.sethook()', "attempt to index a nil value (global 'debug')"),
    "string.dump": ('string.dump(print)', "string.dump is not available"),
}


def sandbox(kind):
    code, words = SANDBOX[kind]

    def test():
        link = os.path.join(TMP, "link")
        if not os.path.islink(link):
            os.symlink("/tmp", link)
        p = script("local x = 1\n" + code + "\n")
        if kind == "bytecode":  # load returns nil and the message
            p = script(f"local f, e = {code}\nassert(f, e)\n")
            lua_error(p, "t.lua:2:", words, 2)
        else:
            lua_error(p, "t.lua:2:", words, 2)
        if kind == "C module":
            assert "no C modules in the sandbox" in p.stderr
        assert not os.path.exists(os.path.join(TMP, "pwned"))
        assert not os.path.exists("/tmp/situ-lua-x")
        assert os.path.exists(os.path.join(TMP, "t.lua"))
    return test


def sandbox_allows():
    write("helper2.lua", "return 7\n")
    p = ok(script('local f = assert(io.open("w.txt", "w"))\nf:write("hi")\nf:close()\n'
                  'print(io.open("w.txt"):read("a"))\n'
                  'print(#io.open("/etc/hostname"):read("a") >= 0)\n'
                  'print(dofile("helper2.lua"))\n'))
    assert p.stdout.split() == ["hi", "true", "7"], p.stdout


def unsafe():
    target = os.path.join(TMP, "unsafe-out")
    p = ok(script(f'os.execute("touch {target}")\nlocal f = io.open("{target}.2", "w")\n'
                  'f:write("x") f:close()\nprint(debug ~= nil)\n', opts=("--unsafe",)))
    assert os.path.exists(target) and os.path.exists(target + ".2") and "true" in p.stdout


def script_usage():
    lua_error(situ("script"), "script: expected a FILE.lua", "", 2, False)
    lua_error(situ("script", "--bogus", "x.lua"), "script: unknown option", "", 2, False)
    lua_error(situ("script", "missing.lua"), "missing.lua: cannot read Lua file: No such file", "", 2, False)
    lua_error(situ("script", "--max-memory", "lots", "t.lua"), "max-memory:", "", 2, False)
    # --NAME=VALUE too, as every command reads flags (engine/base/flag.c)
    lua_error(situ("script", "--max-memory=lots", "t.lua"), "max-memory:", "", 2, False)
    lua_error(situ("script", "--max-instructions=-1", "t.lua"), "max-instructions:", "", 2, False)
    assert "situ script" in ok(situ("script", "--help")).stdout


# --- lessons ------------------------------------------------------------------------------

def lesson(name, steps):
    def test():
        p = ok(situ("lesson", name, "--headless", "--solutions"), f"lesson {name}")
        out = p.stdout
        assert out.count("\nStep ") == steps, out[:400]
        solutions = out.count("goal (with the solution): met")
        assert solutions == out.count("\n  with the solution:") and solutions >= 3, out[-600:]
        assert solutions == out.count("\n  solution: "), out[-600:]
        assert "goal (as loaded): not met" in out
        assert not p.stderr
        # A student's printout: the same steps, the nudge only, no solution.
        q = ok(situ("lesson", name, "--headless"), f"lesson {name}")
        assert q.stdout.count("\nStep ") == steps, q.stdout[:400]
        for word in ("solution", "hint (more)", "hint (last resort)"):
            assert word not in q.stdout, f"{word!r} shown without --solutions"
        assert q.stdout.count("\n  hint: ") == out.count("\n  hint: ") > 0
        assert not q.stderr
    return test


def lesson_solutions_name_defaults():
    """A solution equal to a default is still said (efficiency's step 3 is ratio=15)."""
    out = ok(situ("lesson", "efficiency", "--headless", "--solutions")).stdout
    assert "  solution: ratio=15\n" in out, out
    p = situ("lesson", "--help")
    assert p.returncode == 0 and "--solutions" in p.stdout, p.stdout
    bad = situ("lesson", "efficiency", "--headless", "--nodes", "4")
    assert bad.returncode == 2 and "takes no parameters" in bad.stderr, bad.stderr


def lesson_list():
    # No name: the list too (exit 0), each lesson with its description under its title.
    bare = ok(situ("lesson")).stdout
    assert "the scatter analytics on 16 nodes" in bare, bare
    out = ok(situ("lesson", "--list")).stdout
    assert out == bare, (out, bare)
    for name in ("efficiency", "frequency", "mapping"):
        assert re.search(rf"^{name}\s+\S", out, re.M), out
    assert "Fig. 9" in out and "Fig. 8" in out and "Fig. 7" in out


def lesson_errors():
    path = write("l_badgoal.lua", 'return { title = "t", steps = {\n'
                 '  { text = "a", goal = function(state)\n      return 42\n    end },\n} }\n')
    lua_error(situ("lesson", path, "--headless"), f"{path}:2: the goal of step 1 returned a "
              "number", "", 2, False)
    path = write("l_rt.lua", 'return { title = "t", steps = {\n'
                 '  { text = "a", goal = function(state)\n      return state.model.nope.x\n'
                 '    end },\n} }\n')
    lua_error(situ("lesson", path, "--headless"), f"{path}:3:", "attempt to index a nil", 2,
              False)
    path = write("l_cfg.lua", 'return { title = "t", steps = {\n  { text = "a" },\n'
                 '  { text = "b", config = { ratio = 14 } },\n} }\n')
    lua_error(situ("lesson", path, "--headless"), f"{path}: step 2: config: ratio: 14", "", 2,
              False)
    path = write("l_shape.lua", 'return { title = "t", steps = { { txt = "a" } } }\n')
    lua_error(situ("lesson", path, "--headless"), f"{path}: step 1: unknown field \"txt\"", "",
              2, False)
    path = write("l_run.lua", 'return { title = "t", steps = {\n  { text = "a", goal = '
                 'function(state)\n      return situ.run(state.params) ~= nil\n    end },\n} }\n')
    lua_error(situ("lesson", path, "--headless"), f"{path}:3: situ.run: lessons use the model",
              "", 2, False)
    path = write("l_wrong.lua", 'return { title = "t", steps = {\n  { text = "a", goal = '
                 'function(s) return s.params.ratio == 31 end, solution = { ratio = 15 } },\n} }\n')
    p = situ("lesson", path, "--headless", "--solutions")
    assert p.returncode == 1 and "goal (with the solution): not met" in p.stdout, p.stdout
    assert "1 step)" in p.stdout, p.stdout
    p = situ("lesson", path, "--headless")  # the student's printout: still exit 1, said on stderr
    assert p.returncode == 1 and "solution misses the goal" in p.stderr, p.stderr
    assert "solution" not in p.stdout, p.stdout
    lua_error(situ("lesson", "nosuch", "--headless"), "lesson: no lesson 'nosuch'", "mapping", 2)


def nul_bytes_are_refused():
    """A Lua string with a NUL byte where C would read it cut (a lesson's texts and config, a
    path, a parameter's name or value, an option key, an analytics' name, a CSV's cell): bad
    input naming the file and the field, never the text up to the NUL."""
    lessons = [("title", 'title = "t\\0x", steps = { { text = "a" } }', "title"),
               ("text", 'title = "t", steps = { { text = "a\\0b" } }', "step 1: text"),
               ("hint", 'title = "t", steps = { { text = "a", hint = { "h", "i\\0j" } } }', "step 1: hint"),
               ("question", 'title = "t", steps = { { text = "a", question = "q\\0?", answer = "x",'
                'goal = function(s) return true end } }',
                "step 1: question"),
               ("config", 'title = "t", steps = { { text = "a", config = { mapping = "intransit\\0x" } } }',
                "step 1: config: mapping"),
               ("config key", 'title = "t", steps = { { text = "a", config = { ["ratio\\0x"] = 3 } } }',
                "step 1: config: parameter name 'ratio' holds a NUL byte")]
    for name, body, words in lessons:
        path = write(f"l_nul_{name.replace(' ', '_')}.lua", f"return {{ {body} }}\n")
        p = situ("lesson", path, "--headless")
        lua_error(p, f"{path}: {words}", "NUL byte", 2, False)
    write("nul_ana.lua", 'return { name = "nm\\0x", cost = 1e-9, bytes = 0 }\n')
    p = situ("model", "--analytics", "nul_ana.lua")
    assert p.returncode == 2 and "name: holds a NUL byte" in p.stderr, p.stderr
    for body, words in (('situ.params{ platform = "platforms/dahu.xml\\0.bak" }', "platform: holds a NUL byte"),
                        ('situ.params{ ["ratio\\0x"] = 3 }', "parameter name 'ratio' holds a NUL byte"),
                        ('situ.csv("nul-out.csv\\0.txt", {})', "situ.csv: the file name: holds a NUL byte"),
                        ('situ.csv("nul.csv", { { a = "x\\0y" } }, { "a" })', "a value: holds a NUL byte"),
                        ('situ.sweep{ ["base\\0x"] = 1, ratio = { 1, 3 }, model = true }', "parameter name 'base'"),
                        ('io.open("nul-w.txt\\0x", "w")', "io.open: the file name: holds a NUL byte"),
                        ('require("mod\\0x")', "require: the module name: holds a NUL byte")):
        lua_error(script("local x = 1\n" + body + "\n"), "t.lua:2:", words, 2, None)
    assert not os.path.exists(os.path.join(TMP, "nul-out.csv")) and not os.path.exists(os.path.join(TMP, "nul-w.txt")), "a cut name was written"


def own_messages_ignore_the_string_library():
    """Situ's own messages built in Lua (the analytics, simulation and lesson shape checks) are the same
    whatever the file did first to the shared string metatable's __index or to string.format:
    each message is compared with the one for the same file without those lines."""
    evil = ('getmetatable("").__index = { format = function() return "HACKED" end,\n'
            '  find = function() return nil end, rep = function() return "" end }\n'
            'string.format = function() return "HACKED2" end\n')
    cases = [("ana", "model", ["--analytics"], 'return { name = "a", bogus = 1 }\n'),
             ("ana2", "model", ["--analytics"], 'return { name = "a", cost = "x" }\n'),
             ("les", "lesson", [], 'return { title = "t", steps = { { text = "a", bogus = 1 } } }\n'),
             ("les2", "lesson", [], 'return { title = "t", bogus = 2, steps = { { text = "a" } } }\n'),
             ("sim", "model", ["--simulation"], 'return { name = "s", bogus = 1 }\n'),
             ("sim2", "model", ["--simulation"],
              'return { name = "s", particles = 1, halo = {x = 1}, cost = 0,\n'
              '  params = { { name = "k", default = "x", min = 0, max = 1 } } }\n'),
             ("sim3", "model", ["--simulation"],
              'return { name = "s", particles = 1, halo = {x = 1}, cost = 0, uses = { "cells" } }\n')]
    for name, cmd, flags, body in cases:
        said = []
        for prefix, tag in (("", "plain"), (evil, "evil")):
            path = write(f"str_{name}_{tag}.lua", prefix + body)
            p = situ(cmd, *flags, path, *(["--headless"] if cmd == "lesson" else []))
            assert p.returncode == 2, f"{name} {tag}: exit {p.returncode}: {p.stderr}"
            said.append(p.stderr.replace(path, "FILE"))
        assert said[0] == said[1], f"{name}: {said[1]!r} where the untouched file gives {said[0]!r}"
        assert "HACKED" not in said[1]


def lesson_quiz():
    """A question's goal reads state.answer: headless, the lesson's answer is checked (printed
    only with --solutions); a wrong one exits 1; the shape is checked."""
    quiz = ('return { title = "q", steps = {\n  { text = "a", question = "Which side waits?",\n'
            '    goal = function(s) return s.answer == s.model.scenario, "said " .. '
            'tostring(s.answer) end,\n    answer = "%s" },\n} }\n')
    path = write("l_quiz.lua", quiz % "IA")
    p = ok(situ("lesson", path, "--headless", "--solutions"))
    assert "  question: Which side waits?\n" in p.stdout, p.stdout
    assert "  answer: IA\n" in p.stdout, p.stdout
    assert "goal (with the answer): met - said IA" in p.stdout, p.stdout
    assert "goal (as loaded): not met - said nil" in p.stdout, p.stdout
    q = ok(situ("lesson", path, "--headless"))
    assert "question: Which side waits?" in q.stdout and "answer:" not in q.stdout, q.stdout
    path = write("l_quiz_wrong.lua", quiz % "IS")
    p = situ("lesson", path, "--headless")
    assert p.returncode == 1 and "its answer misses the goal" in p.stderr, p.stderr
    path = write("l_quiz_nogoal.lua", 'return { title = "q", steps = {\n'
                 '  { text = "a", question = "Why?" },\n} }\n')
    lua_error(situ("lesson", path, "--headless"), f"{path}: step 1: a question needs a goal", "",
              2, False)
    p = situ("lesson", path, "--headless", "--log", "x.log")
    assert p.returncode == 2 and "--log records" in p.stderr, p.stderr


# --- examples and docs --------------------------------------------------------------------

def examples():
    scripts = sorted(glob.glob(os.path.join(ROOT, "scripts", "lua", "examples", "*.lua")))
    assert len(scripts) >= 5, scripts
    work = os.path.join(TMP, "examples")
    os.makedirs(work, exist_ok=True)
    for path in scripts:
        args = ["out.csv"] if os.path.basename(path) in ("sweep.lua", "fig7.lua") else []
        p = situ("script", path, *args, cwd=work)
        if p.returncode != 0 or not p.stdout.strip():
            raise AssertionError(f"{os.path.relpath(path, ROOT)}: exit {p.returncode}: "
                                 f"{p.stderr.strip()[:300]}")
    analytics = sorted(glob.glob(os.path.join(ROOT, "scripts", "lua", "**", "analytics",
                                              "*.lua"), recursive=True))
    assert len(analytics) >= 4, analytics
    for path in analytics:
        r = json.loads(ok(situ("model", "--json", "--nodes", "4", "--analytics", path,
                               cwd=work), path).stdout)
        assert r["makespan"] > 0 and math.isfinite(r["makespan"]), path
    simulations = sorted(glob.glob(os.path.join(ROOT, "scripts", "lua", "**", "simulations",
                                                "*.lua"), recursive=True))
    assert len(simulations) >= 4, simulations
    for path in simulations:
        r = json.loads(ok(situ("model", "--json", "--nodes", "4", "--simulation", path,
                               cwd=work), path).stdout)
        assert r["makespan"] > 0 and math.isfinite(r["makespan"]), path
        assert r["config"]["simulation"] == path, r["config"]


def docs():
    text = open(os.path.join(ROOT, "docs", "lua.md")).read()
    blocks = re.findall(r"```lua\n(-- (scripts/lua/examples/\S+?\.lua)[^\n]*\n.*?)```", text,
                        re.S)
    files = {os.path.relpath(p, ROOT) for p in
             glob.glob(os.path.join(ROOT, "scripts/lua/examples/**/*.lua"), recursive=True)}
    shown = set()
    for body, path in blocks:
        assert open(os.path.join(ROOT, path)).read() == body, f"docs/lua.md's {path} is stale"
        shown.add(path)
    assert shown == files, f"examples not in docs/lua.md: {files - shown}"
    for fn in ("params", "model", "run", "sweep", "crossover", "advise", "analytics", "table",
               "csv", "version"):
        assert f"### situ.{fn}" in text, f"situ.{fn} is not documented"
    keys = re.findall(r"^  --([a-z-]+) ", ok(situ("--help")).stdout, re.M)
    for k in keys:
        assert f"`{k.replace('-', '_')}`" in text, f"parameter {k} is not in the ctx table"
    for field in ("particles", "sim_cores", "analytics_cores", "analytics_nodes", "sim_nodes",
                  "nodes_used", "steps", "step", "state_bytes"):
        assert f"`{field}`" in text, f"ctx.{field} is not documented"
    # A simulation profile's fields, and its ctx's placement.
    for field in ("params", "decomposition", "particles(ctx)", "cost(ctx)", "halo(ctx)",
                  "halo_period(ctx)", "state(ctx)", "px", "py", "pz"):
        assert f"`{field}`" in text, f"a simulation profile's {field} is not documented"


def main():
    global failed  # suite.none_matched may add one
    if not os.access(SITU, os.X_OK):
        print(f"lua: {SITU} is not an executable")
        print("lua: 0 passed, 1 failed")
        return 1
    try:
        for kind in BAD_ANALYTICS:
            check(f"analytics error: {kind}", bad_analytics(kind))
        check("analytics error: file shape and names", bad_shape)
        check("thermo.lua == built-in (model, every key)", thermo_model)
        check("thermo.lua == built-in (run, fast and full)", thermo_run)
        check("scatter: in-situ/in-transit crossover (model)", scatter_crossover)
        check("scatter: in-situ/in-transit crossover (run)", scatter_crossover_run)
        check("exchange patterns: model, engine, links", exchange_patterns)
        check("exchange at fidelity full", exchange_full_fidelity)
        check("ctx.step: per-step costs in the engine, failures in the child", step_dependent)
        check("analytics names and paths", analytics_names)
        check("analytics print goes to stderr", analytics_print_to_stderr)
        check("situ.params", api_params)
        check("situ.params errors", api_params_errors)
        check("situ.model", api_model)
        check("situ.model: the caution and the drift range, as the CLI's", api_model_caution)
        check("situ.run", api_run)
        check("situ.run failure: pcall, exit 3", api_run_failure)
        check("situ.run failure: the status is per call", api_run_failure_is_per_call)
        check("situ.sweep", api_sweep)
        check("situ.sweep errors and failed runs", api_sweep_errors)
        check("situ.advise", api_advise)
        check("situ.crossover (model and run)", api_crossover)
        check("situ.analytics", api_analytics)
        check("situ.run, situ.crossover and situ.advise with mapping=inline", api_inline)
        check("situ.crossover over strategies (two, and more: who is fastest where)",
              api_strategies)
        check("situ.table", api_table)
        check("situ.csv", api_csv_files)
        check("arg, require, situ.version", api_arg_require_version)
        check("syntax error", err_syntax)
        check("runtime errors", err_runtime)
        check("endless loop", err_loop)
        check("memory bomb", err_memory)
        for kind in SANDBOX:
            check(f"sandbox: {kind}", sandbox(kind))
        check("sandbox: reading and relative writes allowed", sandbox_allows)
        check("--unsafe lifts the sandbox", unsafe)
        check("situ script usage errors", script_usage)
        check("lesson efficiency (Fig. 8) headless", lesson("efficiency", 4))
        check("lesson frequency (Fig. 7) headless", lesson("frequency", 5))
        check("lesson mapping (Fig. 9) headless", lesson("mapping", 4))
        check("lesson --list", lesson_list)
        check("lesson solutions say defaults; help", lesson_solutions_name_defaults)
        check("lesson errors", lesson_errors)
        check("lesson quiz: the answer checked by the goal", lesson_quiz)
        check("NUL bytes in Lua strings are refused, not cut", nul_bytes_are_refused)
        check("Situ's own messages ignore a changed string library", own_messages_ignore_the_string_library)
        check("every example script runs", examples)
        check("docs/lua.md: examples, functions, ctx fields", docs)
    finally:
        shutil.rmtree(TMP, ignore_errors=True)
    failed += suite.none_matched("lua", passed + failed)
    print(f"lua: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
