#!/bin/sh
# make bench, the explorer's part: key-to-frame latency and debounce-to-result, measured by the
# explorer itself (--stats) in a real terminal (tmux) while keys arrive. A benchmark, not a test:
# it prints a table and a summary line, and fails only if the explorer does.
#   idle:   keys 25 ms apart on a quick configuration (the debounce never fires: no children);
#   loaded: the same keys while two long simulations run (fidelity full, 8 nodes);
#   result: one key every 0.8 s on a 1-node configuration, right then down (each right a new
#           configuration, on the next slider), each simulated result awaited.
set -eu
SITU=${1:-./situ}
case $SITU in /*) ;; *) SITU=$(pwd)/$SITU ;; esac
tmp=$(mktemp -d "${TMPDIR:-/tmp}/situ-bench-tui.XXXXXX")
sock=$tmp/tmux
trap 'tmux -S "$sock" kill-server 2>/dev/null || :; rm -rf "$tmp"' EXIT INT TERM

# phase NAME KEYS GAP CYCLE ARGS...: KEYS presses GAP seconds apart, cycling through the keys of
# CYCLE ("lh": right, left, so the ratio stays in range; "lj": right, then down to the next
# slider, so every configuration is new), then q; appends "NAME|keys|p50|p99|runs|p50|p99|load" to $tmp/rows.
phase() {
    name=$1 nkeys=$2 gap=$3 cycle=$4
    shift 4
    tmux -S "$sock" kill-server 2>/dev/null || :
    tmux -S "$sock" new-session -d -s b -x 120 -y 40 \
        "XDG_CACHE_HOME=$tmp/cache-$name LANG=C.UTF-8 $SITU --stats $* 2>$tmp/$name.err; echo EXIT=\$? >$tmp/$name.rc"
    n=0
    until tmux -S "$sock" capture-pane -p -t b 2>/dev/null | grep -q PARAMETERS; do
        n=$((n + 1))
        [ $n -lt 200 ] || { echo "bench tui: the explorer did not start ($name)" >&2; exit 1; }
        sleep 0.05
    done
    sleep 1 # the start-up simulations get going
    i=0
    while [ $i -lt "$nkeys" ]; do
        k=$(printf %s "$cycle" | cut -c$((i % ${#cycle} + 1)))
        tmux -S "$sock" send-keys -t b "$k"
        sleep "$gap"
        i=$((i + 1))
    done
    load=$(cut -d' ' -f1 /proc/loadavg)
    tmux -S "$sock" send-keys -t b q
    n=0
    until [ -s "$tmp/$name.rc" ]; do
        n=$((n + 1))
        [ $n -lt 200 ] || { echo "bench tui: q did not quit ($name)" >&2; exit 1; }
        sleep 0.05
    done
    grep -q EXIT=0 "$tmp/$name.rc" || { echo "bench tui: exit status $(cat "$tmp/$name.rc") ($name)" >&2; exit 1; }
    python3 - "$tmp/$name.err" "$name" "$load" >>"$tmp/rows" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
k = re.search(r"latency over (\d+) keys: p50 ([\d.]+) ms, p99 ([\d.]+) ms", text)
r = re.search(r"result over (\d+) runs: p50 (\d+) ms, p99 (\d+) ms", text)
f = lambda m: m.groups() if m else ("-", "-", "-")
print("|".join([sys.argv[2], *f(k), *f(r), sys.argv[3]]))
PY
}

: >"$tmp/rows"
phase idle 200 0.025 lh --iterations 40 --stride 20
phase loaded 200 0.025 lh --fidelity full --nodes 8 --iterations 40000
phase result 16 0.8 lj --nodes 1 --iterations 2000 --ratio 1

python3 - "$tmp/rows" <<'PY'
import sys
rows = [l.rstrip("\n").split("|") for l in open(sys.argv[1])]
print(f"{'phase':<8} {'keys':>5} {'p50 ms':>8} {'p99 ms':>8} {'results':>8} {'p50 ms':>8} {'p99 ms':>8} {'load':>5}")
for r in rows:
    print(f"{r[0]:<8} {r[1]:>5} {r[2]:>8} {r[3]:>8} {r[4]:>8} {r[5]:>8} {r[6]:>8} {r[7]:>5}")
d = {r[0]: r for r in rows}
print(f"tui: key-to-frame p99 {d['loaded'][3]} ms with two simulations running "
      f"({d['idle'][3]} ms idle; target 16 ms); debounce-to-result p99 {d['result'][6]} ms "
      f"(target 300 ms)")
PY
