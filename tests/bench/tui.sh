#!/bin/sh
# make bench, the explorer's part: key-to-frame latency and debounce-to-result, measured by the
# explorer itself (--stats) in a real terminal (tmux) while keys arrive. A benchmark, not a test:
# it prints a table and a summary line, and fails only if the explorer does, or if a phase did
# not run under the load it is named after.
#   idle:   keys 25 ms apart on a quick configuration (the debounce never fires: no children);
#   loaded: the same keys while the start-up simulations run (fidelity full, 8 nodes; how many
#           at once is measured, not assumed: it said "two" and was one);
#   result: one key every 0.8 s on a 1-node configuration, right then down (each right a new
#           configuration, on the next slider), each simulated result awaited;
#   advise: keys 25 ms apart with the advisor view open (a): each moves the cursor, and the
#           heatmap is modelled anew before the frame.
#   faithful: at 16 nodes in transit, one key (the stride to 20), then the refined result (sampled
#           full fidelity) awaited: the last key to the faithful answer on screen (target 3 s).
#           With BASE, the base binary at --fidelity full for the same key: its key-to-result.
# The "sims" column counts the explorer's simulation children while the keys arrived (fewest-most).
# The key-to-result columns time a slider key to its SimGrid result on screen (debounce included).
# With a second binary (BASE: an older build, `make bench BENCH_BASE=...`), the result phase runs
# for both, alternately, twice each, and the summary gives the ratio measured in this one run.
set -eu
SITU=${1:-./situ}
BASE=${2:-}
case $SITU in /*) ;; *) SITU=$(pwd)/$SITU ;; esac
case $BASE in /* | "") ;; *) BASE=$(pwd)/$BASE ;; esac
situ=$SITU # the name the harness knows the binary by
. "$(dirname "$0")/../tui/lib.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/situ-bench-tui.XXXXXX")
sock=$tmp/tmux
trap 'tui_tmux kill-server 2>/dev/null || :; rm -rf "$tmp"' EXIT INT TERM

fail() {
    echo "bench tui: $*" >&2
    exit 1
}
sims() { tui_simulations "$pid" | wc -l; }

# phase NAME KEYS GAP CYCLE LOAD ARGS...: KEYS presses GAP seconds apart, cycling through the keys
# of CYCLE ("lh": right, left, so the ratio stays in range; "lj": right, then down to the next
# slider, so every configuration is new), then q. LOAD is what must run while the keys arrive:
# "none" (the start-up simulations over, none starts), "busy" (simulations all along) or "any".
# Appends "NAME|keys|p50|p99|runs|p50|p99|sims|load|results|p50|p99" to $tmp/rows. BIN is the
# binary (default $SITU).
phase() {
    bin=${BIN:-$SITU}
    name=$1 nkeys=$2 gap=$3 cycle=$4 want=$5
    shift 5
    tui_tmux kill-server 2>/dev/null || :
    cat >"$tmp/$name.sh" <<EOF
${PHASE_ENV:-} XDG_CACHE_HOME="$tmp/cache-$name" LANG=C.UTF-8 "$bin" --stats $* 2>"$tmp/$name.err"
echo EXIT=\$? >"$tmp/$name.rc"
EOF
    tui_new b 120 40 "sh '$tmp/$name.sh'"
    n=0
    until tui_screen b | grep -q PARAMETERS; do
        n=$((n + 1))
        [ $n -lt 200 ] || fail "the explorer did not start ($name)"
        sleep 0.05
    done
    # The children counted are the explorer's own: the pid must be the explorer's.
    situ=$bin
    pid=$(tui_pid b) || fail "no process of the pane runs $bin ($name)"
    n=0
    case $want in
    none) # the start-up simulations (the configuration's, the crossover's points) all end
        # (At first nothing runs yet: the first simulation waits for the debounce.)
        until [ "$(sims)" -eq 0 ] && tui_screen b | grep -q ' 0 running, 0 queued.*last run'; do
            n=$((n + 1))
            [ $n -lt 600 ] || fail "the start-up simulations did not end ($name)"
            sleep 0.05
        done ;;
    busy) # the start-up simulations get going
        until [ "$(sims)" -ge 1 ]; do
            n=$((n + 1))
            [ $n -lt 200 ] || fail "no simulation started ($name)"
            sleep 0.05
        done ;;
    esac
    # PHASE_PRE: a key that sets the phase up first (a: the advisor view, rebuilt on every key).
    if [ -n "${PHASE_PRE:-}" ]; then
        tui_tmux send-keys -t b "$PHASE_PRE"
        sleep 0.2
    fi
    fewest=999 most=0
    i=0
    while [ $i -lt "$nkeys" ]; do
        k=$(printf %s "$cycle" | cut -c$((i % ${#cycle} + 1)))
        tui_tmux send-keys -t b "$k"
        if [ $((i % 10)) -eq 0 ]; then # a /proc scan every tenth key only: the pace stays GAP
            c=$(sims)
            [ "$c" -lt "$fewest" ] && fewest=$c
            [ "$c" -gt "$most" ] && most=$c
        fi
        sleep "$gap"
        i=$((i + 1))
    done
    load=$(cut -d' ' -f1 /proc/loadavg)
    case $want in
    none) [ "$most" -eq 0 ] || fail "$most simulations ran while the keys arrived ($name)" ;;
    busy) [ "$fewest" -ge 1 ] || fail "the simulations ended before the keys did ($name)" ;;
    esac
    tui_tmux send-keys -t b q
    n=0
    until [ -s "$tmp/$name.rc" ]; do
        n=$((n + 1))
        [ $n -lt 200 ] || fail "q did not quit ($name)"
        sleep 0.05
    done
    grep -q EXIT=0 "$tmp/$name.rc" || fail "exit status $(cat "$tmp/$name.rc") ($name)"
    [ "$fewest" -eq "$most" ] && seen=$most || seen=$fewest-$most
    python3 - "$tmp/$name.err" "$name" "$seen" "$load" >>"$tmp/rows" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
k = re.search(r"latency over (\d+) keys: p50 ([\d.]+) ms, p99 ([\d.]+) ms", text)
r = re.search(r"result over (\d+) runs: p50 (\d+) ms, p99 (\d+) ms", text)
s = re.search(r"SimGrid result on screen\) over (\d+) keys: p50 (\d+) ms, p99 (\d+) ms", text)
f = lambda m: m.groups() if m else ("-", "-", "-")
print("|".join([sys.argv[2], *f(k), *f(r), sys.argv[3], sys.argv[4], *f(s)]))
PY
}

: >"$tmp/rows"
phase idle 200 0.025 lh none --iterations 40 --stride 20
phase loaded 200 0.025 lh busy --fidelity full --nodes 8 --iterations 40000
result_args="--nodes 1 --iterations 2000 --ratio 1"
# The ready child against a cold start (SITU_READY_CHILD=0), and the older build if given:
# alternately, twice each, so that both see the same load.
for round in 1 2; do
    [ -z "$BASE" ] || BIN=$BASE phase "base$round" 16 0.8 lj any $result_args
    PHASE_ENV=SITU_READY_CHILD=0 phase "cold$round" 16 0.8 lj any $result_args
    phase "result$round" 16 0.8 lj any $result_args
done
# The advisor view open: every key moves the cursor, so the configuration, so the whole map is
# modelled again before the frame (ratio x nodes, 5 x 24 cells).
PHASE_PRE=a phase advise 200 0.025 lhkj any --iterations 40 --stride 20

# faithful NAME ARGS...: the explorer at 16 nodes in transit from stride 40; Down Left sets the
# stride to 20 (the last key); the screen is awaited until the status bar names a full-fidelity
# run, then q. Appends "NAME|ms" (the key-to-faithful p50, or the base's key-to-result) to
# $tmp/faithful.
faithful() {
    bin=${BIN:-$SITU}
    name=$1
    shift
    tui_tmux kill-server 2>/dev/null || :
    cat >"$tmp/$name.sh" <<EOF
XDG_CACHE_HOME="$tmp/cache-$name" LANG=C.UTF-8 "$bin" --stats --nodes 16 --mapping intransit --stride 40 $* 2>"$tmp/$name.err"
echo EXIT=\$? >"$tmp/$name.rc"
EOF
    tui_new b 120 40 "sh '$tmp/$name.sh'"
    n=0
    until tui_screen b | grep -q PARAMETERS; do
        n=$((n + 1))
        [ $n -lt 200 ] || fail "the explorer did not start ($name)"
        sleep 0.05
    done
    tui_tmux send-keys -t b Down Left
    n=0
    until tui_screen b | grep -q ' stride  *20 ' && tui_screen b | grep -Eq 'last run took .*\(full'; do
        n=$((n + 1))
        [ $n -lt 3000 ] || fail "no full-fidelity result in 150 s ($name)"
        sleep 0.05
    done
    tui_tmux send-keys -t b q
    n=0
    until [ -s "$tmp/$name.rc" ]; do
        n=$((n + 1))
        [ $n -lt 200 ] || fail "q did not quit ($name)"
        sleep 0.05
    done
    python3 - "$tmp/$name.err" "$name" >>"$tmp/faithful" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
m = (re.search(r"key-to-faithful-result latency .* p50 (\d+) ms", text) or
     re.search(r"SimGrid result on screen\) over \d+ keys: p50 (\d+) ms", text))
print(f"{sys.argv[2]}|{m.group(1) if m else '-'}")
PY
}
: >"$tmp/faithful"
if [ -n "$BASE" ]; then
    BIN=$BASE faithful faithful-base --fidelity full
fi
faithful faithful

python3 - "$tmp/rows" <<'PY'
import sys
rows = [l.rstrip("\n").split("|") for l in open(sys.argv[1])]
print(f"{'':8} {'key-to-frame':>23} {'debounce-to-result':>27} {'':11} {'key-to-result':>23}")
print(f"{'phase':<8} {'keys':>5} {'p50 ms':>8} {'p99 ms':>8} {'results':>8} {'p50 ms':>8} {'p99 ms':>8} {'sims':>5} {'load':>5} {'keys':>5} {'p50 ms':>8} {'p99 ms':>8}")
for r in rows:
    print(f"{r[0]:<8} {r[1]:>5} {r[2]:>8} {r[3]:>8} {r[4]:>8} {r[5]:>8} {r[6]:>8} {r[7]:>5} {r[8]:>5} {r[9]:>5} {r[10]:>8} {r[11]:>8}")
d = {r[0]: r for r in rows}
res = d["result2"]
print(f"tui: key-to-frame p99 {d['loaded'][3]} ms with {d['loaded'][7]} simulations running "
      f"({d['idle'][3]} ms idle; target 16 ms); debounce-to-result p99 {res[6]} ms "
      f"(target 300 ms); key-to-result p50 {res[10]} ms, p99 {res[11]} ms; "
      f"advisor view open p99 {d['advise'][3]} ms (target 16 ms)")
faithful = dict(l.strip().split("|") for l in open(sys.argv[1].replace("rows", "faithful")))
print(f"tui: at 16 nodes in transit, the last key to the faithful answer (sampled full fidelity) "
      f"on screen: {faithful['faithful']} ms (target 3000 ms)"
      + (f"; before (BASE, --fidelity full, no refinement): {faithful['faithful-base']} ms"
         if "faithful-base" in faithful else ""))
# Each variant's mean over its two rounds, and their ratio: measured in this one run.
for before, what_before in (("cold", "every child started cold (SITU_READY_CHILD=0)"),
                            ("base", "BASE")):
    if before + "1" not in d:
        continue
    for col, what in ((10, "p50"), (11, "p99")):
        new = [float(d[n][col]) for n in ("result1", "result2")]
        old = [float(d[before + n][col]) for n in ("1", "2")]
        print(f"tui: key-to-result {what}: {sum(old)/2:.0f} ms with {what_before}, {sum(new)/2:.0f} ms "
              f"with the ready child: ratio {sum(new)/sum(old):.2f} (target p50 <= 150 ms)")
PY
