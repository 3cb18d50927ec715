#!/bin/sh
# make bench: the engine's speed targets, measured on this machine (a benchmark, not a test).
#   1. the paper's Fig. 7 grid, (stride, compute_scaling) x ratio x nodes = 80 runs, 2 at a time;
#   2. one 1024-core run (32 nodes, ratio 31, stride 20): wall time and peak RSS;
#   3. fidelity=full vs fast on the same configurations: makespan error and speed-up;
#   4. the growth of full and fast per doubling of nodes, and the paper-scale full run (scaling.py);
#   5. step sampling of full: sampled against every step simulated, and against smpi (sampling.py).
set -eu
SITU=${1:-./situ}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

now() { python3 -c 'import time; print(time.monotonic())'; }

grid() { # $1 = fidelity, $2 = nodes list; writes $tmp/grid-$1.jsonl, prints the wall time
    t0=$(now)
    : > "$tmp/grid-$1.jsonl"
    for pair in 20:1 200:10 500:25 1000:50; do
        "$SITU" sweep --stride "${pair%:*}" --compute-scaling "${pair#*:}" --ratio 1,3,7,15,31 \
            --nodes "$2" --fidelity "$1" --jobs 2 --no-cache --out "$tmp/part.jsonl" 2>/dev/null
        cat "$tmp/part.jsonl" >> "$tmp/grid-$1.jsonl"
    done
    t1=$(now)
    python3 -c "print(f'{$t1 - $t0:.2f}')"
}

fast_wall=$(grid fast 1,2,4,8)
full_wall=$(grid full 1,2,4,8)

big_json="$tmp/big.json"
/usr/bin/time -f '%M' -o "$tmp/rss" "$SITU" run --nodes 32 --ratio 31 --stride 20 --json > "$big_json"
t0=$(now); "$SITU" run --nodes 32 --ratio 31 --stride 20 --json > /dev/null; t1=$(now)
big_wall=$(python3 -c "print(f'{$t1 - $t0:.2f}')")

python3 - "$tmp" "$fast_wall" "$full_wall" "$big_wall" "$(cat "$tmp/rss")" <<'PY'
import json, sys
tmp, fast_wall, full_wall, big_wall, rss_kb = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
load = lambda f: [json.loads(l) for l in open(f"{tmp}/{f}")]
fast, full = load("grid-fast.jsonl"), load("grid-full.jsonl")
big = json.load(open(f"{tmp}/big.json"))
key = lambda r: tuple(r["config"][k] for k in ("stride", "compute_scaling", "ratio", "nodes"))
fulls = {key(r): r for r in full}
errs = []
print(f"{'benchmark':44} {'runs':>5} {'wall s':>8} {'activities':>11} {'target':>14}")
print(f"{'Fig. 7 grid, fidelity=fast, 2 jobs':44} {len(fast):5d} {fast_wall:8.2f} {sum(r['activities'] for r in fast):11d} {'<= 5 s':>14}")
print(f"{'Fig. 7 grid, fidelity=full, 2 jobs':44} {len(full):5d} {full_wall:8.2f} {sum(r['activities'] for r in full):11d} {'(reference)':>14}")
print(f"{'32 nodes, ratio 31, stride 20 (1024 cores)':44} {1:5d} {big_wall:8.2f} {big['activities']:11d} {'<= 2 s':>14}")
print(f"{'  peak RSS of that run':44} {'':5} {rss_kb/1024:7.1f}M {'':11} {'<= 64 MB':>14}")
print()
print(f"{'stride':>6} {'cs':>4} {'R':>3} {'nodes':>5} {'makespan fast':>14} {'makespan full':>14} {'err %':>7} {'sim act err %':>13} {'ana act err %':>13}")
for r in fast:
    f = fulls[key(r)]
    e = 100 * (r["makespan"] / f["makespan"] - 1)
    es = 100 * (r["sim_active"] / f["sim_active"] - 1)
    ea = 100 * (r["analytics_active"] / f["analytics_active"] - 1)
    errs.append((abs(e), abs(es), abs(ea)))
    if r["config"]["nodes"] in (1, 8) and r["config"]["ratio"] in (1, 15, 31):
        print(f"{key(r)[0]:6d} {key(r)[1]:4.0f} {key(r)[2]:3d} {key(r)[3]:5d} {r['makespan']:14.3f} {f['makespan']:14.3f} {e:7.3f} {es:13.3f} {ea:13.3f}")
worst = [max(x[i] for x in errs) for i in range(3)]
ok = fast_wall <= 5 and big_wall <= 2 and rss_kb <= 64 * 1024
print()
print(f"summary: grid {fast_wall:.2f} s (full {full_wall:.2f} s, {full_wall/fast_wall:.1f}x slower), "
      f"1024 cores {big_wall:.2f} s / {rss_kb/1024:.0f} MB, worst fast-vs-full error: makespan {worst[0]:.3f}%, "
      f"sim active {worst[1]:.3f}%, analytics active {worst[2]:.3f}% -> {'targets met' if ok else 'TARGETS MISSED'}")
PY

# 4. how full and fast grow with the cluster (8 -> 16 -> 32 nodes), and the paper-scale full run.
python3 "$(dirname "$0")/scaling.py" "$SITU"

# 5. full fidelity sampled (--sampling auto) against every step simulated and against smpi.
python3 "$(dirname "$0")/sampling.py" "$SITU"
