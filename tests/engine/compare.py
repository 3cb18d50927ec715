#!/usr/bin/env python3
"""Compares two situ binaries on the engine tests' configurations, at fidelity=full unless told
(a one-off check when the engine changes: `python3 tests/engine/compare.py OLD NEW [--tol 0.001]
[--fidelity fast]`).

Prints, per configuration, the worst relative difference over makespan, sim and analytics active
and idle time, and the stages; exits 1 if any exceeds --tol (0.1% by default)."""
import argparse
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run as engine  # noqa: E402  (the engine tests' configuration lists)

KEYS = ("makespan", "sim_active", "sim_idle", "analytics_active", "analytics_idle", "halo")
STAGES = ("S", "R", "A", "W", "C")

EXTRA = [  # the engine tests' one-off configurations
    ["--nodes", "3", "--cores-per-node", "8", "--ratio", "1", "--mapping", "intransit",
     "--data-scaling", "100", "--iterations", "2000"],
    ["--nodes", "12", "--ratio", "1", "--region", "20", "--compute-scaling", "0.1",
     "--data-scaling", "1000", "--iterations", "2000"],
    ["--nodes", "3", "--ratio", "1", "--mapping", "intransit", "--iterations", "419", "--stride", "20",
     "--halo-period", "7"],
    ["--iterations", "400", "--nodes", "2", "--mapping", "intransit", "--ratio", "1"],
    ["--nodes", "4", "--ratio", "15", "--stride", "20", "--iterations", "400", "--mapping", "intransit"],
] + [["--nodes", "2", "--iterations", "400", "--dtl", "queue", "--halo-period", str(p)] for p in (1, 5, 7, 20)]


def configs():
    seen = []
    for group in (engine.CONSERVATION, engine.MODEL_AGREEMENT, engine.AGREEMENT, engine.FIG8, engine.SHORT,
                  engine.INTERFERENCE, EXTRA):
        for args in group:
            args = [a for a in args if a not in ("--fidelity", "full")]
            if args not in seen:
                seen.append(args)
    return seen


def run(binary, args, fidelity):
    p = subprocess.run([binary, "run", "--json", "--fidelity", fidelity, *args], capture_output=True, text=True,
                       cwd=os.path.dirname(os.path.abspath(binary)), timeout=900)
    if p.returncode:
        raise SystemExit(f"{binary} {' '.join(args)}: exit {p.returncode}: {p.stderr.strip()}")
    return json.loads(p.stdout)


def diff(a, b):
    worst, what = 0.0, ""
    pairs = [(k, a[k], b[k]) for k in KEYS] + [("stage." + s, a["stage"][s], b["stage"][s]) for s in STAGES]
    for k, x, y in pairs:
        d = abs(y / x - 1) if x else (0.0 if y == 0 else float("inf"))
        if d > worst:
            worst, what = d, k
    return worst, what


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--tol", type=float, default=0.001)
    ap.add_argument("--fidelity", default="full", choices=("full", "fast"))
    o = ap.parse_args()
    cs = configs()
    with ThreadPoolExecutor(2) as pool:
        old = list(pool.map(lambda c: run(o.old, c, o.fidelity), cs))
        new = list(pool.map(lambda c: run(o.new, c, o.fidelity), cs))
    bad = 0
    for c, a, b in zip(cs, old, new):
        worst, what = diff(a, b)
        bad += worst > o.tol
        print(f"{100 * worst:8.4f}% {what:18} {a['wall_seconds']:7.2f}s -> {b['wall_seconds']:6.2f}s  {' '.join(c)}")
    print(f"compare: {len(cs)} configurations, {bad} beyond {100 * o.tol:.2f}%")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
