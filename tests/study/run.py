#!/usr/bin/env python3
"""Study tests: situ sweep, the disk cache, atomic output, scale-out (emitted commands through GNU
parallel, then situ merge) and situ reproduce, all through the real binary.
Ends with 'study: N passed, M failed'."""
import csv
import glob
import io
import json
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import suite  # noqa: E402
import proctree  # noqa: E402

SITU = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "./situ")
TMP = tempfile.mkdtemp(prefix="situ-study-")
passed, failed = 0, 0


def situ(*args, expect=0, cwd=None):
    p = subprocess.run([SITU, *args], capture_output=True, text=True, timeout=600, cwd=cwd)
    if p.returncode != expect:
        raise AssertionError(f"situ {' '.join(args)}: exit {p.returncode}, expected {expect}: {p.stderr.strip()[-300:]}")
    return p


def check(name, fn):
    global passed, failed
    if not suite.selected(name):  # CASE=PATTERN (tests/suite.py)
        return
    try:
        fn()
        passed += 1
        print(f"ok   {name}")
    except Exception as e:
        failed += 1
        print(f"FAIL {name}: {e}")


def rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))


SMALL = ["--ratio", "1,3", "--nodes", "1,2", "--iterations", "400"]


def sweep_rows_and_columns():
    out = os.path.join(TMP, "a.csv")
    situ("sweep", *SMALL, "--out", out, "--cache", os.path.join(TMP, "cache-a"))
    r = rows(out)
    header = open(out).readline().strip().split(",")
    params = json.loads(situ("model", "--json").stdout)["config"].keys()
    assert header[:len(params)] == list(params), f"header starts {header[:5]}"
    for k in ("makespan", "efficiency", "scenario", "sim_cores", "wall_seconds", "activities"):
        assert k in header, f"no column {k}"
    assert len(r) == 4, f"{len(r)} rows"
    assert sorted((x["ratio"], x["nodes"]) for x in r) == [("1", "1"), ("1", "2"), ("3", "1"), ("3", "2")]
    for x in r:  # each row is the simulation of its own configuration
        m = json.loads(situ("model", "--json", "--ratio", x["ratio"], "--nodes", x["nodes"], "--iterations", "400").stdout)
        assert int(x["sim_cores"]) == m["sim_cores"]
        assert abs(float(x["makespan"]) / m["makespan"] - 1) < 0.02


def cache_second_run_simulates_nothing():
    cache = os.path.join(TMP, "cache-b")
    first, second = os.path.join(TMP, "b1.jsonl"), os.path.join(TMP, "b2.jsonl")
    situ("sweep", *SMALL, "--out", first, "--cache", cache)
    entries = glob.glob(os.path.join(cache, "*.json"))
    assert len(entries) == 4, f"{len(entries)} cache entries"
    stamp = {e: os.stat(e).st_mtime_ns for e in entries}
    situ("sweep", *SMALL, "--out", second, "--cache", cache)
    # wall_seconds is measured by each simulation: identical lines mean nothing was simulated.
    assert open(first).read() == open(second).read(), "second run differs: it simulated again"
    assert all(os.stat(e).st_mtime_ns == t for e, t in stamp.items()), "cache entries rewritten"


def cache_key_follows_the_analytics_content():
    # The same configuration with the analytics file edited (its cost 100x larger, the same
    # size, the same mtime): the cache must not return the old makespans.
    cache = os.path.join(TMP, "cache-ana")
    lua = os.path.join(TMP, "dear.lua")
    text = 'return { name = "dear", cost = %s, bytes = 0 }\n'
    args = ["sweep", "--ratio", "1,3", "--iterations", "400", "--analytics", lua, "--cache", cache]
    open(lua, "w").write(text % "0.50")
    st = os.stat(lua)
    first = os.path.join(TMP, "ana-1.csv")
    situ(*args, "--out", first)
    open(lua, "w").write(text % "50.0")
    os.utime(lua, ns=(st.st_atime_ns, st.st_mtime_ns))
    second = os.path.join(TMP, "ana-2.csv")
    situ(*args, "--out", second)
    before = {x["ratio"]: float(x["makespan"]) for x in rows(first)}
    after = {x["ratio"]: float(x["makespan"]) for x in rows(second)}
    for ratio, m in after.items():
        fresh = json.loads(situ("model", "--json", "--ratio", ratio, "--iterations", "400",
                                "--analytics", lua).stdout)["makespan"]
        assert abs(m / fresh - 1) < 0.02, f"ratio {ratio}: {m:.4g} s after the edit, the model says {fresh:.4g} s (before: {before[ratio]:.4g} s)"
        assert m > 2 * before[ratio], f"ratio {ratio}: {m:.4g} s after a 100x dearer analytics, {before[ratio]:.4g} s before"
    assert len(glob.glob(os.path.join(cache, "*.json"))) == 4, "the edit did not make new entries"


def cache_corrupt_entry_is_rerun():
    cache = os.path.join(TMP, "cache-c")
    out = os.path.join(TMP, "c.jsonl")
    situ("sweep", *SMALL, "--out", out, "--cache", cache)
    victim = sorted(glob.glob(os.path.join(cache, "*.json")))[0]
    open(victim, "w").write('{"config_key": "garbage", "resu')
    situ("sweep", *SMALL, "--out", out, "--cache", cache)
    assert len(open(out).read().splitlines()) == 4
    entry = json.load(open(victim))  # replaced by a valid entry
    assert "result" in entry and entry["result"]["makespan"] > 0


def cache_incomplete_entry_is_rerun():
    """An entry that parses but is not a whole result (only a makespan, a negative one, a zero
    one, an efficiency of 7) is run again: every row comes out complete, and the entry is replaced."""
    cache = os.path.join(TMP, "cache-i")
    out = os.path.join(TMP, "i.csv")
    situ("sweep", *SMALL, "--out", out, "--cache", cache)
    entries = sorted(glob.glob(os.path.join(cache, "*.json")))
    assert len(entries) == 4, f"{len(entries)} entries"
    for victim, broken in zip(entries, ({"makespan": 1.0}, "negative", "zero", "efficiency")):
        entry = json.load(open(victim))
        if broken == "negative":
            entry["result"]["makespan"] = -entry["result"]["makespan"]
        elif broken == "zero":
            entry["result"]["makespan"] = 0
        elif broken == "efficiency":
            entry["result"]["efficiency"] = 7
        else:
            entry["result"] = broken
        json.dump(entry, open(victim, "w"))
    situ("sweep", *SMALL, "--out", out, "--cache", cache)
    for row in rows(out):
        assert row["sim_active"] and float(row["makespan"]) > 0 and float(row["efficiency"]) <= 1, row
    for victim in entries:
        r = json.load(open(victim))["result"]
        assert "stage" in r and r["makespan"] > 0 and r["efficiency"] <= 1, r


def race(kind):
    """kind's file (the platform, or the analytics) is saved again once a full-fidelity sweep's
    first simulation has read it (its log says it started), while it runs: that result must stay
    out of the cache, said once, and the next sweep must simulate again, with the new file."""
    d = os.path.join(TMP, f"race-{kind}")
    os.makedirs(d)
    plat, lua, log = (os.path.join(d, n) for n in ("p.xml", "a.lua", "sim.log"))
    xml = open(os.path.join(os.path.dirname(SITU), "platforms", "dahu.xml")).read()
    ana = 'return { name = "a", cost = %s, bytes = 0 }\n'
    open(plat, "w").write(xml)
    open(lua, "w").write(ana % "0.5")
    nodes = "4"
    if kind == "trace":  # a file the platform names: node-1's speed from 1 s on
        nodes = "2"
        trace_platform(d)
        shutil.copy(os.path.join(d, "trace.xml"), plat)
        edited, new = os.path.join(d, "speed.trace"), "0 1.0\n1 0.05\n"
    elif kind == "platform":
        edited, new = plat, xml.replace('speed="1Gf"', 'speed="2Gf"')
    else:
        edited, new = lua, ana % "50"
    args = [SITU, "sweep", "--fidelity", "full", "--iterations", "8000", "--nodes", nodes, "--ratio", "1,3,7",
            "--jobs", "3", "--platform", plat, "--analytics", lua]
    cache = ["--cache", os.path.join(d, "cache")]
    env = dict(os.environ, SITU_SIM_LOG="situ_sim.thresh:verbose", SITU_SIM_LOG_FILE=log)
    p = subprocess.Popen(args + cache + ["--out", os.path.join(d, "1.jsonl")], stderr=subprocess.PIPE,
                         text=True, env=env)
    deadline = time.time() + 120
    while time.time() < deadline and not (os.path.exists(log) and "full fidelity" in open(log).read()):
        time.sleep(0.01)
    open(edited, "w").write(new)
    _, err = p.communicate(timeout=300)
    assert p.returncode == 0, f"first sweep: exit {p.returncode}: {err[-300:]}"
    lines = [x for x in err.splitlines() if "changed during the run" in x]
    assert lines == [f"situ: {edited} changed during the run: result not cached"], f"stderr: {err[-500:]}"
    stored = glob.glob(os.path.join(d, "cache", "*.json"))
    assert not stored, f"{len(stored)} results of runs that read the file as it was before were cached"
    subprocess.run(args + cache + ["--out", os.path.join(d, "2.jsonl")], check=True, capture_output=True)
    subprocess.run(args + ["--no-cache", "--out", os.path.join(d, "3.jsonl")], check=True, capture_output=True)
    first, second, fresh = ([json.loads(x)["makespan"] for x in open(os.path.join(d, f"{n}.jsonl"))]
                            for n in "123")
    assert first != fresh, f"the edit came too late to race a run: {first} both times"
    assert second == fresh, f"the next sweep gives {second}, the new {kind} gives {fresh} (before the edit: {first})"


def cache_refuses_a_platform_edited_during_the_run():
    race("platform")


def cache_refuses_an_analytics_edited_during_the_run():
    race("analytics")


def cache_refuses_a_trace_edited_during_the_run():
    race("trace")


def trace_platform(d):
    """tests/engine/trace (a platform with a speed_file and a bandwidth_file) copied into d."""
    src = os.path.join(os.path.dirname(SITU), "tests", "engine", "trace")
    for name in os.listdir(src):
        shutil.copy(os.path.join(src, name), d)
    return os.path.join(d, "trace.xml")


def cache_key_follows_the_files_a_platform_names():
    """A trace file edited between two sweeps (same size, same mtime): the second sweep must
    simulate again and give what a sweep without the cache gives; the model says it ignores the
    traces, once, and a missing trace is bad input naming the platform and the file."""
    d = os.path.join(TMP, "trace-key")
    os.makedirs(d)
    plat, trace = trace_platform(d), os.path.join(d, "speed.trace")
    cache = os.path.join(d, "cache")
    args = ["sweep", "--platform", plat, "--nodes", "2", "--ratio", "1,3", "--iterations", "1000",
            "--region", "30", "--cache", cache]
    st = os.stat(trace)
    situ(*args, "--out", os.path.join(d, "1.csv"))
    text = open(trace).read()
    open(trace, "w").write(text.replace("0.5", "0.1"))
    os.utime(trace, ns=(st.st_atime_ns, st.st_mtime_ns))
    situ(*args, "--out", os.path.join(d, "2.csv"))
    situ(*args[:-2], "--no-cache", "--out", os.path.join(d, "3.csv"))
    first, second, fresh = ({x["ratio"]: float(x["makespan"]) for x in rows(os.path.join(d, f"{n}.csv"))}
                            for n in "123")
    assert second == fresh, f"after the trace's edit: {second}, without the cache: {fresh}"
    assert all(second[r] > 1.5 * first[r] for r in first), f"a 5x slower node from 1 s: {first} then {second}"
    m = json.loads(situ("model", "--json", "--platform", plat, "--nodes", "2").stdout)
    assert "the platform has traces" in m.get("warning", ""), f"model's warning: {m.get('warning')}"
    r = json.loads(situ("run", "--json", "--platform", plat, "--nodes", "2", "--iterations", "400").stdout)
    assert "traces" not in r.get("warning", ""), f"SimGrid plays the traces: {r.get('warning')}"
    os.unlink(trace)
    for cmd in ("model", "run", "sweep"):
        err = situ(cmd, "--platform", plat, "--nodes", "2", "--iterations", "400", "--no-cache" if cmd == "sweep" else "--json",
                   expect=2).stderr.strip()
        assert err.count("\n") == 0 and plat in err and "speed_file 'speed.trace'" in err, f"{cmd}: {err}"


def digest_cache_keeps_the_version_it_read():
    """SimGrid reads the platform by its path after situ hashed it: a file saved in between (here
    two versions, one core speed apart, swapped in by rename as fast as can be) must never leave
    one version's digest under the other's key, for every later model to trust."""
    d = os.path.join(TMP, "digest-race")
    os.makedirs(d)
    text = open(os.path.join(os.path.dirname(SITU), "platforms", "dahu.xml")).read()
    versions = {}
    for name, speed in (("a", "1Gf"), ("b", "2Gf")):
        body = re.sub(r'speed="[^"]*"', f'speed="{speed}"', text, count=1)
        assert body != text or speed == "1Gf", "no speed to change in dahu.xml"
        path = os.path.join(d, name + ".xml")
        open(path, "w").write(body)
        cache = os.path.join(d, "ref-" + name)
        subprocess.run([SITU, "model", "--platform", path], env=dict(os.environ, XDG_CACHE_HOME=cache),
                       capture_output=True, check=True, timeout=60)
        [entry] = os.listdir(os.path.join(cache, "situ", "platforms"))
        versions[entry] = open(os.path.join(cache, "situ", "platforms", entry)).read()
    assert len(set(versions.values())) == 2, "the two versions have one digest"
    flip = os.path.join(d, "flip.xml")
    stop = threading.Event()

    def swap():
        bodies = [open(os.path.join(d, n + ".xml")).read() for n in ("a", "b")]
        while not stop.is_set():
            for b in bodies:
                open(flip + ".new", "w").write(b)
                os.replace(flip + ".new", flip)
    shutil.copy(os.path.join(d, "a.xml"), flip)
    writer = threading.Thread(target=swap)
    writer.start()
    try:
        for i in range(25):
            subprocess.run([SITU, "model", "--platform", flip], capture_output=True, timeout=60,
                           env=dict(os.environ, XDG_CACHE_HOME=os.path.join(d, f"c{i}")))
    finally:
        stop.set()
        writer.join()
    wrong = []
    for i in range(25):
        where = os.path.join(d, f"c{i}", "situ", "platforms")
        for entry in os.listdir(where) if os.path.isdir(where) else []:
            if entry in versions and open(os.path.join(where, entry)).read() != versions[entry]:
                wrong.append(f"c{i}/{entry}")
    assert not wrong, f"another version's digest under a version's key: {wrong}"


def unusable_cache_directory_is_one_line():
    """A cache directory that cannot be written (here a file where it should be, which stops root
    too) costs the cache only: the sweep works, says so in one line, and leaves nothing behind."""
    for where in ("xdg", "cache"):
        d = os.path.join(TMP, f"unusable-{where}")
        os.makedirs(os.path.join(d, "tmp"))
        blocker = os.path.join(d, "file")
        open(blocker, "w").close()
        env = dict(os.environ, TMPDIR=os.path.join(d, "tmp"), XDG_CACHE_HOME=blocker if where == "xdg" else d)
        out = os.path.join(d, "out.jsonl")
        p = subprocess.run([SITU, "sweep", *SMALL, "--out", out, "--jobs", "2"]
                           + (["--cache", os.path.join(blocker, "situ")] if where == "cache" else []),
                           capture_output=True, text=True, env=env, timeout=300)
        assert p.returncode == 0, f"{where}: exit {p.returncode}: {p.stderr[-300:]}"
        said = [x for x in p.stderr.splitlines() if not x.startswith(("sweep:", "situ: wrote "))]
        assert len(said) == 1 and said[0].startswith(f"situ: cache directory {blocker}/situ unusable (") \
            and said[0].endswith("): nothing is cached"), f"{where}: stderr {p.stderr}"
        got = [json.loads(x)["makespan"] for x in open(out)]
        situ("sweep", *SMALL, "--no-cache", "--out", os.path.join(d, "want.jsonl"))
        want = [json.loads(x)["makespan"] for x in open(os.path.join(d, "want.jsonl"))]
        assert got == want, f"{where}: {got}, with a usable cache {want}"
        assert not os.listdir(os.path.join(d, "tmp")), f"{where}: left in TMPDIR: {os.listdir(os.path.join(d, 'tmp'))}"


def unwritable_destination():
    out = os.path.join(TMP, "no-such-dir", "x.csv")
    p = situ("sweep", *SMALL, "--out", out, "--no-cache", expect=2)
    assert "x.csv" in p.stderr and not os.path.exists(out)


def interrupted_sweep_leaves_no_file():
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        interrupted_by(sig)


def interrupted_by(sig):
    cache = os.path.join(TMP, f"cache-int-{int(sig)}")
    out = os.path.join(TMP, "int.csv")
    p = subprocess.Popen([SITU, "sweep", "--ratio", "1,3,7,15,31", "--nodes", "1..8", "--stride", "20,40",
                          "--fidelity", "full", "--iterations", "800", "--jobs", "2", "--out", out,
                          "--cache", cache], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         start_new_session=True)  # its session: what it leaves is found by it
    deadline = time.time() + 60
    while time.time() < deadline and len(glob.glob(os.path.join(cache, "*.json"))) < 2:
        time.sleep(0.05)
    p.send_signal(sig)
    _, err = p.communicate(timeout=60)
    assert p.returncode == 128 + int(sig), f"{sig.name}: exit {p.returncode}: {err[-200:]}"
    for entry in glob.glob(os.path.join(cache, "*.json")):  # every entry whole and usable
        assert json.load(open(entry))["result"]["makespan"] > 0
    assert not os.path.exists(out), "a partial output file was left"
    left = glob.glob(out + "*") + glob.glob(os.path.join(TMP, ".int.csv*"))
    assert not left, f"temp files left: {left}"
    done = len(glob.glob(os.path.join(cache, "*.json")))
    assert 2 <= done < 80, f"{done} results cached"
    leftover = proctree.in_session(p.pid)
    assert not leftover, f"children left running: {proctree.describe(leftover)}"


def emitted_commands_round_trip():
    if not shutil.which("parallel"):
        raise AssertionError("GNU parallel is not installed (make test installs it)")
    cmds = situ("sweep", *SMALL, "--emit-commands").stdout
    assert len(cmds.splitlines()) == 4 and all(" run --json " in l for l in cmds.splitlines())
    elsewhere = os.path.join(TMP, "elsewhere")
    os.makedirs(elsewhere, exist_ok=True)
    cmdfile = os.path.join(TMP, "cmds.txt")
    open(cmdfile, "w").write(cmds)
    par = subprocess.run(["parallel", "--will-cite", "-j", "2"], stdin=open(cmdfile), capture_output=True,
                         text=True, cwd=elsewhere, timeout=300)
    assert par.returncode == 0, par.stderr[-300:]
    results = os.path.join(TMP, "par.jsonl")
    open(results, "w").write(par.stdout)
    merged, local = os.path.join(TMP, "merged.csv"), os.path.join(TMP, "local.csv")
    situ("merge", results, "--out", merged)
    situ("sweep", *SMALL, "--no-cache", "--out", local)
    key = lambda r: (r["ratio"], r["nodes"])
    drop = lambda r: {k: v for k, v in r.items() if k not in ("wall_seconds", "platform")}
    a = sorted(map(drop, rows(merged)), key=key)
    b = sorted(map(drop, rows(local)), key=key)
    assert len(a) == 4 and a == b, "merged results differ from the local sweep"


def emitted_commands_refuse_control_characters():
    """A newline reaching a command through the absolute path of a relative one (the working
    directory's name) would split that command in two lines: exit 2, nothing printed."""
    d = os.path.join(TMP, "nl\ndir")
    os.makedirs(d, exist_ok=True)
    open(os.path.join(d, "ok.lua"), "w").write(
        'return {name = "x", cost = function(ctx) return 1e-9 end}\n')
    p = situ("sweep", "--emit-commands", "--ratio", "7,15", "--analytics", "./ok.lua", cwd=d,
             expect=2)
    assert p.stdout == "" and "analytics" in p.stderr, (p.stdout[:200], p.stderr)


def merge_rejects_mismatched_inputs():
    good = json.loads(situ("run", "--json", "--iterations", "400").stdout)
    odd = dict(good, config={k: v for k, v in good["config"].items() if k != "ratio"})
    path = os.path.join(TMP, "odd.jsonl")
    open(path, "w").write(json.dumps(good) + "\n" + json.dumps(odd) + "\n")
    out = os.path.join(TMP, "odd.csv")
    p = situ("merge", path, "--out", out, expect=2)
    assert "odd.jsonl:2" in p.stderr and "ratio" in p.stderr and not os.path.exists(out)
    open(path, "w").write("not json\n")
    p = situ("merge", path, expect=2)
    assert "odd.jsonl:1" in p.stderr


def bad_lists():
    for args, needle in ((["--ratio", "1.."], "ratio"), (["--nodes", "8..1"], "nodes"),
                         (["--stride", "a,b"], "stride"), (["--ratio", ","], "ratio"),
                         (["--bogus", "1"], "bogus"), (["--preset", "no-such-preset"], "no-such-preset"),
                         (["--ratio", "4"], "ratio"), (["--stride:ratio", "20"], "stride:ratio"),
                         (["--ratio:ratio", "7:15"], "ratio")):
        p = situ("sweep", *args, "--no-cache", expect=2)
        lines = p.stderr.strip().splitlines()
        assert len(lines) == 1 and needle in lines[0], f"{args}: {p.stderr!r}"
        assert p.stdout == "", f"{args}: stdout not empty"


def model_sweep_matches_model():
    out = os.path.join(TMP, "m.jsonl")
    situ("sweep", "--model", "--ratio", "1,3,7,15,31", "--stride", "20..1000x50", "--out", out)
    lines = [json.loads(l) for l in open(out)]
    assert len(lines) == 5 * 2, f"{len(lines)} lines (realisable ratios 1,3,7,15,31 x strides 20,1000)"
    for r in lines:
        c = r["config"]
        m = json.loads(situ("model", "--json", "--ratio", str(c["ratio"]), "--stride", str(c["stride"])).stdout)
        assert r["makespan"] == m["makespan"]


def png_size(path):
    data = open(path, "rb").read(32)
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    w, h = struct.unpack(">II", data[16:24])
    return w, h


def model_crossover(*flags):
    """The crossover the explorer shows for a configuration: the model's, by situ.crossover."""
    script = os.path.join(TMP, "xover.lua")
    with open(script, "w") as f:
        f.write("local x = situ.crossover{base = situ.params{%s}}\nprint(x)\n" % ", ".join(flags))
    return float(situ("script", script).stdout.split()[-1])


def two_digits(x):
    """Two significant digits, the rounding every front end shows a crossover with."""
    return float(f"{x:.2g}")


def overlaps(a, b):
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def check_drawn(dump, names):
    """What each figure says it drew (SITU_CHART_DUMP): every axis with at least 4 tick labels,
    no text under a legend but the legend's own, every text inside the figure, and a subtitle
    naming the engine."""
    drawn = {os.path.basename(d["file"]): d for d in map(json.loads, open(dump))}
    for name in names:
        d = drawn[name]
        for k, axis in enumerate(d["axes"]):
            assert axis["xticks"] >= 4 and axis["yticks"] >= 4, f"{name}: axis {k} has {axis}"
        for t in d["texts"]:
            x, y, w, h = t["box"]
            assert x >= 0 and y >= 0 and x + w <= d["width"] and y + h <= d["height"], \
                f"{name}: {t['text']!r} leaves the figure"
            for box in d["legends"]:
                assert t["role"] == "legend" or not overlaps(box, t["box"]), \
                    f"{name}: the legend hides {t['text']!r}"
    return drawn


def reproduce_figures():
    out = os.path.join(TMP, "rep")
    dump = os.path.join(TMP, "drawn.jsonl")
    p = subprocess.run([SITU, "reproduce", "all", "--out", out, "--cache", os.path.join(TMP, "cache-rep")],
                       capture_output=True, text=True, timeout=600, env=dict(os.environ, SITU_CHART_DUMP=dump))
    assert p.returncode == 0, p.stderr[-300:]
    sizes = {"fig7": (1200, 520), "fig8": (1400, 520), "fig9": (1300, 560), "scaling": (1200, 520)}
    for name, size in sizes.items():
        assert png_size(os.path.join(out, name + ".png")) == size, f"{name}.png size"
        svg = open(os.path.join(out, name + ".svg")).read()
        assert svg.startswith("<?xml") and "<svg" in svg
        assert len(rows(os.path.join(out, name + ".csv"))) > 10
        assert len(open(os.path.join(out, name + ".txt")).read()) > 40
        # one line per figure written, naming its files
        assert f"situ: wrote {out}/{name}.csv .png .svg .txt" in p.stderr, p.stderr[-400:]
    drawn = check_drawn(dump, [n + ".png" for n in sizes])
    for name in sizes:
        assert any("SimGrid simulation" in t["text"] for t in drawn[name + ".png"]["texts"]), \
            f"{name}: no subtitle says what drew it"
    fig9 = open(os.path.join(out, "fig9.txt")).read()
    # The scatter analytics of the Fig. 9 preset makes the two mappings cross near data scaling
    # 17; the summary's crossover is the explorer's (the model's, situ.crossover) at the two
    # digits both show, though SimGrid drew it: the study narrows its bracket with more runs.
    import re
    found = re.search(r"crossover at data scaling ~ ([0-9.e+]+): in-transit faster below, in-situ above", fig9)
    assert found, fig9
    explorer = model_crossover("nodes = 16", "ratio = 15", 'analytics = "scatter"')
    assert float(found.group(1)) == two_digits(explorer), (found.group(1), explorer)
    texts = [t["text"] for t in drawn["fig9.png"]["texts"]]
    assert f"crossover ~{found.group(1)}" in texts, "the figure's crossover is not the summary's"
    assert any(re.search(r"x1 = [0-9.]+ MB per analysis, [0-9.]+ B per particle", t) for t in texts), texts
    assert any("in transit, SimGrid" in t for t in texts) and any("in situ, SimGrid" in t for t in texts)
    fig8 = open(os.path.join(out, "fig8.txt")).read()
    assert "tipping point at R = 31" in fig8, fig8  # the paper's Fig. 8 finding
    # Fig. 8's panels have their own time axes: the 8-node panel's top tick is below the 1-node one's.
    ticks = [[float(t["text"]) for t in drawn["fig8.png"]["texts"]
              if t["role"] == "tick" and t["box"][0] < x0 and t["box"][0] > x0 - 100 and re.fullmatch(r"[0-9.]+", t["text"])]
             for x0 in (70, 1400 - 350 + 70)]
    assert ticks[0] and ticks[1] and max(ticks[1]) < max(ticks[0]) / 4, ticks
    # Fig. 7 with its preset (the overhead analytics) shows the paper's finding: the best pair
    # moves to rarer, heavier analyses as cores are added (R = 15: stride 20 on 32 cores, 200 from
    # 64 on); with thermo the pairs tie.
    fig7 = open(os.path.join(out, "fig7.txt")).read()
    assert "the best stride grows with the core count" in fig7, fig7
    r15 = next(l for l in fig7.splitlines() if l.strip().startswith("R = 15"))
    assert re.search(r"32 cores: stride 20 .*256 cores: stride 200 ", r15), r15
    assert rows(os.path.join(out, "fig7.csv"))[0]["analytics"] == "overhead"
    ov = os.path.join(TMP, "rep-thermo")
    situ("reproduce", "fig7", "--analytics", "thermo", "--out", ov, "--no-cache")
    fig7 = open(os.path.join(ov, "fig7.txt")).read()
    assert "the four pairs differ by at most" in fig7, fig7
    reproduce_writes_a_set_or_nothing(out)
    p = situ("reproduce", "fig10", expect=2)
    assert "fig10" in p.stderr
    p = situ("reproduce", "fig7", "--ratio=15", "--out", ov, expect=2)
    assert "ratio is one of this study's axes" in p.stderr, p.stderr
    p = situ("reproduce", "fig9", "--cores-per-node", "30", "--out", ov, expect=2)
    assert "nearest valid" in p.stderr, p.stderr


def reproduce_strategies():
    # `situ reproduce posthoc`: the strategies of its preset that this build's table knows are
    # compared (the model's), the others skipped and named; who is fastest in each range is
    # checked against the CSV's own rows.
    out = os.path.join(TMP, "rep-posthoc")
    p = situ("reproduce", "posthoc", "--out", out, "--no-cache")
    text = open(os.path.join(out, "posthoc.txt")).read()
    assert text == p.stdout, "the summary on stdout is the file's"
    assert png_size(os.path.join(out, "posthoc.png")) == (1300, 560)
    assert "skipped" not in text, text  # this build has every mapping, DTL and compression
    r = rows(os.path.join(out, "posthoc.csv"))
    names = {(x["mapping"], x["dtl"], x.get("compression", "1")) for x in r}
    assert ("insitu", "mailbox", "1") in names and ("intransit", "mailbox", "1") in names, names
    ranges = re.findall(r"^  (\S+) fastest from data scaling ([0-9.e+]+) to ([0-9.e+]+)", text, re.M)
    assert len(ranges) >= 2, text  # scatter: in transit below about 16, in situ above
    for who, lo, hi in ranges:
        for x in {float(x["data_scaling"]) for x in r}:
            if not float(lo) < x < float(hi):
                continue
            at = [x_ for x_ in r if float(x_["data_scaling"]) == x]
            best = min(at, key=lambda x_: float(x_["makespan"]))
            assert who.split("+")[0] == best["mapping"], f"x{x}: summary {who}, CSV {best['mapping']}"
    assert ranges[0][0] == "intransit" and ranges[-1][0] == "insitu", ranges
    # Each +c4 strategy is compared on its own rows of the CSV (compression 4), post hoc's files too.
    assert re.search(r"insitu\+c4 takes [0-9.]+ of insitu's makespan", text), text
    assert re.search(r"posthoc:file\+c4 takes [0-9.]+ of posthoc:file's makespan", text), text
    assert {(x["mapping"], float(x["compression"])) for x in r} == {
        (m, c) for m in ("posthoc", "insitu", "intransit") for c in (1, 4)}, "the strategy axis"
    # A strategy that does not apply to the base (in transit on one node) is skipped, and why.
    p = situ("reproduce", "posthoc", "--nodes", "1", "--out", os.path.join(TMP, "rep-one"),
             "--no-cache")
    assert "skipped intransit: nodes: mapping=intransit needs at least 2 nodes" in p.stdout, p.stdout
    # One node: post hoc's compressed files first (no analytics core to wait for), in situ last.
    assert re.search(r"^  posthoc:file\+c4 fastest from data scaling 1 to ", p.stdout, re.M), p.stdout
    assert re.search(r"^  insitu fastest from data scaling [0-9.]+ to 1000$", p.stdout, re.M), p.stdout


def advise_figures():
    """The advisor's figures: the heatmap has a colour scale with its ticks, the Pareto front's
    points are labelled, no label under the legend, 4 ticks an axis at least."""
    out, dump = os.path.join(TMP, "adv"), os.path.join(TMP, "adv-drawn.jsonl")
    p = subprocess.run([SITU, "advise", "--ratio", "1,3,7,15,31", "--nodes", "1,2,4,8", "--verify", "0", "--out", out],
                       capture_output=True, text=True, timeout=600, env=dict(os.environ, SITU_CHART_DUMP=dump))
    assert p.returncode == 0, p.stderr
    assert p.stderr.startswith(f"situ: wrote {out}/: advise.csv") and p.stderr.count("\n") == 1, p.stderr
    drawn = check_drawn(dump, ["heatmap.png", "pareto.png"])
    heat = drawn["heatmap.png"]["texts"]
    assert sum(t["role"] == "tick" for t in heat) >= 4, "the heatmap has no colour scale"
    labels = [t["text"] for t in drawn["pareto.png"]["texts"] if t["role"] == "label"]
    assert any(l.startswith("chosen (best efficiency)") for l in labels), labels
    assert any("nodes=" in l for l in labels), labels


def tree(d):
    """Every file under d (hidden ones too) with its bytes: what a failed write must not change."""
    if not os.path.exists(d):
        return None
    return {os.path.relpath(os.path.join(r, n), d): open(os.path.join(r, n), "rb").read()
            for r, _, names in os.walk(d) for n in names} | {"/dirs": sorted(r for r, _, _ in os.walk(d))}


def reproduce_writes_a_set_or_nothing(done):
    """A figure's four files are one set: a write that fails partway (files over RLIMIT_FSIZE, the
    CSV under it, the PNG over) leaves --out DIR as it was, an existing one (its own files, an old
    figure's) or an absent one (not created, nothing left beside it): exit 1, one line."""
    import resource
    csv_size = os.path.getsize(os.path.join(done, "fig8.csv"))
    assert os.path.getsize(os.path.join(done, "fig8.png")) > csv_size + 1024

    def small_files():
        signal.signal(signal.SIGXFSZ, signal.SIG_DFL)  # situ's to handle: a write fails with EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, (csv_size + 512, csv_size + 512))

    old = os.path.join(TMP, "rep-old")
    os.makedirs(old)
    open(os.path.join(old, "notes.txt"), "w").write("mine\n")
    open(os.path.join(old, "fig8.csv"), "w").write("an older fig8\n")
    fresh = os.path.join(TMP, "rep-fresh")
    for d in (old, fresh):
        before, beside = tree(d), sorted(os.listdir(TMP))
        p = subprocess.run([SITU, "reproduce", "fig8", "--out", d, "--cache", os.path.join(TMP, "cache-rep")],
                           capture_output=True, text=True, timeout=600, preexec_fn=small_files)
        lines = p.stderr.strip().splitlines()
        assert p.returncode == 1 and len(lines) == 1 and "fig8" in lines[0], f"exit {p.returncode}: {p.stderr}"
        assert tree(d) == before, f"{d}: {sorted(tree(d) or [])} after the failed write, {sorted(before or [])} before"
        assert sorted(os.listdir(TMP)) == beside, f"left beside {d}: {set(os.listdir(TMP)) - set(beside)}"
    situ("reproduce", "fig8", "--out", old, "--cache", os.path.join(TMP, "cache-rep"))
    assert sorted(os.listdir(old)) == ["fig8.csv", "fig8.png", "fig8.svg", "fig8.txt", "notes.txt"], os.listdir(old)
    assert open(os.path.join(old, "notes.txt")).read() == "mine\n", "a file not in the set was changed"


def fault(kind, *extra, env_extra=""):
    env = dict(os.environ, SITU_TEST_FAULT=kind + env_extra)
    out = os.path.join(TMP, "fault.csv")
    if os.path.exists(out):
        os.remove(out)
    # Its own process group: a sweep that never answers is killed with its children (forks,
    # in its group), or a hung child outlives the test and the next ones count it as theirs.
    p = subprocess.Popen([SITU, "sweep", "--ratio", "1,3,7", "--iterations", "400", "--no-cache",
                          "--out", out, *extra], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, env=env, start_new_session=True)
    try:
        stdout, stderr = p.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        raise AssertionError(f"situ sweep ({kind}) gave no answer in 120 s; its group was killed")
    done = subprocess.CompletedProcess(p.args, p.returncode, stdout, stderr)
    done.session = p.pid  # what it left behind: proctree.in_session(done.session)
    return done, (rows(out) if os.path.exists(out) else None)


def faulty_children_are_reported_and_the_rest_kept():
    for kind, needle in (("segv", "Segmentation fault"), ("abort", "Aborted"), ("kill", "Killed"),
                         ("garbage", "unreadable result"), ("partial", "unreadable result"),
                         ("exit", "simulation failed")):
        p, r = fault(kind + ":ratio=3")
        assert p.returncode == 3, f"{kind}: exit {p.returncode}"
        # the failure in one line, then the confirmation of the rows that were written
        errors = [l for l in p.stderr.splitlines() if l.startswith("situ:") and not l.startswith("situ: wrote ")]
        assert len(errors) == 1 and "ratio=3" in errors[0] and needle in errors[0], f"{kind}: {errors}"
        assert "(2 rows of 3 configurations" in p.stderr.splitlines()[-1], f"{kind}: {p.stderr[-300:]}"
        assert r is not None and sorted(x["ratio"] for x in r) == ["1", "7"], f"{kind}: rows {r and [x['ratio'] for x in r]}"
        leftover = proctree.in_session(p.session)
        assert not leftover, f"{kind}: children left behind: {proctree.describe(leftover)}"


def hung_child_is_killed_at_the_time_limit():
    t0 = time.time()
    p, r = fault("hang:ratio=7", "--time-limit", "1")
    assert p.returncode == 3 and "timed out after 1 s" in p.stderr, p.stderr
    assert r is not None and sorted(x["ratio"] for x in r) == ["1", "3"]
    assert time.time() - t0 < 30
    # Killed, as the name says: not left hanging once the sweep has given up on it.
    leftover = proctree.in_session(p.session)
    assert not leftover, f"the hung child is still there: {proctree.describe(leftover)}"


def retry_once_recovers_a_flaky_child():
    marker = os.path.join(TMP, "once")
    p, r = fault("segv:ratio=3", "--retry", "1", env_extra=":once=" + marker)
    assert p.returncode == 0, p.stderr
    assert os.path.exists(marker), "the fault never fired"
    assert sorted(x["ratio"] for x in r) == ["1", "3", "7"]


def run_rejects_a_garbled_child():
    for kind in ("garbage", "partial", "segv"):
        env = dict(os.environ, SITU_TEST_FAULT=kind)
        p = subprocess.run([SITU, "run", "--json", "--iterations", "400"], capture_output=True,
                           text=True, env=env, timeout=60)
        assert p.returncode == 3 and p.stdout == "", f"{kind}: exit {p.returncode}, stdout {p.stdout[:40]!r}"
        assert len(p.stderr.strip().splitlines()) == 1


def live_in_group(pgid):
    """Processes of group pgid that are not zombies (a reparented zombie waits for init)."""
    found = []
    for d in os.listdir("/proc"):
        try:
            stat = open(f"/proc/{d}/stat").read()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        if fields[0] != "Z" and int(fields[2]) == pgid:
            found.append(int(d))
    return found


def alive(pid):
    """pid itself or anything in its group, zombies aside."""
    try:
        stat = open(f"/proc/{pid}/stat").read()
        if stat[stat.rindex(")") + 2] != "Z":
            return True
    except OSError:
        pass
    return bool(live_in_group(pid))


def children_of(pid, deadline=30):
    end = time.time() + deadline
    while time.time() < end:
        kids = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split()
        if kids:
            return [int(k) for k in kids]
        time.sleep(0.05)
    raise AssertionError("no child started")


HANG_SCRIPT = """
local base = {iterations = 400}
if arg[1] == "sweep" then situ.sweep{base = base, ratio = {1, 3}, jobs = 2}
else situ.run(base) end
"""


def signals_kill_the_children():
    """TERM, INT, HUP to run, script (situ.run, situ.sweep) and sweep: every child's group is gone
    when the parent has exited, and the parent reports 128+N (or dies of N: the same status)."""
    lua = os.path.join(TMP, "hang.lua")
    open(lua, "w").write(HANG_SCRIPT)
    commands = {"run": ["run", "--iterations", "400"], "script run": ["script", lua, "run"],
                "script sweep": ["script", lua, "sweep"],
                "sweep": ["sweep", "--ratio", "1,3", "--iterations", "400", "--no-cache", "--jobs", "2"],
                "reproduce": ["reproduce", "fig8", "--iterations", "2000", "--no-cache", "--jobs",
                              "2", "--out", os.path.join(TMP, "rep-signal")]}
    env = dict(os.environ, SITU_TEST_FAULT="hang")
    for name, args in commands.items():
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            p = subprocess.Popen([SITU, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 env=env, start_new_session=True)
            kids = children_of(p.pid)
            time.sleep(0.2)  # past fork: the children are in their groups
            p.send_signal(sig)
            try:
                _, err = p.communicate(timeout=30)
            except subprocess.TimeoutExpired:  # a child holds the pipes open: it outlived p
                for k in kids:
                    os.kill(k, signal.SIGKILL)
                raise
            assert p.returncode in (128 + int(sig), -int(sig)), \
                f"{name} {sig.name}: exit {p.returncode}: {err[-200:]!r}"
            left = [k for k in kids if alive(k)]
            for k in left:
                os.kill(k, signal.SIGKILL)  # ours: do not leave them to the next test
            assert not left, f"{name} {sig.name}: children left running: {left}"
            assert not os.path.exists(os.path.join(TMP, "rep-signal")), \
                f"{name} {sig.name}: reproduce left the directory it made"


def nohup_keeps_hup_ignored():
    """A HUP that was ignored when situ started (nohup) stays ignored, in the children too."""
    env = dict(os.environ, SITU_TEST_FAULT="hang")
    p = subprocess.Popen([SITU, "run", "--iterations", "400"], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, env=env, start_new_session=True,
                         preexec_fn=lambda: signal.signal(signal.SIGHUP, signal.SIG_IGN))
    kids = children_of(p.pid)
    time.sleep(0.2)
    for pid in [p.pid] + kids:
        os.kill(pid, signal.SIGHUP)
    time.sleep(0.5)
    still = p.poll() is None and all(alive(k) for k in kids)
    p.terminate()
    p.wait(timeout=30)
    assert still, "a HUP ignored by nohup ended the run"
    assert not [k for k in kids if alive(k)], "children left after TERM"


def killed_parent_takes_its_children():
    """SIGKILL cannot be caught: PR_SET_PDEATHSIG ends the children."""
    env = dict(os.environ, SITU_TEST_FAULT="hang")
    for args in (["run", "--iterations", "400"],
                 ["sweep", "--ratio", "1,3", "--iterations", "400", "--no-cache", "--jobs", "2"]):
        p = subprocess.Popen([SITU, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             env=env, start_new_session=True)
        kids = children_of(p.pid)
        time.sleep(0.2)
        p.kill()
        p.wait(timeout=30)
        end = time.time() + 5
        while time.time() < end and any(alive(k) for k in kids):
            time.sleep(0.05)
        left = [k for k in kids if alive(k)]
        for k in left:
            os.kill(k, signal.SIGKILL)  # ours: do not leave them to the next test
        assert not left, f"{args[0]}: children outlived a SIGKILLed parent: {left}"


def one_fork_per_simulation():
    """Issue 15: every simulation child is one fork of the command that waits for it (run, sweep,
    script's situ.run and situ.sweep), and nothing below it forks again: a second supervisor
    (a `situ run` that forks its own child) would show as a grandchild."""
    lua = os.path.join(TMP, "hang1.lua")
    open(lua, "w").write(HANG_SCRIPT)
    commands = {"run": (["run", "--iterations", "400"], 1),
                "sweep": (["sweep", "--ratio", "1,3", "--iterations", "400", "--no-cache",
                           "--jobs", "2"], 2),
                "script run": (["script", lua, "run"], 1),
                "script sweep": (["script", lua, "sweep"], 2)}
    env = dict(os.environ, SITU_TEST_FAULT="hang")
    for name, (args, want) in commands.items():
        p = subprocess.Popen([SITU, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             env=env, start_new_session=True)
        try:
            end = time.time() + 10
            kids = children_of(p.pid)
            while len(kids) < want and time.time() < end:
                time.sleep(0.05)
                kids = children_of(p.pid)
            time.sleep(0.3)  # a second fork, if there were one, has happened by now
            grandchildren = {k: subprocess.run(["pgrep", "-P", str(k)], capture_output=True,
                                               text=True).stdout.split() for k in kids}
        finally:
            p.terminate()
            p.wait(timeout=30)
        assert len(kids) == want, f"{name}: {len(kids)} simulation children, expected {want}"
        assert not any(grandchildren.values()), \
            f"{name}: a simulation child forked again (two supervisors): {grandchildren}"


def cmdline(pid):
    try:
        return open(f"/proc/{pid}/cmdline", "rb").read().decode(errors="replace").split("\0")[:-1]
    except OSError:
        return []


HELPER = os.path.join(os.path.dirname(SITU), "situ-sim")


def maps_simgrid(pid):
    """Whether process pid has SimGrid's library mapped."""
    try:
        return "libsimgrid" in open(f"/proc/{pid}/maps").read()
    except OSError:
        return False


def simulations_run_in_the_helper():
    """The front end links no SimGrid: every command's simulation is the helper beside it, exec'd
    as `situ-sim __simulate` (run, a script's situ.run, a Lua analytics), with what the helper
    cannot know from the parameters passed on (--time-limit, --smpi-app and its arguments); the
    command itself never has SimGrid mapped, its child does."""
    lua = os.path.join(TMP, "hang-exec.lua")
    open(lua, "w").write(HANG_SCRIPT)
    lua_model = os.path.join(os.path.dirname(SITU), "scripts", "lua", "analytics", "histogram.lua")
    app = os.path.join(os.path.dirname(SITU), "build", "stencil")
    commands = {"run": ["run", "--iterations", "400"],
                "script": ["script", lua, "run"],
                "run --analytics LUA": ["run", "--iterations", "400", "--analytics", lua_model],
                "run --smpi-app": ["--time-limit", "7", "run", "--iterations", "400",
                                   "--smpi-app", app, "a b", "", "--"]}
    for name, args in commands.items():
        env = dict(os.environ, SITU_TEST_FAULT="hang")
        p = subprocess.Popen([SITU, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             env=env, start_new_session=True)
        try:
            kid = children_of(p.pid)[0]
            end = time.time() + 10
            argv = cmdline(kid)
            while (argv[:2] != [HELPER, "__simulate"] or not maps_simgrid(kid)) and time.time() < end:
                time.sleep(0.05)
                argv = cmdline(kid)
            front, helper = maps_simgrid(p.pid), maps_simgrid(kid)
        finally:
            p.terminate()
            p.wait(timeout=30)
        assert argv[:2] == [HELPER, "__simulate"], f"{name}: the child runs {argv[:4]}"
        assert helper and not front, f"{name}: SimGrid mapped in the front end {front}, the helper {helper}"
        if name == "run --smpi-app":
            rest = argv[2:]
            assert rest[:2] == ["--time-limit", "7"], rest[:6]
            assert rest[2:7] == ["--smpi-app", app, "a b", "", "--"], rest[:8]


def digest_child_is_spawned_and_dies_with_its_parent():
    """The platform's reader is the helper's `situ-sim __digest` exec'd (never a copy of the
    caller, which may have threads), in a process group of its own, and dies with a SIGKILLed
    parent (PDEATHSIG)."""
    big = os.path.join(TMP, "million.xml")  # SimGrid reads it for seconds: time to look
    open(big, "w").write('<?xml version="1.0"?>\n<!DOCTYPE platform SYSTEM '
                         '"https://simgrid.org/simgrid.dtd">\n<platform version="4.1"><cluster '
                         'id="c" prefix="n-" suffix="" radical="1-1000000" speed="1Gf" core="32" '
                         'bw="10Gbps" lat="15us"/></platform>\n')
    env = dict(os.environ, XDG_CACHE_HOME=os.path.join(TMP, "cache-digest"))
    p = subprocess.Popen([SITU, "model", "--platform", big], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, env=env, start_new_session=True)
    try:
        kid = children_of(p.pid)[0]
        end = time.time() + 5
        argv = cmdline(kid)
        while "__digest" not in argv and time.time() < end:
            time.sleep(0.05)
            argv = cmdline(kid)
        stat = open(f"/proc/{kid}/stat").read()
        pgid = int(stat[stat.rindex(")") + 2:].split()[2])
    finally:
        p.kill()
        p.wait(timeout=30)
    assert argv[:3] == [HELPER, "__digest", big], f"the digest's child runs {argv[:4]}"
    assert pgid == kid, f"the digest's child is in group {pgid}, not its own"
    end = time.time() + 5
    while time.time() < end and alive(kid):
        time.sleep(0.05)
    if alive(kid):
        os.kill(kid, signal.SIGKILL)
        raise AssertionError("the digest's child outlived its SIGKILLed parent")


TESTS = [simulations_run_in_the_helper, digest_child_is_spawned_and_dies_with_its_parent, one_fork_per_simulation, signals_kill_the_children, nohup_keeps_hup_ignored, killed_parent_takes_its_children, faulty_children_are_reported_and_the_rest_kept, hung_child_is_killed_at_the_time_limit,
         retry_once_recovers_a_flaky_child, run_rejects_a_garbled_child, sweep_rows_and_columns, cache_second_run_simulates_nothing, cache_key_follows_the_analytics_content, cache_corrupt_entry_is_rerun, cache_incomplete_entry_is_rerun,
         cache_refuses_a_platform_edited_during_the_run, cache_refuses_an_analytics_edited_during_the_run, cache_refuses_a_trace_edited_during_the_run, cache_key_follows_the_files_a_platform_names, digest_cache_keeps_the_version_it_read, unusable_cache_directory_is_one_line,
         unwritable_destination, interrupted_sweep_leaves_no_file, emitted_commands_round_trip, emitted_commands_refuse_control_characters,
         merge_rejects_mismatched_inputs, bad_lists, model_sweep_matches_model, reproduce_figures,
         reproduce_strategies, advise_figures]
for t in TESTS:
    check(t.__name__.replace("_", " "), t)
shutil.rmtree(TMP, ignore_errors=True)
failed += suite.none_matched("study", passed + failed)
print(f"study: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
