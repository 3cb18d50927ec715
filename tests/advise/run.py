#!/usr/bin/env python3
"""Advisor tests: situ advise through the real binary, against a brute-force `situ sweep --model`
over the same grid, `situ run` for the SimGrid check, and bad input.
Usage: python3 tests/advise/run.py ./situ. Ends with 'advise: N passed, M failed'."""
import csv
import glob
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import suite  # noqa: E402

SITU = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "./situ")
TMP = tempfile.mkdtemp(prefix="situ-advise-")
ENV = dict(os.environ, XDG_CACHE_HOME=os.path.join(TMP, "xdg"))
passed, failed = 0, 0

# The paper's Fig. 7 question, on a shorter run (the model does not care; SimGrid is quicker).
GRID = ["--stride:compute-scaling", "20:1,200:10,500:25,1000:50", "--ratio", "1,3,7,15,31",
        "--nodes", "1..4", "--mapping", "insitu,intransit", "--iterations", "2000"]
# Every point valid (intransit needs two nodes): what a sweep accepts too.
VALID = ["--stride:compute-scaling", "20:1,200:10,500:25,1000:50", "--ratio", "1,3,7,15,31",
         "--nodes", "2..5", "--mapping", "insitu,intransit", "--iterations", "2000"]
OBJECTIVES = {"efficiency": max, "makespan": min, "core-hours": min, "balance": max}


def situ(*args, expect=0):
    p = subprocess.run([SITU, *args], capture_output=True, text=True, timeout=600, env=ENV)
    if p.returncode != expect:
        raise AssertionError(f"situ {' '.join(args)}: exit {p.returncode}, expected {expect}: "
                             f"{p.stderr.strip()[-300:]}")
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


def advise_json(*args):
    return [json.loads(l) for l in situ("advise", "--json", *args).stdout.splitlines()]


def sweep_model(args):
    return list(csv.DictReader(io.StringIO(situ("sweep", "--model", *args).stdout)))


def balance(r):
    """The documented score, computed here from a sweep's columns on its own."""
    m = float(r["makespan"])
    us, ua = float(r["sim_active"]) / m, float(r["analytics_active"]) / m
    sc, ac = int(r["sim_cores"]), int(r["analytics_cores"])
    busy = (sc * us + ac * ua) / (sc + ac)
    return busy * min(us, ua) / max(us, ua)


def value(r, objective):
    if objective == "efficiency":
        return float(r["efficiency"])
    if objective == "makespan":
        return float(r["makespan"])
    if objective == "core-hours":
        return int(r["nodes"]) * int(r["cores_per_node"]) * float(r["makespan"]) / 3600
    return balance(r)


KEYS = ("stride", "compute_scaling", "ratio", "nodes", "mapping")


def key_of(cfg):
    return tuple(str(cfg[k]) for k in KEYS)


def top_equals_sweep_argbest():
    rows = sweep_model(VALID)
    assert len(rows) == 160, f"{len(rows)} sweep rows"
    for objective, best in OBJECTIVES.items():
        want = best(value(r, objective) for r in rows)
        ranked = advise_json(*VALID, "--objective", objective, "--verify", "0")
        assert len(ranked) == len(rows), f"{objective}: {len(ranked)} ranked of {len(rows)}"
        top = ranked[0]
        got = top["model"]["objective"]
        assert abs(got - want) <= 1e-9 * abs(want), f"{objective}: advise {got}, sweep {want}"
        # The first of the sweep's rows with the best value: ties go to the grid's order.
        first = next(r for r in rows if value(r, objective) == want)
        cfg = top["config"]
        assert all(str(cfg[k]).rstrip("0").rstrip(".") == str(first[k]).rstrip("0").rstrip(".")
                   for k in KEYS), f"{objective}: advise picks {key_of(cfg)}, sweep {[first[k] for k in KEYS]}"
        values = [c["model"]["objective"] for c in ranked]
        assert values == sorted(values, reverse=best is max), f"{objective}: not ranked"


def pareto_front_is_non_dominated_and_complete():
    ranked = advise_json(*GRID, "--verify", "0")
    pts = [(c["model"]["makespan"], c["model"]["core_hours"], c["pareto"]) for c in ranked]

    def dominated(p):
        return any(q[0] <= p[0] and q[1] <= p[1] and (q[0] < p[0] or q[1] < p[1]) for q in pts)

    front = [p for p in pts if p[2]]
    assert len(front) >= 2, f"{len(front)} points on the front"
    for p in pts:
        assert p[2] == (not dominated(p)), f"point {p[:2]} marked {p[2]}, dominated {dominated(p)}"
    # Equal points are all on the front: fidelity is not the model's, so each point comes twice.
    twice = advise_json("--ratio", "7,15,31", "--nodes", "1,2", "--fidelity", "fast,full",
                        "--verify", "0")
    on = sorted((c["model"]["makespan"], c["config"]["fidelity"]) for c in twice if c["pareto"])
    assert len(on) == 4 and on[0][0] == on[1][0] and on[0][1] != on[1][1], f"front {on}"
    text = situ("advise", *GRID, "--verify", "0").stdout
    assert f"Pareto front, makespan against core-hours ({len(front)} of {len(pts)}" in text, text[-600:]


def constraints_are_honoured():
    rows = sweep_model(VALID)
    lim = {"makespan": 200.0, "nodes": 4, "efficiency": 0.3}
    ranked = advise_json(*VALID, "--max-makespan", "200", "--max-nodes", "4", "--min-efficiency",
                         "0.3", "--verify", "0")
    ok = [r for r in rows if float(r["makespan"]) <= lim["makespan"] and
          int(r["nodes"]) <= lim["nodes"] and float(r["efficiency"]) >= lim["efficiency"]]
    assert 0 < len(ok) < len(rows), f"the constraints keep {len(ok)} of {len(rows)}: no test"
    assert len(ranked) == len(ok), f"{len(ranked)} ranked, {len(ok)} meet the constraints"
    for c in ranked:
        assert c["model"]["makespan"] <= 200 and c["config"]["nodes"] <= 4 and \
            c["model"]["efficiency"] >= 0.3, f"{c['config']} breaks a constraint"
    p = situ("advise", *VALID, "--max-makespan", "0.001", "--verify", "0", expect=4)
    assert "meets the constraints" in p.stderr, p.stderr


def verify_reports_simgrids_numbers():
    ranked = advise_json(*GRID, "--verify", "2", "--objective", "makespan")
    checked = [c for c in ranked if c["simgrid"] is not None]
    assert [c["rank"] for c in checked] == [1, 2], f"checked ranks {[c['rank'] for c in checked]}"
    for c in checked:
        cfg = dict(c["config"], fidelity=c["simgrid"]["fidelity"])  # the engine that checked it
        args = [a for k, v in cfg.items() if v != "" for a in (f"--{k}", str(v))]
        run = json.loads(situ("run", "--json", *args).stdout)
        assert abs(c["simgrid"]["makespan"] - run["makespan"]) <= 1e-9 * run["makespan"], \
            f"advise says SimGrid {c['simgrid']['makespan']}, situ run {run['makespan']}"
        assert abs(c["simgrid"]["efficiency"] - run["efficiency"]) <= 1e-9
        assert sorted(x["simgrid_rank"] for x in checked) == [1, 2]
    assert all(c["simgrid"] is None for c in ranked[2:])
    table = situ("advise", *GRID, "--verify", "2", "--objective", "makespan").stdout
    assert "SimGrid keeps the model's order" in table or "SimGrid changes the order" in table, table
    line = next(l for l in table.splitlines() if l.strip().startswith("1 "))
    assert f"{checked[0]['simgrid']['makespan']:.1f}" in line.split("|")[2], line


def verify_is_at_full_fidelity_by_default():
    # The candidates are the model's (fidelity fast in their configuration); the check is full
    # fidelity's, step-sampled, unless --fidelity chose: then that one, each candidate's own.
    q = ["--ratio", "7,15", "--nodes", "2", "--iterations", "2000", "--verify", "1"]
    full = advise_json(*q)[0]
    assert full["simgrid"]["fidelity"] == "full", full["simgrid"]
    steps = json.loads(situ("model", "--json", "--iterations", "2000").stdout)["steps"]
    assert 0 < full["simgrid"]["sampling"]["steps_simulated"] < steps, (full["simgrid"], steps)
    fast = advise_json(*q, "--fidelity", "fast")[0]
    assert fast["simgrid"]["fidelity"] == "fast", fast["simgrid"]
    assert "SimGrid checks the best 1 at fidelity full, step-sampled." in situ("advise", *q).stdout
    assert "at fidelity as given" in situ("advise", *q, "--fidelity", "fast").stdout


def says_when_simgrid_changes_the_order():
    # SimGrid's answers come from the sweep's cache: make the cached result of the model's #2
    # faster than #1's, and the advisor must say that SimGrid reorders them (and use its numbers).
    cache = os.path.join(TMP, "reorder-cache")
    q = ["--ratio", "7,15,31", "--nodes", "1", "--iterations", "400", "--objective", "makespan",
         "--verify", "2", "--cache", cache]
    first = advise_json(*q)
    assert "keeps the model's order" in situ("advise", *q).stdout
    second = first[1]["config"]
    for path in glob.glob(os.path.join(cache, "*.json")):
        entry = json.load(open(path))
        if f";ratio={second['ratio']};" in ";" + entry["config_key"]:
            entry["result"]["makespan"] = first[0]["simgrid"]["makespan"] * 0.5
            json.dump(entry, open(path, "w"))
            break
    else:
        raise AssertionError("no cache entry for the second candidate")
    text = situ("advise", *q).stdout
    assert f"SimGrid changes the order: by SimGrid #2 #1; its best is #2 (ratio={second['ratio']})" \
        in text, text
    again = advise_json(*q)
    assert [c["simgrid_rank"] for c in again[:2]] == [2, 1], again[:2]
    assert again[1]["simgrid"]["makespan"] == first[0]["simgrid"]["makespan"] * 0.5


def out_dir_writes_the_files():
    out = os.path.join(TMP, "out")
    situ("advise", *GRID, "--verify", "1", "--objective", "balance", "--out", out)
    names = sorted(os.listdir(out))
    assert names == ["advise.csv", "heatmap.png", "heatmap.svg", "pareto.png", "pareto.svg"], names
    rows = list(csv.DictReader(open(os.path.join(out, "advise.csv"))))
    ranked = advise_json(*GRID, "--verify", "0", "--objective", "balance")
    assert len([r for r in rows if r["rank"]]) == len(ranked)
    first = next(r for r in rows if r["rank"] == "1")
    assert first["simgrid_makespan"], "the checked candidate has no SimGrid numbers in the CSV"
    for n in ("heatmap.png", "pareto.png"):
        assert open(os.path.join(out, n), "rb").read(8) == b"\x89PNG\r\n\x1a\n", n
    svg = open(os.path.join(out, "heatmap.svg")).read()
    assert "<svg" in svg


def out_dir_is_one_set():
    """advise --out writes five files as one set: a write that fails partway (files over
    RLIMIT_FSIZE: the CSV under it, the PNG over) leaves DIR as it was, an existing one or an
    absent one (not created, nothing left beside it), exit 1 with one line; a write that works
    replaces the set's files and keeps the others."""
    import resource
    import signal

    def small_files():
        signal.signal(signal.SIGXFSZ, signal.SIG_DFL)  # situ's to handle: a write fails with EFBIG
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))

    def tree(d):
        return None if not os.path.exists(d) else {
            os.path.relpath(os.path.join(r, n), d): open(os.path.join(r, n), "rb").read()
            for r, _, names in os.walk(d) for n in names} | {"/dirs": sorted(r for r, _, _ in os.walk(d))}

    q = ["advise", "--verify", "0", "--ratio", "1,3", "--iterations", "400", "--out"]
    old, fresh = os.path.join(TMP, "set-old"), os.path.join(TMP, "set-fresh")
    os.makedirs(old)
    os.makedirs(ENV["XDG_CACHE_HOME"], exist_ok=True)  # the cache's, not the set's
    open(os.path.join(old, "notes.txt"), "w").write("mine\n")
    open(os.path.join(old, "advise.csv"), "w").write("an older advice\n")
    for d in (old, fresh):
        before, beside = tree(d), sorted(os.listdir(TMP))
        p = subprocess.run([SITU, *q, d], capture_output=True, text=True, timeout=600, env=ENV,
                           preexec_fn=small_files)
        lines = p.stderr.strip().splitlines()
        assert p.returncode == 1 and len(lines) == 1 and "cannot write" in lines[0], f"exit {p.returncode}: {p.stderr}"
        assert tree(d) == before, f"{d}: {sorted(tree(d) or [])} after the failed write, {sorted(before or [])} before"
        assert sorted(os.listdir(TMP)) == beside, f"left beside {d}: {set(os.listdir(TMP)) - set(beside)}"
    situ(*q, old)
    assert sorted(os.listdir(old)) == ["advise.csv", "heatmap.png", "heatmap.svg", "notes.txt", "pareto.png",
                                       "pareto.svg"], os.listdir(old)
    assert open(os.path.join(old, "notes.txt")).read() == "mine\n", "a file not in the set was changed"
    assert open(os.path.join(old, "advise.csv")).read().startswith("rank,"), "advise.csv not replaced"


def states_the_fig8_contradiction():
    q = ["--stride", "1000", "--ratio", "1,3,7,15,31", "--nodes", "2", "--verify", "0"]
    text = situ("advise", *q, "--compute-scaling", "48").stdout
    line = next((l for l in text.splitlines() if "disagree" in l), "")
    assert "eta is best at ratio=31" in line and "sweet spot at ratio=15" in line, text
    text = situ("advise", *q, "--compute-scaling", "50").stdout
    assert "disagree" not in text, "eta and balance agree at x50, yet a contradiction is stated"


BAD = [
    (["--objective", "speed"], "objective"),
    (["--max-nodes", "0"], "max-nodes"),
    (["--max-makespan", "-3"], "max-makespan"),
    (["--min-efficiency", "1.5"], "min-efficiency"),
    (["--verify", "two"], "verify"),
    (["--ratio", "abc"], "ratio"),
    (["--ratio", "5..1"], "ratio"),
    (["--stride:compute-scaling", "20:1:3"], "stride:compute-scaling"),
    (["--bogus", "1"], "bogus"),
    (["--ratio", "15,31", "--heatmap", "ratio"], "heatmap"),
    (["--ratio", "15,31", "--nodes", "1,2", "--heatmap", "ratio,stride"], "stride"),
    (["--out", "/nonexistent/dir/x"], "/nonexistent"),
    (["--ratio", "5"], "ratio"),  # no node of 32 cores realises it: nothing to advise
]


def inline_ranked_once():
    # inline ignores the ratio: one candidate for the ratios' axis, the sweep's numbers, eta and
    # balance 1 (no idle), and SimGrid verifies it like any other
    args = ["--ratio", "1,3,7,15", "--nodes", "2", "--mapping", "insitu,inline", "--iterations", "400"]
    p = situ("advise", "--json", *args, "--objective", "makespan", "--verify", "5")
    ranked = [json.loads(l) for l in p.stdout.splitlines()]
    inl = [c for c in ranked if c["config"]["mapping"] == "inline"]
    assert len(ranked) == 5 and len(inl) == 1 and inl[0]["config"]["ratio"] == 1, [key_of(c["config"]) for c in ranked]
    assert "ranked once" in p.stderr, p.stderr
    row = next(r for r in sweep_model(args) if r["mapping"] == "inline")
    m = inl[0]["model"]
    assert abs(m["makespan"] / float(row["makespan"]) - 1) < 1e-9, (m, row["makespan"])
    assert m["efficiency"] == 1 and abs(m["balance"] - 1) < 1e-9, m
    assert abs(inl[0]["simgrid"]["makespan"] / m["makespan"] - 1) < 0.02, inl[0]["simgrid"]


SQUEEZE = """-- Declares a parameter named compression, as the reduction's table will have one (tests only).
return {
  name = "squeeze",
  params = { { name = "compression", default = 1, min = 1, max = 1000, unit = "x", help = "a ratio" } },
  uses = { "region", "sim_cost" },
  decomposition = { dims = 3 },
  particles = function(ctx) return 4 * ctx.region ^ 3 end,
  cost = function(ctx) return 4 * ctx.region ^ 3 / ctx.sim_cores * ctx.sim_cost end,
  halo = function(ctx) return { x = 1000, y = 1000, z = 1000 } end,
  halo_period = 20,
  state = function(ctx) return 4 * ctx.region ^ 3 / ctx.sim_cores * 100 end,
}
"""


def strategies_are_axes():
    # The advisor's axes include the mapping and the DTL, apart or linked as strategies
    # (mapping:dtl), and the compression wherever the table has it: ranked as a sweep of the same
    # grid ranks them.
    grids = [["--mapping", "insitu,intransit", "--dtl", "queue,mailbox"],
             ["--mapping:dtl", "insitu:queue,intransit:mailbox,insitu:mailbox"]]
    if "--compression" not in situ("--help").stdout:  # a profile declares one (post-merge: the table's)
        path = os.path.join(TMP, "squeeze.lua")
        open(path, "w").write(SQUEEZE)
        extra = ["--simulation", path]
    else:
        extra = []
    grids.append(extra + ["--mapping", "insitu,intransit", "--dtl", "queue,mailbox", "--compression", "1,4"])
    for g in grids:
        args = g + ["--nodes", "16", "--analytics", "scatter", "--data-scaling", "1,100",
                    "--iterations", "400"]
        rows = sweep_model(args)
        ranked = advise_json(*args, "--objective", "makespan", "--verify", "0")
        assert len(ranked) == len(rows), f"{g}: {len(ranked)} ranked of {len(rows)}"
        want = min(float(r["makespan"]) for r in rows)
        assert abs(ranked[0]["model"]["makespan"] - want) <= 1e-9 * want, g
        combos = {(c["config"]["mapping"], c["config"]["dtl"], c["config"].get("compression"))
                  for c in ranked}
        assert combos == {(r["mapping"], r["dtl"], float(r["compression"]) if "compression" in r else None)
                          for r in rows}, f"{g}: {combos}"
        assert len({(m, d) for m, d, _ in combos}) == (3 if "--mapping:dtl" in g else 4), combos


def bad_input_is_exit_2_one_line():
    for args, word in BAD:
        p = situ("advise", *args, expect=2)
        lines = p.stderr.strip().splitlines()
        assert len(lines) == 1 and word in lines[0], f"{args}: {p.stderr!r}"
        assert p.stdout == "", f"{args}: printed {p.stdout[:80]!r}"


check("top candidate equals a sweep's argmin/argmax, each objective", top_equals_sweep_argbest)
check("pareto front is non-dominated and complete", pareto_front_is_non_dominated_and_complete)
check("constraints are honoured", constraints_are_honoured)
check("verify reports SimGrid's numbers", verify_reports_simgrids_numbers)
check("verify is at full fidelity by default", verify_is_at_full_fidelity_by_default)
check("says when SimGrid changes the order", says_when_simgrid_changes_the_order)
check("--out writes the CSV, heatmap and front", out_dir_writes_the_files)
check("--out DIR is one set: all of it or DIR as it was", out_dir_is_one_set)
check("states the Fig. 8 contradiction where it appears", states_the_fig8_contradiction)
check("inline: ranked once whatever the ratio, eta and balance 1", inline_ranked_once)
check("strategies are axes: mapping, DTL, linked, and compression", strategies_are_axes)
check("bad input is exit 2 with one line", bad_input_is_exit_2_one_line)

shutil.rmtree(TMP, ignore_errors=True)
failed += suite.none_matched("advise", passed + failed)
print(f"advise: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
