#!/bin/sh
# The terminal suites once more, as an unprivileged user whose shell is /bin/sh (dash on Debian),
# in a hostile environment: a ~/.tmux.conf that moves the status line, the base index and the
# shell, TERM=dumb, LANG=C, COLUMNS/LINES, NO_COLOR and SITU_ASCII exported. CI runs as root, whose shell is
# bash; a dash user once got the wrapper shell's pid for the explorer's (issue 18). The suites
# must give the same results for anyone, so `make test` runs them this way too.
# Usage: sh tests/tui/as-user.sh PATH/TO/situ SUITE.sh...     (SUITEs in tests/tui/)
# As root: runs each SUITE as 'nobody' (setpriv), from a copy of the binary, its data and
# tests/tui/ in a fresh directory (the tree may sit under a directory nobody cannot enter, such as
# /root). Not root: nothing to do, the suites ran as this user already.
# The last line is "as-user: N passed, M failed" (suites); non-zero exit if any failed.
set -u
if [ $# -lt 2 ]; then
    echo "usage: sh tests/tui/as-user.sh PATH/TO/situ SUITE.sh..." >&2
    exit 2
fi
situ=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
if [ "$(id -u)" -ne 0 ]; then
    echo "as-user: running as $(id -un) (uid $(id -u)) already: the suites above were the unprivileged run"
    exit 0
fi
drop=""
if command -v setpriv >/dev/null 2>&1; then
    # nobody/nogroup by number: the names differ between distributions, the ids do not.
    drop="setpriv --reuid=65534 --regid=65534 --clear-groups --"
else
    echo "as-user: setpriv is missing (util-linux; make deps installs it)" >&2
    echo "as-user: 0 passed, 1 failed"
    exit 1
fi

# A directory the user can enter whatever root's umask and TMPDIR: try $TMPDIR, then /tmp.
work=""
for base in "${TMPDIR:-/tmp}" /tmp; do
    w=$(mktemp -d "$base/situ-as-user.XXXXXX" 2>/dev/null) || continue
    chmod 755 "$w"
    if $drop test -x "$w"; then
        work=$w
        break
    fi
    rm -rf "$w"
done
if [ -z "$work" ]; then
    echo "as-user: no temporary directory that uid 65534 can enter" >&2
    echo "as-user: 0 passed, 1 failed"
    exit 1
fi
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

# The binary beside its data, as in the tree: the explorer finds platforms/, presets/ and
# scripts/ next to itself (and never an installed copy in their place).
src=$(cd "$(dirname "$situ")" && pwd)
mkdir -p "$work/tree/tests" "$work/home" "$work/tmp"
cp "$situ" "$work/tree/situ" &&
    cp "$src/situ-sim" "$work/tree/" && # the simulation helper, beside situ
    cp "$src/situ-smpi" "$src/libsitu_dtl.so" "$work/tree/" && # fidelity smpi (make smpi)
    cp -R "$src/platforms" "$src/presets" "$src/scripts" "$work/tree/" &&
    cp -R "$here" "$work/tree/tests/tui" &&
    cp "$here/../case.sh" "$work/tree/tests/" || { # CASE=PATTERN, which the suites source
    echo "as-user: cannot copy the binary and its data to $work" >&2
    echo "as-user: 0 passed, 1 failed"
    exit 1
}
chmod -R a+rX,go-w "$work/tree"
# The hostile personal configuration: none of it may reach a test's terminal (the last line
# would turn every Unicode check into a failure).
cat >"$work/home/.tmux.conf" <<'EOF'
set -g base-index 1
set -g pane-base-index 1
set -g status-position top
set -g status off
set -g default-shell /bin/bash
set -g default-terminal xterm-256color
set -g history-limit 10
set -g escape-time 2000
set-environment -g SITU_ASCII 1
EOF
chown -R 65534:65534 "$work/home" "$work/tmp"

passed=0
failed=0
. "$(dirname "$0")/../case.sh" # CASE=PATTERN picks suites by name; they see no CASE (env -i)
for suite in "$@"; do
    case_selected "$suite" || continue
    t0=$(date +%s)
    # env -i: only what a login of that user would have, and the hostile settings.
    # shellcheck disable=SC2086
    (cd "$work/tree" && env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$work/home" \
        TMPDIR="$work/tmp" USER=nobody LOGNAME=nobody SHELL=/bin/sh TERM=dumb LANG=C \
        COLUMNS=50 LINES=10 NO_COLOR=1 SITU_ASCII=1 $drop /bin/sh "tests/tui/$suite" ./situ) >"$work/out" 2>&1
    rc=$?
    last=$(tail -1 "$work/out")
    if [ $rc -eq 0 ]; then
        passed=$((passed + 1))
        echo "ok: $suite as uid 65534 with /bin/sh: $last ($(($(date +%s) - t0)) s)" >&2
    else
        failed=$((failed + 1))
        echo "FAIL: $suite as uid 65534 with /bin/sh (exit $rc):" >&2
        sed 's/^/    | /' "$work/out" >&2
    fi
done
case_none_matched as-user $((passed + failed)) && failed=$((failed + 1))
echo "as-user: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
