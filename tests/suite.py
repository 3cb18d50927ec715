"""What every Python test suite of Situ does with its checks: run each one, print `ok` or `FAIL`
with the reason and the time it took, go on after a failure, and end with the one line the
test runners read: 'NAME: N passed, M failed'.

One case or a few: CASE=PATTERN in the environment (`make test-NAME CASE=PATTERN`) runs only the
checks whose name matches: a glob if PATTERN has * ? or [, else a substring; case-insensitive.
A pattern that matches no check is a failure that says so, never a silent pass. SITU_TESTS (a
comma-separated list of substrings, the older spelling of some suites) is still read."""
import fnmatch
import os
import time


def _patterns():
    pats = []
    if os.environ.get("CASE"):
        pats.append(os.environ["CASE"])
    pats += [w for w in os.environ.get("SITU_TESTS", "").split(",") if w]
    return pats


def selected(name):
    """Whether the check called name is to run under CASE (every check without one)."""
    pats = _patterns()
    if not pats:
        return True
    low = name.lower()
    for p in pats:
        p = p.lower()
        if any(c in p for c in "*?[") and fnmatch.fnmatchcase(low, p):
            return True
        if p in low:
            return True
    return False


def none_matched(suite, ran):
    """1 (a failure) after printing why, when CASE selected nothing; else 0. ran: the checks
    that ran (passed, failed or skipped)."""
    if ran or not _patterns():
        return 0
    print(f"FAIL {suite}: no case matches CASE={' or '.join(_patterns())!r}")
    return 1


class Suite:
    def __init__(self, name):
        self.name, self.passed, self.failed = name, 0, 0

    def check(self, title, fn):
        if not selected(title):
            return
        t0 = time.time()
        try:
            fn()
            self.passed += 1
            print(f"ok   {title} ({time.time() - t0:.1f} s)")
        except Exception as e:  # a failed check names itself and goes on
            self.failed += 1
            print(f"FAIL {title}: {str(e)[:600]}")

    def end(self):
        """Prints the closing line; the exit status: 1 if anything failed."""
        self.failed += none_matched(self.name, self.passed + self.failed)
        print(f"{self.name}: {self.passed} passed, {self.failed} failed")
        return 1 if self.failed else 0
