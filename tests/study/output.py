#!/usr/bin/env python3
"""Output tests: every writer of situ (sweep, merge, advise, reproduce, situ.csv, standard
output) either writes its file whole or leaves nothing, and says so with exit 1 and one line
naming the file and the reason: on a full disk (RLIMIT_FSIZE, and a small tmpfs when root), on
/dev/full, and with --out pointing at what is not ours to replace (a link, a directory).
Usage: python3 tests/study/output.py PATH/TO/situ. Ends with 'output: N passed, M failed'."""
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import suite  # noqa: E402

SITU = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "./situ")
TMP = tempfile.mkdtemp(prefix="situ-output-")
CACHE = os.path.join(TMP, "cache")
passed, failed, skipped = 0, 0, 0

# A thousand model rows: far over 8 KiB as CSV or JSON lines, and instant.
BIG = ["sweep", "--model", "--no-cache", "--ratio", "1,3,7,15,31", "--iterations", "20..4000+20"]


def run(args, cwd=None, limit_kib=None, stdout=subprocess.PIPE, env=None):
    def cap():
        # What `trap '' XFSZ; ulimit -f N` does: a write past N KiB fails with EFBIG.
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit_kib * 1024, limit_kib * 1024))
    return subprocess.run([SITU, *args], cwd=cwd or TMP, stdout=stdout, stderr=subprocess.PIPE,
                          text=True, timeout=300, env=env, preexec_fn=cap if limit_kib else None)


def one_line(p, *needles):
    lines = p.stderr.splitlines()
    lines = [l for l in lines if not l.startswith("sweep:")]  # progress, not messages
    assert len(lines) == 1 and lines[0].startswith("situ: "), f"stderr: {p.stderr[-400:]!r}"
    for n in needles:
        assert n in lines[0], f"{n!r} not in {lines[0]!r}"


def nothing_beside(d, name):
    left = [n for n in os.listdir(d) if name in n]
    assert not left, f"left in {d}: {left}"


def fresh(name):
    d = os.path.join(TMP, name)
    shutil.rmtree(d, ignore_errors=True)
    os.mkdir(d)
    return d


def check(name, fn):
    global passed, failed, skipped
    if not suite.selected(name):  # CASE=PATTERN (tests/suite.py)
        return
    try:
        if fn() == "skip":
            skipped += 1
            print(f"skip {name}")
            return
        passed += 1
        print(f"ok   {name}")
    except Exception as e:
        failed += 1
        print(f"FAIL {name}: {e}")


def full_disk_sweep_and_merge():
    d = fresh("full")
    for out in ("s.csv", "s.jsonl"):
        p = run(BIG + ["--out", out], cwd=d, limit_kib=8)
        assert p.returncode == 1, f"{out}: exit {p.returncode}: {p.stderr[-300:]}"
        one_line(p, out, os.strerror(27))  # EFBIG: "File too large"
        nothing_beside(d, "s.")
    p = run(BIG + ["--out", "all.jsonl"], cwd=d)
    assert p.returncode == 0, p.stderr
    p = run(["merge", "all.jsonl", "--out", "m.jsonl"], cwd=d, limit_kib=8)
    assert p.returncode == 1, f"merge: exit {p.returncode}: {p.stderr[-300:]}"
    one_line(p, "m.jsonl", os.strerror(27))
    nothing_beside(d, "m.")


def full_disk_each_file(tag, base, names):
    """`base --out DIR` with each of its files failing in turn (a file-size limit just above what
    the files before it need): DIR is not made at all, neither what failed nor what was written
    before it, and no temporary directory is left. Returns how many files could be made to fail
    (one that fits under the earlier ones' limit cannot)."""
    p = run(base + ["--out", "warm"], cwd=fresh(tag))  # fills the cache: the runs below only write
    assert p.returncode == 0, p.stderr[-300:]
    sizes = {n: os.path.getsize(os.path.join(TMP, tag, "warm", n)) for n in names}
    tested = 0
    for failing in names:
        d = fresh(tag + "-" + failing)
        before = names[:names.index(failing)]
        limit = max([sizes[n] for n in before] + [0]) // 1024 + 1
        if sizes[failing] <= limit * 1024:
            continue
        tested += 1
        p = run(base + ["--out", "new"], cwd=d, limit_kib=limit)
        assert p.returncode == 1, f"{failing}: exit {p.returncode}: {p.stderr[-300:]}"
        one_line(p, failing, os.strerror(27))
        # The files are one set (engine/base/outset.c): a failure leaves DIR as it was, here
        # absent, with none of the files written before the failing one, and nothing beside it.
        left = os.listdir(d)
        assert not left, f"{failing}: left {left}" + (
            f" holding {sorted(os.listdir(os.path.join(d, left[0])))}" if left else "")
    return tested


def full_disk_reproduce():
    """reproduce --out DIR: the CSV, the PNG, the SVG and the summary each fail in turn."""
    full_disk_each_file("rep", ["reproduce", "fig8", "--iterations", "2000", "--jobs", "2",
                                "--cache", CACHE], ["fig8.csv", "fig8.png", "fig8.svg", "fig8.txt"])


def full_disk_advise():
    """advise --out DIR: its CSV and each figure fail in turn."""
    names = ["advise.csv", "heatmap.png", "heatmap.svg", "pareto.png", "pareto.svg"]
    tested = full_disk_each_file("adv", ["advise", "--verify", "0", "--ratio", "1,3,7,15,31",
                                         "--nodes", "1..8"], names)
    assert tested >= 2, f"only {tested} of the files could be made to fail"


def full_disk_situ_csv():
    d = fresh("lua")
    open(os.path.join(d, "csv.lua"), "w").write(
        "local r = situ.model{ratio = 7}\nlocal rs = {}\nfor i = 1, 400 do rs[i] = r end\n"
        "situ.csv('out.csv', rs)\n")
    p = run(["script", "csv.lua"], cwd=d, limit_kib=8)
    assert p.returncode == 1, f"exit {p.returncode}: {p.stderr[-300:]}"
    assert "out.csv" in p.stderr and os.strerror(27) in p.stderr, p.stderr
    nothing_beside(d, "out.csv")


def small_tmpfs():
    """A real full file system: ENOSPC rather than EFBIG. Needs root and a mount namespace that
    allows it; skipped otherwise."""
    if os.getuid() != 0:
        return "skip"
    d = fresh("tmpfs")
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16k", "tmpfs", d],
                      capture_output=True).returncode != 0:
        return "skip"
    try:
        p = run(BIG + ["--out", os.path.join(d, "s.jsonl")])
        assert p.returncode == 1, f"exit {p.returncode}: {p.stderr[-300:]}"
        one_line(p, "s.jsonl", os.strerror(28))  # ENOSPC
        assert os.listdir(d) == [], f"left: {os.listdir(d)}"
    finally:
        subprocess.run(["umount", d], capture_output=True)


def dev_full_on_stdout():
    lua = os.path.join(TMP, "print.lua")
    open(lua, "w").write("print(string.rep('x', 100))\n")
    d = fresh("devfull")
    assert run(["sweep", "--model", "--no-cache", "--ratio", "7", "--out", "r.jsonl"],
               cwd=d).returncode == 0
    cases = [["model"], ["model", "--json"], ["--help"], ["sweep", "--model", "--ratio", "7,15"],
             ["merge", "r.jsonl"], ["script", lua], ["run", "--iterations", "400"],
             ["sweep", "--emit-commands", "--ratio", "7,15"]]
    with open("/dev/full", "w") as full:
        for args in cases:
            p = run(args, cwd=d, stdout=full)
            assert p.returncode == 1, f"{' '.join(args)}: exit {p.returncode}: {p.stderr[-300:]}"
            # Lua's print flushes each line, and stdio keeps no errno for a failed flush: the
            # script's line cannot name the reason.
            one_line(p, "standard output", *([] if args[0] == "script" else [os.strerror(28)]))


def out_is_checked_before_running():
    """Bad --out is exit 2 before any simulation, and nothing of the user's is created, followed
    or deleted: a dangling link stays dangling, a link to a file leaves the file alone."""
    d = fresh("links")
    os.symlink(os.path.join(d, "nowhere", "t.csv"), os.path.join(d, "dangling.csv"))
    os.symlink("target.csv", os.path.join(d, "link.csv"))
    open(os.path.join(d, "target.csv"), "w").write("mine\n")
    os.mkdir(os.path.join(d, "dir.csv"))
    sweep = ["sweep", "--ratio", "7,15", "--iterations", "400", "--no-cache"]
    env = dict(os.environ, SITU_TEST_FAULT="hang")  # a simulation that started would hang
    for out, needle in (("dangling.csv", "symbolic link"), ("link.csv", "symbolic link"),
                        ("dir.csv", "directory"), ("x.csv.bak", ".csv or .jsonl"),
                        ("no/such/x.csv", "No such file")):
        for args in (sweep + ["--out", out], ["merge", "--out", out, "-"]):
            p = subprocess.run([SITU, *args], cwd=d, capture_output=True, text=True, timeout=20,
                               env=env, stdin=subprocess.DEVNULL)
            assert p.returncode == 2, f"{args}: exit {p.returncode}: {p.stderr[-300:]}"
            assert p.stdout == "", f"{args}: stdout {p.stdout[:80]!r}"
            one_line(p, out, needle)
    assert os.readlink(os.path.join(d, "dangling.csv")) == os.path.join(d, "nowhere", "t.csv")
    assert not os.path.exists(os.path.join(d, "nowhere"))
    assert os.readlink(os.path.join(d, "link.csv")) == "target.csv"
    assert open(os.path.join(d, "target.csv")).read() == "mine\n"
    assert sorted(os.listdir(d)) == ["dangling.csv", "dir.csv", "link.csv", "target.csv"], \
        f"created: {sorted(os.listdir(d))}"


def out_dir_is_checked_before_running():
    """advise and reproduce --out DIR: a dangling link there, or a link or a directory where one
    of the files to write goes, is exit 2 before any simulation (each would hang), one line
    naming the path; nothing of the user's is created, followed or replaced."""
    d = fresh("dirlinks")
    os.symlink(os.path.join(d, "nowhere"), os.path.join(d, "dangling"))
    os.mkdir(os.path.join(d, "full"))
    os.symlink(os.path.join(d, "nowhere", "x"), os.path.join(d, "full", "pareto.svg"))
    os.mkdir(os.path.join(d, "full", "fig8.csv"))
    env = dict(os.environ, SITU_TEST_FAULT="hang")  # a simulation that started would hang
    advise = ["advise", "--ratio", "7,15", "--iterations", "400", "--verify", "2", "--no-cache"]
    reproduce = ["reproduce", "fig8", "--iterations", "2000", "--no-cache"]
    for args, out, needle in ((advise, "dangling", "dangling: is a symbolic link"),
                              (advise, "dangling/", "dangling/: is a symbolic link"),
                              (advise, "full", "full/pareto.svg: is a symbolic link"),
                              (reproduce, "dangling", "dangling: is a symbolic link"),
                              (reproduce, "full", "full/fig8.csv: is a directory")):
        p = subprocess.run([SITU, *args, "--out", out], cwd=d, capture_output=True, text=True,
                           timeout=20, env=env, stdin=subprocess.DEVNULL)
        assert p.returncode == 2, f"{args[0]} --out {out}: exit {p.returncode}: {p.stderr[-300:]}"
        assert p.stdout == "", f"{args[0]} --out {out}: stdout {p.stdout[:80]!r}"
        one_line(p, needle)
    assert os.readlink(os.path.join(d, "dangling")) == os.path.join(d, "nowhere")
    assert not os.path.lexists(os.path.join(d, "nowhere"))
    assert sorted(os.listdir(os.path.join(d, "full"))) == ["fig8.csv", "pareto.svg"], \
        f"created: {sorted(os.listdir(os.path.join(d, 'full')))}"
    assert os.path.islink(os.path.join(d, "full", "pareto.svg"))


def reproduce_bad_input_leaves_no_directory():
    d = fresh("repbad")
    p = run(["reproduce", "fig8", "--out", "newdir", "--ratio", "14"], cwd=d)
    assert p.returncode == 2, p.stderr
    p = run(["reproduce", "all", "--out", "newdir", "--iterations", "400"], cwd=d)
    assert p.returncode == 2, p.stderr  # some study's stride exceeds 400: found before any run
    assert os.listdir(d) == [], f"left: {os.listdir(d)}"


def written_files_are_readable_as_usual():
    """The temporary is 0600 (mkstemp); the result is as the umask says."""
    d = fresh("mode")
    old = os.umask(0o022)
    try:
        p = run(["sweep", "--model", "--no-cache", "--ratio", "7", "--out", "m.csv"], cwd=d)
    finally:
        os.umask(old)
    assert p.returncode == 0, p.stderr
    assert os.stat(os.path.join(d, "m.csv")).st_mode & 0o777 == 0o644


TESTS = [full_disk_sweep_and_merge, full_disk_reproduce, full_disk_advise, full_disk_situ_csv,
         small_tmpfs,
         dev_full_on_stdout, out_is_checked_before_running, out_dir_is_checked_before_running,
         reproduce_bad_input_leaves_no_directory, written_files_are_readable_as_usual]
for t in TESTS:
    check(t.__name__.replace("_", " "), t)
shutil.rmtree(TMP, ignore_errors=True)
failed += suite.none_matched("output", passed + failed + skipped)
print(f"output: {passed} passed, {failed} failed" + (f", {skipped} skipped" if skipped else ""))
sys.exit(1 if failed else 0)
