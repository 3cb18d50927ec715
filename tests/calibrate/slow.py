#!/usr/bin/env python3
"""Calibrates from some LAMMPS runs and checks the predictions of the others.

Usage: python3 tests/calibrate/slow.py PATH/TO/situ DIR [--readme]

DIR holds logs named as record.sh names them. The fit takes the one-rank runs of the smallest
and largest boxes, with no analysis and with the most frequent one; every other configuration
(other sizes, two ranks, other strides) is held out and predicted (--check). Targets (issue 27):
within 5% of the measure at one rank, 10% at two, each configuration's best of its repeats.

The measure is the loop time times LAMMPS's CPU use (situ calibrate --measure cpu): the time the
ranks computed. On the 2-core machine this was written on, shared with other jobs' processes in
their own control groups, a run got 20% to 90% of a core whatever its priority, and its
wall-clock loop time measured that share more than the code.

A held-out configuration is not judged, and says why, when its two best repeats differ by more
than its target ("noisy": measured under more noise than the target allows), or when it ran on
more ranks no faster than on one, or than one rank without the analysis ("crowded": the machine
did not give the ranks their cores).
The check fails when a judged configuration misses its target, or when fewer than half could be
judged (run it again on a quieter machine). --readme writes the table into README.md.
"""
import glob
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
README = os.path.join(os.path.dirname(os.path.dirname(HERE)), "README.md")
BEGIN, END = "<!-- calibrate-table: begin -->", "<!-- calibrate-table: end -->"
NAME = re.compile(r"melt-n(\d+)-p(\d+)-rdf(\d+)-\d+\.log$")
LOOP = re.compile(r"^Loop time of ([0-9.eE+-]+) on", re.M)
CPU = re.compile(r"^([0-9.]+)% CPU use with", re.M)
TARGET = {1: 0.05, 2: 0.10}
MEASURE = ["--measure", "cpu"]


def measure(path):
    """The loop time times the CPU use, read here from the log itself."""
    text = open(path).read()
    return float(LOOP.search(text).group(1)) * float(CPU.search(text).group(1)) / 100


def main():
    situ, d = os.path.abspath(sys.argv[1]), sys.argv[2]
    logs = sorted(glob.glob(os.path.join(d, "melt-*.log")))
    cfgs = {}
    for p in logs:
        cfgs.setdefault(tuple(int(x) for x in NAME.search(p).groups()), []).append(p)
    sizes = sorted({n for n, _, _ in cfgs})
    strides = sorted({r for _, _, r in cfgs if r})
    fit = {(n, 1, r) for n in (sizes[0], sizes[-1]) for r in (0, strides[0])} & set(cfgs)
    args = [p for k in sorted(fit) for p in cfgs[k]]
    for k in sorted(set(cfgs) - fit):
        for p in cfgs[k]:
            args += ["--check", p]
    r = subprocess.run([situ, "calibrate", *args, *MEASURE, "--json"], capture_output=True,
                       text=True)
    if r.returncode:
        print(r.stderr, end="")
        return 1
    j = json.loads(r.stdout)
    times = {k: sorted(measure(p) for p in ps) for k, ps in cfgs.items()}
    rows, judged, missed = [], 0, 0
    for part, confs in (("fit", j["configurations"]), ("check", j["check"]["configurations"])):
        for c in confs:
            k = tuple(int(x) for x in NAME.search(c["file"]).groups())
            t, target = times[k], TARGET.get(k[1], 0.10)
            assert abs(c["measured"] / t[0] - 1) < 1e-9, (c["label"], c["measured"], t[0])
            noisy = len(t) > 1 and t[1] / t[0] - 1 > target
            # the same run on one rank, else the one rank's run without analysis (faster)
            one = times.get((k[0], 1, k[2])) or times.get((k[0], 1, 0))
            crowded = k[1] > 1 and one is not None and t[0] > 0.75 * one[0]
            verdict = "fit" if part == "fit" else "crowded" if crowded else \
                "noisy" if noisy else "ok" if abs(c["error"]) <= target else "MISSED"
            if part == "check" and verdict in ("ok", "MISSED"):
                judged += 1
                missed += verdict == "MISSED"
            rows.append((c["label"], len(t), c["spread"], c["measured"], c["predicted"],
                         c["error"], verdict))
    costs = ", ".join(f"{k} = {v['value']:.4g} ± {v['uncertainty'] or 0:.2g}"
                      for k, v in j["costs"].items())
    lines = [f"Fitted on {len(fit)} configurations: {costs}. Measure: loop time × CPU use "
             f"(`--measure cpu`), the best of each configuration's runs; spread: its slowest "
             f"over its best, -1.", "",
             "| configuration | runs | spread | measured (s) | predicted (s) | error | |",
             "|---|---|---|---|---|---|---|"]
    for label, n, spread, meas, pred, err, v in rows:
        lines.append(f"| {label} | {n} | {100 * spread:.0f}% | {meas:.3f} | {pred:.3f} | "
                     f"{100 * err:+.1f}% | {v} |")
    checks = len(j["check"]["configurations"])
    lines += ["", f"{judged} of {checks} held-out configurations judged, {missed} missed "
              f"their target (5% at 1 rank, 10% at 2)."]
    print("\n".join(lines))
    if "--readme" in sys.argv:
        text = open(README).read()
        a, b = text.index(BEGIN) + len(BEGIN), text.index(END)
        open(README, "w").write(text[:a] + "\n" + "\n".join(lines) + "\n" + text[b:])
    return 1 if missed or judged * 2 < checks else 0


if __name__ == "__main__":
    sys.exit(main())
