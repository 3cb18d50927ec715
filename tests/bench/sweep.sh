#!/bin/sh
# make bench: `situ sweep --model` of a 6,400-row grid (issue 39 item 3: the sweep's model on the
# advisor's path), a benchmark, not a test. Side by side with the build of commit 7d72f49 (the
# sweep before it took the advisor's path), built once from `git archive` into a cached directory
# (or BASE, another build), both run alternately three times, the least wall time of each (the
# machine is shared: the others' load only ever adds), and the ratio.
# Usage: sh tests/bench/sweep.sh [./situ [BASE]]
set -eu
SITU=${1:-./situ}
BASE=${2:-}
REF=7d72f49
if [ -z "$BASE" ]; then
    dir=${XDG_CACHE_HOME:-$HOME/.cache}/situ-bench/$REF
    if [ ! -x "$dir/situ" ]; then
        rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
        git archive "$REF" | tar -x -C "$dir.tmp"
        (cd "$dir.tmp" && make -j2 situ >build.log 2>&1) || {
            echo "sweep bench: the build of $REF failed ($dir.tmp/build.log)" >&2; exit 1; }
        mv "$dir.tmp" "$dir" # (only a whole build is ever cached)
    fi
    BASE=$dir/situ
fi
python3 - "$SITU" "$BASE" "$REF" <<'PY'
import os, subprocess, sys, tempfile, time
situ, base, ref = sys.argv[1:4]
# 5 ratios x 8 node counts x 2 mappings x 10 strides x 8 compute scalings = 6,400 rows
GRID = ["--ratio", "1,3,7,15,31", "--nodes", "2..9", "--mapping", "insitu,intransit",
        "--stride", "100..1000+100", "--compute-scaling", "1..8"]
tmp = tempfile.mkdtemp(prefix="situ-bench-sweep-")
best, rows = {}, {}
for rnd in range(3):
    for name, b in (("now", situ), ("before", base)):  # alternately: both see the same load
        out = os.path.join(tmp, f"{name}.csv")
        t0 = time.monotonic()
        subprocess.run([b, "sweep", "--model", "--no-cache", *GRID, "--out", out],
                       check=True, capture_output=True)
        t = time.monotonic() - t0
        best[name] = min(t, best.get(name, t))
        rows[name] = sum(1 for _ in open(out)) - 1
print(f"sweep --model, {rows['now']} rows (least of 3 runs, wall time)")
print(f"  before ({ref}): {best['before']:8.3f} s  ({rows['before']} rows)")
print(f"  now:              {best['now']:8.3f} s")
print(f"summary: x{best['before'] / best['now']:.1f} faster "
      f"({rows['now'] / best['now']:.0f} rows/s, was {rows['before'] / best['before']:.0f})")
PY
