#!/bin/sh
# Refinement in a real terminal (tmux, 100x30): after a change the SimGrid column shows fast's
# numbers, then sampled full fidelity's once the setting has stayed, its engine named; a key during
# the full run supersedes it (its child goes, its result never shows); f turns refinement off (the
# full run goes) and on again. The time from the last key to the faithful answer at 16 nodes in
# transit is logged (--stats), not asserted: make bench reports it.
# Usage: sh tests/tui/refine.sh ./situ          Last line: "refine: N passed, M failed".
set -u
situ=${1:?usage: sh tests/tui/refine.sh PATH/TO/situ}
case $situ in /*) ;; *) situ=$(pwd)/$situ ;; esac
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/../case.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/situ-refine.XXXXXX") || exit 1
sock=$tmp/tmux-0
trap 'tui_tmux kill-server 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'tui_tmux kill-server 2>/dev/null; rm -rf "$tmp"; exit 130' INT TERM
# A platform of our own (its copy in the suite's directory).
platform=$tmp/dahu-refine.xml
cp "$(dirname "$situ")/platforms/dahu.xml" "$platform" 2>/dev/null ||
    cp platforms/dahu.xml "$platform" || exit 1
screen=$tmp/screen
passed=0 failed=0 why="" t0=$(date +%s)

miss() { [ -z "$why" ] && why=$1; }
finish() {
    if case_selected "$1"; then
        if [ -z "$why" ]; then
            passed=$((passed + 1))
            echo "ok: $1 ($(($(date +%s) - t0)) s)" >&2
        else
            failed=$((failed + 1))
            echo "FAIL: $1: $why" >&2
            sed 's/^/    | /' "$screen" >&2
        fi
    fi
    why="" t0=$(date +%s)
}
capture() { tui_capture situ "$screen"; }
wait_for() {
    tries=$((${2:-10} * 20))
    while [ $tries -gt 0 ]; do
        capture
        grep -Eq -- "$1" "$screen" && return 0
        tries=$((tries - 1))
        sleep 0.05
    done
    return 1
}
# shows [-E] PATTERN [SECONDS]: whether the screen shows the (grep, or grep -E) pattern, polled
# for up to 3 s: what a frame shows beside the line a check waited for can come a frame later
# under load (seen: a lesson's step 2 text after its "step 2/4"). The capture already taken is
# looked at first, so a check that passes costs nothing.
shows() {
    _how=-q
    [ "$1" = -E ] && _how=-Eq && shift
    tries=$((${2:-3} * 20))
    until grep $_how -- "$1" "$screen"; do
        [ $tries -gt 0 ] || return 1
        tries=$((tries - 1))
        sleep 0.05
        capture
    done
}

keys() { tui_tmux send-keys -t situ "$@"; }
# The explorer's simulations at full fidelity (they name themselves "situ-sim:full":
# tests/tui/lib.sh), found in its process tree, never by command line. Each start() sets $explorer.
full_runs() {
    for k in $(tui_simulations "$explorer"); do
        [ "$(cat "/proc/$k/comm" 2>/dev/null)" = situ-sim:full ] && echo "$k"
    done
    return 0
}
# Which of the pids in $1 still run.
still_running() {
    for k in $1; do kill -0 "$k" 2>/dev/null && echo "$k"; done
    return 0
}
sessions=0
start() {
    tui_tmux kill-server 2>/dev/null
    sessions=$((sessions + 1)) # a fresh server: the old one may still be on its way out
    sock=$tmp/tmux-$sessions
    cat >"$tmp/wrap.sh" <<EOF
cd "$tmp" || exit 1
XDG_CACHE_HOME="$tmp/cache-$sessions" "$situ" --stats --platform "$platform" "\$@" 2>"$tmp/stderr"
printf '\nEXIT=%s\n' "\$?"
read -r _ || exec tail -f /dev/null
EOF
    tui_new situ 100 30 "sh '$tmp/wrap.sh' $*"
    wait_for PARAMETERS 20 || miss "the explorer did not start"
    explorer=$(tui_pid situ) || miss "no process of the pane runs $situ"
}
quit() {
    keys q
    wait_for "EXIT=0" 10 || miss "q did not quit with 0"
}
# The efficiency in the SimGrid column.
eta_sim() { sed -n 's/.*efficiency η *[0-9.][0-9.]* *\([0-9.][0-9.]*\).*/\1/p' "$screen" | head -1; }

# ---- the column ends at sampled full fidelity, engine named; the faithful answer's time -------
# 16 nodes in transit (fast and the model overestimate there); the key that sets the stride to
# 20 is the last one, and --stats says how long its faithful answer took.
start --nodes 16 --mapping intransit --stride 40
keys Down Left
wait_for " stride +20 iter" 10 || miss "Left did not move the stride to 20"
wait_for "SimGrid ✓ (full )?sampled" 60 || miss "the column never reached sampled full fidelity"
wait_for "last run took [0-9.]+ m?s \(full sampled\)" 10 || miss "the status bar does not name the engine"
shown=$(eta_sim)
quit
# The same configuration at fidelity full, from the explorer's own results directory: the column
# showed the full run's efficiency, not fast's (a different configuration in that directory).
want=$(XDG_CACHE_HOME="$tmp/cache-1" "$situ" sweep --platform "$platform" --nodes 16 \
    --mapping intransit --fidelity full 2>/dev/null |
    python3 -c 'import csv, sys; print("%.3f" % float(next(csv.DictReader(sys.stdin))["efficiency"]))')
[ -n "$shown" ] && [ "$shown" = "$want" ] || miss "the column shows η '$shown', full fidelity's is '$want'"
grep -q "key-to-faithful-result latency" "$tmp/stderr" || miss "--stats did not time the faithful answer"
sed -n 's/^situ: key-to-faithful/refine: 16 nodes in transit, key-to-faithful/p' "$tmp/stderr" >&2
finish "the column ends at sampled full fidelity, its engine named"

# ---- a key during the full run supersedes it --------------------------------------------------
# Unsampled full at 16 nodes runs long enough to be seen (15 s of CPU, never finished here); the node count typed while it runs is a
# new configuration: the 16-node full child goes (its pid, taken while the column says it runs:
# the 2-node one's full run is another process), and what ends on screen is the 2-node one's.
start --nodes 16 --mapping intransit --sampling off
wait_for "✓ fast, full [0-9]+ s" 60 || miss "no full run under way after fast's numbers"
superseded=$(full_runs)
[ -n "$superseded" ] || miss "no full-fidelity child while the column says one runs"
keys g Enter 2 Enter # the first slider (nodes), typed
wait_for " nodes +2 " 10 || miss "the typed node count did not apply"
n=0
while [ -n "$(still_running "$superseded")" ] && [ $n -lt 40 ]; do
    n=$((n + 1))
    sleep 0.05
done
[ -z "$(still_running "$superseded")" ] || miss "the superseded 16-node full run still runs"
wait_for "SimGrid ✓ full( |$)" 60 || miss "the 2-node configuration never reached full fidelity"
grep -q "cores" "$screen" && ! grep -Eq "cores .*16 node" "$screen" || miss "a 16-node result is on screen"
quit
finish "a key during the full run supersedes it"

# ---- f turns refinement off (its run goes) and on again ---------------------------------------
start --nodes 16 --mapping intransit --sampling off
wait_for "✓ fast, full [0-9]+ s" 60 || miss "no full run under way after fast's numbers"
keys f
wait_for "refinement off" 10 || miss "f did not say refinement is off"
wait_for "SimGrid ✓ fast( |$)" 10 || miss "the column did not settle on fast's numbers"
n=0
while [ -n "$(full_runs)" ] && [ $n -lt 40 ]; do
    n=$((n + 1))
    sleep 0.05
done
[ -z "$(full_runs)" ] || miss "the full run still runs with refinement off"
keys f
wait_for "refinement on" 10 || miss "f did not turn refinement on again"
wait_for "✓ fast, full" 10 || miss "refinement did not start again"
keys '?'
wait_for "refine on/off" 10 || miss "the help does not list f"
keys '?'
quit
finish "f turns refinement off and on"

case_none_matched refine $((passed + failed)) && failed=$((failed + 1))
echo "refine: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
