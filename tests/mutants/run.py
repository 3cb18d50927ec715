#!/usr/bin/env python3
"""`make mutants`: each mutant of tests/mutants/list.py applied, one at a time, to a scratch copy
of the tree (the sources, the platforms and the build directory, copied to a temporary
directory: the real tree is never touched), rebuilt incrementally there, and run against its
tests. Prints each mutant's fate, the tests that killed it, and the kill ratio.

Usage: python3 tests/mutants/run.py [--min 0.9] [--only WORD,...] [--no-baseline] [--keep]
       python3 tests/mutants/run.py --check [--only WORD,...] [--list FILE]
Exit 1 when the ratio is below --min, when a survivor has no written reason (`survives` in the
list), or when the list is wrong (a mutant that does not apply or does not compile, a test that
fails or runs nothing on the real code).

--check (in `make test`; seconds, no suite runs): only that every mutant still applies to the
code as it is, its text found exactly once in its file, and that the mutated file compiles (a
header: every file of the build that includes it), each alone with the build's own command
(-O2 -Werror: the optimiser's warnings fail it as they fail the build); a file that is not C is
only searched. One line per rotten mutant, naming it, its file and what is wrong; exit 1 if any.
The code moves under the list (a refactoring, a merge): this says so the day it happens, not at
the next slow run."""
import argparse
import concurrent.futures
import glob
import os
import re
import runpy
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LIST = os.path.join(os.path.dirname(os.path.abspath(__file__)), "list.py")

COPY = ["Makefile", "engine", "tui", "cli", "plot", "helper", "tests", "platforms", "presets",
        "scripts", "tools", "build", "situ", "situ-sim"]
TIMEOUT = 300
EMPTY = re.compile(r"Tested: 0 \||: 0 passed, 0 failed")


def sh(cmd, cwd, timeout=TIMEOUT):
    """(exit status, output) of a shell command in its own process group, all of it killed on
    timeout (a hung mutant is a killed one)."""
    p = subprocess.Popen(["sh", "-c", cmd], cwd=cwd, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        out, _ = p.communicate(timeout=timeout)
        return p.returncode, out
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, _ = p.communicate()
        return -1, out + f"\n(timed out after {timeout} s)"


def mutate(m, root):
    """(the mutated text of m's file, None), or (None, why it does not apply)."""
    path = os.path.join(root, m["file"])
    try:
        with open(path) as f:
            original = f.read()
    except OSError as e:
        return None, f"cannot read it ({e.strerror})"
    n = original.count(m["old"])
    if n == 0:
        where = [p for p in sources(root) if p != m["file"] and m["old"] in read(root, p)]
        return None, ("the text to mutate is not in it" +
                      (f" (it is in {', '.join(where)} now)" if where else " (the code changed)"))
    if n > 1:
        return None, f"the text to mutate occurs {n} times in it (it must be once: lengthen it)"
    return original.replace(m["old"], m["new"]), None


def read(root, rel):
    with open(os.path.join(root, rel)) as f:
        return f.read()


def sources(root):
    """The C files and headers of the build, and its compiled-in Lua, relative to root."""
    dirs = ("engine/*", "tui", "cli", "plot", "tests/unit", "smpi", "scripts/lua/internal")
    return sorted(os.path.relpath(p, root) for d in dirs for ext in ("c", "h", "lua")
                  for p in glob.glob(os.path.join(root, d, "*." + ext)))


def compile_command(root):
    """The build's compile command (`make print-cc`), without its dependency-file options."""
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    p = subprocess.run(["make", "-s", "--no-print-directory", "print-cc"], cwd=root, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode or not p.stdout.strip():
        raise SystemExit(f"mutants: `make print-cc` failed:\n{p.stderr}")
    return [w for w in shlex.split(p.stdout.strip()) if w not in ("-MD", "-MP", "-MMD")]


def includers(root, header):
    """The C files of the build that include header, directly or not, from the compiler's own
    dependency files (-MD) of the main build (build/X.d for X.c), so that a macro's mutant is
    compiled where it is used."""
    found = set()
    for d in glob.glob(os.path.join(root, "build", "**", "*.d"), recursive=True):
        with open(d) as f:
            words = f.read().replace("\\\n", " ").split("\n", 1)[0].split(":", 1)[-1].split()
        if words and os.path.relpath(d, os.path.join(root, "build")) == words[0][:-2] + ".d" \
                and header in words[1:]:
            found.add(words[0])
    return sorted(found)


def farm(root, rel, text, into):
    """A tree under into that is root but for rel, whose content is text: every other entry is a
    symbolic link to root's, so that the file's own relative includes ("../base/x.h") and the
    build's -I options find what the real build finds. Returns into."""
    parts = rel.split("/")
    here, src = into, root
    for i, part in enumerate(parts):
        for e in os.listdir(src):
            if e != part:
                os.symlink(os.path.join(src, e), os.path.join(here, e))
        if i == len(parts) - 1:
            with open(os.path.join(here, part), "w") as f:
                f.write(text)
        else:
            here, src = os.path.join(here, part), os.path.join(src, part)
            os.mkdir(here)
    return into


def first_error(out):
    lines = out.splitlines()
    errs = [l for l in lines if "error" in l] or lines or ["?"]
    return errs[0].strip()[:300]


def check_one(m, root, cc):
    """None if m applies and compiles, else one line saying what is wrong with it."""
    head = f"{m.get('id')} ({m.get('file')})"
    for key in ("id", "file", "old", "new", "tests"):
        # An empty new text is a mutant too: it deletes the old one.
        if m.get(key) is None or (key != "new" and not m[key]):
            return f"{head}: no '{key}' in the list"
    if m["old"] == m["new"]:
        return f"{head}: its new text is its old text: it mutates nothing"
    text, why = mutate(m, root)
    if why:
        return f"{head}: {why}"
    if not m["file"].endswith((".c", ".h")):
        return None
    units = [m["file"]] if m["file"].endswith(".c") else includers(root, m["file"])
    if not units:
        return (f"{head}: no compiled file includes it (no build/**/*.d lists it: build first, "
                f"`make situ build/unit`)")

    def compile_error(tree, unit):
        p = subprocess.run(cc + ["-c", "-o", "/dev/null", unit], cwd=tree, text=True,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        return first_error(p.stdout) if p.returncode else None

    with tempfile.TemporaryDirectory(prefix="situ-mutant-check.") as tmp:
        farm(root, m["file"], text, tmp)
        for u in units:
            err = compile_error(tmp, u)
            if err:  # the unmutated file, compiled alike, says whose fault it is
                again = compile_error(root, u)
                where = f" (compiling {u})" if u != m["file"] else ""
                if again:
                    return f"{head}: the unmutated {u} does not compile alone either: {again}"
                return f"{head}: the mutant does not compile{where}: {err}"
    return None


def check(mutants, root):
    """`--check`: one line per rotten mutant, then the count; 1 if any is rotten."""
    ids = [m.get("id") for m in mutants]
    twice = [i for i in dict.fromkeys(ids) if ids.count(i) > 1]
    cc = compile_command(root)
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:  # the machine's 2 cores
        problems = [p for p in pool.map(lambda m: check_one(m, root, cc), mutants) if p]
    for i in twice:
        print(f"mutants: {i}: {ids.count(i)} mutants have this id (ids name them: make it unique)")
    for p in problems:
        print(f"mutants: {p}")
    rotten = f"; {len(problems)} rotten (above): re-point their text in tests/mutants/list.py"
    print(f"mutants --check: {len(mutants) - len(problems)} of {len(mutants)} mutants apply and "
          f"compile" + (rotten if problems else ""))
    return 1 if problems or twice else 0


def build(tree):
    return sh("make -j2 --no-print-directory situ situ-sim build/unit", tree, timeout=600)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--min", type=float, default=0.9, help="kill ratio required (default 0.9)")
    ap.add_argument("--only", help="comma-separated parts of mutant ids")
    ap.add_argument("--no-baseline", action="store_true", help="skip the tests on the real code")
    ap.add_argument("--keep", action="store_true", help="keep the scratch tree")
    ap.add_argument("--check", action="store_true",
                    help="only check that each mutant applies and compiles (no suite runs)")
    ap.add_argument("--list", default=LIST, help="the mutants (default tests/mutants/list.py)")
    a = ap.parse_args()
    # CASE=PATTERN (make mutants CASE=...) picks mutants, as --only does; the suites a mutant runs
    # must not see it, or they would run other cases than the mutant's.
    case = os.environ.pop("CASE", None)
    if case and not a.only:
        a.only = case
    mutants = [m for m in runpy.run_path(a.list)["MUTANTS"]
               if not a.only or any(w in m["id"] for w in a.only.split(","))]
    if a.only and not mutants:  # a pattern that matches nothing is no silent pass
        print(f"mutants: no mutant matches {a.only!r}", file=sys.stderr)
        return 1
    if a.check:
        return check(mutants, ROOT)
    for need in ("situ", "situ-sim", "build/unit"):
        if not os.access(os.path.join(ROOT, need), os.X_OK):
            print(f"mutants: {need} missing: make situ situ-sim build/unit first", file=sys.stderr)
            return 1
    tree = tempfile.mkdtemp(prefix="situ-mutants.")
    t0 = time.monotonic()
    try:
        for c in COPY:
            src = os.path.join(ROOT, c)
            if os.path.isdir(src):
                shutil.copytree(src, os.path.join(tree, c), symlinks=True)
            else:
                shutil.copy2(src, os.path.join(tree, c))
        rc, out = build(tree)  # up to date: nothing to do unless the copy lost a timestamp
        if rc:
            print(out[-3000:])
            print("mutants: the unmutated copy does not build", file=sys.stderr)
            return 1
        bad = 0
        if not a.no_baseline:  # every test must pass, and run something, on the real code
            for cmd in dict.fromkeys(t for m in mutants for t in m["tests"]):
                rc, out = sh(cmd, tree)
                if rc or EMPTY.search(out):
                    bad += 1
                    print(f"LIST  '{cmd}' {'fails' if rc else 'runs no test'} on the real code:\n"
                          + out[-2000:])
            print(f"baseline: every test passes on the real code ({time.monotonic() - t0:.0f} s)"
                  if not bad else "baseline: broken tests above")
        killed = survived = 0
        unexplained = []
        for m in mutants:
            path = os.path.join(tree, m["file"])
            original = open(path).read()
            mutated, why = mutate(m, tree)
            if why:
                bad += 1
                print(f"LIST  {m['id']} ({m['file']}): {why}")
                continue
            t1 = time.monotonic()
            try:
                with open(path, "w") as f:
                    f.write(mutated)
                rc, out = build(tree)
                if rc:
                    bad += 1
                    print(f"LIST  {m['id']}: the mutant does not compile:\n{out[-1500:]}")
                    continue
                biters, whys = [], []
                for t in m["tests"]:
                    rc, out = sh(t, tree)
                    if rc != 0:
                        biters.append(t)
                        lines = [l for l in out.splitlines()
                                 if re.search(r"FAIL|fail|[Aa]ssert|timed out", l)]
                        whys.append((lines or out.splitlines() or ["?"])[0].strip()[:200])
            finally:
                with open(path, "w") as f:  # a new mtime: the next build compiles it again
                    f.write(original)
            took = time.monotonic() - t1
            if biters:
                killed += 1
                print(f"killed    {m['id']}  ({len(biters)}/{len(m['tests'])} tests, {took:.0f} s): "
                      + " | ".join(biters))
                for w in whys:
                    print(f"            {w}")
            else:
                survived += 1
                why = m.get("survives")
                if not why:
                    unexplained.append(m["id"])
                print(f"SURVIVED  {m['id']}  ({took:.0f} s): "
                      + (f"explained: {why}" if why else "NO REASON GIVEN: a test is missing"))
            sys.stdout.flush()
        total = killed + survived
        ratio = killed / total if total else 0
        print(f"mutants: {killed} killed, {survived} survived of {total}: kill ratio {100 * ratio:.1f}% "
              f"(required {100 * a.min:.0f}%), {time.monotonic() - t0:.0f} s")
        if bad:
            print(f"mutants: {bad} problem(s) with the list (marked LIST above)")
        if unexplained:
            print(f"mutants: survivors with no reason: {', '.join(unexplained)}")
        return 1 if bad or unexplained or ratio < a.min else 0
    finally:
        if a.keep:
            print(f"mutants: scratch tree kept in {tree}")
        else:
            shutil.rmtree(tree, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
