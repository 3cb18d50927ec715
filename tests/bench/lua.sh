#!/bin/sh
# make bench, the Lua part: the explorer with an analytics that takes about 0.25 s per call
# (well within its time limit; counted in instructions, as an analytics file has no clock). The explorer never evaluates it itself (its evaluator process does),
# so keys must stay as quick as with the built-in analytics, and the model's numbers follow.
# Reports the explorer's own --stats: key-to-frame (the frame after a key) and key-to-result
# (the frame that shows the key's model, or a later key's). A benchmark, not a test: it fails
# only if the explorer does.
set -eu
SITU=${1:-./situ}
case $SITU in /*) ;; *) SITU=$(pwd)/$SITU ;; esac
tmp=$(mktemp -d "${TMPDIR:-/tmp}/situ-bench-lua.XXXXXX")
sock=$tmp/tmux
trap 'tmux -S "$sock" kill-server 2>/dev/null || :; rm -rf "$tmp"' EXIT INT TERM

cat >"$tmp/slow.lua" <<'LUA'
return { name = "slow", cost = function(ctx)
  for _ = 1, 5e7 do end -- 5e7 of the 1e8 instructions a call may take
  return ctx.particles * ctx.analytics_cost * ctx.compute_scaling
end }
LUA

# KEYS presses GAP seconds apart (right, left: the ratio stays in range), then q.
run() {
    nkeys=$1 gap=$2
    tmux -S "$sock" kill-server 2>/dev/null || :
    tmux -f /dev/null -S "$sock" new-session -d -s b -x 100 -y 30 \
        "exec env LANG=C.UTF-8 XDG_CACHE_HOME=$tmp/cache $SITU --stats --analytics $tmp/slow.lua 2>$tmp/err"
    n=0
    until tmux -S "$sock" capture-pane -p -t b 2>/dev/null | grep -q "makespan"; do
        n=$((n + 1))
        [ $n -lt 400 ] || { echo "bench lua: the explorer showed no model" >&2; exit 1; }
        sleep 0.05
    done
    i=0
    while [ $i -lt "$nkeys" ]; do
        [ $((i % 2)) -eq 0 ] && k=Right || k=Left
        tmux -S "$sock" send-keys -t b "$k"
        sleep "$gap"
        i=$((i + 1))
    done
    sleep 1.5 # the last key's model lands
    tmux -S "$sock" send-keys -t b q
    n=0
    while ! grep -q "key-to-frame" "$tmp/err" 2>/dev/null; do
        n=$((n + 1))
        [ $n -lt 200 ] || { echo "bench lua: the explorer did not quit" >&2; exit 1; }
        sleep 0.05
    done
}

for gap in 0.1 0.5; do
    run 40 "$gap"
    echo "lua bench, 0.25 s analytics, 40 keys $gap s apart (load $(cut -d' ' -f1 /proc/loadavg)):"
    sed -n 's/^situ: /  /p' "$tmp/err" | grep -E "key-to-(frame|result)"
done
