"""What the engine suite's modules share (files.py, inline.py, reduction.py, staging.py): a
command's JSON, and two figures compared within a relative tolerance."""
import json
import os
import subprocess


def situ_json(situ, *args):
    """`situ ARGS --json`, run from the binary's folder: its JSON, or an AssertionError that
    gives its exit status and stderr."""
    p = subprocess.run([situ, *args, "--json"], capture_output=True, text=True, timeout=300,
                       cwd=os.path.dirname(situ))
    if p.returncode:
        raise AssertionError(f"situ {' '.join(args)}: exit {p.returncode}: {p.stderr.strip()}")
    return json.loads(p.stdout)


def close(a, b, tol, what):
    """a within tol of b, relatively (equal figures pass, zeros included)."""
    if a == b:
        return
    if abs(a / b - 1) > tol:
        raise AssertionError(f"{what}: {a:.6g} vs {b:.6g} ({100 * (a / b - 1):+.3f}%, over {100 * tol:.1f}%)")
