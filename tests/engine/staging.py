"""dtl=staging (model.h, sim_staging.c): staging servers on the analytics nodes of mapping=intransit,
each holding --staging-memory bytes of states; a put waits while its server is full. On dahu and on
platforms/staging.xml (the staging zone behind its uplink), with and without back-pressure:
  - without (the servers hold a step's states): model, fast and full within 2% on the makespan and
    on simulation and analytics active time; no wait, no back-pressure, no staging caution;
  - with (one state per server, the analytics the slower side): model and fast within 2% of full on
    the makespan, analytics active time and R (the servers' queue), every level says back-pressure
    sets the pace and the simulation waits (IS), the model
    cautions (its split of the ranks' time leaves their waits out) and fast says it ran as full;
  - where the simulation is the slower side, the model's caution gives a range that holds full;
  - step sampling stays off (it does not see the servers' waits).
Bad input (a memory below one state, another mapping, smpi) exits 2 naming the parameter. Run by
tests/engine/run.py (make test): 200 iterations, each full run about a second."""
import json
import os
import re
import subprocess

from agree import close, situ_json  # noqa: E402  (tests/engine/agree.py)

BASE = ["--mapping", "intransit", "--dtl", "staging", "--iterations", "200"]
ZONE = ["--platform", "platforms/staging.xml", "--analytics-zone", "staging"]
PLATFORMS = [("dahu, 4 nodes", ["--nodes", "4"]), ("staging.xml, 8 nodes", ZONE + ["--nodes", "8"])]
ONE_STATE = ["--staging-memory", "2e6"]  # a rank's state is 1.4 MB (dahu) or 0.6 MB: one or three fit


def call(situ, *args, expect=0):
    p = subprocess.run([situ, *args], capture_output=True, text=True, timeout=300, cwd=os.path.dirname(situ))
    if p.returncode != expect:
        raise AssertionError(f"situ {' '.join(args)}: exit {p.returncode}, expected {expect}: {p.stderr.strip()}")
    return p


def levels(situ, args):
    out = {"model": json.loads(call(situ, "model", "--json", *BASE, *args).stdout)}
    for f in ("fast", "full"):
        out[f] = json.loads(call(situ, "run", "--json", "--fidelity", f, *BASE, *args).stdout)
    return out


def unbounded(situ, args):
    def test():
        r = levels(situ, args)
        for lv in ("model", "fast"):
            for k in ("makespan", "sim_active", "analytics_active"):
                close(r[lv][k], r["full"][k], 0.02, f"{lv} {k} vs full")
        for lv, d in r.items():
            assert d["staging_wait"] == 0 and d["backpressure"] is False, f"{lv}: {d['staging_wait']} {d['backpressure']}"
            assert "staging" not in d.get("warning", ""), f"{lv} cautions: {d['warning']}"
    return test


def backpressure(situ, args):
    def test():
        r = levels(situ, args + ONE_STATE)
        free = json.loads(call(situ, "run", "--json", "--fidelity", "full", *BASE, *args).stdout)
        for lv in ("model", "fast"):
            for k in ("makespan", "analytics_active"):
                close(r[lv][k], r["full"][k], 0.02, f"{lv} {k} vs full")
        for lv, d in r.items():
            assert d["staging_wait"] > 0 and d["backpressure"] is True, f"{lv}: {d['staging_wait']} {d['backpressure']}"
            assert d["scenario"] == "IS", f"{lv}: {d['scenario']}"  # the queue is the longer side
        close(r["model"]["stage"]["R"], r["full"]["stage"]["R"], 0.02, "R (the servers' queue) vs full")
        assert "staging servers" in r["model"]["warning"], r["model"].get("warning")
        assert "back-pressure" in r["fast"]["warning"], r["fast"].get("warning")
        # The memory bound costs: one state per server serialises the analyses.
        assert r["full"]["makespan"] > 1.5 * free["makespan"], (r["full"]["makespan"], free["makespan"])
    return test


def simulation_slower(situ):
    """The simulation the slower side: the waits lengthen the steps by part of themselves; the
    model's makespan is the range's low end, its caution the high end, and full lies between."""
    def test():
        args = ["--nodes", "4", "--compute-scaling", "0.05"] + ONE_STATE
        m = json.loads(call(situ, "model", "--json", *BASE, *args).stdout)
        full = json.loads(call(situ, "run", "--json", "--fidelity", "full", *BASE, *args).stdout)
        got = re.search(r"low by up to (\d+)%", m.get("warning", ""))
        assert got, f"no range in the model's caution: {m.get('warning')!r}"
        high = m["makespan"] * (1 + int(got.group(1)) / 100 + 0.01)
        assert m["makespan"] * 0.99 <= full["makespan"] <= high, (m["makespan"], full["makespan"], high)
        assert full["makespan"] > m["makespan"] * 1.02, "the case no longer exercises the caution"
    return test


def every_step(situ):
    """Step sampling does not see the servers' waits: staging runs every step, where the mailbox DTL
    of the same run stops early."""
    def test():
        args = ["run", "--json", "--fidelity", "full", "--nodes", "4", "--mapping", "intransit", "--iterations", "1000"]
        st = json.loads(call(situ, *args, "--dtl", "staging").stdout)
        mb = json.loads(call(situ, *args, "--dtl", "mailbox").stdout)
        assert st["sampling"]["steps_simulated"] == st["steps"], st["sampling"]
        assert mb["sampling"]["steps_simulated"] < mb["steps"], f"sampling no longer applies here: {mb['sampling']}"
    return test


def bad(situ, args, needle):
    def test():
        p = call(situ, *args, expect=2)
        lines = p.stderr.strip().splitlines()
        assert p.stdout == "" and len(lines) == 1 and needle in lines[0], p.stderr
    return test


def checks(situ, tmp):
    """(name, test) pairs for run.py's check()."""
    del tmp
    out = []
    for what, args in PLATFORMS:
        out.append((f"staging, no back-pressure: model, fast and full within 2%, {what}", unbounded(situ, args)))
        out.append((f"staging, back-pressure: model and fast within 2% of full, every level says so, {what}",
                    backpressure(situ, args)))
    out.append(("staging, the simulation slower: full within the model's cautioned range", simulation_slower(situ)))
    out.append(("staging: full fidelity simulates every step (sampling off)", every_step(situ)))
    out.append(("staging memory below one state: exit 2",
                bad(situ, ["run", *BASE, "--nodes", "4", "--staging-memory", "1e6"], "staging_memory")))
    out.append(("staging in situ: exit 2", bad(situ, ["model", "--dtl", "staging", "--nodes", "2"], "mapping=intransit")))
    out.append(("staging under smpi: exit 2",
                bad(situ, ["run", *BASE, "--nodes", "4", "--fidelity", "smpi"], "fidelity")))
    return out
