"""The promises of `situ run --smpi-app` (README, "SMPI"), checked with tests/engine/broken.c, an
MPI application that misbehaves on demand: its arguments reach it byte for byte; situ_dtl's own
reason is the one reason line; its output is kept (escaped where it is not UTF-8, and said to be
cut past 64 KiB); every process of the run, what it forks included, dies with situ, and the run's
temporary directory goes on every exit path. Run by tests/engine/run.py (make test)."""
import glob
import json
import os
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import proctree  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SMALL = ["--iterations", "40", "--stride", "40", "--nodes", "1", "--cores-per-node", "4", "--ratio", "1"]


def build(situ, tmp):
    """broken.c, built here with smpicc (once): a run of other checks needs none."""
    exe = os.path.join(tmp, "broken")
    if not os.path.exists(exe):
        top = os.path.dirname(situ)
        subprocess.run(["smpicc", "-I", os.path.join(top, "smpi"), "-o", exe, os.path.join(HERE, "broken.c"),
                        "-L", top, "-lsitu_dtl"], check=True, capture_output=True)
    return exe


def run(situ, args, expect=0, env=None, cwd=None, text=True):
    p = subprocess.run([situ, *args], capture_output=True, timeout=300, env=env, cwd=cwd)
    out, err = p.stdout, p.stderr.decode(errors="replace")
    if p.returncode != expect:
        raise AssertionError(f"situ {' '.join(map(str, args))}: exit {p.returncode}, expected {expect}: {err.strip()}")
    return (out.decode() if text else out), err


def leftovers(tmpdir):
    return glob.glob(os.path.join(tmpdir, "situ-smpi-*"))


def processes(exe):
    """The run's processes: smpimain and what the application forked have the application's
    binary mapped (smpimain loads it), whatever their command line says and whichever session
    or group they went to (one of them leaves with setsid). Never by command line: a process may
    rewrite its own, and one forked without exec keeps its parent's."""
    copy = "/" + os.path.basename(exe) + "_"  # SMPI's private copy of it per rank: broken_PID_N.so
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/maps") as f:
                maps = f.read()
                if exe in maps or copy in maps:
                    found.append(int(name))
        except OSError:  # gone meanwhile, or not ours
            pass
    return found


def reap(exe):
    """What a failed check left running, killed by pid so that the next checks start clean."""
    for pid in processes(exe):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def crash_and_hang(situ, tmp):
    def test():
        exe = build(situ, tmp)
        tmpdir = os.path.join(tmp, "crash")
        os.makedirs(tmpdir, exist_ok=True)
        env = dict(os.environ, TMPDIR=tmpdir)
        try:
            out, err = run(situ, ["run", "--smpi-app", exe, "crash", "--", *SMALL], expect=3, env=env)
            assert out == "" and "Segmentation fault" in err, err
            out, err = run(situ, ["--time-limit", "2", "run", "--smpi-app", exe, "hang", "--", *SMALL],
                           expect=3, env=env)
            assert "ran past --time-limit (2 s)" in err, err
            assert not processes(exe), f"left running: {processes(exe)}"
            assert not leftovers(tmpdir), leftovers(tmpdir)
        finally:
            reap(exe)
    return test


def arguments(situ, tmp):
    # In a directory where the glob would match, under a TMPDIR with a space and a comma
    # (SimGrid splits --cfg values at both), with arguments a shell or SimGrid would change; the
    # program and the platform in a directory with a space and a comma too.
    def test():
        cwd = os.path.join(tmp, "globbed")
        tmpdir = os.path.join(tmp, "t d,x")
        spaced = os.path.join(tmp, "a dir,too")
        for d in (cwd, tmpdir, spaced):
            os.makedirs(d, exist_ok=True)
        exe = os.path.join(spaced, "bro ken")
        shutil.copy(build(situ, tmp), exe)
        platform = os.path.join(spaced, "da hu.xml")
        shutil.copy(os.path.join(os.path.dirname(situ), "platforms", "dahu.xml"), platform)
        for name in ("g1.dat", "g2.dat"):
            open(os.path.join(cwd, name), "w").close()
        args = ["args", "a b", "*.dat", "", "--cfg=smpi/np:1", "--log=root.thresh:debug", "x,y", "$HOME",
                "it's", "tab\there", "new\nline", " ", "\udcff\udcfe"]  # the last: bytes ff fe
        out, _ = run(situ, ["run", "--json", "--smpi-app", exe, *args, "--", *SMALL, "--platform", platform],
                     env=dict(os.environ, TMPDIR=tmpdir), cwd=cwd)
        r = json.loads(out)
        seen = [l for l in r["app"]["output"].splitlines() if l.startswith("arg ")]
        want = [f"arg {i} {os.fsencode(a).hex()}" for i, a in enumerate([exe, *args])]
        assert seen == want, f"the application saw {seen}, not {want}"
        shown = [a.replace("\udcff", "\ufffd").replace("\udcfe", "\ufffd") for a in args]
        assert r["app"]["command"] == [exe, *shown], r["app"]["command"]
        assert not leftovers(tmpdir), leftovers(tmpdir)
        # Before a `--`, arguments spelled like Situ's flags are the application's too: none is
        # taken (and applied) by situ run.
        flags = ["args", "--alert", "0.5", "--time-limit", "0.001", "--nodes", "3", "--json"]
        out, _ = run(situ, ["run", "--json", "--smpi-app", exe, *flags, "--", *SMALL])
        r = json.loads(out)
        seen = [l for l in r["app"]["output"].splitlines() if l.startswith("arg ")]
        want = [f"arg {i} {os.fsencode(a).hex()}" for i, a in enumerate([exe, *flags])]
        assert seen == want, f"the application saw {seen}, not {want}"
    return test


def proxy_tmpdir(situ, tmp):
    def test():
        tmpdir = os.path.join(tmp, "p d,x")
        os.makedirs(tmpdir, exist_ok=True)
        out, err = run(situ, ["run", "--json", "--fidelity", "smpi", "--iterations", "40", "--nodes", "1"],
                       env=dict(os.environ, TMPDIR=tmpdir))
        r = json.loads(out)
        assert r["fidelity"] == "smpi" and r["steps"] == 2 and err == "", (r["fidelity"], r["steps"], err)
        assert not leftovers(tmpdir), leftovers(tmpdir)
    return test


def reasons(situ, tmp):
    # situ_dtl stops the run with its own reason: that line alone, not SimGrid's abort after it.
    cases = [
        (["uneven"], SMALL, "situ_dtl_put: more than the 1 analysis points of --iterations 40 / --stride 40"),
        (["early"], SMALL, "situ_dtl_put before situ_dtl_init"),
        (["twice"], SMALL, "situ_dtl_init: called a second time on this rank"),
        (["late"], SMALL, "situ_dtl_put after situ_dtl_finalize"),
        # SimGrid's deadlock report is long: what it means comes first, so a cut keeps it.
        (["nofinal"], SMALL, "an MPI deadlock, or a rank that did not call situ_dtl_finalize"),
        # SMPI kills an aborting rank without its error code (the others then "deadlock").
        (["abort"], SMALL, "MPI_Abort with error code 7, on rank 1 of 2"),
        ([], ["--iterations", "80", *SMALL[2:]], "put 1 states; --iterations 80 / --stride 40 make 2"),
    ]

    def test():
        exe = build(situ, tmp)
        for mode, params, needle in cases:
            out, err = run(situ, ["run", "--smpi-app", exe, *mode, "--", *params], expect=3)
            lines = err.strip().splitlines()
            assert out == "" and len(lines) == 1, f"{mode}: {len(lines)} lines: {err!r}"
            assert needle in lines[0], f"{mode}: {needle!r} not in {lines[0]!r}"
            assert "MPI_Finalize" not in lines[0], lines[0]
            if mode == ["abort"]:  # not the deadlock of the ranks left waiting for it
                assert "Deadlock" not in lines[0], lines[0]
            else:
                assert "situ_dtl" in lines[0] and "Abort" not in lines[0], lines[0]
    return test


def output_bytes(situ, tmp):
    def test():
        exe = build(situ, tmp)
        out, _ = run(situ, ["run", "--json", "--smpi-app", exe, "binary", "--", *SMALL])
        app = json.loads(out)["app"]  # a byte that is not UTF-8 no longer drops the key
        want = "ok \ufffd\ufffd \u00e9 \ufffd\ufffd\ufffd \ufffd end\n"  # a surrogate's 3 bytes, a NUL
        assert app["output"] == want, app["output"]
        assert app["output_bytes"] == 19 and app["output_truncated"] is False, app
        table, _ = run(situ, ["run", "--smpi-app", exe, "binary", "--", *SMALL])
        assert "    " + want.rstrip("\n") in table.splitlines(), table[-300:]
    return test


def output_cut(situ, tmp):
    def test():
        exe = build(situ, tmp)
        out, _ = run(situ, ["run", "--json", "--smpi-app", exe, "flood", "--", *SMALL])
        app = json.loads(out)["app"]
        # 65535 x, then a character across the mark: left out, not half-kept as U+FFFD
        assert app["output"] == "x" * 65535, (len(app["output"]), app["output"][-5:])
        assert app["output_truncated"] is True and app["output_bytes"] == 65535 + 2 + 10000, \
            (app["output_truncated"], app["output_bytes"])
        table, _ = run(situ, ["run", "--smpi-app", exe, "flood", "--", *SMALL])
        assert "output of %s (75537 bytes, cut: only the first 65536 kept):" % exe in table, table[-400:]
    return test


def default_signals():
    """In the child: a shell's background job (make test &) ignores INT, and situ would too."""
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_DFL)


def wait_started(exe, n):
    for _ in range(200):
        if len(processes(exe)) >= n:
            return
        time.sleep(0.05)
    raise AssertionError("the application never forked")


def situ_processes(pid):
    """pid and the situ programs below it in the tree (the simulation, the SMPI warden)."""
    def program(p):
        try:
            return os.path.basename(os.readlink(f"/proc/{p}/exe"))
        except OSError:
            return ""
    return [p for p in [pid, *proctree.descendants(pid)] if program(p) in ("situ", "situ-sim")]


def processes_die(situ, tmp):
    # broken fork: rank 0 forks a process that waits forever, and one that leaves the group
    # (setsid). They end with the run, and with situ however it ends.
    def test():
        exe = build(situ, tmp)
        try:
            run(situ, ["run", "--smpi-app", exe, "fork", "--", *SMALL])
            assert not processes(exe), f"left by a run that ended well: {processes(exe)}"
            # "pkill": TERM to every situ process of the run at once, the warden's too
            for how in (signal.SIGKILL, signal.SIGTERM, signal.SIGINT, signal.SIGHUP, "pkill"):
                name = getattr(how, "name", how)
                tmpdir = os.path.join(tmp, f"kill-{name}")
                os.makedirs(tmpdir, exist_ok=True)
                q = subprocess.Popen([situ, "run", "--smpi-app", exe, "fork", "hang", "--", *SMALL],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                     env=dict(os.environ, TMPDIR=tmpdir), preexec_fn=default_signals)
                wait_started(exe, 3)  # smpimain and the two that wait
                assert leftovers(tmpdir), "no temporary directory while the run runs"
                if how == "pkill":
                    for pid in situ_processes(q.pid):
                        try:  # one's TERM may end another before its own arrives
                            os.kill(pid, signal.SIGTERM)
                        except ProcessLookupError:
                            pass
                else:
                    q.send_signal(how)
                want = -signal.SIGTERM if how == "pkill" else -how
                assert q.wait(timeout=30) == want, f"{name}: exit {q.returncode}"
                if how != signal.SIGKILL:  # situ has cleaned up before it ends
                    assert not leftovers(tmpdir), f"{name}: left {leftovers(tmpdir)}"
                for _ in range(100):  # SIGKILL: the warden cleans up after situ is gone
                    if not processes(exe) and not leftovers(tmpdir):
                        break
                    time.sleep(0.05)
                assert not processes(exe), f"{name}: left running: {processes(exe)}"
                assert not leftovers(tmpdir), f"{name}: left {leftovers(tmpdir)}"
        finally:
            reap(exe)
    return test
