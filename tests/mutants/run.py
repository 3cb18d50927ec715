#!/usr/bin/env python3
"""`make mutants`: each mutant of tests/mutants/list.py applied, one at a time, to a scratch copy
of the tree (the sources, the platforms and the build directory, copied to a temporary
directory: the real tree is never touched), rebuilt incrementally there, and run against its
tests. Prints each mutant's fate, the tests that killed it, and the kill ratio.

Usage: python3 tests/mutants/run.py [--min 0.9] [--only WORD,...] [--no-baseline] [--keep]
Exit 1 when the ratio is below --min, when a survivor has no written reason (`survives` in the
list), or when the list is wrong (a mutant that does not apply or does not compile, a test that
fails or runs nothing on the real code)."""
import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True  # no __pycache__ in the tree
from list import MUTANTS  # noqa: E402

COPY = ["Makefile", "engine", "tui", "cli", "plot", "tests", "platforms", "presets", "scripts", "tools",
        "build", "situ"]
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


def build(tree):
    return sh("make -j2 --no-print-directory situ build/unit", tree, timeout=600)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--min", type=float, default=0.9, help="kill ratio required (default 0.9)")
    ap.add_argument("--only", help="comma-separated parts of mutant ids")
    ap.add_argument("--no-baseline", action="store_true", help="skip the tests on the real code")
    ap.add_argument("--keep", action="store_true", help="keep the scratch tree")
    a = ap.parse_args()
    mutants = [m for m in MUTANTS if not a.only or any(w in m["id"] for w in a.only.split(","))]
    for need in ("situ", "build/unit"):
        if not os.access(os.path.join(ROOT, need), os.X_OK):
            print(f"mutants: {need} missing: make situ build/unit first", file=sys.stderr)
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
            n = original.count(m["old"])
            if n != 1:
                bad += 1
                print(f"LIST  {m['id']}: the text to mutate occurs {n} times in {m['file']}")
                continue
            t1 = time.monotonic()
            try:
                with open(path, "w") as f:
                    f.write(original.replace(m["old"], m["new"]))
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
