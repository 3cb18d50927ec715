#!/usr/bin/env python3
"""make bench, part 5: step sampling of fidelity=full (a benchmark, not a test).

Side by side in one run, the CPU seconds of the same workflow at fidelity=full with every step
simulated (--sampling off, before) and sampled (--sampling auto, the default: after), and under
SMPI (--fidelity smpi, the SMPI proxy). Targets: the paper-scale run (32 nodes, R = 31, stride 20,
8000 iterations) sampled in <= 2 s of CPU, within 0.5% of every step simulated; sampled full at
least 20x faster than SMPI at 16 nodes (the paper's default workflow, in situ and in transit).
Sampled runs are the best of --repeat (the machine is shared); the slow ones run once.
Usage: sampling.py [SITU] [--repeat N] [--no-smpi]"""
import argparse
import json
import os
import resource
import subprocess
import sys

PAPER = ["--nodes", "32", "--ratio", "31", "--stride", "20", "--iterations", "8000"]
AT16 = [["--nodes", "16", "--ratio", "15", "--stride", "20", "--iterations", "8000",
         "--mapping", m] for m in ("insitu", "intransit")]


def cpu_of(situ, args):
    """CPU seconds of one `situ run` and its simulation child, and its JSON."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run([situ, "run", "--json", *args], capture_output=True, text=True,
                       cwd=os.path.dirname(situ))
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode:
        sys.exit(f"situ run {' '.join(args)}: exit {p.returncode}: {p.stderr.strip()}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), json.loads(p.stdout)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("situ", nargs="?", default="./situ")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-smpi", action="store_true")
    o = ap.parse_args()
    situ = os.path.abspath(o.situ)
    ok = True
    print(f"{'workflow':34} {'off cpu s':>9} {'auto cpu s':>10} {'x':>6} {'steps':>8} "
          f"{'makespan err':>12} {'ana act err':>11} {'smpi cpu s':>10} {'smpi/auto':>9}")
    for name, args in [("paper scale (32 nodes, R=31)", PAPER)] + \
            [(f"16 nodes, R=15, {a[-1]}", a) for a in AT16]:
        off_cpu, off = cpu_of(situ, [*args, "--fidelity", "full", "--sampling", "off"])
        runs = [cpu_of(situ, [*args, "--fidelity", "full", "--sampling", "auto"])
                for _ in range(o.repeat)]
        auto_cpu, auto = min(runs, key=lambda r: r[0])
        err = auto["makespan"] / off["makespan"] - 1
        err_a = auto["analytics_active"] / off["analytics_active"] - 1
        ok = ok and abs(err) <= 0.005 and abs(err_a) <= 0.005
        steps = f"{auto['sampling']['steps_simulated']}/{auto['steps']}"
        smpi = ratio = "-"
        if args is PAPER:
            ok = ok and auto_cpu <= 2
        elif not o.no_smpi:
            smpi_cpu, _ = cpu_of(situ, [*args, "--fidelity", "smpi"])
            smpi, ratio = f"{smpi_cpu:.2f}", f"{smpi_cpu / auto_cpu:.1f}x"
            ok = ok and smpi_cpu >= 20 * auto_cpu
        print(f"{name:34} {off_cpu:9.2f} {auto_cpu:10.2f} {off_cpu / auto_cpu:5.1f}x {steps:>8} "
              f"{100 * err:+11.3f}% {100 * err_a:+10.3f}% {smpi:>10} {ratio:>9}", flush=True)
    print("sampling: paper scale sampled <= 2 s CPU, within 0.5% of every step simulated, "
          f"smpi >= 20x sampled full at 16 nodes -> {'targets met' if ok else 'TARGETS MISSED'}")


if __name__ == "__main__":
    main()
