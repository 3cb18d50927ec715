#!/bin/sh
# One supervisor (issue 15): the explorer reaches SimGrid through one child wrapper. In a real
# terminal, with simulations that hang (SITU_TEST_FAULT=hang) and a 2 s limit (SITU_TIME_LIMIT):
#   one fork:       every simulation child is the explorer's own, exec'd as `situ __simulate`,
#                   and forks nothing below it (a `situ run` that forks again would show here);
#   one time limit: a child is killed and reaped at 2 s, neither earlier nor much later, and the
#                   screen says so in the wrapper's words;
#   ready child:    the key's simulation runs in the child started ahead, and a new one waits;
#   no orphans:     SIGKILL to the explorer (no handler runs) still ends its children, the
#                   ready one too (PR_SET_PDEATHSIG, set by the wrapper before exec).
# Usage: sh tests/tui/supervisor.sh ./situ        Last line: "supervisor: N passed, M failed".
set -u
situ=$1
case $situ in /*) ;; *) situ=$(pwd)/$situ ;; esac
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/situ-supervisor.XXXXXX") || exit 1
sock=$tmp/tmux
trap 'tui_tmux kill-server 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
passed=0
failed=0

. "$(dirname "$0")/../case.sh" # CASE=PATTERN: counts only the cases it selects (steps still run)
ok() {
    case_selected "$*" || return 0
    passed=$((passed + 1))
    echo "ok: $*" >&2
}
fail() {
    case_selected "$*" || return 0
    failed=$((failed + 1))
    echo "FAIL: $*" >&2
    tui_screen sv | sed 's/^/    | /' >&2
}
now() { python3 -c 'import time; print(time.monotonic())'; }
since() { python3 -c "import sys; print(f'{$(now) - $1:.2f}')"; }
alive() { [ -d "/proc/$1" ] && ! grep -q '^State:.*Z' "/proc/$1/status" 2>/dev/null; }

tui_new sv 100 30 "env SITU_TEST_FAULT=hang SITU_TIME_LIMIT=2 XDG_CACHE_HOME=$tmp/cache \
$situ --iterations 400"
pid=$(tui_pid sv) || {
    fail "no process of the pane runs $situ"
    echo "supervisor: $passed passed, $failed failed"
    exit 1
}

# ---- one fork -------------------------------------------------------------------------------
n=0
until [ -n "$(tui_simulations "$pid")" ] || [ $n -ge 200 ]; do
    n=$((n + 1))
    sleep 0.05
done
sims=$(tui_simulations "$pid")
first=$(echo "$sims" | head -1)
seen=$(now)
sleep 0.3 # a second fork below the child, if there were one, has happened by now
why=""
[ -n "$sims" ] || why="no simulation child started"
for k in $sims; do
    grand=$(tui_children "$k" | tr '\n' ' ')
    [ -z "$grand" ] || why="${why:-child $k forked again (two supervisors): $grand}"
    cmd=$(tr '\0' '\n' <"/proc/$k/cmdline" 2>/dev/null | sed -n 2p)
    [ "$cmd" = __simulate ] || why="${why:-child $k is '$cmd', not the simulation itself}"
done
if [ -z "$why" ]; then ok "each simulation is one child of the explorer ($(echo $sims))"; else fail "$why"; fi

# ---- one time limit -------------------------------------------------------------------------
why=""
if [ -n "$first" ]; then
    while alive "$first" && [ "$(since "$seen" | cut -d. -f1)" -lt 10 ]; do
        sleep 0.05
    done
    took=$(since "$seen")
    alive "$first" && why="child $first still runs after 10 s"
    # Seen up to 0.25 s after its start; killed at 2 s; reaped at once.
    python3 -c "import sys; sys.exit(0 if 1.6 <= $took <= 3.5 else 1)" ||
        why="${why:-child $first ended $took s after it was seen, not at the 2 s limit}"
    n=0
    until tui_screen sv | grep -q 'timed out after 2 s' || [ $n -ge 100 ]; do
        n=$((n + 1))
        sleep 0.05
    done
    tui_screen sv | grep -q 'timed out after 2 s' || why="${why:-the screen does not say the limit}"
else
    why="no child to time"
fi
if [ -z "$why" ]; then ok "the 2 s limit killed child $first after $took s"; else fail "$why"; fi

# ---- the ready child: it runs the key's simulation ----------------------------------------
# One child waits, started ahead (`situ __simulate --ready`); the key's simulation is handed to
# it, and another starts to wait for the next key.
n=0
until [ "$(tui_ready_children "$pid" | wc -l)" -eq 1 ] || [ $n -ge 200 ]; do
    n=$((n + 1))
    sleep 0.05
done
ready=$(tui_ready_children "$pid")
tui_tmux send-keys -t sv r # a re-run: a child that hangs again
n=0
until tui_simulations "$pid" | grep -qx "$ready" || [ $n -ge 200 ]; do
    n=$((n + 1))
    sleep 0.05
done
why=""
[ "$(echo "$ready" | wc -w)" -eq 1 ] || why="not one ready child waits: '$(echo $ready)'"
tui_simulations "$pid" | grep -qx "$ready" || why="${why:-the key's simulation is not the ready child $ready}"
n=0
until [ -n "$(tui_ready_children "$pid")" ] || [ $n -ge 200 ]; do
    n=$((n + 1))
    sleep 0.05
done
next=$(tui_ready_children "$pid")
[ -n "$next" ] && [ "$next" != "$ready" ] || why="${why:-no new ready child after the hand-out}"
if [ -z "$why" ]; then ok "the ready child $ready runs the key's simulation; $next waits next"; else fail "$why"; fi

# ---- no orphans -----------------------------------------------------------------------------
n=0
until [ -n "$(tui_simulations "$pid")" ] || [ $n -ge 200 ]; do
    n=$((n + 1))
    sleep 0.05
done
sims="$(tui_simulations "$pid") $(tui_ready_children "$pid")"
kill -KILL "$pid"
n=0
left=$sims
while [ -n "$left" ] && [ $n -lt 100 ]; do
    still=""
    for k in $left; do alive "$k" && still="$still $k"; done
    left=$still
    n=$((n + 1))
    sleep 0.05
done
if [ -n "$sims" ] && [ -z "$left" ]; then
    ok "a SIGKILLed explorer takes its simulations and its ready child ($(echo $sims))"
else
    for k in $left; do kill -KILL "$k" 2>/dev/null; done
    if [ -n "$sims" ]; then fail "children outlived the explorer:$left"; else fail "no simulation ran to kill"; fi
fi
case_none_matched supervisor $((passed + failed)) && failed=$((failed + 1))
echo "supervisor: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
