#!/usr/bin/env python3
"""The four levels side by side on the engine tests' configurations (make test-slow): the model,
fidelity fast, full and smpi (LV08, and SMPI's own network), each with its wall time (mapping=inline
too). Fails when
smpi's makespan (LV08) is more than 0.5% from full's. Prints a Markdown table."""
import json
import os
import subprocess
import sys
import time

SITU = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "./situ")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run as engine  # the engine suite's configurations

def without_fidelity(args):
    """The configuration alone: each column sets its own level."""
    out, skip = [], False
    for a in args:
        if skip or a == "--fidelity":
            skip = not skip
            continue
        out.append(a)
    return out


CONFIGS = [without_fidelity(a) for a in
           engine.AGREEMENT + [engine.CONSERVATION[-1], engine.INTERFERENCE[0]]]
CONFIGS += [a + ["--mapping", "inline"] for _, a in engine.inline.AGREEMENT]  # analysis on the ranks
CONFIGS += [engine.PER_STEP + a for a in engine.PER_STEP_RUNS]  # a profile that reads ctx.step
CONFIGS += [a for _, a in engine.reduction.AGREEMENT]  # --compression, --decimation


def level(cmd, args):
    t = time.monotonic()
    p = subprocess.run([SITU, cmd, "--json", *args], capture_output=True, text=True, timeout=900)
    wall = time.monotonic() - t
    if p.returncode:
        raise AssertionError(f"situ {cmd} {' '.join(args)}: exit {p.returncode}: {p.stderr.strip()}")
    return json.loads(p.stdout)["makespan"], wall


def main():
    failed = 0
    print("| configuration | model | fast | full | smpi LV08 | smpi SMPI | smpi LV08 vs full |")
    print("|---|---|---|---|---|---|---|")
    for args in CONFIGS:
        cells, got = [], {}
        runs = [("model", "model", []), ("fast", "run", ["--fidelity", "fast"]),
                ("full", "run", ["--fidelity", "full"]), ("smpi", "run", ["--fidelity", "smpi"]),
                ("smpiS", "run", ["--fidelity", "smpi", "--smpi-network", "SMPI"])]
        for name, cmd, extra in runs:
            try:
                got[name] = level(cmd, [*args, *extra])
                cells.append(f"{got[name][0]:.4f} s ({got[name][1]:.2f} s)")
            except AssertionError as e:
                cells.append("FAILED")
                print(e, file=sys.stderr)
        if "full" in got and "smpi" in got:
            err = got["smpi"][0] / got["full"][0] - 1
            verdict = f"{100 * err:+.4f}%"
            if abs(err) > 0.005:
                failed += 1
                verdict += " FAIL"
        else:
            failed += 1
            verdict = "FAIL"
        print(f"| {' '.join(args)} | {' | '.join(cells)} | {verdict} |", flush=True)
    print(f"smpi levels: {len(CONFIGS) - failed} within 0.5% of full, {failed} not")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
