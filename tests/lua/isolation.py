#!/usr/bin/env python3
"""Untrusted Lua stays bounded: every way a Lua file can hang (an endless loop, a pathological
pattern inside a C function, an endless finalizer, a memory bomb in a finalizer) stops at the
wall-clock limit with exit 2 and one line, headless (model, run, script, lesson) and in the
explorer, which keeps answering keys and quits within 0.5 s of q or SIGTERM. Also the sandbox's
symbolic links, self-contained analytics, the sandbox under attack (tests/lua/escapes.py), and
the explorer's recovery once the file is fixed.
Usage: python3 tests/lua/isolation.py ./situ. Ends with 'isolation: N passed, M failed'."""
import glob
import json
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import suite  # noqa: E402
import tmuxpane  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import escapes  # noqa: E402
import proctree  # noqa: E402

SITU = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "./situ")
TMP = tempfile.mkdtemp(prefix="situ-isolation.")
LIMIT = 1.0  # --time-limit of these tests: the hard stop comes 0.25 s after it
SUITE = suite.Suite("isolation")
check = SUITE.check

HANGS = {
    # Inside string.find: the count hook never fires in a C function.
    "pattern": 'string.find(("a"):rep(5000), ("a-"):rep(40) .. "b")',
    # Finalizers run with hooks off.
    "finalizer": 'setmetatable({}, {__gc = function() while true do end end}) collectgarbage()',
    # Plain Lua: the hook stops it cleanly, at its line (the instruction limit comes first).
    "loop": "while true do end",
    # Lua that spends its time in the allocator: the hook's clock stops it.
    "clock": 'while true do local s = {} for i = 1, 1000 do s[i] = "x" .. i end end',
}


def write(name, text):
    path = os.path.join(TMP, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def analytics(kind):
    return write(f"{kind}.lua", "return { name = '%s', cost = function(ctx)\n  %s\n  return 1\n"
                                "end }\n" % (kind, HANGS[kind]))


def situ(*args, timeout=30, cwd=None):
    t0 = time.monotonic()
    p = subprocess.run([SITU, *args], capture_output=True, text=True, timeout=timeout,
                       cwd=cwd or TMP)
    p.seconds = time.monotonic() - t0
    return p


def stopped(p, path, what):
    """Exit 2, one line naming the file and the limit, within the limit and its grace."""
    lines = p.stderr.splitlines()
    assert p.returncode == 2, f"{what}: exit {p.returncode}: {p.stderr[:300]}"
    # One line (a scenario's Lua error is followed by its traceback, as every scenario error).
    assert lines and lines[0].startswith("situ: "), f"{what}: {p.stderr[:300]}"
    assert len(lines) == 1 or "stack traceback:" in lines[1], f"{what}: {p.stderr[:300]}"
    assert path in lines[0] and "stopped after" in lines[0], f"{what}: {lines[0]}"
    assert p.seconds < LIMIT + 2.5, f"{what}: stopped after {p.seconds:.1f} s"
    assert not p.stdout, f"{what}: printed {p.stdout[:100]!r}"




def headless(kind):
    def test():
        path = analytics(kind)
        limit = ("--time-limit", str(LIMIT))
        stopped(situ("model", "--analytics", path, *limit), path, "model")
        # situ run evaluates the analytics in its simulation child: the same limit holds.
        p = situ("run", "--analytics", path, *limit)
        assert p.returncode in (2, 3) and path in p.stderr and "stopped after" in p.stderr, \
            f"run: exit {p.returncode}: {p.stderr[:300]}"
        assert p.seconds < LIMIT + 2.5, f"run: {p.seconds:.1f} s"
        scen = write(f"scen-{kind}.lua", HANGS[kind] + "\n")
        stopped(situ("script", *limit, scen), scen, "script")
    return test


def headless_lesson():
    goal = write("hang-lesson.lua", "return { title = 'hang', steps = {\n"
                 "  { text = 'wait', solution = { ratio = 7 },\n"
                 "    goal = function(r) %s return true end } } }\n"
                 % HANGS["pattern"])
    p = situ("lesson", goal, "--headless", "--time-limit", str(LIMIT))
    stopped(p, goal, "lesson --headless")


def scenario_waits_do_not_count():
    """The limit is Lua's own time: a scenario waiting longer than it for a simulation goes on."""
    # 8 nodes in full: about 4 s here (4 nodes fell under 1 s once full got faster).
    # Every step simulated: sampled, full fidelity ends too soon to tell.
    scen = write("waits.lua", 'local r = situ.run{nodes = 8, fidelity = "full", sampling = "off"}\n'
                 'print(r.makespan > 0)\n')
    p = situ("script", "--time-limit", "0.5", scen, timeout=120)
    assert p.returncode == 0 and p.stdout.strip() == "true", f"{p.returncode}: {p.stderr[:300]}"
    assert p.seconds > 1, f"the simulation took {p.seconds:.1f} s: too short to tell"


def finalizer_memory():
    """A finalizer's memory bomb at close stays under the analytics' memory limit (64 MiB)."""
    path = write("gcmem.lua", "setmetatable({}, {__gc = function()\n"
                 "  local t = {} for i = 1, 3e6 do t[i] = {} end end})\nreturn { name = 'gcmem' }\n")
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    p = situ("model", "--analytics", path, "--json")
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    assert p.returncode == 0, p.stderr[:300]
    # ru_maxrss of the children so far, in KiB: only meaningful if this child set the peak.
    assert max(peak, before) < 200 * 1024, f"peak RSS {peak / 1024:.0f} MiB"


def symlink_write():
    d = os.path.join(TMP, "bundle")
    os.makedirs(d, exist_ok=True)
    target = os.path.join(TMP, "victim.txt")
    with open(target, "w") as f:
        f.write("precious")
    link = os.path.join(d, "out.txt")
    if not os.path.islink(link):
        os.symlink(target, link)
    for code in ('local f = io.open("out.txt", "w") f:write("x") f:close()',
                 'io.output("out.txt") io.write("x")',
                 'local f = io.open("out.txt", "a+") f:write("x") f:close()'):
        with open(os.path.join(d, "w.lua"), "w") as f:
            f.write(code + "\n")
        p = situ("script", "w.lua", cwd=d)
        assert p.returncode == 2 and "symbolic link" in p.stderr, f"{code}: {p.stderr[:300]}"
        assert open(target).read() == "precious", f"{code}: the link's target was written"
    with open(os.path.join(d, "w.lua"), "w") as f:
        f.write('local f = assert(io.open("plain.txt", "w")) f:write("ok") f:close()\n')
    p = situ("script", "w.lua", cwd=d)
    assert p.returncode == 0 and open(os.path.join(d, "plain.txt")).read() == "ok", p.stderr


def io_write_stays_out_of_results():
    """io.write in an analytics goes where print goes (stderr, or nowhere in the explorer's
    helpers): stdout carries `situ run --json` and the helpers' protocols."""
    path = write("writes.lua", "return { name = 'writes', cost = function(ctx)\n"
                 "  io.write('noise\\n') io.stdout:write('more noise\\n')\n"
                 "  return ctx.particles * ctx.analytics_cost end }\n")
    for cmd in ("model", "run"):
        p = situ(cmd, "--analytics", path, "--json")
        assert p.returncode == 0, f"{cmd}: {p.stderr[:300]}"
        assert json.loads(p.stdout)["makespan"] > 0, f"{cmd}: {p.stdout[:200]}"
        assert "noise" in p.stderr, f"{cmd}: the writes went nowhere: {p.stderr[:200]}"
    t = Pane("--analytics", path)
    try:
        t.wait_for("SimGrid ✓", timeout=60)  # the evaluator's model, then a simulation
        assert "gives no numbers" not in t.screen() and "noise" not in t.screen(), t.screen()
    finally:
        t.close()


def self_contained():
    write("helper.lua", "return 2\n")
    for fn in ("dofile", "loadfile", "require"):
        arg = '"helper"' if fn == "require" else '"helper.lua"'
        path = write(f"uses-{fn}.lua", f"local h = {fn}({arg})\nreturn {{ name = 'x' }}\n")
        p = situ("model", "--analytics", path)
        assert p.returncode == 2 and f"{path}:1: {fn} is refused" in p.stderr, p.stderr[:300]


# ---- the explorer, in a private tmux server ---------------------------------------------------

def Pane(*args, **kw):
    return tmuxpane.Pane(SITU, TMP, *args, **kw)

def explorer_hang(kind, how):
    def test():
        path = analytics(kind)
        t = Pane("--analytics", path, "--time-limit", str(LIMIT))
        try:
            t.wait_for("the analytics gives no numbers", timeout=LIMIT + 10)
            screen = t.screen()
            # (wrapped over the results' rows: the words, not the phrase)
            assert "stopped" in screen and "limit" in screen, screen
            assert not re.search(r"\bnan\b", screen), screen
            assert "no simulation runs until the file is fixed" in screen, screen
            # The UI answers while the evaluator hangs or dies: a key moves the slider.
            t.tmux("send-keys", "Right")
            t.wait_for("31 sim/ana")
            runs = proctree.simulations(t.pid)
            assert not runs, f"a simulation started for a failing analytics: {proctree.describe(runs)}"
            seconds = t.quit_time(how)
            print(f"     {kind}: {'q' if how == 'q' else 'SIGTERM'} -> exit in {seconds * 1000:.0f} ms")
            assert seconds < 0.5, f"{how}: exit after {seconds:.2f} s"
            assert t.tmux("display", "-p", "#{alternate_on}").strip() == "0", "terminal not restored"
        finally:
            t.close()
        time.sleep(0.2)
        left = proctree.in_session(t.pid)  # the explorer led its pane's session
        assert not left, f"processes left: {proctree.describe(left)}"
    return test


def explorer_scenario_hang(kind):
    """A scenario runs in its own process: the panel shows its error at the limit while keys
    keep working, and q ends the explorer at once, even mid-hang."""
    def test():
        scen = write(f"panel-{kind}.lua", 'print("started")\n' + HANGS[kind] + "\n")
        t = Pane("--script", scen, "--time-limit", str(LIMIT))
        try:
            t.wait_for("SCENARIO")
            t.tmux("send-keys", "Right")  # mid-hang
            t.wait_for("31 sim/ana")
            t.wait_for("stopped after", timeout=LIMIT + 10)
            assert "started" in t.screen(), "what it printed before it hung is lost"
            t.tmux("send-keys", "Left")
            t.wait_for("15 sim/ana")
            seconds = t.quit_time("q")
            assert seconds < 0.5, f"exit after {seconds:.2f} s"
        finally:
            t.close()
        scen2 = write(f"panel-{kind}-q.lua", HANGS[kind] + "\n")
        t = Pane("--script", scen2, "--time-limit", "30")
        try:
            t.wait_for("SCENARIO")
            time.sleep(0.3)  # well inside the hang
            seconds = t.quit_time("q")
            print(f"     scenario {kind}: q mid-hang -> exit in {seconds * 1000:.0f} ms")
            assert seconds < 0.5, f"exit mid-hang after {seconds:.2f} s"
        finally:
            t.close()
        time.sleep(0.2)
        left = proctree.in_session(t.pid)
        assert not left, f"processes left: {proctree.describe(left)}"
    return test


def explorer_scenario_unsafe():
    """The panel's scenario gets the sandbox, or the whole library with situ --unsafe."""
    scen = write("unsafe.lua", 'print("execute: " .. tostring((pcall(os.execute))))\n')
    for flags, want in (((), "execute: false"), (("--unsafe",), "execute: true")):
        t = Pane(*flags, "--script", scen)
        try:
            t.wait_for(want)
        finally:
            t.close()


def explorer_goal_hang():
    """A lesson's goal is checked by the evaluator process: a goal that hangs shows as the
    goal's error at the limit, the panel and the keys keep working, q exits at once."""
    lesson = write("hang-goal.lua", "return { title = 'hang', steps = {\n"
                   "  { text = 'Move the ratio.', goal = function(r) %s return true end } } }\n"
                   % HANGS["pattern"])
    t = Pane("--lesson", lesson, "--time-limit", str(LIMIT))
    try:
        t.wait_for("Move the ratio.")
        t.tmux("send-keys", "Right")
        t.wait_for("31 sim/ana")
        t.wait_for("goal error", timeout=LIMIT + 10)
        assert "stopped" in t.screen(), t.screen()
        seconds = t.quit_time("qq")  # q asks once in a lesson
        assert seconds < 0.5, f"exit after {seconds:.2f} s"
    finally:
        t.close()


def explorer_lesson_load_hang():
    """A lesson's own top level runs first in a checking child: a hang there is exit 2 with one
    line at the limit, before the explorer takes the terminal."""
    lesson = write("hang-top.lua", HANGS["pattern"] + "\nreturn { title = 'x', steps = {\n"
                   "  { text = 'never shown' } } }\n")
    t0 = time.monotonic()
    t = Pane("--lesson", lesson, "--time-limit", str(LIMIT), check=False)
    try:
        status = t.exit_status(timeout=LIMIT + 10)
        err = t.stderr().splitlines()
        assert status == 2, f"exit {status}: {err}"
        assert len(err) == 1 and lesson in err[0] and "stopped after" in err[0], err
        assert time.monotonic() - t0 < LIMIT + 3, f"{time.monotonic() - t0:.1f} s"
        assert "never shown" not in t.screen()
    finally:
        t.close()


# Lua that hangs only in the explorer's own process: its helpers (situ __lesson-check,
# __evaluate) are started with a "__" command, the explorer is not. A lesson that runs it at its
# top level passes the checking child; the explorer must take the child's result, never run it.
ONLY_IN_EXPLORER = ('local f = io.open("/proc/self/cmdline")\n'
                    'local cmd = f and f:read("a") or ""\n'
                    'if f then f:close() end\n'
                    'if not cmd:find("\\0__", 1, true) then %s end\n')


def explorer_lesson_reload_hang(kind):
    """An edited lesson is checked in a child, and the explorer takes the child's result: code
    that would hang in the explorer's own process never runs there (top level, step
    configurations); a goal that hangs is the evaluator's, shown as the goal's error; the keys
    answer throughout and q exits at once with the terminal restored."""
    def test():
        path = write(f"reload-{kind}.lua", "return { title = 'Before', steps = {\n"
                     "  { text = 'First step.' }, { text = 'Second step.' } } }\n")
        t = Pane("--lesson", path, "--time-limit", str(LIMIT))
        try:
            t.wait_for("LESSON Before")
            with open(path + ".new", "w") as f:
                f.write(ONLY_IN_EXPLORER % HANGS[kind] + "return { title = 'After', steps = {\n"
                        "  { text = 'First step, edited.',\n"
                        "    goal = function(s) %s return true end },\n"
                        "  { text = 'Second step, edited.', config = { ratio = 7 } } } }\n"
                        % HANGS[kind])
            os.replace(path + ".new", path)  # as an editor saves
            t.wait_for("LESSON After", timeout=LIMIT + 10)
            t.wait_for("lesson reloaded")
            t.tmux("send-keys", "Right")
            t.wait_for("31 sim/ana")
            t.wait_for("goal error", timeout=LIMIT + 10)  # the evaluator's, at the limit
            assert "stopped" in t.screen(), t.screen()
            # n twice: the goal is not met (its error), so n asks once; then the step's
            # configuration, read from the child's result
            t.tmux("send-keys", "n", "n")
            t.wait_for("Second step, edited.")
            t.wait_for("7 sim/ana")
            seconds = t.quit_time("qq")  # q asks once in a lesson
            assert seconds < 0.5, f"exit after {seconds:.2f} s"
            assert t.tmux("display", "-p", "#{alternate_on}").strip() == "0", "terminal not restored"
            assert not t.stderr().strip(), t.stderr()
        finally:
            t.close()
    return test


def explorer_lesson_reload_refused(kind):
    """An edited lesson whose top level hangs in the checking child too: one line says why it
    was not reloaded, the old lesson stays, the keys answer, q exits at once."""
    def test():
        path = write(f"refused-{kind}.lua", "return { title = 'Kept', steps = {\n"
                     "  { text = 'The step that stays.' } } }\n")
        t = Pane("--lesson", path, "--time-limit", str(LIMIT))
        try:
            t.wait_for("LESSON Kept")
            with open(path + ".new", "w") as f:
                f.write(HANGS[kind] + "\nreturn { title = 'Never', steps = { { text = 'x' } } }\n")
            os.replace(path + ".new", path)
            t.wait_for("lesson not reloaded", timeout=LIMIT + 10)
            line = [l for l in t.screen().splitlines() if "lesson not reloaded" in l][0]
            assert "stopped" in line or "limit" in line, line
            assert "LESSON Kept" in t.screen() and "Never" not in t.screen(), t.screen()
            t.tmux("send-keys", "Right")
            t.wait_for("31 sim/ana")
            seconds = t.quit_time("qq")  # q asks once in a lesson
            assert seconds < 0.5, f"exit after {seconds:.2f} s"
            assert t.tmux("display", "-p", "#{alternate_on}").strip() == "0", "terminal not restored"
        finally:
            t.close()
    return test


def explorer_lesson_start_only_in_child():
    """At start-up too, the lesson's code runs in the checking child only: a top level that would
    hang in the explorer's own process does not stop it from starting."""
    path = write("start-only.lua", ONLY_IN_EXPLORER % HANGS["pattern"] +
                 "return { title = 'Started', steps = {\n"
                 "  { text = 'Here.', config = { ratio = 7 } } } }\n")
    t = Pane("--lesson", path, "--time-limit", str(LIMIT))
    try:
        t.wait_for("LESSON Started", timeout=LIMIT + 10)
        t.wait_for("7 sim/ana")
        seconds = t.quit_time("qq")  # q asks once in a lesson
        assert seconds < 0.5, f"exit after {seconds:.2f} s"
    finally:
        t.close()


def explorer_recovers():
    """A broken file shows its error; fixing it brings the numbers back and a simulation."""
    path = write("fixme.lua", "return { name = 'fixme', cost = function(ctx) while true do end end }\n")
    t = Pane("--analytics", path, "--time-limit", str(LIMIT))
    try:
        t.wait_for("the analytics gives no numbers", timeout=LIMIT + 10)
        with open(path + ".new", "w") as f:
            f.write("return { name = 'fixme', cost = function(ctx) return ctx.particles * 1e-6 end }\n")
        os.replace(path + ".new", path)  # as an editor saves
        t.wait_for("efficiency")
        t.wait_for("SimGrid ✓", timeout=60)
        assert "gives no numbers" not in t.screen()
    finally:
        t.close()


def main():
    if not shutil.which("tmux"):
        print("isolation: tmux is not installed (make deps installs it)")
        print("isolation: 0 passed, 1 failed")
        return 1
    for kind in HANGS:
        check(f"headless {kind}: model, run, script stop at the limit", headless(kind))
    check("headless lesson goal stops at the limit", headless_lesson)
    check("waiting for simulations is not the scenario's time", scenario_waits_do_not_count)
    check("a finalizer's memory bomb at close stays bounded", finalizer_memory)
    check("the sandbox never writes through a symbolic link", symlink_write)
    check("analytics files are self-contained (no dofile/loadfile/require)", self_contained)
    check("an analytics' io.write stays out of results and protocols", io_write_stays_out_of_results)
    for title, test in escapes.checks(situ, TMP, Pane):
        check(title, test)
    for kind in HANGS:
        check(f"explorer {kind}: error shown, keys answered, q exits < 0.5 s",
              explorer_hang(kind, "q"))
    check("explorer pattern hang: SIGTERM exits < 0.5 s",
          explorer_hang("pattern", signal.SIGTERM))
    check("explorer recovers when the file is fixed", explorer_recovers)
    for kind in ("pattern", "finalizer"):
        check(f"explorer scenario {kind}: in its process, keys answered, q exits < 0.5 s",
              explorer_scenario_hang(kind))
    check("explorer scenario: sandboxed, or not with --unsafe", explorer_scenario_unsafe)
    check("explorer lesson goal hang: shown as the goal's error, q exits < 0.5 s",
          explorer_goal_hang)
    check("explorer lesson whose top level hangs: exit 2 at the limit, one line",
          explorer_lesson_load_hang)
    check("explorer lesson: its code runs in the checking child only, at start-up too",
          explorer_lesson_start_only_in_child)
    for kind in ("pattern", "loop"):
        check(f"explorer lesson reload {kind}: the child's result, no Lua in the explorer",
              explorer_lesson_reload_hang(kind))
    check("explorer lesson reload that hangs in the child too: one line, the old one kept",
          explorer_lesson_reload_refused("pattern"))
    for sock in glob.glob(os.path.join(TMP, "tmux*")):  # whatever a failed check left running
        subprocess.run(["tmux", "-S", sock, "kill-server"], capture_output=True)
    shutil.rmtree(TMP, ignore_errors=True)
    return SUITE.end()


if __name__ == "__main__":
    sys.exit(main())
