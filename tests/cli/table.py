#!/usr/bin/env python3
"""`situ model`'s table says what `situ model --json` says: every time, count and ratio in the
table, read back and compared with the JSON (a swapped column or row fails here).
Ends with 'table: N passed, M failed'."""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import suite  # noqa: E402

SITU = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "./situ")
SUITE = suite.Suite("table")
check = SUITE.check
UNITS = {"us": 1e-6, "ms": 1e-3, "s": 1.0}


def seconds(text):
    m = re.fullmatch(r"([0-9.e+-]+) (us|ms|s)(?: \([0-9.]+ h\))?", text.strip())
    assert m, f"not a time: {text!r}"
    return float(m.group(1)) * UNITS[m.group(2)]


def near(table, exact, what):
    # The table prints 3 or 4 significant digits.
    assert abs(table - exact) <= 5e-3 * abs(exact) + 1e-12, f"{what}: table {table:.6g}, JSON {exact:.6g}"


def compare(*args):
    def test():
        out = subprocess.run([SITU, "model", *args], capture_output=True, text=True, check=True).stdout
        j = json.loads(subprocess.run([SITU, "model", "--json", *args], capture_output=True, text=True,
                                      check=True).stdout)
        lines = out.splitlines()
        row = {}
        for name in ("simulation", "analytics"):
            hit = [l for l in lines if re.match(rf"    {name} +[0-9]", l)]
            assert len(hit) == 1, f"no '{name}' row in the table:\n{out}"
            cells = re.split(r"\s{2,}", hit[0].strip())
            assert len(cells) == 3, f"'{name}' row: {cells}"
            row[name] = (seconds(cells[1]), seconds(cells[2]))
        near(row["simulation"][0], j["sim_active"], "simulation active")
        near(row["simulation"][1], j["sim_idle"], "simulation idle")
        near(row["analytics"][0], j["analytics_active"], "analytics active")
        near(row["analytics"][1], j["analytics_idle"], "analytics idle")
        field = {}
        for l in lines:
            m = re.match(r"\s+(makespan|efficiency|paper's eq\. 5|steps|halo|S \(simulate\)|A \(analyse\)|R \(retrieve\)) +(.*)$", l)
            if m:
                field[m.group(1)] = m.group(2)
        near(seconds(field["makespan"]), j["makespan"], "makespan")
        near(seconds(field["paper's eq. 5"]), j["makespan_eq5"], "the paper's eq. 5 makespan")
        near(float(field["efficiency"]), j["efficiency"], "efficiency")
        near(seconds(field["S (simulate)"]), j["stage"]["S"], "S")
        near(seconds(field["R (retrieve)"]), j["stage"]["R"], "R")
        near(seconds(field["A (analyse)"]), j["stage"]["A"], "A")
        near(seconds(field["halo"].replace(" of S", "")), j["halo"], "halo")
        steps = re.fullmatch(r"(\d+) \(\+(\d+) trailing iterations\)", field["steps"])
        assert steps and int(steps.group(1)) == j["steps"], f"steps: {field['steps']!r} vs {j['steps']}"
        c = j["config"]
        assert int(steps.group(1)) * c["stride"] + int(steps.group(2)) == c["iterations"], field["steps"]
        scenario = [l for l in lines if l.strip().startswith("scenario")][0]
        assert j["scenario"] in scenario.split(), f"{scenario!r} vs {j['scenario']}"
    return test


def defaults_and_steps():
    j = json.loads(subprocess.run([SITU, "model", "--json", "--iterations", "419"], capture_output=True,
                                  text=True, check=True).stdout)
    assert j["config"]["halo_period"] == 20, f"default halo period {j['config']['halo_period']}"
    assert j["config"]["stride"] == 20 and j["steps"] == 20, f"419 iterations at stride 20: {j['steps']} steps"
    k = json.loads(subprocess.run([SITU, "model", "--json", "--iterations", "419", "--halo-period", "20"],
                                  capture_output=True, text=True, check=True).stdout)
    assert k["halo"] == j["halo"] and k["makespan"] == j["makespan"], "the default is not a period of 20"




def main():
    with tempfile.TemporaryDirectory() as d:
        dear = os.path.join(d, "dear.lua")
        open(dear, "w").write('return { name = "dear", cost = 50, bytes = 0 }\n')
        check("the default table (IA) matches --json", compare())
        check("an IS table (the simulation idles) matches --json",
              compare("--analytics", dear, "--iterations", "419"))
        check("in transit, mailbox, a tail: the table matches --json",
              compare("--nodes", "3", "--ratio", "1", "--mapping", "intransit", "--iterations", "2010",
                      "--halo-period", "7"))
    check("the default halo period is 20; 419 iterations make 20 steps", defaults_and_steps)
    return SUITE.end()


if __name__ == "__main__":
    sys.exit(main())
