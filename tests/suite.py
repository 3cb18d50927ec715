"""What every Python test suite of Situ does with its checks: run each one, print `ok` or `FAIL`
with the reason and the time it took, go on after a failure, and end with the one line the
test runners read: 'NAME: N passed, M failed'."""
import time


class Suite:
    def __init__(self, name):
        self.name, self.passed, self.failed = name, 0, 0

    def check(self, title, fn):
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
        print(f"{self.name}: {self.passed} passed, {self.failed} failed")
        return 1 if self.failed else 0
