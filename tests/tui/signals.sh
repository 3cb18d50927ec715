#!/bin/sh
# Signals with simulations running: SIGINT, SIGHUP and SIGTERM sent to the explorer must restore
# the terminal (its stty settings as they were) and kill and reap every simulation child.
# (SIGTERM and a crash are also in run.sh; this covers the signal set of the hardening issue.)
# Usage: sh tests/tui/signals.sh ./situ          Last line: "signals: N passed, M failed".
set -u
situ=$1
case $situ in /*) ;; *) situ=$(pwd)/$situ ;; esac
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/../case.sh" # CASE=PATTERN: counts only the cases it selects (steps still run)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/situ-signals.XXXXXX") || exit 1
sock=$tmp/tmux
trap 'for sock in "$tmp"/tmux-*; do tui_tmux kill-server 2>/dev/null; done; rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
platform=$tmp/dahu-signals.xml
cp "$(dirname "$situ")/platforms/dahu.xml" "$platform" || exit 1
passed=0
failed=0

screen() { tui_screen sig; }
wait_for() {
    n=$(($2 * 20))
    while [ $n -gt 0 ]; do
        screen | grep -Eq -- "$1" && return 0
        n=$((n - 1))
        sleep 0.05
    done
    return 1
}
# The explorer's simulations (they name themselves: tests/tui/lib.sh), and once it has ended,
# whatever of its session is left: a child whose parent died is reparented, out of the tree.
running() { tui_simulations "$pid" | wc -l; }
left() { tui_in_session sig | wc -l; }

for sig in INT HUP TERM; do
    why=""
    case $sig in INT) code=130 ;; HUP) code=129 ;; TERM) code=143 ;; esac # 128 + the signal
    cat >"$tmp/wrap.sh" <<EOF2
before=\$(stty -g)
XDG_CACHE_HOME="$tmp/cache-$sig" LANG=C.UTF-8 "$situ" --platform "$platform" --fidelity full --sampling off --iterations 400000 2>/dev/null
rc=\$?
restored=yes
[ "\$(stty -g)" = "\$before" ] || restored=no
printf '\nEXIT=%s RESTORED=%s\n' "\$rc" "\$restored"
exec tail -f /dev/null
EOF2
    tui_tmux kill-server 2>/dev/null
    sock=$tmp/tmux-$sig # a fresh server: the last one may still be on its way out
    tui_new sig 100 30 "sh '$tmp/wrap.sh'"
    wait_for 'efficiency η' 20 || why="did not start"
    # The signal goes to the explorer itself (the wrapper shell around it reports its status).
    pid=$(tui_pid sig) || why="${why:-no process of the pane runs $situ}"
    # Make sure simulations are running: a change starts one after the debounce. Each takes
    # seconds (400,000 iterations at full fidelity), so that one still runs when the signal
    # comes: a short one could end between this wait and the check below.
    # The key also makes the start's simulation stale: it is killed, and the key's starts after
    # the debounce. Past that, a simulation found running is the key's, and long.
    tui_tmux send-keys -t sig Right
    sleep 0.5
    n=200
    while [ -z "$why" ] && [ "$(running)" -eq 0 ] && [ $n -gt 0 ]; do
        sleep 0.05
        n=$((n - 1))
    done
    [ -z "$why" ] && [ "$(running)" -eq 0 ] && why="no simulation was running"
    kill -"$sig" "$pid" 2>/dev/null
    wait_for 'EXIT=' 10 || why="${why:-SIG$sig did not end the explorer}"
    # The status says which process the signal ended: the explorer, by that very signal.
    screen | grep -q "EXIT=$code " || why="${why:-the explorer did not exit $code (128 + SIG$sig)}"
    screen | grep -q 'RESTORED=yes' || why="${why:-the terminal was not restored}"
    n=40
    while [ "$(left)" -gt 0 ] && [ $n -gt 0 ]; do
        sleep 0.05
        n=$((n - 1))
    done
    [ "$(left)" -eq 0 ] || why="${why:-children left running: $(tui_in_session sig | tr '\n' ' ')}"
    if ! case_selected "SIG$sig"; then
        :
    elif [ -z "$why" ]; then
        passed=$((passed + 1))
        echo "ok: SIG$sig restores the terminal and kills the simulations ($(screen | grep EXIT=))" >&2
    else
        failed=$((failed + 1))
        echo "FAIL: SIG$sig: $why" >&2
        screen | sed 's/^/    | /' >&2
    fi
done
case_none_matched signals $((passed + failed)) && failed=$((failed + 1))
echo "signals: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
