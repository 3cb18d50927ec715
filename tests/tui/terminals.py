#!/usr/bin/env python3
"""The explorer and its terminal: a TERM it cannot draw with (unset, unknown, dumb) is bad input
(exit 2, one line with a hint), and at any size it either draws or shows a "too small" note that
fits, while keys other than quit change nothing. Usage: python3 tests/tui/terminals.py ./situ.
Ends with 'terminals: N passed, M failed'."""
import os
import re
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import suite  # noqa: E402
import tmuxpane  # noqa: E402

SITU = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "./situ")
TMP = tempfile.mkdtemp(prefix="situ-terminals.")
SUITE = suite.Suite("terminals")
check = SUITE.check




def bad_term(term, words):
    def test():
        t = tmuxpane.Pane(SITU, TMP, term=term, check=False)
        try:
            status = t.exit_status()
            err = t.stderr().splitlines()
            assert status == 2, f"exit {status}: {err}"
            assert len(err) == 1 and err[0].startswith("situ: ") and words in err[0], err
            assert "xterm-256color" in err[0], f"no hint: {err[0]}"
        finally:
            t.close()
    return test


def too_small(cols, rows):
    """The note fits (nothing cut: each line is whole), and keys but q do nothing meanwhile."""
    def test():
        t = tmuxpane.Pane(SITU, TMP, cols=cols, rows=rows)
        try:
            t.wait_for("small")
            lines = [l.strip() for l in t.screen().splitlines() if l.strip()]
            wanted = ["too small", "Terminal too small"]
            assert any(w in l for l in lines for w in wanted), lines
            for l in lines:  # every line one of the note's, whole
                assert re.fullmatch(r"(Terminal too small: \d+×\d+|\d+×\d+: too small|too small|"
                                    r"Situ needs at least 80×24|needs 80×24|"
                                    r"enlarge it, or press q to quit|q quits)", l), repr(l)
            if rows >= 2:
                assert any("q" in l for l in lines), f"no way out said: {lines}"
            # Keys while hidden change nothing: at full size the ratio is still the default.
            t.tmux("send-keys", "Right", "Right", "m", "Enter", "9", "Enter")
            time.sleep(0.3)
            t.tmux("resize-window", "-x", "100", "-y", "30")
            t.wait_for("PARAMETERS")
            assert re.search(r"ratio +15 sim/ana", t.screen()), t.screen()
            assert re.search(r"mapping +insitu", t.screen()), t.screen()
            t.tmux("resize-window", "-x", str(cols), "-y", str(rows))
            t.wait_for("small")
            seconds = t.quit_time("q")
            assert seconds < 0.5, f"q: exit after {seconds:.2f} s"
        finally:
            t.close()
    return test


def main():
    if not shutil.which("tmux"):
        print("terminals: tmux is not installed (make deps installs it)")
        print("terminals: 0 passed, 1 failed")
        return 1
    check("TERM unset: exit 2 with a hint", bad_term(None, "TERM is not set"))
    check("TERM=dumb: exit 2 with a hint", bad_term("dumb", "cannot place text"))
    check("TERM unknown: exit 2 with a hint", bad_term("no-such-terminal", "no terminfo entry"))
    for cols, rows in ((20, 5), (40, 3), (12, 2), (79, 23)):
        check(f"{cols}x{rows}: a note that fits, keys ignored but q", too_small(cols, rows))
    shutil.rmtree(TMP, ignore_errors=True)
    return SUITE.end()


if __name__ == "__main__":
    sys.exit(main())
