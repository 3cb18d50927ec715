#!/bin/sh
# Workshop tests (issue 12): lessons that teach, glyphs that carry meaning without colour, and the
# small things, in a real terminal at the documented minimum (80x24) and at 120x40. Each check
# polls the screen until the text shows or a deadline passes (no fixed sleeps).
# Usage: sh tests/tui/workshop.sh ./situ
# The last line is "workshop: N passed, M failed"; the exit status is non-zero if anything failed.
set -u

if [ $# -ne 1 ]; then
    echo "usage: sh tests/tui/workshop.sh PATH/TO/situ" >&2
    exit 2
fi
situ=$1
case $situ in
/*) ;;
*) situ=$(pwd)/$situ ;;
esac
if [ ! -x "$situ" ] || ! command -v tmux >/dev/null 2>&1; then
    echo "workshop: needs an executable situ and tmux" >&2
    echo "workshop: 0 passed, 1 failed"
    exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/situ-workshop.XXXXXX") || exit 1
sock=$tmp/tmux
# The terminal suites' one harness: a private server that ignores the user's tmux.conf, shell,
# TERM, locale and SITU_* variables, and a pane that execs the explorer.
. "$(dirname "$0")/lib.sh"
cleanup() {
    tui_tmux kill-server 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'cleanup; exit 130' INT TERM

platform=$tmp/dahu-workshop.xml
cp "$(dirname "$situ")/platforms/dahu.xml" "$platform" 2>/dev/null ||
    cp platforms/dahu.xml "$platform" || exit 1

# A lesson whose one step is longer than any panel (each line its own paragraph).
{
    echo 'return { title = "A long step", steps = { { text = [['
    for i in $(seq 1 40); do printf 'line %d of the text\n\n' "$i"; done
    echo ']] } } }'
} >"$tmp/long.lua"
# A goal whose message is longer than 80 columns.
cat >"$tmp/longgoal.lua" <<'EOF'
return { title = "Long goal", steps = { { text = "Try.", goal = function(state)
  return false, "keep the ratio where it is and move the stride until both components are " ..
    "busy, and then some more words: END-OF-GOAL" end } } }
EOF
# A quiz: the goal checks the typed answer (and loops on "loop", for the watchdog).
cat >"$tmp/quiz.lua" <<'EOF'
return { title = "A quiz", steps = {
  { text = "Read the scenario row.", question = "Which side waits: IS or IA?",
    goal = function(state)
      local a = state.answer
      if a == "loop" then while true do end end
      if not a then return false, "answer with A" end
      return a:upper() == state.model.scenario, ("you said %s"):format(a)
    end, answer = "IA" },
  { text = "The end." } } }
EOF

passed=0
failed=0
why=""
screen=$tmp/screen
size=""

miss() {
    [ -z "$why" ] && why=$1
}

finish() {
    if [ -z "$why" ]; then
        passed=$((passed + 1))
        echo "ok: $1 ($size)" >&2
    else
        failed=$((failed + 1))
        echo "FAIL: $1 ($size): $why" >&2
        sed 's/^/    | /' "$screen" >&2
        alive || sed 's/^/    stderr| /' "$tmp/stderr" >&2
    fi
    why=""
}

# Whether the pane (the explorer) is still there: a dead one fails at once, not at the deadline.
alive() {
    tui_tmux has-session -t situ 2>/dev/null
}

capture() {
    tui_capture situ "$screen"
}

# wait_for PATTERN [SECONDS]: polls until the (grep -E) pattern shows up.
wait_for() {
    tries=$((${2:-10} * 20))
    while [ $tries -gt 0 ]; do
        capture
        grep -Eq -- "$1" "$screen" && return 0
        alive || return 1
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
    tui_tmux send-keys -t situ "$@" 2>/dev/null
}

# start COLSxROWS ENV ARGS...: a fresh private server whose pane execs the explorer (ENV: extra
# variables such as NO_COLOR=1, or - for none), without refinement: the cases read the fidelity
# parameter's numbers (tests/tui/refine.sh checks refinement).
start() {
    size=$1
    env=$2
    shift 2
    [ "$env" = - ] && env=""
    tui_tmux kill-server 2>/dev/null
    mkdir -p "$tmp/run"
    cat >"$tmp/wrap.sh" <<EOF
ulimit -c 0
cd "$tmp/run" || exit 1
export XDG_CACHE_HOME="$tmp/cache" XDG_CONFIG_HOME="$tmp/config" LANG=C.UTF-8 LC_ALL=C.UTF-8 $env
exec "$situ" --no-refine --platform "$platform" "\$@" 2>"$tmp/stderr"
EOF
    tui_new situ "${size%x*}" "${size#*x}" "sh $tmp/wrap.sh $*"
}

# press_until KEY PATTERN TIMES: presses KEY until the (grep -E) pattern shows, TIMES at most.
press_until() {
    tries=$3
    capture
    while [ $tries -gt 0 ] && ! grep -Eq -- "$2" "$screen"; do
        keys "$1"
        tries=$((tries - 1))
        sleep 0.05
        capture
    done
}

# The explorer exits on q (in a lesson, q asks first: a second q): polls until the pane's process
# is gone.
quit() {
    keys q
    wait_for "q again quits" 2 && keys q
    tries=200
    while [ $tries -gt 0 ] && alive; do
        tries=$((tries - 1))
        sleep 0.05
    done
}

for size in 80x24 120x40; do
    # ---- item 3: a lesson taught, completed and restarted ----------------------------------
    start $size - --lesson efficiency
    wait_for "LESSON The efficiency metric" || miss "no lesson panel"
    wait_for "step 1/4" || miss "not at step 1"
    keys n
    wait_for "step 2/4" || miss "n did not move to step 2"
    wait_for "goal not met yet" 20 || miss "step 2's goal not checked"
    keys i
    wait_for "hint: Which side waits now" || miss "i did not show the nudge"
    grep -q "Valid ratios" "$screen" && miss "the first i showed the second level"
    keys i
    wait_for "more: Valid ratios" || miss "a second i did not show more"
    # h is the explorer's step left in a lesson too (the ratio slider has the focus).
    keys l
    wait_for " ratio +3 " || miss "l did not step the ratio right in a lesson"
    keys h
    wait_for " ratio +1 " || miss "h did not step the ratio left in a lesson"
    # n on an unmet goal asks once.
    keys n
    wait_for "the goal is not met yet: n again moves on" || miss "n on an unmet goal did not ask"
    shows "step 2/4" || miss "n on an unmet goal moved on at once"
    keys c
    wait_for "IN SITU vs IN TRANSIT" || miss "c did not show the crossover"
    keys c
    wait_for "LESSON The efficiency" || miss "c did not bring the lesson back"
    keys u
    wait_gone "LESSON The efficiency" || miss "u did not open the link view"
    keys Escape
    wait_for "LESSON The efficiency" || miss "Esc did not close the link view"
    keys s
    wait_gone "LESSON The efficiency" || miss "s did not open the scaling view"
    keys Escape
    wait_for "LESSON The efficiency" || miss "Esc did not close the scaling view"
    finish "lesson: graded hints, c/u/s/Esc come back to the lesson"

    # Meet step 2's goal by keys, then b brings its setup back and y the student's ratio 31.
    keys Right Right Right Right
    wait_for "goal met" 20 || miss "ratio 31 did not meet step 2's goal"
    keys n
    wait_for "step 3/4" || miss "n did not move to step 3"
    keys b
    wait_for "step 2/4" || miss "b did not go back"
    wait_for " ratio +1 " || miss "b did not bring step 2's setup (ratio 1) back"
    wait_for "goal met before, not with these settings" 20 || miss "b: no 'met before'"
    shows "y brings your changes back" || miss "b does not say y brings them back"
    keys y
    wait_for " ratio +31 " || miss "y did not bring the student's ratio 31 back"
    wait_for "✓ goal met:" 20 || miss "the goal is not met with the student's changes"
    finish "lesson: n asks on an unmet goal; b loads the step's setup, y the student's changes"
    # R resets the step to its setup (the changes again aside).
    keys R
    wait_for "step 2 reset: y brings your changes back" || miss "R did not reset the step"
    wait_for " ratio +1 " || miss "R did not load the step's setup"
    keys y
    wait_for " ratio +31 " || miss "y did not undo R"
    wait_for "✓ goal met:" 20 || miss "the goal is not met again after y"
    finish "lesson: R resets the step; y undoes it"

    keys n
    wait_for "step 3/4" || miss "n did not move to step 3"
    keys n n
    wait_for "step 4/4" || miss "n n did not move past step 3's unmet goal"
    keys n n
    wait_for "lesson complete: 1 of 3 goals met, in [0-9]+ min [0-9]+ s" 20 ||
        miss "no completion summary"
    wait_for "R restarts" || miss "the summary does not say R restarts"
    shows -E " R +restart " || miss "the footer does not offer R"
    keys R
    wait_for "step 1/4" || miss "R did not restart the lesson"
    wait_for " ratio +1 " || miss "R did not reload step 1's configuration"
    finish "lesson: completed (summary) and restarted"
    quit

    # ---- item 4: every series has its own glyph, in colour too -----------------------------
    start $size TERM=xterm-256color
    wait_for "ONE STEP" || miss "no bars"
    wait_for "█ sim(ulate)? +▒ retrieve +▓ analyse +░ idle" || miss "the bars' legend shares a glyph"
    shows -E "analytics +▓+░* +[0-9.]+ m?s" || miss "the analytics bar is not drawn in ▓"
    wait_for "━━● in situ" || miss "no in situ legend with its glyphs"
    shows "╍╍◆ in transit" || miss "in transit's legend is not dashed with its own point"
    # Okabe-Ito on a 256-colour terminal: the analyse bar in orange (214), in situ in sky (74).
    tui_tmux capture-pane -e -p -t situ >"$tmp/escaped"
    grep -q "38;5;214m" "$tmp/escaped" || miss "no Okabe-Ito orange (214)"
    grep -q "38;5;74m" "$tmp/escaped" || miss "no Okabe-Ito sky blue (74)"
    finish "colour: distinct glyphs in the bars and the crossover, Okabe-Ito palette"
    # The scaling legend reads as the plot does, top curve first: 8 nodes above 1 node.
    keys s
    wait_for "STATIC SCALING" || miss "s did not open the scaling view"
    wait_for "8 nodes +rate" 20 || miss "no scaling legend"
    first=$(grep -E "flat \\(|rate moves" "$screen" | head -1 | grep -Eo "[0-9]+ nodes?")
    case $first in 8\ nodes*) ;; *) miss "the legend starts with '$first', not the top curve (8 nodes)" ;; esac
    shows -E "╍▲ +8 nodes" || miss "8 nodes' legend has no mark of its own"
    grep -Eq "\\(log\\) ?[0-9]|[0-9] [mu]?s ?time" "$screen" && miss "the x label runs into a number"
    shows -E "time (to solution )?\(log\)" || miss "the scaling view has no x label"
    finish "scaling legend in the plot's order, each curve with its own mark"
    quit

    start $size "NO_COLOR=1 SITU_ASCII=1"
    wait_for "ONE STEP" || miss "no bars"
    wait_for "# sim(ulate)? += retrieve +% analyse +\\. idle" || miss "the ASCII legend lost its glyphs"
    wait_for "\\* o in situ" || miss "the ASCII crossover legend lost its glyphs"
    wait_for "SimGrid ok" 60 || miss "no simulated result in ASCII"
    shows -E " D [-+][0-9]" || miss "the ASCII delta is not D"
    grep -Eq " d [-+][0-9]" "$screen" && miss "the ASCII delta is d, a key"
    tui_tmux capture-pane -e -p -t situ >"$tmp/escaped"
    grep -q "38;5;" "$tmp/escaped" && miss "NO_COLOR still colours"
    finish "NO_COLOR and SITU_ASCII keep working"
    quit

    # ---- item 6: small things ----------------------------------------------------------------
    start $size -
    wait_for "efficiency η" || miss "no results"
    keys '?'
    wait_for "close help" || miss "? did not open the help"
    grep -q "run a Lua scenario in a panel (prefilled: the last) *│" "$screen" ||
        miss "the help's scenario line is cut"
    # The help is the key table: the keys added with it are listed, and it scrolls to its end
    # (the lines that do not fit 80x24 are a Down away, never cut).
    for k in "t  *per-stage table" "E  *export this view" "P  *presentation"; do
        shows -E "│ $k" || miss "the help does not list '$k'"
    done
    press_until Down "q  Ctrl-C *quit" 10
    grep -q "q  Ctrl-C *quit (prints the situ run command line) *│" "$screen" ||
        miss "the help's quit line is cut"
    press_until Down "in a child process \\(at most" 40
    shows "in a child process (at most" || miss "the help's footnote is cut"
    grep -q "│ \\[ \\]  *scroll the lesson's text" "$screen" ||
        miss "the help's last lines do not show the text's keys"
    keys Escape
    wait_gone "close help" || miss "Esc did not close the help"
    keys /
    wait_for "no search here" || miss "/ is silent"
    finish "help fits, / answers"

    # (modified) comes with a move and goes when d brings the preset's value back.
    keys Right
    wait_for "defaults \\(modified\\)" || miss "no (modified) after a move"
    keys d
    wait_gone "\\(modified\\)" || miss "(modified) stayed after d"
    # The mapping slider stops at its first choice (G: the last slider, decimation; k k k k:
    # compression, fidelity, dtl, mapping).
    keys G k k k k Left
    wait_for "mapping is at its first choice" || miss "the mapping slider wrapped"
    shows -E "mapping +insitu" || miss "the mapping moved"
    finish "(modified) cleared by d; the mapping slider does not wrap"

    # w saves the configuration (ratio 31) as a preset; the picker lists it with its
    # description and loads it back. (g j: the focus on the ratio, the second slider.)
    keys g j Right
    wait_for " ratio +31 " || miss "Right did not move the ratio"
    keys w
    wait_for "save as preset:" || miss "w did not prompt for a name"
    keys -l "mine-$size ratio 31 for the workshop"
    keys Enter
    wait_for "saved preset mine-$size" || miss "the preset was not saved"
    [ -f "$tmp/config/situ/presets/mine-$size.conf" ] || miss "not in \$XDG_CONFIG_HOME/situ/presets"
    keys Left
    wait_for " ratio +15 " || miss "Left did not move the ratio back"
    keys p
    wait_for "mine-$size\\* +ratio 31 for the workshop" || miss "the picker lacks it or its description"
    press_until Down "▸ mine-$size" 20
    keys Enter
    wait_for "preset mine-$size loaded" || miss "the saved preset did not load"
    wait_for " ratio +31 " || miss "the saved preset did not bring ratio 31 back"
    finish "w saves a preset; the picker lists it with its description and loads it"

    # SimGrid's run time has a label, in the status bar (where there is room for it).
    if [ "$size" = 120x40 ]; then
        keys r
        wait_for "last run took [0-9.]+ m?s" 30 || miss "no labelled SimGrid time"
        grep -Eq "SimGrid ✓ +[0-9]" "$screen" && miss "an unlabelled time in the SimGrid column"
        finish "SimGrid's time has a label"
    fi
    quit

    # A scenario that fails: the status bar says so (not "no errors"), ! shows it whole.
    start $size - --script "$tmp/nosuch-dir/a-scenario-whose-path-is-long-enough-to-be-cut.lua"
    wait_for "scenario: " 20 || miss "the status bar does not show the scenario's error"
    grep -q "no errors" "$screen" && miss "the status bar says no errors beside a failed scenario"
    shows "(! full)" || miss "the cut error does not point at !"
    grep -q "No such file or directory" "$screen" && miss "the error fits: the test proves nothing"
    keys !
    wait_for "Last error" || miss "! did not open the last error"
    shows "No such file or directory" || miss "the error is not shown whole"
    keys Escape
    wait_gone "Last error" || miss "Esc did not close the error"
    finish "a failed scenario is an error in the status bar; ! shows it in full"
    quit

    # q prints the command line of the configuration on screen, once the terminal is restored;
    # run, it gives the efficiency SimGrid's column showed. The pane stays to be read.
    start $size - --nodes 2 --ratio 31
    tui_tmux set-option -t situ remain-on-exit on >/dev/null
    wait_for "SimGrid ✓" 60 || miss "no simulated result"
    wait_for "efficiency η +[0-9.]+ +[0-9.]+" 30 || miss "no SimGrid efficiency"
    eta=$(sed -n 's/.*efficiency η *[0-9.][0-9.]* *\([0-9.][0-9.]*\).*/\1/p' "$screen" | head -1)
    keys q
    tries=400 # -J: lines unwrapped; -S -: a long line may have scrolled into the history
    line=""
    while [ $tries -gt 0 ] && [ -z "$line" ]; do
        line=$(tui_tmux capture-pane -J -p -S - -t situ 2>/dev/null | grep "^situ run ")
        tries=$((tries - 1))
        [ -n "$line" ] || sleep 0.05
    done
    capture
    [ -n "$line" ] || miss "q printed no command line"
    case $line in *"--ratio 31"*"--platform $platform"* | *"--platform $platform"*"--ratio 31"*) ;;
    *) miss "the command line lacks the ratio or the platform: $line" ;; esac
    got=$(eval "\"\$situ\" ${line#situ } --json" 2>/dev/null |
        sed -n 's/.*"efficiency":\([0-9.]*\).*/\1/p')
    [ -n "$got" ] && [ "$(printf '%.3f' "$got")" = "$eta" ] ||
        miss "the command gives efficiency '$got', the screen showed '$eta'"
    finish "q prints the situ run command line; it reproduces the screen's efficiency"
    tui_tmux kill-server 2>/dev/null

    # The link view scrolls with ] and [ (16 nodes in transit: more links than rows).
    start $size - --nodes 16 --mapping intransit
    keys u
    wait_for "LINK UTILISATION +mean" 30 || miss "no links"
    wait_for "more links?, less used \\(\\] scrolls\\)" 30 || miss "no scroll hint"
    top=$(grep -A1 "LINK UTILISATION" "$screen" | tail -1 | cut -c1-25)
    keys ]
    tries=100
    while [ $tries -gt 0 ]; do
        capture
        [ "$(grep -A1 "LINK UTILISATION" "$screen" | tail -1 | cut -c1-25)" != "$top" ] && break
        tries=$((tries - 1))
        sleep 0.05
    done
    [ $tries -gt 0 ] || miss "] did not scroll the link view"
    keys [
    wait_for "^ ?$top" || miss "[ did not scroll back"
    keys Escape
    wait_for "IN SITU vs IN TRANSIT" || miss "Esc did not close the link view"
    finish "the link view scrolls; Esc closes it"
    quit

    # ---- item 2: what fits; the footer is the key table's ----------------------------------
    # Fig. 9 (a Lua analytics): the crossover has both model curves and 8 plot rows or more.
    start $size - --preset paper-fig9
    wait_for "SimGrid ✓" 60 || miss "no simulated result"
    wait_for "crossover ≈ ×[0-9]" 30 || miss "no crossover found"
    wait_for "in situ +[0-9.]+ m?s at ×1" 30 || miss "no in situ model curve (its value at ×1)"
    shows -E "in transit +[0-9.]+ m?s at ×1" || miss "no in transit model curve"
    top=$(grep -n "IN SITU vs IN TRANSIT" "$screen" | head -1 | cut -d: -f1)
    axis=$(grep -n "└" "$screen" | tail -1 | cut -d: -f1)
    rows=$((axis - top - 1))
    [ -n "$top" ] && [ "$rows" -ge 8 ] || miss "the crossover plot is $rows rows high"
    # Every essential of the top panel: the focused slider, η, makespan and scenario for both
    # engines, the bars and their legend.
    shows -E "^▸ ratio +15 sim/ana" || miss "the focused slider is not shown"
    shows -E "efficiency η +[0-9.]+ +[0-9.]+" || miss "no η for both engines"
    shows -E "makespan +[0-9.]+ m?s +[0-9.]+ m?s" || miss "no makespan for both"
    shows -E "scenario +I[SA] +I[SA]" || miss "no scenario for both"
    shows -E "analytics +▓+" || miss "no analytics bar"
    shows -E "█ sim(ulate)? +▒ retrieve +▓ analyse +░ idle" || miss "no bars' legend"
    # The header's platform summary drops whole fields to fit, never cuts one ("10 Gb/"); the
    # platform's name may go last, cut with "…".
    head -1 "$screen" | grep -Eq "((cores|Gf/s|Gb/s)|dahu[^ ]*\.xml|…) +\? help" ||
        miss "the header cuts the platform's summary: $(head -1 "$screen")"
    head -1 "$screen" | grep -q "insitu · mailbox DTL · scatter" ||
        miss "the header does not name the mapping, the DTL and the analytics"
    foot=$(tail -1 "$screen")
    for k in "←→ step" "m map" "u links" "s scale" "p preset" "? keys" "q quit"; do
        case $foot in *"$k"*) ;; *) miss "the footer lacks '$k': $foot" ;; esac
    done
    finish "fig9: both curves, a plot of $rows rows, every essential and the footer's keys fit"
    # Presentation: the plot grows, the focused slider stays; P again brings the sliders back.
    keys P
    wait_for "presentation on" || miss "P did not say presentation"
    capture
    top=$(grep -n "IN SITU vs IN TRANSIT" "$screen" | head -1 | cut -d: -f1)
    axis=$(grep -n "└" "$screen" | tail -1 | cut -d: -f1)
    big=$((axis - top - 1))
    [ "$big" -gt "$rows" ] || miss "presentation's plot ($big rows) is not bigger than $rows"
    shows -E "^▸ ratio +15 sim/ana" || miss "presentation lost the focused slider"
    grep -q " stride " "$screen" && miss "presentation still shows the other sliders"
    keys P
    wait_for " stride " || miss "P did not bring the sliders back"
    finish "P: presentation, a bigger plot ($big rows) and the focused slider"
    quit

    # ---- item 1: like for like ---------------------------------------------------------------
    # Fig. 8: the headline makespan (the model's best) is within 1% of SimGrid's.
    start $size - --preset paper-fig8
    wait_for "SimGrid ✓" 60 || miss "no simulated result"
    wait_for "makespan +327 s +327 s" 10 || miss "the makespan row is not 327 s / 327 s"
    d=$(sed -n 's/.*makespan  *327 s  *327 s  *\(Δ \)*\([-+][0-9.]*\)%.*/\2/p' "$screen" | head -1)
    [ -n "$d" ] && awk -v d="$d" 'BEGIN { exit !(d < 1 && d > -1) }' ||
        miss "the makespan's Δ is '$d', not within 1%"
    finish "Fig. 8: the makespan's Δ ($d%) is within 1%"
    # The per-stage table: model and SimGrid side by side, each stage and the period.
    keys t
    wait_for "PER STAGE" || miss "t did not open the per-stage table"
    for st in S Ing R A W C period makespan; do
        grep -Eq "^ $st +.* [0-9.]+ [mu]?s +[0-9.]+ [mu]?s" "$screen" ||
            miss "no model and SimGrid values for $st"
    done
    shows -E "^ A +.*27.2 s +27.2 s +[-+]0\.[0-9]%$" || miss "A is not 27.2 s on both sides"
    keys t
    wait_for "IN SITU vs IN TRANSIT" || miss "t again did not go back to the plot"
    finish "the per-stage table shows both engines; t toggles it"

    # E exports: JSON and CSV of the results, SVG and PNG of the plot, named in the notice.
    rm -f "$tmp"/run/situ-paper-fig8-*
    keys E
    wait_for "exported situ-paper-fig8-1.json" 20 || miss "E did not say what it wrote"
    for e in json csv svg png; do
        [ -s "$tmp/run/situ-paper-fig8-1.$e" ] || miss "no situ-paper-fig8-1.$e written"
    done
    python3 - "$tmp/run/situ-paper-fig8-1.json" "$tmp/run/situ-paper-fig8-1.csv" <<'PY' ||
import csv, json, sys
j = json.load(open(sys.argv[1]))
assert abs(j["model"]["makespan"] - 327.22) < 0.01, j["model"]["makespan"]
assert abs(j["simgrid"]["makespan"] - j["model"]["makespan"]) < 0.01 * j["model"]["makespan"]
assert [r["stage"] for r in j["stages"]] == ["S", "Ing", "R", "A", "W", "C", "period", "makespan"]
assert j["command"].startswith("situ run ") and "--preset" not in j["command"]
rows = {r["quantity"]: r for r in csv.DictReader(open(sys.argv[2]))}
assert abs(float(rows["makespan"]["model"]) - 327.22) < 0.01, rows["makespan"]
assert float(rows["A"]["simgrid"]) > 27, rows["A"]
PY
        miss "the exported JSON or CSV does not hold the screen's numbers"
    head -c 5 "$tmp/run/situ-paper-fig8-1.svg" | grep -q "<" || miss "the SVG is not SVG"
    head -c 4 "$tmp/run/situ-paper-fig8-1.png" | grep -q "PNG" || miss "the PNG is not PNG"
    # The four are one set, written in a temporary directory moved in whole: none is left.
    ls -A "$tmp/run" | grep -q '^\.situ-set' && miss "the export's temporary directory was left"
    keys E
    wait_for "exported situ-paper-fig8-2.json" 20 || miss "a second E overwrote the first export"
    finish "E writes the results (JSON, CSV) and the plot (SVG, PNG), named on screen"
    quit

    # The crossover's export (issue 30): its label is not under the legend, 4 ticks an axis, and
    # its value is the one on screen (read from what the figure says it drew, SITU_CHART_DUMP).
    # Fig. 9's configuration: the two mappings cross near data scaling 17.
    rm -f "$tmp/drawn.jsonl"
    start $size "SITU_CHART_DUMP=$tmp/drawn.jsonl" --nodes 16 --analytics scatter
    wait_for "crossover ≈ ×[0-9]" 60 || miss "no crossover on screen"
    keys E
    wait_for "exported situ-defaults-[0-9]*.json" 20 || miss "E did not export the crossover"
    capture
    shown=$(grep -o "crossover ≈ ×[0-9.]*" "$screen" | head -n 1 | sed 's/.*×//')
    python3 - "$tmp/drawn.jsonl" "$shown" >"$tmp/drawn.err" 2>&1 <<'PY' ||
import json, sys
d = [json.loads(l) for l in open(sys.argv[1])][-1]
def overlaps(a, b):
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]
assert all(a["xticks"] >= 4 and a["yticks"] >= 4 for a in d["axes"]), d["axes"]
for box in d["legends"]:
    hidden = [t["text"] for t in d["texts"] if t["role"] != "legend" and overlaps(box, t["box"])]
    assert not hidden, hidden
xover = [t["text"] for t in d["texts"] if t["text"].startswith("crossover ~")]
assert xover == ["crossover ~" + sys.argv[2]], (xover, sys.argv[2])
PY
        miss "the exported crossover: $(tail -n 1 "$tmp/drawn.err")"
    finish "E on the crossover: the label beside the legend, the screen's value"
    quit

    # ---- issue 30, item 3: the state on screen ---------------------------------------------------
    # The defaults: 1 node, so the crossover is drawn at 2 and says why; the header names the
    # mapping, DTL and analytics; the core split and who waits are visible; Δ is never "-0.0%".
    start $size -
    wait_for "SimGrid ✓" 60 || miss "no simulated result"
    wait_for "at 2 nodes, not your 1: in transit needs ≥ 2" 20 ||
        miss "the crossover does not say it is drawn at 2 nodes and why"
    head -1 "$screen" | grep -q "insitu · mailbox DTL · thermo" || miss "the header lacks the state"
    shows -E "^ ratio: [0-9]+ sim \+ [0-9]+ ana cores" || miss "no core split"
    grep -Eq "analytics waits for the simulation|IA: ana waits" "$screen" ||
        miss "the meaning of IA is not on screen"
    grep -q "[-]0\.0%" "$screen" && miss "a Δ of -0.0%"
    # A description cut at the edge says so.
    grep -Eq "^ ratio: .*…$" "$screen" || [ "$size" = 120x40 ] || miss "the cut description has no …"
    keys g l # in transit needs 2 nodes: the first slider, nodes, one step up
    wait_for "^▸ nodes +2 " || miss "l did not move the nodes to 2"
    keys m
    wait_for "intransit · mailbox DTL" || miss "after m the header does not say intransit"
    keys m # hostfile is skipped (no file): on to inline, then round to in situ
    wait_for "inline · mailbox DTL" || miss "after m the header does not say inline"
    [ "$size" = 120x40 ] || wait_for "inline: no idle" ||
        miss "the compact step heading does not say what inline means"
    keys m
    wait_for "insitu · mailbox DTL" || miss "m did not come back to insitu"
    finish "the state on screen: header, crossover's node count, core split, IA's meaning"
    # ? has a glossary of the numbers on screen.
    keys '?'
    wait_for "close help" || miss "? did not open the help"
    press_until Down "crossover ×N" 60
    shows "What the numbers on screen mean" || miss "no glossary heading"
    for term in "scenario IA" "crossover ×N" "0↑ 6"; do
        shows "│ $term " || miss "the glossary lacks $term"
    done
    press_until Up "efficiency  *η = 1 - idle" 10
    shows "efficiency  *η = 1 - idle" || miss "the glossary lacks η"
    quit
    finish "? explains the numbers on screen"
    # The advisor in makespan mode grades its cells (a log scale: not all "good"); * says what it
    # moved, the node count included.
    start $size - --nodes 4
    keys a
    wait_for "ADVISOR efficiency" 20 || miss "a did not open the advisor"
    keys o
    wait_for "ADVISOR makespan \\(min\\)" 20 || miss "o did not switch to the makespan"
    grep -Eq "░ ?[0-9]" "$screen" && grep -Eq "▓ ?[0-9]" "$screen" ||
        miss "the makespan's cells are not graded"
    keys '*'
    wait_for "best cell: ratio [0-9]+( -> [0-9]+)? nodes 4 -> [0-9]+" 20 ||
        miss "* did not say which values it moved"
    quit
    finish "advisor: makespan cells graded, * says what it moved"
    # One glyph rule for both engines: in transit with 10x the data, R dominates both bars.
    start $size - --nodes 16 --mapping intransit --data-scaling 10
    wait_for "SimGrid ✓" 60 || miss "no simulated result"
    wait_for "analytics +▒+[▓░]* +[0-9.]+ m?s +▒+[▓░]* +[0-9.]+ m?s" 20 ||
        miss "the two engines' analytics bars disagree on retrieve"
    quit
    finish "the stage bars use one glyph rule for both engines"

    # ---- item 3: the lesson's text scrolls --------------------------------------------------
    # A step longer than any panel: its text re-flows to the width and scrolls.
    start $size - --lesson "$tmp/long.lua"
    wait_for "LESSON A long step" || miss "no lesson panel"
    wait_for "\\] more below" || miss "the long text does not say there is more"
    grep -q "line 40 of the text" "$screen" && miss "the whole text fits: the test proves nothing"
    # The mark has a row of its own: no line of the text is cut by it.
    grep -Eq "line [0-9]+ of the text.*more below" "$screen" && miss "the mark overwrites text"
    keys ]
    wait_for "\\[ more above" || miss "] did not scroll the lesson's text"
    for _ in $(seq 1 20); do keys ]; done
    wait_for "line 40 of the text" || miss "] never reached the end of the text"
    # The keys may still be landing when line 40 shows (the last line is blank): wait for the end.
    wait_gone "\\] more below" 3 || miss "the end still says there is more below"
    for _ in $(seq 1 20); do keys [; done
    wait_gone "\\[ more above" || miss "[ did not scroll back to the top"
    wait_for "line 1 of the text" || miss "[ did not bring the first line back"
    finish "lesson text scrolls with [ and ], its marks on rows of their own"
    quit

    # A goal's long message wraps instead of being cut at the panel's edge.
    start $size - --lesson "$tmp/longgoal.lua"
    wait_for "LESSON Long goal" || miss "no lesson panel"
    wait_for "END-OF-GOAL" || miss "the goal's message is cut"
    finish "a long goal message wraps"
    quit

    # ---- item 6: a scenario is re-run from its prefilled path, and when it is saved ---------
    printf 'print("scenario ran")\n' >"$tmp/scenario.lua"
    start $size - --script "$tmp/scenario.lua"
    wait_for "SCENARIO scenario.lua" 20 || miss "no scenario panel"
    wait_for "scenario ran" 20 || miss "the scenario's output is not shown"
    # An editor's save: a new file renamed over the old one.
    printf 'print("scenario saved again")\n' >"$tmp/scenario.new"
    mv "$tmp/scenario.new" "$tmp/scenario.lua"
    wait_for "scenario saved again" 20 || miss "saving the scenario did not run it again"
    keys x
    wait_gone "SCENARIO scenario.lua" || miss "x did not close the panel"
    keys x
    wait_for "Lua file \[args\]: $tmp/scenario.lua" || miss "x did not prefill the last path"
    # Typing replaces the prefilled path (it is not appended to); Enter runs what is typed.
    keys -l "$tmp/scenario.lua"
    wait_for "Lua file \[args\]: $tmp/scenario.lua_" || miss "typing did not replace the path"
    grep -q "scenario.lua$tmp" "$screen" && miss "the typed path was appended to the old one"
    keys Enter
    wait_for "scenario saved again" 20 || miss "Enter did not run the typed path"
    finish "a saved scenario runs again; x prefills its path, typing replaces it"
    quit

    # ---- item 3: a typed quiz, checked by the lesson's Lua; --log; the lesson reloads on save
    cp "$tmp/quiz.lua" "$tmp/quiz-$size.lua"
    rm -f "$tmp/goals.log"
    start $size - --lesson "$tmp/quiz-$size.lua" --log "$tmp/goals.log"
    wait_for "question: Which side waits: IS or IA\?" || miss "no question"
    wait_for "goal not met yet: answer with A" 20 || miss "the goal did not ask for an answer"
    keys A
    wait_for "answer: " || miss "A did not open the answer prompt"
    keys -l is
    keys Enter
    wait_for "goal not met yet: you said is" 20 || miss "a wrong answer was not checked"
    shows "your answer: is" || miss "the answer is not shown"
    keys A C-u
    keys -l loop
    keys Enter
    # The goal loops on this answer: stopped at the limit in the evaluator, the screen alive.
    wait_for "goal error: .*(stopped|limit)" 30 || miss "a looping goal was not stopped"
    shows "lesson goal: " || miss "the status bar does not show the goal's error"
    keys A C-u
    keys -l ia
    keys Enter
    wait_for "goal met: you said ia" 20 || miss "the right answer did not meet the goal"
    finish "a quiz: the typed answer is checked by the lesson's Lua; a looping check is stopped"
    # The lesson file saved with another title: the panel reloads, at the same step.
    sed 's/title = "A quiz"/title = "A quiz, saved again"/' "$tmp/quiz-$size.lua" >"$tmp/quiz.new"
    mv "$tmp/quiz.new" "$tmp/quiz-$size.lua"
    wait_for "LESSON A quiz, saved again" 20 || miss "saving the lesson did not reload it"
    wait_for "lesson reloaded: step 1 of 2" 20 || miss "no notice of the reload"
    printf 'return {\n' >"$tmp/quiz-$size.lua"
    wait_for "lesson not reloaded: .*quiz-$size.lua:2" 20 || miss "a broken save is not reported"
    shows "LESSON A quiz, saved again" || miss "a broken save lost the lesson"
    finish "the lesson reloads on save; a broken save keeps the old one and says why"
    keys n n
    wait_for "lesson complete: 1 of 1 goals met" 20 || miss "no completion"
    quit
    python3 - "$tmp/goals.log" "$tmp/quiz-$size.lua" <<'PY' || miss "the log is not the session"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
events = [l["event"] for l in lines]
want = ["start", "answer wrong", "answer right", "goal met", "step", "complete", "quit"]
it = iter(events)
assert all(e in it for e in want), events  # in this order, others between
met = lines[events.index("goal met")]
assert met["step"] == 1 and met["message"] == "you said ia", met
assert lines[events.index("answer wrong")]["message"] == "is", lines
assert all(l["lesson"] == sys.argv[2] for l in lines), lines[0]
done = lines[events.index("complete")]
assert done["goals_met"] == 1 and done["goals"] == 1, done
assert all(l["command"].startswith("situ run") for l in lines)
PY
    finish "--log appends a JSON line per event, the answers judged"
    # A log that cannot be written is refused before the screen is taken, in one line.
    start $size - --lesson "$tmp/quiz.lua" --log "$tmp/nosuch/goals.log"
    tries=100
    while [ $tries -gt 0 ] && alive; do
        tries=$((tries - 1))
        sleep 0.05
    done
    alive && miss "the explorer started with a log it cannot write"
    grep -q "^situ: --log: $tmp/nosuch/goals.log: " "$tmp/stderr" ||
        miss "no one-line error naming the log: $(cat "$tmp/stderr")"
    finish "an unwritable --log is refused in one line"
done

# ---- a class (issue 30): three students, each with a log, and the instructor's report ---------
# Step 1: the ratio to 31 (a hint whose last resort asks first); step 2: a quiz; step 3: the end.
cat >"$tmp/class.lua" <<'LUA'
return { title = "A class", description = "three students and a report", steps = {
  { text = "Raise the ratio to its largest value.", goal = function(state)
      return state.params.ratio == 31, "not yet" end,
    hint = { "Move the ratio slider.", last_resort = "Press l until it stops." } },
  { text = "A question.", question = "What is six times seven?", goal = function(state)
      if not state.answer then return false, "answer with A" end
      return state.answer == "42", "checked" end, answer = "42" },
  { text = "The end." } } }
LUA
size=80x24
logs=$tmp/class-logs
mkdir -p "$logs"
# student ID [ARGS]: the lesson for ID, the logs in one shared directory.
student() {
    start $size - --lesson "$tmp/class.lua" --student "$1" --log "$logs"
    wait_for "LESSON A class" || miss "$1: no lesson panel"
}
answer() {
    keys A
    wait_for "answer: " || miss "A did not open the answer prompt"
    keys -l "$1"
    keys Enter
    wait_for "your answer: $1" 20 || miss "the answer $1 is not shown"
    wait_for "goal (met|not met yet): checked" 20 || miss "the answer $1 was not checked"
}
# alice: meets step 1, answers wrong then right, finishes.
student alice
keys l l l l
wait_for "✓ goal met" 20 || miss "alice: ratio 31 did not meet the goal"
keys n
wait_for "step 2/3" || miss "alice: n did not move on"
answer 41
answer 42
wait_for "✓ goal met: checked" 20 || miss "alice: 42 did not meet the goal"
keys n n
wait_for "lesson complete: 2 of 2 goals met" 20 || miss "alice: no completion"
quit
finish "class: alice works through the lesson"
# bob: a hint, meets step 1, answers right, quits at step 2 (q asks first).
student bob
keys i
wait_for "hint: Move the ratio slider" || miss "bob: no hint"
keys l l l l
wait_for "✓ goal met" 20 || miss "bob: ratio 31 did not meet the goal"
keys n
wait_for "step 2/3" || miss "bob: n did not move on"
answer 42
keys q
wait_for "q again quits the lesson \\(your place is kept\\)" || miss "q in a lesson did not ask"
alive || miss "the first q quit the lesson"
quit
finish "class: bob quits at step 2 (q asks first)"
# carol: every hint (the last resort asks), skips the unmet goal, quits; starts again at step 2.
student carol
keys i
wait_for "hint: Move the ratio slider" || miss "carol: no hint"
keys i
wait_for "the last hint may give the answer away: i again" || miss "the last resort did not ask"
grep -q "Press l until" "$screen" && miss "the last resort showed before asking"
keys i
wait_for "last resort: Press l until it stops" || miss "the last resort did not show"
keys n
wait_for "n again moves on" || miss "carol: n did not ask"
keys n
wait_for "step 2/3" || miss "carol: n n did not move on"
quit
student carol
wait_for "welcome back: step 2" || miss "carol was not resumed at step 2"
shows "step 2/3" || miss "carol: the panel is not at step 2"
quit
finish "class: carol skips a goal, quits, and is resumed at her step"
# The instructor's report: a row per student, a column per goal, wrong answers; and its CSV.
"$situ" lesson report "$logs"/*.log --csv "$tmp/class.csv" >"$tmp/report" 2>"$tmp/report.err" ||
    miss "the report failed: $(cat "$tmp/report.err")"
cp "$tmp/report" "$screen"
grep -Eq "^class: A class \\(3 students\\)" "$tmp/report" || miss "no heading for 3 students"
grep -Eq "^student +where +step 1 +step 2 +wrong answers" "$tmp/report" || miss "no columns"
grep -Eq "^alice +complete +met 0h [0-9.]+m +met 0h [0-9.]+m +step 2: \"41\"$" "$tmp/report" ||
    miss "alice's row is wrong"
grep -Eq "^bob +quit @2 +met 1h [0-9.]+m +met 0h [0-9.]+m +-$" "$tmp/report" ||
    miss "bob's row is wrong"
grep -Eq "^carol +quit @2 +no 2h +no 0h +-$" "$tmp/report" || miss "carol's row is wrong"
grep -q "^situ: wrote $tmp/class.csv" "$tmp/report.err" || miss "no confirmation of the CSV"
python3 - "$tmp/class.csv" <<'PY' || miss "the CSV is not the class"
import csv, sys
rows = {(r["student"], r["step"]): r for r in csv.DictReader(open(sys.argv[1]))}
assert len(rows) == 6, rows
assert rows[("alice", "2")]["met"] == "yes" and rows[("alice", "2")]["wrong_answers"] == 'step 2: "41"'
assert rows[("bob", "1")]["hints"] == "1" and rows[("bob", "1")]["where"] == "quit @2"
assert rows[("carol", "1")]["met"] == "no" and rows[("carol", "1")]["hints"] == "2"
assert rows[("carol", "2")]["met"] == "no"
PY
finish "class: the report's rows and its CSV"
# Hostile ids and names: the CSV quotes each field that needs it (RFC 4180: every row has the
# header's columns), ids are kept whole (two differing past byte 127 stay two students), and the
# text report shows an escape sequence escaped, never to the instructor's terminal.
python3 - "$logs" "$tmp/hostile" <<'PY' || miss "could not write the hostile logs"
import json, os, sys
src, out = sys.argv[1:]
os.makedirs(out, exist_ok=True)
long = "x" * 130
ids = {"alice": 'al,"ice"\r\nA', "bob": long + "-bob", "carol": long + "-carol\x1b[2J"}
for who, new in ids.items():
    with open(os.path.join(src, who + ".log")) as f, open(os.path.join(out, who + ".log"), "w") as g:
        for line in f:
            o = json.loads(line)
            if "student" in o:
                o["student"] = new
            if "lesson" in o:
                o["lesson"] = o["lesson"] + ", a comma"
            g.write(json.dumps(o) + "\n")
PY
"$situ" lesson report "$tmp/hostile"/*.log --csv "$tmp/hostile.csv" >"$tmp/hostile.txt" 2>"$tmp/report.err" ||
    miss "the hostile report failed: $(cat "$tmp/report.err")"
python3 - "$tmp/hostile.csv" <<'PY' || miss "the CSV of hostile names is not one field per column"
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
assert rows and all(len(r) == len(rows[0]) for r in rows), [len(r) for r in rows]
head = rows[0]
ids = {r[head.index("student")] for r in rows[1:]}
assert ids == {'al,"ice"\r\nA', "x" * 130 + "-bob", "x" * 130 + "-carol\x1b[2J"}, ids
PY
grep -q "$(printf '\033')" "$tmp/hostile.txt" && miss "an escape sequence reached the text report"
grep -q 'x-carol\\e\[2J\|-carol\\x1b\[2J\|-carol\\033\[2J' "$tmp/hostile.txt" || miss "carol's id is not shown escaped"
finish "class: hostile ids and names are quoted in the CSV, kept whole, shown escaped"
# A bad log: exit 2, naming its file and line.
cp "$logs/bob.log" "$tmp/broken.log"
echo '{"event": "step", "lesson": "x"' >>"$tmp/broken.log"
n=$(wc -l <"$tmp/broken.log")
"$situ" lesson report "$logs/alice.log" "$tmp/broken.log" >/dev/null 2>"$tmp/report.err"
rc=$?
[ $rc -eq 2 ] || miss "a bad log exits $rc, not 2"
grep -q "^situ: $tmp/broken.log:$n: " "$tmp/report.err" || miss "not named: $(cat "$tmp/report.err")"
[ "$(wc -l <"$tmp/report.err")" -eq 1 ] || miss "more than one line for a bad log"
# situ lesson with no name lists the lessons with their descriptions.
"$situ" lesson >"$tmp/list" 2>&1 </dev/null || miss "situ lesson exits $?"
grep -Eq "^mapping +In situ or in transit" "$tmp/list" || miss "the list lacks mapping"
grep -Eq "^ +the scatter analytics on 16 nodes" "$tmp/list" || miss "the list lacks a description"
cp "$tmp/list" "$screen"
finish "class: a bad log names its line; situ lesson lists the lessons"

# ---- themes (issue 30): nothing dim in high contrast or light; T cycles, P turns contrast on,
# --theme and SITU_THEME choose one; a bad name is refused in one line with a guess.
dim=$(printf '\033[2m')
escaped() { tui_tmux capture-pane -e -p -t situ >"$tmp/escaped"; }
start $size TERM=xterm-256color
wait_for "ONE STEP" || miss "no bars"
escaped
grep -qF "$dim" "$tmp/escaped" || miss "the default theme has no dim text: the test proves nothing"
keys T
wait_for "theme contrast" || miss "T did not switch to contrast"
escaped
grep -qF "$dim" "$tmp/escaped" && miss "dim text in the contrast theme"
keys T
wait_for "theme light" || miss "T did not switch to light"
escaped
grep -qF "$dim" "$tmp/escaped" && miss "dim text in the light theme"
keys T P
wait_for "presentation on" || miss "P did not say presentation"
escaped
grep -qF "$dim" "$tmp/escaped" && miss "P did not turn the contrast theme on"
quit
start $size "TERM=xterm-256color SITU_THEME=light"
wait_for "ONE STEP" || miss "SITU_THEME=light did not start"
escaped
grep -qF "$dim" "$tmp/escaped" && miss "SITU_THEME=light still dims"
quit
start $size - --theme contrats
tries=100
while [ $tries -gt 0 ] && alive; do
    tries=$((tries - 1))
    sleep 0.05
done
grep -q "^situ: --theme: 'contrats' is not valid; .*did you mean 'contrast'" "$tmp/stderr" ||
    miss "a bad --theme is not refused with a guess: $(cat "$tmp/stderr")"
finish "themes: contrast and light draw nothing dim; T, P, --theme, SITU_THEME"

echo "workshop: $passed passed, $failed failed"
[ $failed -eq 0 ]
