#!/bin/sh
# make bench: the advisor's speed targets (a benchmark, not a test).
#   1. the model's rate on one core (the search is single-threaded): a 200,000-candidate grid,
#      counted in the process's CPU time (the machine is shared: wall time counts the others),
#      target >= 100,000 candidates/s;
#   2. the paper's Fig. 7 space (4 pairs x 5 ratios x 8 node counts x 2 mappings) with
#      --verify 5 and no cache (SimGrid runs the five), target < 10 s of wall time.
set -eu
SITU=${1:-./situ}
python3 - "$SITU" <<'PY'
import re, resource, subprocess, sys, time
situ = sys.argv[1]
HEAD = r"advise: (\d+) candidates by the model in ([0-9.e+]+) ms"

def cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime

c0 = cpu()
out = subprocess.run([situ, "advise", "--ratio", "1,3,7,15,31", "--nodes", "1..8", "--stride",
                      "10..1000+10", "--compute-scaling", "1..50", "--verify", "0", "--top", "1"],
                     capture_output=True, text=True, check=True).stdout
n = int(re.search(HEAD, out).group(1))
rate = n / (cpu() - c0)
t0 = time.monotonic()
fig7 = subprocess.run([situ, "advise", "--stride:compute-scaling", "20:1,200:10,500:25,1000:50",
                       "--ratio", "1,3,7,15,31", "--nodes", "1..8", "--mapping", "insitu,intransit",
                       "--verify", "5", "--no-cache"], capture_output=True, text=True, check=True).stdout
wall = time.monotonic() - t0
fn, fs = re.search(HEAD, fig7).groups()
print(f"{'benchmark':52} {'value':>14} {'target':>16}")
print(f"{'advise: model rate, ' + str(n) + ' candidates, one core':52} {rate:10.0f} c/s {'>= 100000 c/s':>16}")
print(f"{'advise: Fig. 7 space, ' + fn + ' candidates, --verify 5':52} {wall:12.2f} s {'< 10 s':>16}")
print(f"{'  of which the model (wall)':52} {float(fs) / 1e3:12.3f} s")
ok = rate >= 100000 and wall < 10
print(f"summary: {rate:.0f} candidates/s, Fig. 7 advice in {wall:.2f} s: "
      f"{'targets met' if ok else 'TARGET MISSED'}")
sys.exit(0 if ok else 1)
PY
