"""The explorer in a private tmux server, for the Python test suites, through the terminal suites'
harness (tests/tui/lib.sh): a pane whose process is the explorer itself (exec at every level,
whatever the user's shell), polling reads of the screen, and the explorer's own exit measured."""
import os
import subprocess
import time


HARNESS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tui", "lib.sh")


class Pane:
    def __init__(self, situ, tmp, *args, cols=100, rows=30, term="", check=True):
        """term: the TERM the explorer sees ("": the harness's, None: unset); check: the pane's
        process is the explorer itself (exec), as the timing of its exit needs; False: a shell
        runs it and keeps its exit status (tmux's own pane_dead_status is not always filled in)."""
        self.tmp = tmp
        self.sock = os.path.join(tmp, f"tmux{time.monotonic_ns()}")
        # The terminal suites' one harness (tests/tui/lib.sh): a private server that ignores the
        # user's tmux.conf, shell, TERM, locale and SITU_* variables. remain-on-exit before the
        # pane starts: its exit and its last screen stay readable.
        self.tmux("start-server", ";", "set-option", "-g", "exit-empty", "off", ";",
                  "set-option", "-g", "remain-on-exit", "on")
        env = "env -u TERM " if term is None else f"env TERM={term} " if term else ""
        self.harness("tui_new", "situ", str(cols), str(rows),
                     env + "sh -c \"" + ("exec " if check else "")
                     + " ".join(f"'{a}'" for a in [situ, *args]) + " 2>" + self.sock + ".err"
                     + ("" if check else "; echo \\$? >" + self.sock + ".status") + "\"")
        try:
            self.pid = int(self.tmux("display", "-p", "#{pane_pid}").strip())
            # exec at every level: the pane's process becomes the explorer, whatever the shell.
            end = time.monotonic() + 5
            while check and os.readlink(f"/proc/{self.pid}/exe") != os.path.realpath(situ):
                assert time.monotonic() < end, "the pane's process is not the explorer"
                time.sleep(0.01)
        except BaseException:
            self.close()  # no server left behind by a failed start
            raise

    def harness(self, *args):
        return subprocess.run(["sh", "-c", '. "$0"; sock=$1; shift; "$@"', HARNESS, self.sock,
                               *args], capture_output=True, text=True, cwd=self.tmp).stdout

    def tmux(self, *args):
        return self.harness("tui_tmux", *args)

    def stderr(self):
        try:
            with open(self.sock + ".err") as f:
                return f.read()
        except FileNotFoundError:
            return ""

    def screen(self):
        return self.tmux("capture-pane", "-p")

    def wait_for(self, text, timeout=15):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if text in self.screen():
                return
            time.sleep(0.05)
        raise AssertionError(f"'{text}' not on screen in {timeout} s:\n{self.screen()}")

    def alive(self):
        try:
            with open(f"/proc/{self.pid}/stat") as f:
                return f.read().split(")")[-1].split()[0] != "Z"
        except (FileNotFoundError, ProcessLookupError):  # reaped before the open, or after it
            return False

    def quit_time(self, how):
        t0 = time.monotonic()
        if how in ("q", "qq"):  # qq: in a lesson, q asks once (q again quits)
            self.tmux("send-keys", *how)
        else:
            os.kill(self.pid, how)
        while self.alive() and time.monotonic() - t0 < 5:
            time.sleep(0.005)
        return time.monotonic() - t0

    def close(self):
        self.tmux("kill-server")

    def exit_status(self, timeout=10):
        """The explorer's exit status (a Pane made with check=False), or None."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                with open(self.sock + ".status") as f:
                    text = f.read().strip()
                if text:
                    return int(text)
            except FileNotFoundError:
                pass
            time.sleep(0.05)
        return None
