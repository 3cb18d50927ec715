# shellcheck shell=sh disable=SC2154
# (sock and situ are the suite's: the server's socket and the binary under test.)
# The tmux harness every terminal suite shares (tests/tui/*.sh, tests/bench/tui.sh): sourced,
# never run. One home for how a suite starts its private tmux server and finds the explorer in it.
#
#   . "$(dirname "$0")/lib.sh"       (from tests/bench: . "$(dirname "$0")/../tui/lib.sh")
#   sock=$tmp/tmux                    the suite's private server (a socket in its own temp dir)
#   tui_new SESSION COLS ROWS 'sh "$tmp/wrap.sh" ARGS'   a fresh session running that command
#   tui_tmux send-keys -t SESSION q   any tmux command, on that server
#   tui_screen SESSION                the pane's text
#   pid=$(tui_pid SESSION) || ...     the explorer's own pid ($situ must name the binary)
#   tui_children PID                  the pids of PID's children, one a line
#   tui_descendants PID               every pid below PID in the process tree
#   tui_simulations PID               those that run a simulation (they name themselves)
#   tui_in_session SESSION            every process the pane started, orphans too
#
# Why: results must not depend on who runs the tests. tmux runs a pane's command through
# `default-shell -c`, which comes from $SHELL or ~/.tmux.conf; bash execs the last command of -c
# but dash forks it, so the pane's pid was sometimes the explorer's and sometimes a shell's, and
# a check could measure the shell (issue 18). A personal ~/.tmux.conf (base-index, status line,
# default-terminal), $TERM, the locale or an exported NO_COLOR/SITU_* could change a screen too.

# The environment of the suite, of its tmux servers (they copy it when they start) and so of
# every pane. tmux sets a pane's TERM from default-terminal (fixed below); the client's TERM is
# fixed as well so that nothing reads the user's. C.UTF-8 is built into glibc (no locales
# package needed); a suite testing another locale sets it in its pane command.
TUI_TERM=screen # tmux 3.3's default; fixed because newer tmux defaults to tmux-256color
export TERM=$TUI_TERM LANG=C.UTF-8 LC_ALL=C.UTF-8 SHELL=/bin/sh
# ncurses reads LINES, COLUMNS, ESCDELAY and the terminfo paths; tmux refuses or nests on TMUX;
# the explorer reads NO_COLOR, SITU_ASCII, SITU_SIM_SUBCOMMAND (which would make the
# "simulations" models), SITU_TIME_LIMIT and SITU_TEST_FAULT. ENV and BASH_ENV run files.
unset TMUX TMUX_PANE TMUX_TMPDIR LINES COLUMNS ESCDELAY TERMINFO TERMINFO_DIRS TERMCAP \
    LANGUAGE LC_CTYPE LC_MESSAGES LC_NUMERIC NO_COLOR SITU_ASCII SITU_SIM_SUBCOMMAND \
    SITU_TIME_LIMIT SITU_TEST_FAULT ENV BASH_ENV

# tui_tmux ARGS...: tmux on the suite's server ($sock). -f /dev/null: neither /etc/tmux.conf nor
# ~/.tmux.conf is read when a command starts the server; -u: UTF-8 whatever the client thinks.
tui_tmux() {
    tmux -u -f /dev/null -S "$sock" "$@"
}

# tui_new SESSION COLS ROWS COMMAND: starts a session on $sock running the shell command COMMAND
# in a COLSxROWS window (the pane is a row shorter: the status line). The options are set in the
# same command list as new-session, so they hold from the first pane on. COMMAND is exec'd by
# /bin/sh, so the pane's pid is COMMAND's whatever the shell: it is one simple command, starting
# with the program (settings go through env or a wrapper script: `exec VAR=x prog` runs "VAR=x").
tui_new() {
    tui_tmux set-option -g default-shell /bin/sh \; \
        set-option -g default-terminal "$TUI_TERM" \; \
        new-session -d -s "$1" -x "$2" -y "$3" "exec $4"
}

# tui_screen SESSION: the pane's text now (nothing if the session is gone).
tui_screen() {
    tui_tmux capture-pane -p -t "$1" 2>/dev/null
}

# tui_capture SESSION FILE: the pane's text into FILE, once two captures in a row agree (for at
# most half a second): a capture can fall between two writes of one frame, and a check that
# found its pattern would then read the other lines of a screen that was never shown whole.
tui_capture() {
    tui_screen "$1" >"$2"
    _tui_n=10
    while [ "$_tui_n" -gt 0 ]; do
        tui_screen "$1" >"$2.next"
        if cmp -s "$2" "$2.next"; then
            break
        fi
        mv "$2.next" "$2"
        _tui_n=$((_tui_n - 1))
        sleep 0.05
    done
    rm -f "$2.next"
}

# tui_children PID: its children's pids, one a line. /proc, so that it needs no procps.
tui_children() {
    _tui_parent=$1
    for _tui_f in /proc/[0-9]*/stat; do
        { read -r _tui_s <"$_tui_f"; } 2>/dev/null || continue
        # "pid (comm) state ppid ...": comm may hold spaces and parentheses, so cut at the last ")".
        _tui_s=${_tui_s##*") "}
        # shellcheck disable=SC2086
        set -- $_tui_s
        [ "$2" = "$_tui_parent" ] || continue
        _tui_f=${_tui_f#/proc/}
        echo "${_tui_f%/stat}"
    done
}

# tui_descendants PID: the pids below PID in the process tree (children, theirs, ...), one a
# line: the simulation server's children are the explorer's grandchildren.
tui_descendants() {
    _tui_queue=$(tui_children "$1")
    while [ -n "$_tui_queue" ]; do
        # shellcheck disable=SC2086
        set -- $_tui_queue
        echo "$1"
        _tui_p=$1
        shift
        _tui_queue="$* $(tui_children "$_tui_p")"
        # shellcheck disable=SC2086
        set -- $_tui_queue
        _tui_queue=$*
    done
}

# tui_in_session SESSION: the pids of every process of the pane's session but the pane's own
# process (the wrapper script, or the `tail` it became once the explorer ended), one a line.
# The session is what the explorer and all it starts share (the process module gives each
# child a process group of its own, never a session): a child whose parent died, reparented
# away from the tree, is still found here, and no command line is read.
tui_in_session() {
    _tui_leader=$(tui_tmux display-message -p -t "$1" '#{pane_pid}' 2>/dev/null)
    [ -n "$_tui_leader" ] || return 0
    for _tui_f in /proc/[0-9]*/stat; do
        { read -r _tui_s <"$_tui_f"; } 2>/dev/null || continue
        _tui_s=${_tui_s##*") "}
        # shellcheck disable=SC2086
        set -- $_tui_s # state ppid pgrp session ...
        [ "$4" = "$_tui_leader" ] && [ "$1" != Z ] || continue # a zombie has ended
        _tui_f=${_tui_f#/proc/}
        [ "${_tui_f%/stat}" = "$_tui_leader" ] || echo "${_tui_f%/stat}"
    done
}

# tui_simulations PID: the pids of PID's simulations, one a line: the processes below it that
# say they run one (situ-sim names itself "situ-sim:FIDELITY" when its simulation starts,
# engine/sim/sim_isolate.c). A ready child waiting for its configuration has not named itself;
# the explorer's helpers (situ __evaluate, situ __scenario) never do. An older build (a bench's)
# did not name its simulations: there, a child "situ __simulate ..." or "situ run ..." whose
# stdin is no longer the runner's pipe (tui_waiting) is one.
tui_simulations() {
    for _tui_k in $(tui_descendants "$1"); do
        case $(cat "/proc/$_tui_k/comm" 2>/dev/null) in
        situ-sim:*)
            echo "$_tui_k"
            continue
            ;;
        esac
        case $({ tr '\0' '\n' <"/proc/$_tui_k/cmdline"; } 2>/dev/null | sed -n 2p) in
        __simulate | run) tui_waiting "$_tui_k" || echo "$_tui_k" ;;
        esac
    done
    return 0
}

# tui_alive PID: whether PID runs (a zombie has ended, only its status is left to reap).
tui_alive() {
    [ -d "/proc/$1" ] && ! grep -q '^State:.*Z' "/proc/$1/status" 2>/dev/null
}

# tui_describe PID...: "PID NAME" for each, for a failure message.
tui_describe() {
    for _tui_k in "$@"; do printf '%s %s; ' "$_tui_k" "$(cat "/proc/$_tui_k/comm" 2>/dev/null)"; done
}

# tui_waiting PID: whether PID is a ready child still waiting (its stdin a pipe; a simulation
# running has /dev/null there).
tui_waiting() {
    case $(readlink "/proc/$1/fd/0" 2>/dev/null) in pipe:*) return 0 ;; esac
    return 1
}

# tui_ready_children PID: the pids of PID's ready children that wait, one a line.
tui_ready_children() {
    for _tui_k in $(tui_children "$1"); do
        case $({ tr '\0' '\n' <"/proc/$_tui_k/cmdline"; } 2>/dev/null | sed -n 2p) in
        __simulate) tui_waiting "$_tui_k" && echo "$_tui_k" ;;
        esac
    done
    return 0
}

# tui_is_situ PID: whether PID runs the binary under test (its /proc/PID/exe is $situ).
tui_is_situ() {
    [ -n "$1" ] && [ "$(readlink "/proc/$1/exe" 2>/dev/null)" = "$(readlink -f "$situ")" ]
}

# tui_pid SESSION [SECONDS]: prints the pid of the explorer running in SESSION's pane: the
# topmost process of the pane's tree whose executable is $situ (the pane's own process when the
# command execs it, else the child of a wrapper script; never one of the explorer's simulation
# children, which run the same binary below it). Polls until it exists (default 10 s); prints
# nothing and fails if it never does, so that no check measures a shell in its place.
tui_pid() {
    _tui_session=$1
    _tui_tries=$((${2:-10} * 20))
    while [ "$_tui_tries" -gt 0 ]; do
        # Breadth first from the pane's process: the first match is the topmost.
        _tui_queue=$(tui_tmux display-message -p -t "$_tui_session" '#{pane_pid}' 2>/dev/null)
        while [ -n "$_tui_queue" ]; do
            # shellcheck disable=SC2086
            set -- $_tui_queue
            if tui_is_situ "$1"; then
                echo "$1"
                return 0
            fi
            _tui_p=$1
            shift
            _tui_queue="$* $(tui_children "$_tui_p")"
            # shellcheck disable=SC2086
            set -- $_tui_queue # the newlines and spaces tui_children left: words again
            _tui_queue=$*
        done
        _tui_tries=$((_tui_tries - 1))
        sleep 0.05
    done
    return 1
}
