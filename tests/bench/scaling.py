#!/usr/bin/env python3
"""make bench, part 4: how the engine's cost grows with the cluster (a benchmark, not a test).

R = 31, stride 20, 800 iterations on 8, 16 and 32 nodes, at fidelity full and fast: the CPU
seconds of each run (the best of --repeat rounds, as the machine is shared), and the growth per
doubling of nodes, the target being x2.3 or less for full (the work doubles: x2 is linear).
Then the paper-scale run, 32 nodes and 8000 iterations at fidelity full: <= 30 s. Full runs
every step here (--sampling off): this measures the engine's own cost; sampling.py the sampling.
Usage: scaling.py [SITU] [--repeat N] [--no-paper]"""
import argparse
import json
import os
import resource
import subprocess
import sys
import time

BASE = ["--ratio", "31", "--stride", "20"]


def measure(situ, args):
    """CPU seconds (the run and its child), wall seconds and the result of one `situ run`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    p = subprocess.run([situ, "run", "--json", *args], capture_output=True, text=True,
                       cwd=os.path.dirname(os.path.abspath(situ)))
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode:
        sys.exit(f"situ run {' '.join(args)}: exit {p.returncode}: {p.stderr.strip()}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, json.loads(p.stdout)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("situ", nargs="?", default="./situ")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--no-paper", action="store_true")
    o = ap.parse_args()
    situ = os.path.abspath(o.situ)
    nodes = (8, 16, 32)
    print(f"{'fidelity':8} {'nodes':>5} {'activities':>10} {'cpu s':>8} {'us/activity':>11} {'x per doubling':>14}")
    worst = {}
    # Rounds of every size in turn, not each size's runs in a row: a busy minute on a shared
    # machine then slows every size alike instead of one, and the growth, a ratio, stays true.
    runs = {}
    for _ in range(o.repeat):
        for fidelity in ("full", "fast"):
            for n in nodes:
                args = [*BASE, "--nodes", str(n), "--iterations", "800", "--fidelity", fidelity,
                        "--sampling", "off"]
                runs.setdefault((fidelity, n), []).append(measure(situ, args))
    for fidelity in ("full", "fast"):
        prev = None
        for n in nodes:
            cpu = min(r[0] for r in runs[(fidelity, n)])
            acts = runs[(fidelity, n)][0][2]["activities"]
            growth = cpu / prev if prev else None
            if growth:
                worst[fidelity] = max(worst.get(fidelity, 0), growth)
            print(f"{fidelity:8} {n:5d} {acts:10d} {cpu:8.3f} {1e6 * cpu / acts:11.2f} "
                  f"{'' if growth is None else f'x{growth:.2f}':>14}")
            prev = cpu
    line = (f"scaling: growth per doubling, full x{worst['full']:.2f} (target <= x2.3), "
            f"fast x{worst['fast']:.2f}")
    ok = worst["full"] <= 2.3
    if not o.no_paper:
        cpu, wall, r = measure(situ, [*BASE, "--nodes", "32", "--iterations", "8000", "--fidelity", "full",
                                        "--sampling", "off"])
        print(f"paper scale: 32 nodes, 8000 iterations, full: {cpu:.1f} s CPU, {wall:.1f} s wall, "
              f"{r['activities']} activities, makespan {r['makespan']:.4f} s")
        line += f"; paper scale {cpu:.1f} s CPU (target <= 30 s)"
        ok = ok and cpu <= 30
    print(line + (" -> targets met" if ok else " -> TARGETS MISSED"))


if __name__ == "__main__":
    main()
