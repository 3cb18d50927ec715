#!/usr/bin/env python3
"""situ calibrate against the recorded LAMMPS runs of this directory (logs/, recorded on a
2-core machine by record.sh): the command's report checked against what this script reads from
the logs itself, the model's own predictions (situ model) and the preset it writes.

Usage: python3 tests/calibrate/run.py PATH/TO/situ
"""
import csv
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from suite import Suite  # noqa: E402

SITU = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "./situ")
LOGS = sorted(glob.glob(os.path.join(HERE, "logs", "*.log")))
NAME = re.compile(r"melt-n(\d+)-p(\d+)-rdf(\d+)-\d+\.log$")
LOOP = re.compile(r"^Loop time of ([0-9.eE+-]+) on (\d+) procs for (\d+) steps with (\d+) atoms",
                  re.M)
TMP = tempfile.mkdtemp(prefix="situ-calibrate-")
ENV = dict(os.environ, XDG_CONFIG_HOME=TMP)


def close(a, b, rel):
    """a and b equal to rel (JSON carries 12 significant digits), 0 included."""
    return abs(a - b) <= rel * max(abs(a), abs(b)) or a == b


def situ(*args, ok=True):
    r = subprocess.run([SITU, *args], capture_output=True, text=True, timeout=120, env=ENV)
    if ok and r.returncode != 0:
        raise AssertionError(f"situ {' '.join(args[:3])}...: exit {r.returncode}: {r.stderr}")
    return r


def runs_of_logs(logs):
    """{(atoms, procs, steps, rdf): [loop times]}: from the logs' names (what record.sh ran)
    and their Loop time lines, read here and not by the code under test."""
    out = {}
    for path in logs:
        n, p, rdf = (int(x) for x in NAME.search(path).groups())
        text = open(path).read()
        m = LOOP.search(text)
        atoms, procs, steps = int(m.group(4)), int(m.group(2)), int(m.group(3))
        assert atoms == 4 * n ** 3 and procs == p, path
        out.setdefault((atoms, procs, steps, rdf if 0 < rdf <= steps else 0), []).append(
            float(m.group(1)))
    return out


def key_of(c):
    cfg = c["config"]
    atoms = 4 * cfg["region"] ** 3
    rdf = cfg["stride"] if cfg["compute_scaling"] > 0 else 0
    return (atoms, cfg["cores_per_node"] * cfg["nodes"], cfg["iterations"], rdf)


def fit(*args):
    return json.loads(situ("calibrate", *args, "--json").stdout)


def model_makespan(cfg, costs):
    """situ model for a configuration of the report, the fitted costs given as flags."""
    flags = []
    for k in ("nodes", "cores_per_node", "region", "iterations", "stride", "halo_period",
              "compute_scaling", "mapping"):
        flags += ["--" + k, str(cfg[k])]
    for k, v in costs.items():
        flags += ["--" + k, repr(v["value"])]
    return json.loads(situ("model", *flags, "--json").stdout)["makespan"]


def test_report_matches_the_logs():
    j = fit(*LOGS)
    want = runs_of_logs(LOGS)
    assert j["runs"] == len(LOGS), j["runs"]
    assert len(j["configurations"]) == len(want), (len(j["configurations"]), len(want))
    for c in j["configurations"]:
        times = want[key_of(c)]
        assert c["runs"] == len(times), (c["label"], c["runs"], len(times))
        assert c["min"] == min(times) and c["max"] == max(times), c["label"]
        assert c["measured"] == min(times), "repeats are reduced to their minimum"
        assert close(c["spread"], max(times) / min(times) - 1, 1e-10), c["label"]
        assert abs(c["error"] - (c["predicted"] / c["measured"] - 1)) < 1e-9
    for k in ("sim_cost", "analytics_cost"):
        c = j["costs"][k]
        # fitted with an uncertainty, or a note says why not (noise can hide a cost)
        assert (c["fitted"] and c["uncertainty"] > 0) or any(k in n for n in j["notes"]), k
    assert j["linear"], "inline runs: the model is linear in the costs"


def test_predictions_are_the_models():
    j = fit(*LOGS)
    checked = 0
    for c in j["configurations"]:
        if c["config"]["cores_per_node"] < 2:
            continue  # one rank is one core: below the table's least node (calib_set_ranks)
        got = model_makespan(c["config"], j["costs"])
        assert close(got, c["predicted"], 1e-6), (c["label"], got, c["predicted"])
        checked += 1
    assert checked > 0


def test_held_out_runs_are_predicted_with_the_fitted_costs():
    one_rank = [p for p in LOGS if "-p1-" in p]
    rest = [p for p in LOGS if "-p1-" not in p]
    args = list(one_rank)
    for p in rest:
        args += ["--check", p]
    j = fit(*args)
    want = runs_of_logs(rest)
    assert len(j["check"]["configurations"]) == len(want)
    worst = 0
    for c in j["check"]["configurations"]:
        assert c["measured"] == min(want[key_of(c)]), c["label"]
        got = model_makespan(c["config"], j["costs"])
        assert close(got, c["predicted"], 1e-6), (c["label"], got, c["predicted"])
        worst = max(worst, abs(c["error"]))
    assert close(j["check"]["worst_error"], worst, 1e-10)


def test_preset_loads_back():
    j = fit(*LOGS, "--out", "melt-here", "--mapping", "inline")
    path = os.path.join(TMP, "situ", "presets", "melt-here.conf")
    assert j["preset"] == path and os.path.exists(path), j.get("preset")
    cfg = json.loads(situ("model", "--preset", "melt-here", "--json").stdout)["config"]
    for k in ("sim_cost", "analytics_cost"):
        assert close(cfg[k], j["costs"][k]["value"], 1e-5), (k, cfg[k])
    assert cfg["mapping"] == "inline"


def test_a_csv_of_the_same_runs_fits_the_same():
    """The CSV reader and the LAMMPS reader agree: the runs written here as a CSV."""
    path = os.path.join(TMP, "runs.csv")
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["region", "ranks", "iterations", "stride", "compute-scaling", "halo_period",
                    "total"])
        for (atoms, procs, steps, rdf), times in runs_of_logs(LOGS).items():
            region = round((atoms / 4) ** (1 / 3))
            for t in times:
                w.writerow([region, procs, steps, rdf or steps, 1 if rdf else 0, 20, repr(t)])
    a, b = fit(*LOGS), fit(path)
    for k in ("sim_cost", "analytics_cost"):
        va, vb = a["costs"][k]["value"], b["costs"][k]["value"]
        assert close(va, vb, 1e-9), (k, va, vb)


def test_phases_are_the_fastest_runs_breakdown():
    j = fit(*LOGS)
    phase = re.compile(r"^(\w+)\s*\|[^|]*\|\s*([0-9.eE+-]+)\s*\|", re.M)
    fastest = {}
    for path in LOGS:
        text = open(path).read()
        m = LOOP.search(text)
        n, p, rdf = (int(x) for x in NAME.search(path).groups())
        steps = int(m.group(3))
        k = (int(m.group(4)), p, steps, rdf if 0 < rdf <= steps else 0)
        if k not in fastest or float(m.group(1)) < fastest[k][0]:
            fastest[k] = (float(m.group(1)), dict((a, float(b)) for a, b in phase.findall(text)))
    for c in j["configurations"]:
        want = fastest[key_of(c)][1]
        assert set(c["phases"]) == set(want) == {"Pair", "Neigh", "Comm", "Output", "Modify",
                                                 "Other"}, c["phases"]
        for name, v in want.items():
            assert close(c["phases"][name], v, 1e-10), (c["label"], name)


def test_median_of_repeats():
    j = fit(*LOGS, "--repeats", "median")
    want = runs_of_logs(LOGS)
    assert j["repeats"] == "median"
    for c in j["configurations"]:
        t = sorted(want[key_of(c)])
        med = t[len(t) // 2] if len(t) % 2 else (t[len(t) // 2 - 1] + t[len(t) // 2]) / 2
        assert c["measured"] == med, c["label"]


def test_cpu_measure_is_loop_time_times_cpu_use():
    j = fit(*LOGS, "--measure", "cpu")
    assert j["measure"] == "cpu"
    cpu = re.compile(r"^([0-9.]+)% CPU use with", re.M)
    want = {}
    for path in LOGS:
        text = open(path).read()
        m = LOOP.search(text)
        k = key_of({"config": {"region": round((int(m.group(4)) / 4) ** (1 / 3)),
                               "cores_per_node": int(m.group(2)), "nodes": 1,
                               "iterations": int(m.group(3)), "stride": 1,
                               "compute_scaling": 0}})
        n, p, rdf = (int(x) for x in NAME.search(path).groups())
        k = (k[0], k[1], k[2], rdf if 0 < rdf <= k[2] else 0)
        want.setdefault(k, []).append(float(m.group(1)) * float(cpu.search(text).group(1)) / 100)
    for c in j["configurations"]:
        assert close(c["measured"], min(want[key_of(c)]), 1e-10), c["label"]


def test_text_report():
    out = situ("calibrate", *LOGS).stdout
    for needle in ("sim_cost", "analytics_cost", "repeats: the minimum", "loo error",
                   "threshold 10%"):
        assert needle in out, needle


def main():
    s = Suite("calibrate")
    if not LOGS:
        print("calibrate: no recorded logs in tests/calibrate/logs")
        return 1
    for name, fn in sorted(globals().items()):
        if name.startswith("test_"):
            s.check(name[5:].replace("_", " "), fn)
    subprocess.run(["rm", "-rf", TMP])
    return s.end()


if __name__ == "__main__":
    sys.exit(main())
