#!/usr/bin/env python3
"""The explorer's numbers are the engine's: the "over the run" bars (model and SimGrid columns),
η and the cores, read off the screen and checked against `situ model --json` and `situ run
--json` for the same configuration, at start-up and after pressing `m` (the mapping). A
simulation that cannot run is a failure here, never a reason to check less.
Usage: python3 tests/tui/bite.py ./situ. Ends with 'bite: N passed, M failed'."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import tmuxpane  # noqa: E402

SITU = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "./situ")
TMP = tempfile.mkdtemp(prefix="situ-bite.")
os.environ["XDG_CACHE_HOME"] = os.path.join(TMP, "cache")  # no result from an earlier run
passed, failed = 0, 0


def check(name, fn):
    global passed, failed
    try:
        fn()
        passed += 1
        print(f"ok   {name}")
    except Exception as e:  # a failed check names itself and goes on
        failed += 1
        print(f"FAIL {name}: {str(e)[:1500]}")


def engine(cmd, *args):
    p = subprocess.run([SITU, cmd, "--json", *args], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, f"situ {cmd} {' '.join(args)}: exit {p.returncode}: {p.stderr.strip()}"
    return json.loads(p.stdout)


def percent(active, idle):
    return 100 * active / (active + idle) if active + idle > 0 else 0


def right_panel(screen):
    """The results panel: what follows the first '│' on each line."""
    return [l.split("│", 1)[1] if "│" in l else "" for l in screen.splitlines()]


def bars(screen):
    """{'simulation': (model %, SimGrid %), 'analytics': (...)} from the OVER THE RUN rows."""
    lines = right_panel(screen)
    top = [i for i, l in enumerate(lines) if l.startswith("OVER THE RUN")]
    assert top, f"no OVER THE RUN panel:\n{screen}"
    out = {}
    for l in lines[top[0] + 1:top[0] + 3]:
        m = re.match(r"(simulation|analytics)\s+\S+\s+(\d+)%\s+\S+\s+(\d+)%\s*$", l)
        assert m, f"a run bar without both columns: {l!r}\n{screen}"
        out[m.group(1)] = (int(m.group(2)), int(m.group(3)))
    return out


def near_percent(shown, active, idle, what):
    exact = percent(active, idle)
    assert abs(shown - exact) <= 0.5 + 1e-9, f"{what}: the bar says {shown}%, the numbers {exact:.2f}%"


def numbers_match(screen, args):
    """Every bar, η and the cores on screen against model and run for `args`."""
    m, r = engine("model", *args), engine("run", *args)
    b = bars(screen)
    near_percent(b["simulation"][0], m["sim_active"], m["sim_idle"], "model simulation")
    near_percent(b["analytics"][0], m["analytics_active"], m["analytics_idle"], "model analytics")
    near_percent(b["simulation"][1], r["sim_active"], r["sim_idle"], "SimGrid simulation")
    near_percent(b["analytics"][1], r["analytics_active"], r["analytics_idle"], "SimGrid analytics")
    lines = right_panel(screen)
    eta = [l for l in lines if l.startswith("efficiency η")]
    assert eta, f"no efficiency row:\n{screen}"
    shown = [float(x) for x in re.findall(r"\d+\.\d+", eta[0])[:2]]
    assert len(shown) == 2, f"efficiency row {eta[0]!r}"
    assert abs(shown[0] - m["efficiency"]) <= 0.0005 + 1e-9, f"model η {shown[0]} vs {m['efficiency']:.4f}"
    assert abs(shown[1] - r["efficiency"]) <= 0.0005 + 1e-9, f"SimGrid η {shown[1]} vs {r['efficiency']:.4f}"
    cores = [l for l in lines if l.startswith("cores")]
    want = f"{m['sim_cores']} sim + {m['analytics_cores']} ana"
    assert cores and cores[0].count(want) == 2, f"cores row {cores[:1]!r}, expected {want!r} twice"


ARGS = ["--iterations", "400", "--nodes", "2"]


def bars_at_start_up():
    t = tmuxpane.Pane(SITU, TMP, *ARGS)
    try:
        t.wait_for("SimGrid ✓", 60)
        numbers_match(t.screen(), ARGS)
    finally:
        t.close()


def m_switches_the_mapping():
    t = tmuxpane.Pane(SITU, TMP, *ARGS)
    try:
        t.wait_for("SimGrid ✓", 60)
        before = bars(t.screen())
        t.tmux("send-keys", "m")
        t.wait_for("intransit", 10)
        end = time.monotonic() + 60
        args = ARGS + ["--mapping", "intransit"]
        m = engine("model", *args)
        want = f"{m['sim_cores']} sim + {m['analytics_cores']} ana"
        while time.monotonic() < end:  # the new configuration's own simulation lands
            s = t.screen()
            if "SimGrid ✓" in s and right_panel(s) and any(
                    l.startswith("cores") and l.count(want) == 2 for l in right_panel(s)):
                break
            time.sleep(0.1)
        s = t.screen()
        assert re.search(r"mapping\s+intransit", s), f"m did not switch the mapping:\n{s}"
        numbers_match(s, args)
        assert bars(s) != before, f"the bars did not move: {before}"
    finally:
        t.close()


def main():
    p = subprocess.run([SITU, "run", "--json", "--iterations", "400"], capture_output=True, text=True)
    if p.returncode != 0:  # nothing here can be checked without it: fail, do not weaken
        print(f"FAIL situ run does not work (exit {p.returncode}): {p.stderr.strip()[-300:]}")
        print("bite: 0 passed, 1 failed")
        return 1
    check("the run bars, η and cores on screen are the model's and SimGrid's numbers", bars_at_start_up)
    check("m switches the mapping, and the bars follow both engines", m_switches_the_mapping)
    shutil.rmtree(TMP, ignore_errors=True)
    print(f"bite: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
