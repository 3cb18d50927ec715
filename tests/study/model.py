#!/usr/bin/env python3
"""`situ sweep --model` and the sweep's CSV, through the real binary: each row is `situ model` of
its configuration, the grid is checked against its platform before any row is evaluated (one line,
exit 2, nothing written), the progress of a long model pass shows on a terminal only, the counts
say what happened, and the CSV has a column for each fact the JSON reports (model and simulated
rows, and situ.csv's the same). Ends with 'study-model: N passed, M failed'."""
import csv
import io
import json
import os
import pty
import shutil
import subprocess
import sys
import tempfile
import threading
import time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import suite  # noqa: E402

SITU = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "./situ")
TMP = tempfile.mkdtemp(prefix="situ-study-model-")
passed, failed = 0, 0

# The columns each fact the JSON reports gets (report_columns), after the older ones.
NEW_COLUMNS = ["state_bytes_moved", "staging_wait", "backpressure", "steps_simulated",
               "sampling_error"]
STAGING = ["--mapping", "intransit", "--nodes", "2", "--staging-memory", "2e7"]


def situ(*args, expect=0, cwd=None, env=None):
    p = subprocess.run([SITU, *args], capture_output=True, text=True, timeout=600, cwd=cwd,
                       env=env)
    if p.returncode != expect:
        raise AssertionError(f"situ {' '.join(args)}: exit {p.returncode}, expected {expect}: "
                             f"{p.stderr.strip()[-300:]}")
    return p


def on_a_terminal(*args):
    """Runs situ with stderr on a pseudo-terminal (stdout a pipe): (exit, stdout, stderr)."""
    master, slave = pty.openpty()
    p = subprocess.Popen([SITU, *args], stdout=subprocess.PIPE, stderr=slave, cwd=TMP)
    os.close(slave)
    got = []

    def drain():
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # EIO: the terminal's last writer is gone
                return
            if not chunk:
                return
            got.append(chunk)
    t = threading.Thread(target=drain)
    t.start()
    out = p.stdout.read()
    p.wait(timeout=600)
    t.join(timeout=30)
    os.close(master)
    return p.returncode, out.decode(), b"".join(got).decode(errors="replace")


def check(name, fn):
    global passed, failed
    if not suite.selected(name):  # CASE=PATTERN (tests/suite.py)
        return
    t0 = time.monotonic()
    try:
        fn()
        passed += 1
        print(f"ok   {name} ({time.monotonic() - t0:.1f} s)")
    except Exception as e:
        failed += 1
        print(f"FAIL {name}: {e}")


def csv_rows(text):
    return list(csv.DictReader(io.StringIO(text)))


def model_of(config, env=None):
    """`situ model --json` of a result's configuration, every parameter given."""
    flags = []
    for k, v in config.items():
        if v != "":
            flags += ["--" + k.replace("_", "-"), str(v)]
    return json.loads(situ("model", "--json", *flags, env=env).stdout)


def as_csv(v):
    """What a CSV field holds for a JSON value (report_csv_value)."""
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return "%.12g" % v
    return str(v)


# The parameters a layout is built from, each moving alone from one row to the next in one of
# the grids (the last axis is the fastest), with the stride (which keeps the layout) between.
LAYOUT_AXES = [("--ratio", "1,3,7"), ("--nodes", "2,5"), ("--mapping", "insitu,intransit"),
               ("--cores-per-node", "16,32")]
GRID = [w for a in LAYOUT_AXES for w in a] + ["--stride", "20,200", "--analytics", "histogram"]
MODELS = {}  # situ model of each configuration, by its JSON


def model_rows_are_situ_model():
    # The advisor's path keeps a layout and its halo exchange from row to row while they hold,
    # and every row must still be `situ model` of its own configuration, key for key.
    for last in range(len(LAYOUT_AXES)):
        axes = LAYOUT_AXES[:last] + LAYOUT_AXES[last + 1:] + [("--stride", "20,200"),
                                                               LAYOUT_AXES[last]]
        out = os.path.join(TMP, f"grid-{last}.jsonl")
        situ("sweep", "--model", "--no-cache", *[w for a in axes for w in a],
             "--analytics", "histogram", "--out", out)
        lines = [json.loads(l) for l in open(out)]
        assert len(lines) == 48, f"{len(lines)} rows"
        for r in lines:
            key = json.dumps(r["config"], sort_keys=True)
            if key not in MODELS:
                MODELS[key] = model_of(r["config"])
            m = MODELS[key]
            c = r["config"]
            assert r == m, (f"{LAYOUT_AXES[last][0]} fastest, ratio {c['ratio']} nodes {c['nodes']} "
                            f"{c['mapping']} cores {c['cores_per_node']} stride {c['stride']}: the "
                            "sweep's row is not situ model's: "
                            f"{ {k: (r.get(k), m.get(k)) for k in set(r) | set(m) if r.get(k) != m.get(k)} }")


def routes_asked_for_on_a_large_platform():
    # Over DIGEST_EAGER_HOSTS (128) hosts a digest holds only the routes a layout asked for: the
    # advisor's path asks for each new layout's, before its model (the advisor called every
    # candidate there an overflow, NaN, for want of them). A fresh cache: none known yet.
    big = os.path.join(TMP, "big256.xml")
    open(big, "w").write('<?xml version="1.0"?>\n<!DOCTYPE platform SYSTEM '
                         '"https://simgrid.org/simgrid.dtd">\n<platform version="4.1"><cluster '
                         'id="c" prefix="n-" suffix="" radical="1-256" speed="1Gf" core="32" '
                         'bw="10Gbps" lat="15us"/></platform>\n')
    env = dict(os.environ, XDG_CACHE_HOME=os.path.join(TMP, "cache-big"))
    grid = ["--platform", big, "--nodes", "150,200", "--ratio", "7,15"]
    p = situ("advise", *grid, "--verify", "0", env=env)
    assert "cannot evaluate" not in p.stdout + p.stderr, f"left out: {p.stdout + p.stderr}"
    assert "advise: 4 candidates by the model" in p.stdout, p.stdout.splitlines()[0]
    out = os.path.join(TMP, "big.jsonl")
    situ("sweep", "--model", "--no-cache", *grid, "--out", out, env=env)
    for r in (json.loads(l) for l in open(out)):
        assert r == model_of(r["config"], env), f"nodes {r['config']['nodes']}: not situ model's"


def model_csv_is_the_jsonl():
    # The CSV of the same grid: each result column is the JSON's value (report_columns' paths).
    out = os.path.join(TMP, "grid.jsonl")
    situ("sweep", "--model", "--no-cache", *GRID, "--out", out)
    rows = csv_rows(situ("sweep", "--model", "--no-cache", *GRID).stdout)
    lines = [json.loads(l) for l in open(out)]
    assert len(rows) == len(lines), f"{len(rows)} CSV rows, {len(lines)} JSON lines"
    for row, r in zip(rows, lines):
        for key in ("makespan", "efficiency", "state_bytes_moved", "scenario", "S", "A"):
            v = r.get(key, r["stage"].get(key) if key in r["stage"] else None)
            assert row[key] == as_csv(v), f"{key}: CSV {row[key]!r}, JSON {v!r}"
        for key in ("wall_seconds", "steps_simulated", "sampling_error", "staging_wait",
                    "backpressure"):
            assert row[key] == "", f"a model row has {key} = {row[key]!r}"


def checked_before_any_row():
    # The analytics fails at every row, and the grid's last node count is more than dahu's 32
    # hosts: the platform's refusal comes first, before the model (the analytics) of any row:
    # one line naming nodes, exit 2, nothing on stdout, nothing written.
    lua = os.path.join(TMP, "fails.lua")
    open(lua, "w").write('return { name = "fails", cost = function(ctx) error("failed at every row") end, bytes = 0 }\n')
    for model in (["--model"], []):
        out = os.path.join(TMP, "never.csv")
        p = situ("sweep", *model, "--no-cache", "--ratio", "1,3", "--nodes", "1,2,33",
                 "--iterations", "400", "--analytics", lua, "--out", out, expect=2)
        lines = p.stderr.strip().splitlines()
        assert len(lines) == 1, f"{model}: {len(lines)} lines: {p.stderr!r}"
        assert "nodes: 33 asked but platform" in lines[0] and "every row" not in lines[0], lines[0]
        assert p.stdout == "" and not os.path.exists(out), f"{model}: something was written"
        assert not [n for n in os.listdir(TMP) if "never" in n], "a temporary was left"
    # Without the bad node count, the analytics' failure is the one line.
    p = situ("sweep", "--model", "--no-cache", "--ratio", "1,3", "--nodes", "1,2",
             "--iterations", "400", "--analytics", lua, expect=2)
    assert "failed at every row" in p.stderr and len(p.stderr.strip().splitlines()) == 1, p.stderr


def counts_say_what_happened():
    out = os.path.join(TMP, "counted.csv")
    p = situ("sweep", "--model", "--no-cache", "--ratio", "1,3,7", "--nodes", "1,2", "--out", out)
    assert p.stderr.strip() == f"situ: wrote {out} (6 rows of 6 configurations: 6 modelled)", p.stderr
    rc, _, err = on_a_terminal("sweep", "--model", "--no-cache", "--ratio", "1,3,7", "--nodes", "1,2")
    assert rc == 0 and "sweep: 6 configurations, 6 modelled" in err, f"exit {rc}: {err!r}"
    # A simulated sweep says what it simulated and what the cache gave.
    cache = os.path.join(TMP, "cache-counts")
    for simulated, cached in ((2, 0), (0, 2)):
        p = situ("sweep", "--ratio", "1,3", "--iterations", "400", "--cache", cache, "--out", out)
        want = f"(2 rows of 2 configurations: {simulated} simulated, {cached} from the cache, 0 failed)"
        assert want in p.stderr, f"{want} not in {p.stderr!r}"


# A Lua analytics whose every evaluation computes for a while (0.15 s here, 4 10^7 of its 10^8
# instructions): 12 rows are a model pass of seconds, long enough for the progress line.
SLOW = """local function busy()
  local x = 0
  for i = 1, 2e7 do x = x + i end
  return x
end
return { name = "slow", cost = function(ctx) return 1e-9 * ctx.particles + 0 * busy() end,
         bytes = function(ctx) return ctx.particles * 8 end }
"""


def progress_on_a_terminal_only():
    lua = os.path.join(TMP, "slow.lua")
    open(lua, "w").write(SLOW)
    args = ["sweep", "--model", "--no-cache", "--ratio", "1,3,7", "--nodes", "1..4",
            "--iterations", "400", "--analytics", lua]
    t0 = time.monotonic()
    rc, out, err = on_a_terminal(*args)
    took = time.monotonic() - t0
    assert rc == 0, f"exit {rc}: {err[-300:]!r}"
    bare = err.replace("\r\n", "\n")  # (the terminal ends each line with both)
    assert "\r" in bare and "rows/s" in err and "12/12" in err, \
        f"no progress on the terminal in {took:.2f} s (the bar shows after 0.5 s): {err!r}"
    assert err.endswith("sweep: 12 configurations, 12 modelled\r\n"), f"the summary: {err[-80:]!r}"
    assert len(csv_rows(out)) == 12, "stdout is not the 12 rows"
    # The same to a pipe: no progress, no carriage return, nothing but the CSV on stdout.
    p = situ(*args, cwd=TMP)  # (where on_a_terminal runs: the platform's path is the same)
    assert p.stderr == "", f"stderr of a pipe: {p.stderr!r}"
    assert p.stdout == out, "the rows differ between a terminal and a pipe"
    # A grid the model evaluates in a blink shows no bar on a terminal either.
    rc, _, err = on_a_terminal("sweep", "--model", "--no-cache", "--ratio", "1,3,7,15,31",
                               "--nodes", "1..32")
    assert rc == 0 and "rows/s" not in err and "\r" not in err.replace("\r\n", "\n"), \
        f"a bar for an instant grid: {err!r}"


def simulated_rows_have_every_column():
    # A simulated sweep, in situ and with staging servers: the CSV holds what the JSON lines of
    # the same runs (from the cache) report, sampling and staging included.
    cache = os.path.join(TMP, "cache-columns")
    base = ["--iterations", "400", "--cache", cache]
    jl, cs = os.path.join(TMP, "sim.jsonl"), os.path.join(TMP, "sim.csv")
    situ("sweep", "--dtl", "mailbox,staging", *STAGING, *base, "--out", jl)
    situ("sweep", "--dtl", "mailbox,staging", *STAGING, *base, "--out", cs)
    lines, rows = [json.loads(l) for l in open(jl)], list(csv.DictReader(open(cs)))
    header = open(cs).readline().strip().split(",")
    assert header[-len(NEW_COLUMNS):] == NEW_COLUMNS, f"header ends {header[-6:]}"
    assert len(header) == len(set(header)), "a column name twice"
    assert len(rows) == 2 == len(lines)
    for row, r in zip(rows, lines):
        staging = r["config"]["dtl"] == "staging"
        assert row["dtl"] == r["config"]["dtl"] and row["sampling"] == r["config"]["sampling"]
        assert row["state_bytes_moved"] == as_csv(r["state_bytes_moved"])
        assert row["steps_simulated"] == as_csv(r["sampling"]["steps_simulated"]), row["steps_simulated"]
        assert row["sampling_error"] == as_csv(r["sampling"]["error"]), row["sampling_error"]
        assert int(row["steps_simulated"]) > 0
        assert row["staging_wait"] == as_csv(r.get("staging_wait")), row["staging_wait"]
        assert row["backpressure"] == as_csv(r.get("backpressure")), row["backpressure"]
        assert (row["backpressure"] in ("true", "false")) == staging, f"{row['dtl']}: {row['backpressure']!r}"
    # The model's rows of the same grid: staging's columns too, none of a simulation's.
    for row in csv_rows(situ("sweep", "--model", "--no-cache", "--dtl", "mailbox,staging",
                             *STAGING, "--iterations", "400").stdout):
        staging = row["dtl"] == "staging"
        assert (row["staging_wait"] != "") == staging and (row["backpressure"] != "") == staging, row
        assert row["state_bytes_moved"] != "" and row["steps_simulated"] == "" == row["sampling_error"]


def merge_and_situ_csv_have_the_same_columns():
    # situ merge of the JSON lines writes the sweep's CSV; situ.csv of the same results too
    # (its `sampling` column the parameter, not a simulation's sampling object).
    jl, cs = os.path.join(TMP, "sim.jsonl"), os.path.join(TMP, "sim.csv")
    merged = os.path.join(TMP, "merged.csv")
    situ("merge", jl, "--out", merged)
    assert open(merged).read() == open(cs).read(), "situ merge's CSV differs from the sweep's"
    script = os.path.join(TMP, "csv.lua")
    open(script, "w").write(
        "local rs = situ.sweep{dtl = {'mailbox', 'staging'}, mapping = 'intransit', nodes = 2,\n"
        "                      staging_memory = 2e7, iterations = 400}\n"
        "situ.csv('lua.csv', rs)\n")
    situ("script", script, cwd=TMP)
    lua_rows = list(csv.DictReader(open(os.path.join(TMP, "lua.csv"))))
    header = open(os.path.join(TMP, "lua.csv")).readline().strip().split(",")
    assert header == open(cs).readline().strip().split(","), f"situ.csv's header: {header}"
    for row in lua_rows:
        assert row["sampling"] == "auto", f"situ.csv's sampling column: {row['sampling']!r}"
        assert int(row["steps_simulated"]) > 0 and row["state_bytes_moved"] != ""
        assert (row["backpressure"] != "") == (row["dtl"] == "staging"), row


TESTS = [model_rows_are_situ_model, routes_asked_for_on_a_large_platform, model_csv_is_the_jsonl, checked_before_any_row,
         counts_say_what_happened, progress_on_a_terminal_only, simulated_rows_have_every_column,
         merge_and_situ_csv_have_the_same_columns]
for t in TESTS:
    check(t.__name__.replace("_", " "), t)
shutil.rmtree(TMP, ignore_errors=True)
failed += suite.none_matched("study-model", passed + failed)
print(f"study-model: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
