#!/usr/bin/env python3
"""The advisor view (a) in a real terminal at 80x24 (tmux, through tests/tui/lib.sh): the heatmap
and its marks, the cursor moving the sliders, the best cell, SimGrid's marks, the Fig. 8
contradiction, and the view without colour or Unicode.
Usage: python3 tests/tui/advise.py ./situ. Ends with 'tui advise: N passed, M failed'."""
import os
import re
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import tmuxpane  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import suite  # noqa: E402

SITU = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "./situ")
TMP = tempfile.mkdtemp(prefix="situ-tui-advise-")
os.environ["XDG_CACHE_HOME"] = os.path.join(TMP, "cache")
# The paper's Fig. 8 workflow with an analytics cost at which eta and the sweet spot disagree.
ARGS = ["--stride", "1000", "--compute-scaling", "48", "--iterations", "2000"]
passed, failed = 0, 0


def check(name, fn):
    global passed, failed
    if not suite.selected(name):  # CASE=PATTERN (tests/suite.py)
        return
    try:
        fn()
        passed += 1
        print(f"ok   {name}")
    except Exception as e:
        failed += 1
        print(f"FAIL {name}: {e}")


def slider(screen, key):
    m = re.search(rf"^[ ▸>] {key} +(\S+)", screen, re.M)
    assert m, f"no {key} slider:\n{screen}"
    return m.group(1)


def panel(screen):
    """The right panel's lines: from column 44 at 80 columns (every glyph is one cell)."""
    return [l[44:] for l in screen.splitlines()]


def grid(screen):
    """The heatmap: the x values, and each row's label and cells (text of 6 columns each)."""
    lines = panel(screen)
    head = next(i for i, l in enumerate(lines) if l.startswith("nodes "))
    xs = lines[head][5:].split()
    rows = []
    for l in lines[head + 1:]:
        m = re.match(r" *(\d+) (.*)", l)
        if not m or not re.search(r"\d\.\d\d", m.group(2)):
            break
        cells = [l[5 + 6 * i:5 + 6 * (i + 1)] for i in range(len(xs))]
        rows.append((m.group(1), cells))
    return xs, rows


def wait(pane, pred, what, timeout=20):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        s = pane.screen()
        if pred(s):
            return s
        time.sleep(0.05)
    raise AssertionError(f"{what} not on screen in {timeout} s:\n{pane.screen()}")


def opened(*extra):
    p = tmuxpane.Pane(SITU, TMP, *ARGS, *extra, cols=80, rows=24)
    p.wait_for("PARAMETERS")
    return p


def footer_and_help():
    p = opened()
    try:
        wait(p, lambda s: re.search(r" a +advise .* q +quit", s.splitlines()[-1]),
             "'a advise' in the footer")
        p.tmux("send-keys", "?")
        p.wait_for("advisor heatmap")
        p.tmux("send-keys", "Escape")
        # Closed before the next key: an Esc and a key sent at once read as Alt and the key.
        wait(p, lambda s: "advisor heatmap" not in s, "the help closed by Esc")
        p.tmux("send-keys", "a")
        # The whole frame: tmux may catch one half drawn, the panel before the footer.
        wait(p, lambda s: "ADVISOR" in s and re.search(r"move .*axes .*objective", s.splitlines()[-1]),
             "the advisor and its footer")
    finally:
        p.close()


def cursor_moves_the_sliders():
    p = opened()
    try:
        p.tmux("send-keys", "a")
        s = wait(p, lambda s: "ADVISOR" in s, "the advisor")
        assert (slider(s, "nodes"), slider(s, "ratio")) == ("1", "15"), s
        xs, rows = grid(s)
        assert xs == ["1", "3", "7", "15", "31"], xs
        p.tmux("send-keys", "Up", "Up", "Right")
        s = wait(p, lambda s: slider(s, "nodes") == "3" and slider(s, "ratio") == "31",
                 "nodes 3, ratio 31 after up, up, right")
        p.tmux("send-keys", "Left", "Down")
        s = wait(p, lambda s: slider(s, "nodes") == "2" and slider(s, "ratio") == "15",
                 "nodes 2, ratio 15 after left, down")
        # The other panes follow: the crossover plot is drawn for the new node count.
        assert "at 2 nodes" in s, s
    finally:
        p.close()


def starred_cells(screen):
    """The (row label, column) of each cell the map marks best ('*'); none while no map shows."""
    try:
        xs, rows = grid(screen)
    except StopIteration:
        return []
    return [(label, xs[i]) for label, cells in rows for i, c in enumerate(cells) if c.endswith("*")]


def best_cell_is_marked():
    p = opened()
    try:
        p.tmux("send-keys", "a")
        s = wait(p, lambda s: re.search(r"^\*ratio=\d+ nodes=\d+", "\n".join(panel(s)), re.M),
                 "the best cell's line")
        best = re.search(r"^\*ratio=(\d+) nodes=(\d+) (\S+)", "\n".join(panel(s)), re.M)
        r, n, v = best.groups()
        p.tmux("send-keys", "*")  # to the best cell: the sliders take its values
        # The sliders move at once; the map is drawn again once its search ends (off the UI
        # thread), with its mark.
        s = wait(p, lambda s: slider(s, "ratio") == r and slider(s, "nodes") == n and starred_cells(s),
                 f"ratio {r} nodes {n} after *, and the map's mark")
        xs, rows = grid(s)
        starred = starred_cells(s)
        assert starred == [(n, r)], f"marked {starred}, best is nodes {n} ratio {r}:\n{s}"
        cell = next(c for label, cells in rows if label == n for c in cells if c.endswith("*"))
        assert v in cell, f"best {v} but the cell says {cell!r}"
        # Every other cell is no better (higher eta): the mark is on the maximum shown.
        values = [float(re.search(r"\d\.\d\d", c).group()) for _, cells in rows for c in cells
                  if re.search(r"\d\.\d\d", c)]
        assert max(values) == float(re.search(r"\d\.\d\d", cell).group()), values
        # The mark stays on the best cell when the cursor leaves it.
        p.tmux("send-keys", "Left")
        s = wait(p, lambda s: slider(s, "ratio") != r, "the cursor off the best cell")
        xs, rows = grid(s)
        starred = [(label, xs[i]) for label, cells in rows for i, c in enumerate(cells)
                   if c.endswith("*")]
        assert starred == [(n, r)], f"marked {starred} with the cursor away, best {n}, {r}:\n{s}"
    finally:
        p.close()


def simgrid_marks_and_contradiction():
    p = opened()
    try:
        p.tmux("send-keys", "a")
        wait(p, lambda s: "ADVISOR" in s, "the advisor")
        # The configuration on screen is simulated: its cell gets SimGrid's mark and value, at
        # full fidelity once refined (the engine named).
        s = wait(p, lambda s: re.search(r"here \S+ model, SimGrid full( sampled)? \d", s),
                 "SimGrid's full-fidelity value", timeout=60)
        xs, rows = grid(s)
        here = next(cells[xs.index("15")] for label, cells in rows if label == "1")
        assert here.startswith("●"), f"the simulated cell is {here!r}:\n{s}"
        # Fig. 8: from 2 nodes eta prefers R = 31 and the balance R = 15.
        text = "\n".join(panel(s))
        assert re.search(r"η-best ≠ sweet spot on \d+ rows", text), text
        assert "nodes=2: η ratio=31, balance 15" in text, text
        p.tmux("send-keys", "o", "o", "o")  # efficiency, makespan, core-hours, balance
        s = wait(p, lambda s: "ADVISOR balance (max)" in s, "the balance objective")
        p.tmux("send-keys", "X")
        s = wait(p, lambda s: re.search(r"^(stride|iterations|region)→", "\n".join(panel(s)), re.M),
                 "another x axis")
    finally:
        p.close()


def without_colour_or_unicode():
    # The harness clears NO_COLOR and SITU_ASCII: env sets them for the explorer alone.
    p = tmuxpane.Pane("/usr/bin/env", TMP, "NO_COLOR=1", "SITU_ASCII=1", SITU, *ARGS, cols=80,
                      rows=24, check=False)
    try:
        p.wait_for("PARAMETERS")
        p.tmux("send-keys", "a")
        s = wait(p, lambda s: "ADVISOR" in s, "the advisor")
        xs, rows = grid(s)
        shades = {c[0] for _, cells in rows for c in cells}
        assert shades <= set(".:+#o- "), f"not ASCII shades: {shades}"
        assert "#" in shades and "." in shades, shades
        assert all(ord(ch) < 128 for ch in s), "non-ASCII on an ASCII screen"
        with open(os.path.join(TMP, "ascii.txt"), "w") as f:
            f.write(s)
    finally:
        p.close()


SCENARIO = """local rs = situ.advise{ base = { iterations = 400 }, ratio = { 7, 15, 31 }, nodes = "1..2",
                        verify = 2 }
for i = 1, 3 do
  local c = rs[i]
  print(("#%d r%d n%d model %.3f simgrid %s"):format(c.rank, c.config.ratio, c.config.nodes,
    c.model.objective, c.simgrid and ("%.3f"):format(c.simgrid.objective) or "-"))
end
"""


def scenario_in_the_explorer():
    # situ.advise{verify = K} in the explorer: its simulations go through the explorer's runner
    # (the script waits), and the answer is the headless one.
    path = os.path.join(TMP, "advise.lua")
    with open(path, "w") as f:
        f.write(SCENARIO)
    headless = __import__("subprocess").run([SITU, "script", path], capture_output=True,
                                            text=True, timeout=120).stdout.split()
    p = tmuxpane.Pane(SITU, TMP, "--script", path, cols=100, rows=30)
    try:
        s = wait(p, lambda s: "done (2 simulations)" in s, "the scenario's end", timeout=60)
        shown = " ".join(l.strip() for l in s.splitlines() if l.strip().startswith("#")).split()
        assert shown == headless, f"explorer {shown}, headless {headless}"
        assert "-" in headless and headless.count("simgrid") == 3, headless
    finally:
        p.close()


def mapping_axis_has_every_mapping():
    # X to the mapping: its five choices once each (hostfile needs a file, posthoc a platform with
    # disks: no number), inline's eta 1 (no idle), and the best cell's mapping goes to the slider
    p = opened("--nodes", "2")
    try:
        p.tmux("send-keys", "a")
        wait(p, lambda s: "ADVISOR" in s, "the advisor")
        for _ in range(10):  # ratio -> stride ... -> mapping
            p.tmux("send-keys", "X")
        s = wait(p, lambda s: "mapping→" in s, "the mapping on the x axis")
        xs, rows = grid(s)
        assert xs == ["insit", "intra", "hostf", "inlin", "posth"], xs
        for label, cells in rows:
            assert "--" in cells[2] and "1.00" in cells[3] and "--" in cells[4], (label, cells)
        p.tmux("send-keys", "*")  # the best by eta: inline, which idles never
        wait(p, lambda s: slider(s, "mapping") == "inline", "mapping inline after *")
    finally:
        p.close()


check("footer and help list the advisor", footer_and_help)
check("situ.advise with verify in the explorer's scenario panel", scenario_in_the_explorer)
check("the cursor moves the sliders, the panes follow", cursor_moves_the_sliders)
check("the best cell is marked", best_cell_is_marked)
check("SimGrid's marks and the Fig. 8 contradiction", simgrid_marks_and_contradiction)
check("without colour or Unicode: shade glyphs and numbers", without_colour_or_unicode)
check("the mapping as an axis: every mapping once, inline among them", mapping_axis_has_every_mapping)
shutil.rmtree(TMP, ignore_errors=True)
failed += suite.none_matched("tui advise", passed + failed)
print(f"tui advise: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
