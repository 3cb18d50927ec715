#!/bin/sh
# Terminal tests: runs the real explorer in a real terminal (tmux, 100x30), sends keys and reads
# the screen back, polling until the expected text appears or a deadline passes (no fixed sleeps).
# Usage: sh tests/tui/run.sh ./situ
# The last line is "tui: N passed, M failed"; the exit status is non-zero if anything failed.
set -u

if [ $# -ne 1 ]; then
    echo "usage: sh tests/tui/run.sh PATH/TO/situ" >&2
    exit 2
fi
situ=$1
case $situ in
/*) ;;
*) situ=$(pwd)/$situ ;;
esac
if [ ! -x "$situ" ]; then
    echo "tui: $situ is not an executable" >&2
    echo "tui: 0 passed, 1 failed"
    exit 1
fi
if ! command -v tmux >/dev/null 2>&1; then
    echo "tui: tmux is not installed (make deps installs it)" >&2
    echo "tui: 0 passed, 1 failed"
    exit 1
fi

. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/situ-tui.XXXXXX") || exit 1
# A private tmux server per terminal, its socket in our temporary directory (gone at the end).
base=$tmp/situtest$$
sessions=0
sock=$base-0
cleanup() {
    i=0
    while [ $i -le $sessions ]; do
        sock=$base-$i
        tui_tmux kill-server 2>/dev/null
        i=$((i + 1))
    done
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'cleanup; exit 130' INT TERM

# A platform file of our own (a copy the suite may change).
platform=$tmp/dahu-tuitest.xml
cp "$(dirname "$situ")/platforms/dahu.xml" "$platform" 2>/dev/null ||
    cp platforms/dahu.xml "$platform" || exit 1

passed=0
failed=0
why=""
nocolor=""
t0=$(date +%s)
screen=$tmp/screen

miss() {
    [ -z "$why" ] && why=$1
}

. "$(dirname "$0")/../case.sh" # CASE=PATTERN: counts only the cases it selects (steps still run)
finish() {
    if ! case_selected "$1"; then
        why=""
        t0=$(date +%s)
        return
    fi
    if [ -z "$why" ]; then
        passed=$((passed + 1))
        echo "ok: $1 ($(($(date +%s) - t0)) s)" >&2
    else
        failed=$((failed + 1))
        echo "FAIL: $1: $why" >&2
        sed 's/^/    | /' "$screen" >&2
    fi
    why=""
    t0=$(date +%s)
}

# The pane's text now, a whole frame of it.
capture() {
    tui_capture situ "$screen"
}

# wait_for PATTERN [SECONDS]: polls the screen until the (grep -E) pattern shows up.
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

# wait_gone PATTERN [SECONDS]: polls until the pattern has left the screen.
wait_gone() {
    tries=$((${2:-10} * 20))
    while [ $tries -gt 0 ]; do
        capture
        grep -Eq -- "$1" "$screen" || return 0
        tries=$((tries - 1))
        sleep 0.05
    done
    return 1
}

keys() {
    tui_tmux send-keys -t situ "$@"
}

# start LOCALE ARGS...: a fresh terminal (NO_COLOR from $nocolor) running the explorer through a wrapper that records the
# exit status and whether the terminal settings came back as they were.
start() {
    loc=$1
    shift
    tui_tmux kill-server 2>/dev/null
    sessions=$((sessions + 1)) # a fresh server: the old one may still be on its way out
    sock=$base-$sessions
    # The explorer runs in our temporary directory: relative paths are ours, and its data comes
    # from beside the binary, not from whatever directory the suite was started in. Without
    # refinement: these cases read the fidelity parameter's numbers (fast's Δ, its caution);
    # tests/tui/refine.sh checks refinement.
    cat >"$tmp/wrap.sh" <<EOF
ulimit -c 0
cd "$tmp" || exit 1
before=\$(stty -g)
${cache_tmp:+export TMPDIR='$cache_tmp'}
XDG_CACHE_HOME="${cache_home:-$tmp/cache}" NO_COLOR=$nocolor LANG=$loc LC_ALL=$loc "$situ" --no-refine --platform "$platform" "\$@" 2>"$tmp/stderr"
rc=\$?
restored=yes
[ "\$(stty -g)" = "\$before" ] || restored=no
# A terminal left non-blocking is not restored either (the shell would read EAGAIN as EOF).
fl=\$(sed -n 's/^flags:[[:space:]]*//p' /proc/\$\$/fdinfo/0 2>/dev/null)
[ -n "\$fl" ] && [ \$((0\$fl & 04000)) -ne 0 ] && restored=no
printf '\nEXIT=%s RESTORED=%s\n' "\$rc" "\$restored"
read -r _ || exec tail -f /dev/null
EOF
    tui_new situ 100 30 "sh '$tmp/wrap.sh' $*"
}

eta_model() {
    capture
    sed -n 's/.*efficiency η *\([0-9.][0-9.]*\).*/\1/p' "$screen" | head -1
}

ratio_value() {
    capture
    sed -n 's/.* ratio  *\([0-9][0-9]*\) sim\/ana.*/\1/p' "$screen" | head -1
}

# Whatever the explorer's session still holds but the pane's own process (the wrapper, or the
# tail it became): once the explorer has ended, nothing of it may be left, orphans included.
children() {
    tui_in_session situ | wc -l | tr -d ' '
}

# Every simulated check below needs `situ run`: if it does not work, fail now (never check less).
if ! "$situ" run --json --platform "$platform" >/dev/null 2>"$tmp/engine.err"; then
    echo "FAIL: situ run does not work, the explorer's simulations cannot be checked: $(tail -n 1 "$tmp/engine.err")" >&2
    echo "tui: 0 passed, 1 failed"
    exit 1
fi

# ---- not a terminal -------------------------------------------------------------------------
"$situ" >"$tmp/out" 2>"$tmp/err" </dev/null
rc=$?
: >"$screen"
[ $rc -eq 2 ] || miss "exit status $rc, expected 2"
[ "$(wc -l <"$tmp/err")" -eq 1 ] || miss "expected one line on stderr"
grep -q "situ model" "$tmp/err" || miss "no hint to use situ model"
grep -q "situ run" "$tmp/err" || miss "no hint to use situ run"
[ -s "$tmp/out" ] && miss "printed on stdout"
finish "stdout not a terminal: one-line error, exit 2"

# ---- the main screen ------------------------------------------------------------------------
start C.UTF-8 --stats
wait_for "PARAMETERS" || miss "no parameter panel"
wait_for "efficiency η +[0-9]" || miss "no efficiency"
wait_for "OVER THE RUN" || miss "no idle/active bars"
shows -E "simulation +█" || miss "no simulation bar"
shows -E "analytics +[▒▓]" || miss "no analytics bar"
for p in nodes ratio stride data_scaling mapping; do
    shows " $p " || miss "no $p slider"
done
shows "IN SITU vs IN TRANSIT" || miss "no crossover plot"
finish "start-up shows the parameters, eta and both bars"

ratio=$(ratio_value)
eta=$(eta_model)
[ "$ratio" = 15 ] || miss "ratio starts at '$ratio', expected 15"
keys Right
wait_for " ratio +31 sim/ana" 10 || miss "Right did not move the ratio to 31"
eta2=$(eta_model)
[ -n "$eta2" ] && [ "$eta2" != "$eta" ] || miss "eta stayed at '$eta' after the ratio moved"
wait_for "last run took [0-9.]+ m?s" 30 || miss "the new ratio's simulation never landed"
keys Left
wait_for " ratio +15 sim/ana" 10 || miss "Left did not bring the ratio back"
finish "a key changes the ratio and eta follows ($eta -> $eta2)"

# The starting configuration's own result first, so that coming back to it is a cache hit.
wait_for "SimGrid ✓" 30 || miss "the starting configuration never got its simulation"
# A configuration never simulated before (stride 40), after two others were left behind:
# its own child must run and land, not a cached or a stale result.
keys Down Right
wait_for " stride +40 iter" 10 || miss "Right did not move the stride to 40"
wait_for "last run took [0-9.]+ m?s" 30 || miss "no fresh simulated result on screen"
shows -E "efficiency η +[0-9.]+ +[0-9.]+" || miss "no simulated efficiency"
keys Left Up
wait_for " stride +20 iter" 10 || miss "Left did not bring the stride back"
wait_for "SimGrid ✓ cached" 10 || miss "going back did not come from the cache"
finish "a simulated value appears, and returning to a setting is instant"

keys Enter
wait_for "ratio = " 10 || miss "Enter did not open the value editor"
keys a b c Enter
wait_for "'abc' is not valid" 10 || miss "no inline error for a bad value"
[ "$(ratio_value)" = 15 ] || miss "the bad value changed the ratio"
keys Escape
wait_gone "'abc' is not valid" 10 || miss "Esc did not close the editor"
[ "$(ratio_value)" = 15 ] || miss "ratio changed after Esc"
finish "a bad typed value shows an error and changes nothing"

keys '?'
wait_for "close help" 10 || miss "? did not open the help"
for k in "PgUp" "presets" "mapping" "Ctrl-C"; do
    shows "$k" || miss "help does not mention $k"
done
keys '?'
wait_gone "close help" 10 || miss "? did not close the help"
finish "? opens the help listing the keys and closes it"

tui_tmux resize-window -t situ -x 40 -y 10
wait_for "Terminal too small" 10 || miss "no size message at 40x10"
shows "80×24" || miss "the message does not say the minimum size"
tui_tmux resize-window -t situ -x 100 -y 30
wait_for "PARAMETERS" 10 || miss "the screen did not come back at 100x30"
wait_gone "Terminal too small" 10 || miss "the size message stayed"
finish "resize to 40x10 shows the size message, and back"

keys q
wait_for "EXIT=" 10 || miss "q did not quit"
shows "EXIT=0" || miss "exit status was not 0"
shows "RESTORED=yes" || miss "terminal settings not restored"
grep -q "PARAMETERS" "$screen" && miss "the explorer is still on screen"
grep -q "key-to-frame latency over" "$tmp/stderr" || miss "--stats printed no latency"
n=0
while [ "$(children)" -gt 0 ] && [ $n -lt 100 ]; do
    n=$((n + 1))
    sleep 0.05
done
[ "$(children)" -eq 0 ] || miss "simulations left running after q"
finish "q exits 0 with the terminal restored and no child left"
sed 's/^/    /' "$tmp/stderr" >&2

# ---- SIGTERM with simulations running --------------------------------------------------------
start C.UTF-8 --nodes 16
wait_for "PARAMETERS" || miss "did not start"
wait_for "SimGrid [1-9] running" 10 || miss "no simulation running"
# The explorer itself, under the wrapper that reports its exit status.
pid=$(tui_pid situ) || miss "no process of the pane runs $situ"
[ -n "$pid" ] && kill -TERM "$pid"
wait_for "EXIT=" 10 || miss "SIGTERM did not end the explorer"
shows "EXIT=143" || miss "exit status was not 143 (128 + SIGTERM)"
shows "RESTORED=yes" || miss "terminal settings not restored"
n=0
while [ "$(children)" -gt 0 ] && [ $n -lt 100 ]; do
    n=$((n + 1))
    sleep 0.05
done
[ "$(children)" -eq 0 ] || miss "simulations left running after SIGTERM"
finish "SIGTERM restores the terminal and kills the simulations"

# ---- a fatal signal with simulations running --------------------------------------------------
start C.UTF-8 --nodes 16 --ratio 7
wait_for "PARAMETERS" || miss "did not start"
wait_for "SimGrid [1-9] running" 10 || miss "no simulation running"
pid=$(tui_pid situ) || miss "no process of the pane runs $situ"
[ -n "$pid" ] && kill -SEGV "$pid"
wait_for "EXIT=" 10 || miss "SIGSEGV did not end the explorer"
shows "EXIT=139" || miss "it did not die of SIGSEGV (128 + 11)"
shows "RESTORED=yes" || miss "terminal settings not restored"
grep -q "PARAMETERS" "$screen" && miss "the explorer is still on screen"
[ "$(children)" -eq 0 ] || miss "simulations left running after a crash"
finish "a crash (SIGSEGV) restores the terminal and kills the simulations"

# ---- like-for-like comparison -------------------------------------------------------------------
# Fig. 8's preset: the headline makespan is the model's best prediction (327 s, eq. 5 plus the
# pipeline's fill and drain), which the simulation matches; eq. 5 (300 s) is shown beside it.
# At 80x24 (the documented minimum) and at 100x30.
start C.UTF-8 --preset paper-fig8
tui_tmux resize-window -t situ -x 80 -y 24
wait_for "SimGrid ✓" 30 || miss "no simulated result"
wait_for "makespan +327 s +327 s +(Δ )?[+-]0\.[0-9]%" 10 || miss "80x24: makespan row is not 327 s / 327 s with a small Δ"
grep -Eq "makespan .*!" "$screen" && miss "80x24: a Δ within 1% is marked"
shows -E "paper eq\.5 +300 s" || miss "80x24: eq. 5 is not shown beside it"
tui_tmux resize-window -t situ -x 100 -y 30
wait_for "makespan +327 s +327 s +Δ [+-]0\.[0-9]%" 10 || miss "100x30: no 'Δ' on the makespan row"
shows -E "paper eq\.5 +300 s +\(above: best\)" || miss "100x30: eq. 5 is not labelled"
keys q
wait_for "EXIT=0" 10 || miss "q did not quit with 0"
finish "the headline makespan is the model's best, matching SimGrid on Fig. 8; eq. 5 beside it"

# The ranks' metrics fetch makes fast's efficiency 4.5% below the model's: the Δ is marked
# with '!' (not by colour alone), the makespan's (within 2%) is not.
start C.UTF-8 --nodes 12 --ratio 1 --region 20 --compute-scaling 0.1 --data-scaling 1000 --iterations 400
wait_for "SimGrid ✓" 30 || miss "no simulated result"
wait_for "efficiency η +[0-9.]+ +[0-9.]+ +Δ -4\.[0-9]% !" 10 || miss "a 4.5% Δ is not marked '!'"
grep -Eq "makespan .*!" "$screen" && miss "the makespan's small Δ is marked"
keys q
wait_for "EXIT=0" 10 || miss "q did not quit with 0"
finish "a Δ beyond 2% is marked '!', one within is not"

# Where the actors' rounds may drift apart, the model's and fast's analytics active time is an
# upper bound: the status bar says "caution:" (a word, not a colour), and ! shows it whole. The
# same configuration in situ has nothing to say.
start C.UTF-8 --nodes 4 --mapping intransit --region 20 --iterations 400
tui_tmux resize-window -t situ -x 80 -y 24
wait_for "SimGrid ✓" 30 || miss "no simulated result"
wait_for "│ caution: fidelity=fast: an.* \(! full\)" 10 || miss "80x24: no caution in the status bar"
keys '!'
wait_for "Caution" 10 || miss "! did not open the caution"
shows "upper bound here" || miss "the caution box does not say it is an upper bound"
shows "check with --fidelity full" || miss "the caution box is not whole"
keys Escape
# Closed before the next key: an Esc and a key sent at once read as Alt and the key.
wait_gone "upper bound here" 10 || miss "Esc did not close the caution"
keys m # in situ (the mapping row is off an 80x24 screen)
wait_for "SimGrid ✓" 30 || miss "no simulated result in situ"
wait_for "no errors" 10 || miss "in situ: a caution stayed"
keys q
wait_for "EXIT=0" 10 || miss "q did not quit with 0"
finish "a result to take with caution says so in the status bar, and ! shows it whole"

# ---- the lesson panel --------------------------------------------------------------------------
start C.UTF-8 --lesson efficiency
wait_for "LESSON The efficiency metric" || miss "no lesson panel"
shows "step 1/4" || miss "not at step 1/4"
shows "One step of the workflow is S" || miss "no step text"
shows -E " ratio +1 sim/ana" || miss "step 1 did not load its configuration (ratio 1)"
keys n
wait_for "step 2/4" 10 || miss "n did not go to step 2"
shows "Raise it until" || miss "no step 2 text"
# The goal is checked by the evaluator process: it shows once the answer is in.
wait_for "goal not met yet" 10 || miss "the goal is not shown as not met"
keys i
wait_for "hint: Which side waits" 10 || miss "i did not show the hint"
keys Right Right Right Right
wait_for " ratio +31 sim/ana" 10 || miss "Right did not move the ratio to 31"
wait_for "goal met" 10 || miss "the goal is not marked met at ratio 31"
keys b
wait_for "step 1/4" 10 || miss "b did not go back"
keys q
wait_for "q again quits" 10 || miss "q in a lesson did not ask"
keys q
wait_for "EXIT=0" 10 || miss "q q did not quit with 0"
finish "lesson panel: step text, n/b, hint, a goal reached by keys is marked met"

# ---- a value wider than its column keeps its magnitude ---------------------------------------
# 1000000000 iterations in the 9 cells of the value column: cut, it read 100000000.
start C.UTF-8 --iterations 1000000000
wait_for " iterations +1e\+09 iter" 10 || miss "1000000000 iterations are not shown as 1e+09"
grep -q " iterations  *100000000 " "$screen" && miss "the iterations lost a digit"
keys q
wait_for "EXIT=0" 10 || miss "q did not quit with 0"
finish "a value wider than its column is shown with its exponent, never cut"

# ---- link utilisation and static scaling views ---------------------------------------------------
start C.UTF-8 --nodes 2 --ratio 1 --alert 0.0001
wait_for "PARAMETERS" || miss "did not start"
keys u
wait_for "LINK UTILISATION" 10 || miss "u did not open the link view"
wait_for "dahu_link.*ALERT" 30 || miss "no link flagged above the alert threshold"
# Polled too: a capture can fall between two writes of one frame (seen under load).
wait_for "above 0%" 5 || miss "the header does not give the threshold"
wait_for "scale: .*low.*good.*high.*HOT" 5 || miss "no scale legend"
keys s
wait_for "STATIC SCALING" 10 || miss "s did not open the scaling view"
wait_for "time to solution \(log\)" 10 || miss "no axis label"
shows -E " 1 node .*(flat|moves)" || miss "no verdict for 1 node"
shows -E " 8 nodes .*(flat|moves)" || miss "no verdict for 8 nodes"
keys s
wait_for "IN SITU vs IN TRANSIT" 10 || miss "s did not go back to the crossover"
keys q
wait_for "EXIT=0" 10 || miss "q did not quit with 0"
finish "u shows links busiest first with alerts; s shows the static scaling plot"

# ---- the analytics file is watched ------------------------------------------------------------
ana=$tmp/watched.lua
cat >"$ana" <<'LUA'
return { name = "watched", cost = function(ctx) return ctx.particles * 7.93e-7 * ctx.compute_scaling end }
LUA
makespan_model() {
    capture
    sed -n 's/.*makespan  *\([0-9.][0-9.]* [a-z]*\).*/\1/p' "$screen" | head -1
}
# Relative (the explorer runs in $tmp): the status line is 100 columns, and the error must fit
# in it with its line number however long $TMPDIR is.
start C.UTF-8 --analytics watched.lua --ratio 31
wait_for "makespan +[0-9]" || miss "no makespan"
# The edit lands while nothing runs: a simulation of the old file that ended after the edit would
# say so ("changed during the run") in place of the reload notice.
wait_for "0 running, 0 queued" 60 || miss "the simulations never drained"
before=$(makespan_model)
cat >"$ana.new" <<'LUA'
return { name = "watched", cost = function(ctx) return ctx.particles * 7.93e-5 * ctx.compute_scaling end }
LUA
mv "$ana.new" "$ana"
n=0
while [ "$(makespan_model)" = "$before" ] && [ $n -lt 200 ]; do
    n=$((n + 1))
    sleep 0.05
done
after=$(makespan_model)
[ -n "$after" ] && [ "$after" != "$before" ] || miss "the model did not follow the edit ($before)"
wait_for "analytics watched reloaded" 5 || miss "no reload notice"
printf 'return { name = "watched", cost = function(ctx) return ctx.particles * end }\n' >"$ana"
wait_for "analytics: .*watched.lua:1" 10 || miss "the Lua error is not in the status line"
shows "PARAMETERS" || miss "the screen is gone after a Lua error"
keys q
wait_for "EXIT=0" 10 || miss "q did not quit with 0"
finish "editing the analytics file re-runs the model ($before -> $after); a Lua error shows"

# ---- a simulation profile: its model from the evaluator process, its simulation from a child ----
start C.UTF-8 --simulation heat3d --cells 64 --analytics-cost 1e-9
wait_for "makespan +[0-9]" 10 || miss "no makespan"
wait_for "SimGrid ✓" 30 || miss "the profile's configuration never got its simulation"
grep -q "evaluated in its own process" "$screen" && miss "the UI thread refused the profile"
shows "PARAMETERS" || miss "no parameter panel"
# heat3d names none of the melt's parameters in its uses: no slider for them
grep -Eq "^[ ▸]*(region|sim_cost|halo_period) +[0-9]" "$screen" && miss "a slider of the melt's own parameters for heat3d"
shows -E "^[ ▸]*analytics_cost +[0-9]" || miss "the sliders after the melt's are not shown"
keys q
wait_for "EXIT=0" 10 || miss "q did not quit with 0"
finish "--simulation heat3d: the model and the simulation of a profile"

# ---- a Lua scenario in its panel ----------------------------------------------------------------
scenario=$(cd "$(dirname "$0")" && pwd)/scenario.lua
start C.UTF-8 "--script='$scenario fromcli'"
wait_for "SCENARIO scenario.lua" 10 || miss "no scenario panel"
# Waited for: the panel opens before the scenario's own process has printed anything.
wait_for "argument: fromcli" 10 || miss "the scenario did not get its argument"
wait_for "running: waiting for [12] simulation" 10 || miss "the panel does not say what it waits for"
# The screen stays live while the scenario waits for its simulations: a key moves the ratio.
keys Right
wait_for " ratio +31 sim/ana" 10 || miss "Right did not move the ratio while the scenario ran"
wait_for "done \(2 simulations\)" 60 || miss "the scenario did not finish"
shows -E "ratio +efficiency" || miss "no table header in the panel"
shows -E "^ +7 +0\.[0-9]+" || miss "no row for ratio 7"
shows -E "^ +15 +0\.[0-9]+" || miss "no row for ratio 15"
shows "scenario finished" || miss "the last print is missing"
keys x
wait_gone "SCENARIO" 10 || miss "x did not close the panel"
# x prompts for a path; a Lua error shows in the panel with file:line, the screen intact.
printf 'print("about to fail")\nlocal t = nil\nprint(t.x)\n' >"$tmp/broken.lua"
keys x
wait_for "RUN A SCENARIO" 10 || miss "x did not prompt for a path"
keys "$tmp/broken.lua" Enter
wait_for "error: .*broken.lua:3: attempt to index" 10 || miss "the Lua error is not in the panel"
shows "at .*broken.lua:3: in main chunk" || miss "no traceback line"
shows "about to fail" || miss "the output before the error is gone"
shows "PARAMETERS" || miss "the screen is gone after a Lua error"
keys Escape
wait_gone "SCENARIO" 10 || miss "Esc did not close the panel"
keys q
wait_for "EXIT=0" 10 || miss "q did not quit with 0"
finish "a scenario runs in its panel with its argument (keys still work), x prompts, a Lua error shows"

# ---- switching platforms: SimGrid reads a new one off the UI thread ------------------------
# A preset on a large platform (40,000 hosts: SimGrid takes seconds to digest it): while it is
# read, the explorer answers keys and shows the old platform's numbers; then the new one lands.
mkdir -p "$tmp/config/situ/presets"
{
    printf '<?xml version="1.0"?>\n<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">\n'
    printf '<platform version="4.1"><zone id="w" routing="Full"><cluster id="big" prefix="big-" '
    printf 'suffix="" radical="1-40000" speed="2Gf" core="32" bw="10Gbps" lat="15us"/></zone>'
    printf '</platform>\n'
} >"$tmp/big.xml"
printf 'platform = %s\nnodes = 4\n' "$tmp/big.xml" >"$tmp/config/situ/presets/zz-big.conf"
export XDG_CONFIG_HOME="$tmp/config" # the tmux server (and so the explorer) starts with it
start C.UTF-8
unset XDG_CONFIG_HOME
wait_for "PARAMETERS" || miss "did not start"
wait_for "efficiency .* [0-9]" 10 || miss "no efficiency"
keys p
wait_for "zz-big" 10 || miss "the picker does not list the user's preset"
for _ in $(seq 40); do keys j; done
keys Enter
wait_for "SimGrid is reading" 5 || miss "no word that the platform is being read"
keys '?' # the help answers, then closes, while the platform is still being read
wait_for "first / last parameter" 2 || miss "the explorer did not answer a key while SimGrid read"
keys '?'
wait_gone "first / last parameter" 2 || miss "the help did not close while SimGrid read"
shows "32 nodes x 32 cores" || miss "the old platform's header did not stay up meanwhile"
wait_for "40000 nodes x 32 cores, 2 Gf/s" 60 || miss "the new platform never landed"
wait_for "efficiency .* [0-9]" 20 || miss "no numbers on the new platform"
keys q
wait_for "EXIT=0" 10 || miss "q did not quit with 0"
finish "a new platform is read by SimGrid while the explorer answers keys"

# ---- fidelity smpi: a run that takes a while shows its time, C cancels, the cost shows -------
start C.UTF-8 --nodes 4 --ratio 7 --stride 1000 --iterations 2000 --compute-scaling 50 --dtl queue --halo-period 5
wait_for "SimGrid ✓" 30 || miss "the fast run never landed"
keys G k k l l # G: the last slider, decimation; k k: fidelity (compression between); its choices: fast, full, smpi
wait_for " fidelity +smpi" 10 || miss "the fidelity slider did not reach smpi"
wait_for "SimGrid smpi [0-9]+ s" 30 || miss "the smpi run shows no running time"
shows "smpi: C cancels" || miss "no hint that C cancels"
explorer=$(tui_pid situ)
[ -n "$explorer" ] || miss "no explorer process"
# Its simulation, and everything below it (the warden, smpirun, smpimain's ranks): the pids, so
# that one reparented when its parent is killed is still checked.
smpi_pids=$(for s in $(tui_simulations "$explorer"); do echo "$s" && tui_descendants "$s"; done)
[ -n "$smpi_pids" ] || miss "no simulation process seen while the smpi run shows its time"
# (a zombie has ended: the process its parent's death handed it to reaps it when it will)
alive() { for p in $smpi_pids; do tui_alive "$p" && echo "$p"; done; }
keys C
wait_for "SimGrid cancelled" 10 || miss "C did not cancel"
n=10 # a second: the run itself has seconds left (the runner kills at once)
while [ -n "$(alive)" ] && [ $n -gt 0 ]; do
    sleep 0.1
    n=$((n - 1))
done
[ -z "$(alive)" ] || miss "simulations (smpirun, smpimain) left running after C: $(tui_describe $(alive))"
keys r
wait_for "last run took [0-9.]+ m?s \\(smpi\\)" 60 || miss "r did not run smpi again, or its cost is not shown"
keys q
wait_for "EXIT=0" 10 || miss "q did not quit with 0"
finish "smpi in the explorer: running time, C cancels every child, the level's cost"

# ---- an unusable cache directory: the explorer simulates all the same, and says so once ------
# XDG_CACHE_HOME is a file: the platform digests go to a private directory in TMPDIR, which the
# simulation children (exec'd) read too, and which is gone when the explorer is.
: >"$tmp/xdg-file"
mkdir -p "$tmp/tmpdir"
cache_home=$tmp/xdg-file
cache_tmp=$tmp/tmpdir
start C.UTF-8
unset cache_home cache_tmp
wait_for "SimGrid ✓" 30 || miss "no simulated result with an unusable cache directory"
keys Right
wait_for "last run took [0-9.]+ m?s" 30 || miss "a new configuration's simulation never landed"
ls "$tmp/tmpdir" | grep -q '^situ-cache-' || miss "the digests are not in a private directory in TMPDIR"
keys q
wait_for "EXIT=0" 10 || miss "q did not quit with 0"
said=$(grep -c "^situ: cache directory $tmp/xdg-file/situ unusable (.*): nothing is cached$" "$tmp/stderr")
[ "$said" -eq 1 ] || miss "the unusable cache directory was said $said times"
[ -z "$(ls -A "$tmp/tmpdir")" ] || miss "left in TMPDIR: $(ls -A "$tmp/tmpdir")"
finish "an unusable cache directory: the explorer simulates, says it once, leaves nothing"

# ---- mapping=inline: the results say what it means, the crossover has its third curve -------
start C.UTF-8 --mapping inline --nodes 2 --iterations 400
wait_for "scenario +inline +inline" 30 || miss "no inline scenario from the model and SimGrid"
shows -E "cores +64 inline +64 inline" || miss "the cores do not say inline"
shows -E "ratio +15 sim/ana +ignored" || miss "the ratio is not shown ignored"
shows -E "simulation +█+▓ +100% +█+▓ +100%" || miss "the simulation's bar is not S then A"
shows -E "analysis +▓+░+ +5%" || miss "no analysis share"
shows "IN SITU vs IN TRANSIT vs INLINE" || miss "no three-way crossover"
shows -E "┈┈■ inline +7.4 s at ×1" || miss "no inline curve in the legend"
wait_for "SimGrid 21/21 points" 60 || miss "the three curves' points never all landed"
shows "fastest at ×1: inline" || miss "no fastest mapping"
keys m
wait_for "scenario +I[AS] +" 10 || miss "m did not leave inline"
shows -E "analytics +[▒▓]" || miss "the analytics' bar did not come back"
keys q
wait_for "EXIT=0" 10 || miss "q did not quit with 0"
finish "mapping=inline in the explorer: results, bars and the third crossover curve"

# ---- the crossover of four strategies at 80x24: each drawn, the fastest named per range -------
# Fig. 9's analytics: in transit is fastest while the data is small, a strategy of in situ once
# it is large; the queue (no transfer cost) and inline are the other two curves.
start C.UTF-8 --preset paper-fig9 --iterations 400 --strategies insitu,intransit,inline,insitu:queue
tui_tmux resize-window -t situ -x 80 -y 24
size=$(tui_tmux display -p -t situ "#{pane_width}x#{pane_height}")
[ "$size" = 80x24 ] || miss "the pane is $size, not 80x24"
wait_for "IN SITU vs IN TRANSIT vs INLINE vs IN SITU:QUEUE +at 16 nodes" 30 ||
    miss "the title does not name the four strategies"
wait_for "crossover ≈ ×[0-9.]+" 30 || miss "no crossover of the fastest"
# Who is fastest in each range: from ×1, each range starting where the last ended, to ×1000.
ranges=$(sed -n 's/.*[●◆■▲] ×\([0-9.]*\)-×\([0-9.]*\) \(.*[a-z]\) *$/\1 \2 \3/p' "$screen")
[ "$(echo "$ranges" | head -1 | cut -d' ' -f1)" = 1 ] || miss "the first range does not start at ×1: $ranges"
[ "$(echo "$ranges" | tail -1 | cut -d' ' -f2)" = 1000 ] || miss "the last range does not end at ×1000"
[ "$(echo "$ranges" | wc -l)" -ge 2 ] || miss "fewer than two ranges: $ranges"
echo "$ranges" | awk '{ n = $0; sub(/^[^ ]+ [^ ]+ /, "", n) }
    NR > 1 && ($1 != prev || n == pn) { bad = 1 } { prev = $2; pn = n } END { exit bad }' ||
    miss "a range does not start where the one before it ended, or names the same: $ranges"
first=$(echo "$ranges" | head -1 | cut -d' ' -f2)
shows -E "crossover ≈ ×$first(,|$)" || miss "the crossover is not where the first range ends"
shows "in transit$" || miss "in transit is not named fastest anywhere"
# Each strategy in the legend, with its own point glyph; a crossing line in the plot and on the
# x axis.
for l in "━━● in situ " "╍╍◆ in transit " "┈┈■ inline " "╌╌▲ in situ:queue "; do
    shows "$l" || miss "no legend line '$l'"
done
grep -Eq "┊.*┊.*┊" "$screen" || grep -Eq "^ +[│┤].*┊" "$screen" || miss "no crossing line in the plot"
shows "└.*┊" || miss "no crossing mark on the x axis"
wait_for "●◆■▲ SimGrid [1-9][0-9]*/28 points" 30 || miss "no point of the four curves landed"
keys q
wait_for "EXIT=0" 10 || miss "q did not quit with 0"
finish "the crossover of four strategies at 80x24: ranges, crossings, legend, points"

# A strategy the table does not know: one line naming it, exit 2, before the screen is taken.
start C.UTF-8 --strategies insitu,intransit:mailx
wait_for "EXIT=2" 10 || miss "an unknown DTL did not exit 2"
grep -q "^situ: --strategies: strategy 'intransit:mailx': unknown dtl 'mailx'.*did you mean 'mailbox'?$" "$tmp/stderr" ||
    miss "no one-line message naming the strategy: $(cat "$tmp/stderr")"
[ "$(wc -l <"$tmp/stderr")" -eq 1 ] || miss "more than one line on stderr"
finish "--strategies: an unknown name is one line, exit 2"

# ---- ASCII fallback and NO_COLOR ------------------------------------------------------------
nocolor=1
start C --preset fig9-intransit
wait_for "PARAMETERS" || miss "did not start"
wait_for "efficiency +[0-9]" 10 || miss "no efficiency"
grep -q "η" "$screen" && miss "Unicode on a non-UTF-8 locale"
shows -E "simulation +#" || miss "no ASCII bars"
head -1 "$screen" | grep -q " fig9-intransit " || miss "the header does not name the preset"
shows -E " nodes +16 nodes" || miss "the preset did not set 16 nodes"
shows "1000x" || miss "no ASCII axis labels"
keys u
wait_for "scale: # low" 10 || miss "the link view's scale has no text marks without colour"
keys u
keys C-c
wait_for "EXIT=0" 10 || miss "Ctrl-C did not quit with 0"
shows "RESTORED=yes" || miss "terminal settings not restored"
finish "ASCII fallback, NO_COLOR, --preset, Ctrl-C quits"

case_none_matched tui $((passed + failed)) && failed=$((failed + 1))
echo "tui: $passed passed, $failed failed"
[ $failed -eq 0 ]
