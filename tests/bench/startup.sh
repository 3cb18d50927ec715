#!/bin/sh
# make bench: what a command costs before it does anything (issue 31: the front end links no
# SimGrid, whose 58 libraries `situ` used to load at every start), a benchmark, not a test:
#   1. `situ --version` and `situ model` (target <= 10 ms each): wall time, the least and the
#      median of 30 runs;
#   2. what moved to the simulation helper: `situ run --iterations 400` (one simulation: the
#      front end, then situ-sim exec'd) and a 12-run sweep (every child an exec of the helper).
# With BASE (an older build, `make bench BENCH_BASE=...`), both binaries run alternately, run by
# run, and the summary gives the ratios measured in this one run.
set -eu
SITU=${1:-./situ}
BASE=${2:-}
python3 - "$SITU" "$BASE" <<'PY'
import os, statistics, subprocess, sys, tempfile, time
situ, base = sys.argv[1], sys.argv[2]
out = os.path.join(tempfile.mkdtemp(prefix="situ-bench-"), "sweep.csv")
CASES = [("situ --version", ["--version"], 30, "<= 10 ms"),
         ("situ model", ["model"], 30, "<= 10 ms"),
         ("situ run --iterations 400", ["run", "--iterations", "400"], 10, "(helper)"),
         ("sweep, 12 runs, 2 jobs", ["sweep", "--ratio", "1,3,7,15", "--nodes", "1,2,4",
                                     "--iterations", "400", "--no-cache", "--jobs", "2",
                                     "--out", out], 5, "(helper)")]
binaries = [("now", situ)] + ([("before", base)] if base else [])
times = {}
for what, args, runs, _ in CASES:
    for _ in range(runs):
        for name, b in binaries:  # alternately: both see the same load
            t0 = time.perf_counter()
            subprocess.run([b, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           check=True)
            times.setdefault((name, what), []).append(time.perf_counter() - t0)
print(f"{'start-up':34} {'build':>6} {'min ms':>8} {'median ms':>10} {'target':>10}")
for what, _, _, target in CASES:
    for name, _ in binaries:
        t = times[(name, what)]
        print(f"{what:34} {name:>6} {1e3 * min(t):8.1f} {1e3 * statistics.median(t):10.1f} {target:>10}")
if base:
    print("\nratios, now / before (medians, measured in this run):")
    for what, _, _, _ in CASES:
        r = statistics.median(times[("now", what)]) / statistics.median(times[("before", what)])
        print(f"  {what:32} x{r:.2f}")
PY
