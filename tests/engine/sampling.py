#!/usr/bin/env python3
"""Step sampling (--sampling auto, the default at fidelity=full) against every step simulated
(--sampling off): makespan and each component's active time within 0.5%, on the engine tests'
configurations, the README's platform table and the drift configurations of docs/model.md (make
test-slow; `--quick` runs QUICK only, which tests/engine/run.py also checks). Each run's CPU time
is its child's (the simulation runs in a child of situ). Prints a Markdown table; fails on a
configuration off by more than 0.5%, on a JSON whose 'sampling' disagrees with what was simulated,
and when none of the configurations was sampled."""
import json
import os
import resource
import subprocess
import sys

SITU = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 and not sys.argv[1].startswith("-")
                       else "./situ")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

TOL = 0.005
KEYS = ("makespan", "sim_active", "analytics_active")

# Cheap enough for make test (a few seconds unsampled) and sampled: in situ, and in transit where
# full fidelity's actors drift apart (docs/model.md).
QUICK = [
    ["--nodes", "4", "--mapping", "intransit", "--iterations", "4000"],
    ["--nodes", "2", "--ratio", "7", "--iterations", "8000", "--halo-period", "30"],
]

PLATFORM_TABLE = [  # README's platform table: the paper's default workflow, then staging's rows
    ["--platform", f"platforms/{p}.xml", "--nodes", "16", "--ratio", "15", "--mapping", m]
    for p in ("dahu", "fattree64", "torus64", "dragonfly64", "staging")
    for m in ("insitu", "intransit")
] + [
    ["--platform", "platforms/staging.xml", "--nodes", "16", "--ratio", "15", "--mapping",
     "intransit", "--analytics-zone", "staging"],
    ["--platform", "platforms/staging.xml", "--nodes", "16", "--ratio", "3", "--mapping",
     "intransit", "--analytics-zone", "staging"],
    ["--preset", "staging-intransit"],
]

DRIFT = [  # docs/model.md's drift configurations, at their iterations and at more steps
    ["--nodes", "4", "--mapping", "intransit", "--region", str(r), "--iterations", str(n)]
    for r in (70, 50, 40, 30, 20) for n in (400, 2000)
] + [
    ["--nodes", "4", "--mapping", "intransit", "--region", "30", "--halo-period", "5",
     "--iterations", "2000"],
    ["--nodes", "4", "--mapping", "intransit", "--ratio", "3", "--stride", "1000",
     "--compute-scaling", "50", "--iterations", "200000"],
    ["--nodes", "8", "--mapping", "intransit", "--region", "40", "--iterations", "2000"],
    ["--nodes", "8", "--mapping", "intransit", "--ratio", "3", "--data-scaling", "10",
     "--iterations", "2000"],
    ["--nodes", "16", "--ratio", "15", "--mapping", "intransit", "--iterations", "800"],
    ["--nodes", "16", "--ratio", "15", "--mapping", "intransit", "--iterations", "8000"],
    ["--nodes", "6", "--mapping", "intransit", "--ratio", "1", "--iterations", "2000"],
]

PAPER = [["--nodes", "32", "--ratio", "31", "--stride", "20", "--iterations", "8000"]]

REDUCTION = [  # data reduction (model_reduce.h): its costs and bytes repeat as the steps do
    ["--nodes", "3", "--mapping", "intransit", "--ratio", "1", "--data-scaling", "20",
     "--compression", "4", "--iterations", "4000"],
    ["--nodes", "2", "--ratio", "7", "--iterations", "8000", "--decimation", "2",
     "--compression", "2", "--decompression-cost", "1e-7"],
]


def without_fidelity(args):
    out, skip = [], False
    for a in args:
        if skip or a in ("--fidelity", "--sampling"):
            skip = not skip
            continue
        out.append(a)
    return out


def engine_configs():
    import run as engine  # the engine suite's configurations
    seen, out = set(), []
    for args in (engine.CONSERVATION + engine.AGREEMENT + engine.DRIFT + engine.SHORT +
                 engine.INTERFERENCE + engine.FIG8 + engine.SMPI + engine.MODEL_AGREEMENT):
        a = without_fidelity(args)
        if tuple(a) not in seen:
            seen.add(tuple(a))
            out.append(a)
    return out


def simulate(args, sampling):
    """The JSON of a full-fidelity run, and the CPU seconds its simulation child took."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run([SITU, "run", "--json", *args, "--fidelity", "full", "--sampling", sampling],
                       capture_output=True, text=True, timeout=1800)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode:
        raise AssertionError(f"situ run {' '.join(args)} --sampling {sampling}: exit "
                             f"{p.returncode}: {p.stderr.strip()}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return json.loads(p.stdout), cpu


def compare(args):
    """Runs both ways; returns (row cells, failure reason or None, sampled?)."""
    off, cpu_off = simulate(args, "off")
    on, cpu_on = simulate(args, "auto")
    problems = []
    s_off, s_on = off["sampling"], on["sampling"]
    if s_off["steps_simulated"] != off["steps"] or s_off["error"] != 0:
        problems.append(f"--sampling off simulated {s_off['steps_simulated']} of {off['steps']}")
    n = s_on["steps_simulated"]
    if not 0 < n <= on["steps"] or on["steps"] != off["steps"]:
        problems.append(f"sampled: {n} of {on['steps']} steps simulated")
    if on["conservation"]["analyses"] != on["sim_cores"] * n:
        problems.append(f"sampled: {on['conservation']['analyses']} analyses for {n} steps")
    if len(on["per_step"]["analytics_active"]) != on["steps"]:
        problems.append("sampled: per_step does not cover every step")
    errs = []
    for k in KEYS:
        e = on[k] / off[k] - 1 if off[k] else on[k]
        errs.append(e)
        if abs(e) > TOL:
            problems.append(f"{k} {on[k]:.6g} vs {off[k]:.6g} ({100 * e:+.3f}%)")
    # The links' traffic is extrapolated too: each link's bytes within the same 0.5%.
    bytes_off = {l["name"]: l["bytes"] for l in off["links"]}
    for l in on["links"]:
        b = bytes_off.get(l["name"], 0)
        if abs(l["bytes"] - b) > TOL * max(b, 1):
            problems.append(f"link {l['name']}: {l['bytes']:.6g} bytes vs {b:.6g}")
            break
    cells = [" ".join(args), f"{n}/{on['steps']}", f"{s_on['error']:.2e}",
             *(f"{100 * e:+.3f}%" for e in errs), f"{cpu_off:.2f}", f"{cpu_on:.2f}",
             f"{cpu_off / cpu_on:.1f}x" if cpu_on > 0 else "-"]
    return cells, "; ".join(problems) or None, n < on["steps"]


def main():
    quick = "--quick" in sys.argv
    configs = QUICK if quick else (QUICK + engine_configs() + PLATFORM_TABLE + DRIFT + PAPER + REDUCTION)
    print("| configuration | steps simulated | error estimate | makespan | sim active | "
          "analytics active | CPU off (s) | CPU auto (s) | speed-up |")
    print("|---|---|---|---|---|---|---|---|---|")
    failed = sampled = 0
    for args in configs:
        try:
            cells, problem, was_sampled = compare(args)
        except (AssertionError, subprocess.TimeoutExpired) as e:
            cells, problem, was_sampled = [" ".join(args)] + ["-"] * 8, str(e), False
        sampled += was_sampled
        if problem:
            failed += 1
            cells[-1] += " FAIL"
            print(f"FAIL {' '.join(args)}: {problem}", file=sys.stderr)
        print("| " + " | ".join(cells) + " |", flush=True)
    if not sampled:
        failed += 1
        print("FAIL no configuration was sampled", file=sys.stderr)
    print(f"sampling: {len(configs) - failed} of {len(configs)} within {100 * TOL}% of every step "
          f"simulated ({sampled} sampled)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
