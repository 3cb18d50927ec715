#!/usr/bin/env python3
"""Engine tests: real SimGrid simulations through the real binary (`situ run --json`).

Checks conservation, agreement with the analytic model, where the traffic goes, fast-vs-full
agreement, and bad input. Ends with 'engine: N passed, M failed'."""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import smpi_app  # the promises of --smpi-app
import inline  # mapping=inline at every level
import reduction  # --compression and --decimation at every level
import files  # dtl=file and mapping=posthoc on a platform's disks
import sampling  # sampled full fidelity against every step simulated
import staging  # dtl=staging at every level, with and without back-pressure
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import suite  # noqa: E402

SITU = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "./situ")
passed, failed = 0, 0


def situ(*args, expect=0):
    p = subprocess.run([SITU, *args], capture_output=True, text=True, timeout=300)
    if p.returncode != expect:
        raise AssertionError(f"situ {' '.join(args)}: exit {p.returncode}, expected {expect}: {p.stderr.strip()}")
    return p


def run(*args):
    return json.loads(situ("run", "--json", *args).stdout)


def model(*args):
    return json.loads(situ("model", "--json", *args).stdout)


def check(name, fn):
    global passed, failed
    if not suite.selected(name):  # CASE=PATTERN (tests/suite.py)
        return
    try:
        fn()
        passed += 1
        print(f"ok   {name}")
    except Exception as e:  # a failed check names itself and goes on
        failed += 1
        print(f"FAIL {name}: {e}")


def close(a, b, tol, what):
    if b == 0 and a == 0:
        return
    err = abs(a / b - 1)
    if err > tol:
        raise AssertionError(f"{what}: {a:.6g} vs {b:.6g} ({100 * err:.3f}% > {100 * tol:.1f}%)")


CONSERVATION = [
    ["--iterations", "400", "--nodes", "2"],
    ["--iterations", "400", "--nodes", "2", "--fidelity", "full"],
    ["--iterations", "400", "--nodes", "3", "--mapping", "intransit", "--ratio", "1", "--dtl", "queue"],
    ["--iterations", "400", "--nodes", "3", "--mapping", "intransit", "--ratio", "1", "--fidelity", "full"],
    ["--iterations", "410", "--stride", "20", "--halo-period", "7"],  # a tail after the last analysis
    # 496 ranks at full fidelity: thousands of transfers in flight, each kept by its sender until
    # delivered (sim_dtl.c), every rank's metric copy sent by its node's postman.
    ["--iterations", "60", "--nodes", "16", "--ratio", "31", "--fidelity", "full"],
]


def conservation(args):
    def test():
        r = run(*args)
        # A sampled run (--sampling auto) moves the states of the steps it simulated.
        expected = r["sim_cores"] * r["sampling"]["steps_simulated"]
        c = r["conservation"]
        assert r["steps"] == int(args[1]) // 20, f"steps {r['steps']}"
        for k in ("puts", "gets", "metrics_delivered", "analyses"):
            assert c[k] == expected, f"{k} = {c[k]}, expected sim_cores*steps = {expected}"
        for k in ("sim_active", "sim_idle", "analytics_active", "analytics_idle"):
            assert len(r["per_step"][k]) == r["steps"], f"per_step.{k} has {len(r['per_step'][k])} entries"
        assert r["activities"] > 0 and r["wall_seconds"] > 0
        assert r["fidelity"] == ("full" if "full" in args else "fast")
    return test


MODEL_AGREEMENT = [  # dtl=queue, rho >= 100: the measured makespan is the model's within 2%
    ["--dtl", "queue"],
    ["--dtl", "queue", "--ratio", "31", "--stride", "20", "--compute-scaling", "2"],
    ["--dtl", "queue", "--nodes", "4", "--mapping", "intransit", "--ratio", "3"],
    ["--dtl", "queue", "--nodes", "8", "--ratio", "7", "--iterations", "4000"],
]


def model_agreement(args):
    def test():
        r, m = run(*args), model(*args)
        assert r["steps"] >= 100
        close(r["makespan"], m["makespan"], 0.02, "makespan")
        close(r["sim_active"], m["sim_active"], 0.02, "sim_active")
        close(r["analytics_active"], m["analytics_active"], 0.02, "analytics_active")
        assert r["scenario"] == m["scenario"], f"scenario {r['scenario']} vs model {m['scenario']}"
    return test


def sender_bound():
    # 1 simulation node feeding 2 analytics nodes: the sender's link carries all 8 states at
    # once and sets the pace, not the receivers' links (the model once said half the time).
    args = ["--nodes", "3", "--cores-per-node", "8", "--ratio", "1", "--mapping", "intransit",
            "--data-scaling", "100", "--iterations", "2000"]
    r, m = run(*args), model(*args)
    assert r["steps"] >= 100 and m["analytics_nodes"] == 2 and m["sim_nodes"] == 1
    close(r["makespan"], m["makespan"], 0.02, "makespan")
    close(r["stage"]["R"], m["stage"]["R"], 0.02, "R")


def metrics_fetch():
    # A short step on 12 nodes: each rank's fetch of its metrics copy (a rendezvous, 0.4 ms
    # across the switch) is on its path every step; the model once left it out (11% short).
    args = ["--nodes", "12", "--ratio", "1", "--region", "20", "--compute-scaling", "0.1",
            "--data-scaling", "1000", "--iterations", "2000"]
    r, m = run(*args), model(*args)
    assert r["steps"] >= 100 and r["scenario"] == m["scenario"] == "IA"
    close(r["makespan"], m["makespan"], 0.02, "makespan")
    close(r["sim_idle"], m["sim_idle"], 0.25, "sim_idle (the metrics fetches)")


def exchange_both_ways():
    # An allgather crosses each link both ways at once; SimGrid's cross-traffic (the
    # acknowledgements) leaves 1/1.05 of the link to each way, and the model says so (it was
    # 4.9% short of the simulation before).
    with tempfile.TemporaryDirectory() as d:
        lua = os.path.join(d, "xonly.lua")
        open(lua, "w").write(
            'return { name = "xonly", cost = 0, bytes = 0,\n'
            '  exchange = function(ctx) return { pattern = "allgather", bytes = 96^3 * 4 } end }\n')
        args = ["--nodes", "4", "--cores-per-node", "8", "--ratio", "1", "--mapping", "intransit",
                "--dtl", "queue", "--iterations", "800", "--region", "20", "--analytics", lua]
        r, m = run(*args), model(*args)
        close(r["stage"]["A"], m["stage"]["A"], 0.005, "A (the exchange alone)")


def tail_and_partial_chunk():
    # 419 iterations at stride 20: 20 steps, then 19 iterations (4.5% of the run) with no
    # analysis; in transit on 3 nodes at ratio 1 the 32 states spread over 64 actors, half of
    # them idle: each step costs one whole chunk. SimGrid and the model agree on all of it.
    for dtl in ("queue", "mailbox"):
        args = ["--nodes", "3", "--ratio", "1", "--mapping", "intransit", "--dtl", dtl,
                "--iterations", "419", "--stride", "20", "--halo-period", "7"]
        r, m = run(*args), model(*args)
        assert r["steps"] == m["steps"] == 20, f"steps {r['steps']} vs model {m['steps']}"
        close(r["makespan"], m["makespan"], 0.005, f"makespan ({dtl})")
        close(r["sim_active"], m["sim_active"], 0.005, f"sim_active ({dtl})")
        close(r["analytics_active"], m["analytics_active"], 0.005, f"analytics_active ({dtl})")
        # The tail is in both: 19/20 of a step more than the 400-iteration run.
        short = run(*args[:-4], "--iterations", "400", "--stride", "20", "--halo-period", "7")
        close(r["sim_active"] - short["sim_active"], 19 / 20 * m["stage"]["S"], 0.01,
              f"the simulated tail ({dtl})")


def halo_is_exchanged():
    # Every halo_period iterations the ranks swap faces: the simulation measures that time
    # (the model's within 1%) at every period, one exchange per step (the default, 20) and a
    # period that does not divide the stride (7: 2 or 3 exchanges a step) included,
    # and across nodes the faces load the links between them (the states stay on their node:
    # in situ, queue DTL).
    base = ["--nodes", "2", "--iterations", "400", "--dtl", "queue"]
    net = {}
    for period in (1, 5, 7, 20):
        r, m = run(*base, "--halo-period", str(period)), model(*base, "--halo-period", str(period))
        assert r["halo"] > 0, f"halo period {period}: no halo time measured (exchanges skipped)"
        close(r["halo"], m["halo"], 0.01, f"halo (period {period})")
        net[period] = sum(l["bytes"] for l in r["links"] if not l["name"].endswith("loopback"))
        assert net[period] > 0, f"halo period {period}: no bytes crossed between the nodes"
    assert net[1] > 3 * net[5] > 3 * net[20], f"bytes between the nodes by period: {net}"


def halo_on_node():
    # On one node every halo message crosses only the fat-pipe loopback: full fidelity keeps
    # their dates instead of starting SimGrid transfers (sim_halo.c), which must cost what a
    # transfer would: SimGrid's own said 0.000294254694 s per step at period 20 (within 1.2e-6),
    # and the model's formula is that transfer's.
    for period in (1, 7, 20):
        args = ["--nodes", "1", "--iterations", "100", "--dtl", "queue", "--halo-period", str(period)]
        r, m = run("--fidelity", "full", *args), model(*args)
        close(r["halo"], m["halo"], 1e-4, f"halo on one node (period {period})")
        close(r["makespan"], m["makespan"], 1e-4, f"makespan on one node (period {period})")


def states_on_node():
    # In situ, each state crosses only its node's fat-pipe loopback: full fidelity keeps its
    # dates (sim_dtl.c, channel_set_local), which must cost what SimGrid's transfer did (R and the
    # analytics' active time matched it within 1.2e-8) and what the model says.
    for args in (["--nodes", "1", "--ratio", "1"], ["--nodes", "2", "--ratio", "7"],
                 ["--nodes", "1", "--ratio", "31", "--data-scaling", "10"]):
        args = [*args, "--iterations", "100"]
        r, m = run("--fidelity", "full", *args), model(*args)
        close(r["stage"]["R"], m["stage"]["R"], 1e-4, "R, " + " ".join(args))
        close(r["analytics_active"], m["analytics_active"], 1e-4, "analytics_active, " + " ".join(args))


def traffic_intransit():
    r = run("--iterations", "400", "--nodes", "2", "--mapping", "intransit", "--ratio", "1")
    links = {l["name"]: l for l in r["links"]}
    state = r["particles"] * 100 * r["steps"]  # every state crosses to the analytics node once
    down = links.get("dahu_link_2_DOWN")
    assert down, f"no traffic on the analytics node's link: {sorted(links)}"
    assert down["bytes"] >= state, f"{down['bytes']:.3g} B on dahu_link_2_DOWN < {state:.3g} B of state"
    assert 0 < down["utilisation"] <= 1
    assert "dahu_link_1_UP" in links and links["dahu_link_1_UP"]["bytes"] >= state


def link_alerts():
    r = run("--iterations", "400", "--nodes", "2", "--mapping", "intransit", "--data-scaling", "20",
            "--alert", "0.5")
    assert r["alert_threshold"] == 0.5
    links = {l["name"]: l for l in r["links"]}
    assert links["dahu_link_2_DOWN"]["utilisation"] > 0.5 and links["dahu_link_2_DOWN"]["alert"]
    quiet = [n for n, l in links.items() if l["utilisation"] <= 0.5]
    assert quiet and not any(links[n]["alert"] for n in quiet), "a quiet link was flagged"


def traffic_insitu():
    r = run("--iterations", "400", "--nodes", "2")
    links = {l["name"]: l for l in r["links"]}
    state = r["particles"] * 100 * r["steps"]
    loop = sum(l["bytes"] for n, l in links.items() if n.endswith("loopback"))
    net = sum(l["bytes"] for n, l in links.items() if not n.endswith("loopback"))
    assert loop >= state, f"loopback carried {loop:.3g} B < {state:.3g} B of state"
    assert net < 0.2 * state, f"the network carried {net:.3g} B: state left its node"


AGREEMENT = [  # fidelity fast vs full: makespan and each component's active time within 1%
    ["--iterations", "2000"],
    ["--stride", "1000", "--compute-scaling", "50", "--nodes", "2", "--dtl", "queue"],
    ["--iterations", "2000", "--nodes", "4", "--mapping", "intransit", "--ratio", "1"],
    ["--iterations", "2000", "--nodes", "2", "--mapping", "intransit", "--dtl", "queue"],
    ["--stride", "1000", "--compute-scaling", "50", "--nodes", "4", "--ratio", "7"],
    ["--stride", "1000", "--compute-scaling", "50", "--nodes", "4", "--mapping", "intransit", "--ratio", "3"],
    ["--iterations", "2000", "--nodes", "3", "--ratio", "31", "--dtl", "queue"],
    # Fewer states than actors on a host (16 for 32, or 32, 16 and 16 on three hosts): only some
    # actors work each step, the others wait (fast once counted them all busy: +100%, +50%).
    ["--iterations", "400", "--nodes", "3", "--mapping", "intransit", "--ratio", "1"],
    ["--iterations", "400", "--nodes", "5", "--mapping", "intransit", "--ratio", "1", "--dtl", "queue"],
    # An exchange among the analytics hosts: one actor of each host does it (fast once counted
    # it for every actor: +1133% in transit, +7.9% in situ).
    ["--iterations", "400", "--nodes", "4", "--mapping", "intransit", "--ratio", "1", "--region", "30",
     "--analytics", "scatter"],
    ["--iterations", "400", "--nodes", "2", "--analytics", "scatter"],
    # 6 nodes send to 2 analytics nodes at once: SimGrid's lazy network update gave one of them
    # twice its link (fast 30% short, full 11%); the engine uses the full update (SIM_NETWORK_OPTIM).
    ["--iterations", "400", "--nodes", "8", "--mapping", "intransit", "--ratio", "3", "--region", "40",
     "--data-scaling", "10"],
]


def agreement(args):
    def test():
        fast, full = run(*args), run("--fidelity", "full", *args)
        assert full["activities"] > fast["activities"]
        for k in ("makespan", "sim_active", "analytics_active"):
            close(fast[k], full[k], 0.01, k)
        # Where fast agrees it has mostly no drift to warn of (drift_upper_bound: where it has);
        # where it warns all the same (the estimate is the drift's most), full is in its range.
        if "analytics_active_drifted" in fast:
            assert "upper bound" in fast.get("warning", ""), fast.get("warning")
            assert fast["analytics_active_drifted"] <= full["analytics_active"]
        else:
            assert "upper bound" not in fast.get("warning", ""), fast["warning"]
    return test


def sampled(args):
    def test():
        cells, problem, was_sampled = sampling.compare(args)
        assert problem is None, problem
        assert was_sampled, f"every step simulated ({cells[1]})"
    return test


def link_never_overfull():
    # The same 6-to-2 traffic at full fidelity: each analytics node's link carries 96 states a
    # step, 3 per actor in rounds of 32, so an actor's retrieval is the link's time for them all,
    # as the model says. SimGrid's lazy update let the flows to one node take twice its link
    # (analytics active 11% short of the model, smpi as wrong).
    args = ["--iterations", "400", "--nodes", "8", "--mapping", "intransit", "--ratio", "3",
            "--region", "40", "--data-scaling", "10"]
    r, m = run("--fidelity", "full", *args), model(*args)
    close(r["stage"]["R"], m["stage"]["R"], 0.01, "R")
    close(r["analytics_active"], m["analytics_active"], 0.01, "analytics_active")


def network_bound_intransit():
    # Issue 15's network-bound case: 96 states a step through one analytics node's link, 32
    # actors taking 3 each. Makespan and simulation time agree within 1%. Analytics active time
    # does not yet: full fidelity's ranks leave their halo exchanges up to 2.3 ms apart (a node's
    # ranks differ in their neighbours), so their states, and the actors' rounds, spread, and
    # fewer transfers share the link at once; fast mode keeps a node's ranks in step, so every
    # round shares the link 32 ways: an upper bound, 6.1% above full here (known gap, see
    # docs/model.md). It must stay an upper bound, and no further off.
    args = ["--nodes", "4", "--ratio", "15", "--stride", "20", "--mapping", "intransit",
            "--dtl", "mailbox", "--iterations", "400"]
    fast, full = run(*args), run("--fidelity", "full", *args)
    close(fast["makespan"], full["makespan"], 0.01, "makespan")
    close(fast["sim_active"], full["sim_active"], 0.01, "sim_active")
    gap = fast["analytics_active"] / full["analytics_active"] - 1
    assert 0 <= gap <= 0.07, f"analytics_active: fast {100 * gap:+.2f}% of full, expected 0 to +7%"
    # Both fast and the model say so, with the fully drifted estimate below full's value.
    for r in (fast, model(*args)):
        assert "upper bound" in r.get("warning", ""), r.get("warning")
        assert r["analytics_active_drifted"] < full["analytics_active"] < r["analytics_active"]


# Where the actors may drift apart, fast mode's analytics active time (and makespan) is an upper
# bound, and it says so. Smaller states (region 20 to 40) drift further: full fidelity measured 8.9% to 19.7%
# below fast there, against the fully drifted estimate's 17% to 22%.
DRIFT = [
    ["--nodes", "4", "--mapping", "intransit", "--region", "20", "--iterations", "400"],
    ["--nodes", "4", "--mapping", "intransit", "--region", "30", "--iterations", "400",
     "--halo-period", "5"],
    ["--nodes", "8", "--mapping", "intransit", "--ratio", "3", "--region", "40", "--iterations", "400"],
    # One state per actor: one round, its transfers a halo exchange apart (full: -2.0%).
    ["--nodes", "6", "--mapping", "intransit", "--ratio", "1", "--iterations", "400"],
    # The analytics sets the pace (IS): states wait for the actors, whose rounds drift apart all
    # the same; the step is shorter (full: analytics -8.8%, makespan -7.1%).
    ["--nodes", "16", "--ratio", "15", "--mapping", "intransit", "--iterations", "800"],
]


def drift_upper_bound(args):
    def test():
        fast, full = run(*args), run("--fidelity", "full", *args)
        assert "upper bound" in fast.get("warning", ""), fast.get("warning")
        assert full["analytics_active"] <= fast["analytics_active"] * 1.005, (
            f"full {full['analytics_active']:.6g} s above fast's bound {fast['analytics_active']:.6g} s")
        assert fast["analytics_active_drifted"] < fast["analytics_active"]
        # The makespan is an upper bound too (where the analytics sets the pace, by as much).
        assert full["makespan"] <= fast["makespan"] * 1.005, (
            f"full's makespan {full['makespan']:.6g} s above fast's {fast['makespan']:.6g} s")
    return test


def hostfile_mapping():
    with tempfile.TemporaryDirectory() as d:
        hf = os.path.join(d, "hosts")
        open(hf, "w").write("# analytics on a node of their own\ndahu-3 slots=4\n")
        r = run("--iterations", "400", "--nodes", "2", "--mapping", "hostfile", "--hostfile", hf)
        m = model("--iterations", "400", "--nodes", "2", "--mapping", "hostfile", "--hostfile", hf)
        assert r["analytics_cores"] == 4 and r["analytics_nodes"] == 1
        links = {l["name"] for l in r["links"]}
        assert "dahu_link_3_DOWN" in links, f"states did not reach dahu-3: {sorted(links)}"
        close(r["makespan"], m["makespan"], 0.02, "makespan")


# One layout rule for every engine (issue 26): what the model accepts, fast and full run with the
# same placement; what one of them would refuse, all refuse at the start, exit 2, the same line.
HOSTFILE_EDGES = [  # (hostfile, nodes, ratio, cores_per_node): valid, at the limits
    ("# a node full of analytics: cores_per_node slots\ndahu-1 slots=16\n", 2, 1, 16),
    ("dahu-1 slots=8\ndahu-1.grid5000.fr:8\n", 2, 1, 16),  # two spellings, summing to the limit
    ("dahu-32 slots=2\n", 1, 15, 32),  # the analytics beyond --nodes' first hosts
    ("".join(f"dahu-{i}:1\n" for i in range(1, 17)), 2, 3, 16),  # one slot on each of 16 hosts
    ("dahu-1:2\ndahu-3:30\n", 2, 1, 32),  # ranks fill the free cores, host by host
]
HOSTFILE_REFUSED = [  # (hostfile, nodes, ratio, cores_per_node, the line's words)
    ("dahu-1 slots=32\n", 4, 1, 16, ":1: host 'dahu-1' given 32 slots, more than cores_per_node (16)"),
    ("dahu-1 slots=32\n", 1, 15, 16, ":1: host 'dahu-1' given 32 slots"),
    ("dahu-1:8\ndahu-1:9\n", 4, 1, 16, ":2: host 'dahu-1' given 17 slots in all"),
    ("dahu-1:0\n", 2, 1, 16, ":1: expected 'HOST'"),
    ("dahu-40:1\n", 2, 1, 16, ":1: unknown host 'dahu-40'"),
    ("dahu-1:33\n", 2, 1, 32, ":1: host 'dahu-1' given 33 slots, more than its 32 cores"),
]
LAYOUT_KEYS = ("sim_cores", "analytics_cores", "sim_nodes", "analytics_nodes", "nodes_used")


def hostfile_one_rule():
    with tempfile.TemporaryDirectory() as d:
        hf = os.path.join(d, "hosts")
        for text, n, r, c in HOSTFILE_EDGES:
            open(hf, "w").write(text)
            args = ["--mapping", "hostfile", "--hostfile", hf, "--nodes", str(n), "--ratio", str(r),
                    "--cores-per-node", str(c), "--iterations", "40", "--stride", "20",
                    "--region", "20"]
            m = model(*args)
            for fidelity in ("fast", "full"):
                got = run("--fidelity", fidelity, *args)
                for k in LAYOUT_KEYS:
                    assert got[k] == m[k], f"{text!r} {fidelity}: {k} {got[k]}, model {m[k]}"
                c = got["conservation"]
                assert c["puts"] == c["gets"] == c["analyses"], f"{text!r} {fidelity}: {c}"
        for text, n, r, c, words in HOSTFILE_REFUSED:
            open(hf, "w").write(text)
            args = ["--mapping", "hostfile", "--hostfile", hf, "--nodes", str(n), "--ratio", str(r),
                    "--cores-per-node", str(c), "--iterations", "40"]
            lines = set()
            for cmd in (["model"], ["run", "--fidelity", "fast"], ["run", "--fidelity", "full"]):
                p = situ(*cmd, *args, expect=2)
                assert p.stdout == "" and len(p.stderr.splitlines()) == 1, p.stderr
                assert hf + words in p.stderr, f"{' '.join(cmd)}: {words!r} not in {p.stderr!r}"
                lines.add(p.stderr)
            assert len(lines) == 1, f"{text!r}: the engines say different things: {lines}"


FIG8 = [  # the paper's Fig. 8 grid, 8 steps: eq. 5 is up to 8.3% short (R = 15), the model within 1%
    ["--preset", "paper-fig8", "--nodes", str(n), "--ratio", str(r)]
    for n, rs in ((1, (1, 3, 7, 15, 31)), (2, (15, 31))) for r in rs
]

SHORT = [  # rho = iterations / stride <= 20: warm-up, fill and drain weigh (eq. 5: 7% to 42% short)
    ["--iterations", "20"],
    ["--iterations", "100", "--nodes", "2"],
    ["--iterations", "60", "--nodes", "4", "--region", "20"],
    ["--iterations", "100", "--nodes", "2", "--mapping", "intransit", "--ratio", "3"],
    ["--iterations", "400", "--nodes", "4", "--ratio", "7", "--region", "30"],
    # Latency-bound, one step: the run's end (the poisoned values, then the collector's) was
    # missing (eq. 5: 37% short, with fill/drain: 25%).
    ["--nodes", "12", "--ratio", "3", "--region", "5", "--stride", "5", "--iterations", "5",
     "--compute-scaling", "10", "--mapping", "intransit", "--halo-period", "5"],
    # In situ, one step on 4 nodes: the run's end stays on the loopback (two hops: 4% over).
    ["--iterations", "20", "--nodes", "4", "--region", "20"],
    # 50 iterations, halos every 20: two exchanges, not an average of 2.5 (19% over).
    ["--nodes", "16", "--ratio", "3", "--region", "8", "--stride", "5", "--iterations", "50",
     "--halo-period", "20", "--dtl", "queue"],
]

# In situ, an allgather crosses the node links while the halos do (every iteration here): the
# model once treated them apart and was 5.5% short (the worst of 80 random configurations).
INTERFERENCE = [
    ["--analytics", "scatter", "--nodes", "2", "--ratio", "3", "--region", "20",
     "--compute-scaling", "0.3", "--data-scaling", "10", "--halo-period", "1", "--iterations", "400"],
    ["--analytics", "scatter", "--nodes", "4", "--ratio", "15", "--region", "30",
     "--compute-scaling", "0.3", "--halo-period", "1", "--iterations", "400"],
]


def model_vs_full(configs, tol):
    def test():
        for args in configs:
            r, m = run("--fidelity", "full", *args), model(*args)
            assert m["steps"] <= 20 or "paper-fig8" in args, m["steps"]
            close(m["makespan"], r["makespan"], tol, "model makespan vs full, " + " ".join(args))
    return test


# Simulation profiles (--simulation): each shipped one, where the model gives no caution, within 2%
# of full, in situ and in transit, one node and several (heat3d: slabs in a ring; shallow2d: tiles
# of a closed basin, two-cell halos).
PROFILES = [
    ["--simulation", "heat3d", "--nodes", "1", "--iterations", "400", "--cells", "192", "--ratio", "7",
     "--analytics-cost", "1e-10"],
    ["--simulation", "heat3d", "--nodes", "3", "--iterations", "200", "--cells", "128",
     "--mapping", "intransit", "--ratio", "1", "--analytics-cost", "1e-10", "--data-size", "8"],
    ["--simulation", "shallow2d", "--nodes", "1", "--iterations", "200", "--side", "1024",
     "--ratio", "3", "--analytics-cost", "1e-9"],
    ["--simulation", "shallow2d", "--nodes", "3", "--iterations", "100", "--stride", "10",
     "--side", "1024", "--mapping", "intransit", "--ratio", "1", "--analytics-cost", "1e-9"],
]


def profile_agreement(args):
    def test():
        r, m = run("--fidelity", "full", *args), model(*args)
        assert not m.get("warning"), m["warning"]
        assert m["config"]["simulation"] == args[1], m["config"]
        close(m["makespan"], r["makespan"], 0.02, "model makespan vs full")
        close(m["sim_active"], r["sim_active"], 0.02, "model sim_active vs full")
    return test


# A profile that reads ctx.step (amr3d: every 4th step refined, 4x its compute and its halo
# bytes): the model sums its classes, fast and full run each step's costs. One node, where the
# refined steps are the simulation's and the others the analysis' (both sides wait); two nodes,
# where the scaled halos cross the network.
PER_STEP = ["--simulation", "amr3d", "--iterations", "200", "--cells", "96", "--analytics-cost", "2e-9",
            "--stride", "10", "--refine-every", "4", "--refine-cost", "4", "--cell-cost", "6e-9"]
PER_STEP_RUNS = [["--nodes", "1"], ["--nodes", "2", "--ratio", "7"]]


def per_step_profile(extra):
    def test():
        args = PER_STEP + extra
        m = model(*args)
        assert not m.get("warning"), m["warning"]
        fast, full = run("--fidelity", "fast", *args), run("--fidelity", "full", "--sampling", "off", *args)
        for r in (fast, full):
            close(m["makespan"], r["makespan"], 0.02, f"model makespan vs {r['fidelity']}")
        close(fast["makespan"], full["makespan"], 0.005, "fast makespan vs full")
        # Never refined: another run by more than the tolerances above (the steps are seen).
        plain = run("--fidelity", "full", "--sampling", "off", *args, "--refine-every", "10000")
        assert full["sim_active"] > 1.2 * plain["sim_active"], (full["sim_active"], plain["sim_active"])
        if extra == ["--nodes", "1"]:  # both sides wait, each in its own class of steps
            assert full["sim_idle"] > 0.1 * full["makespan"] and full["analytics_idle"] > 0.1 * full["makespan"], full
    return test


def melt_profile_is_builtin():
    # melt.lua repeats the built-in's arithmetic: every number the same at every fidelity.
    def strip(d):
        if isinstance(d, dict):
            return {k: strip(v) for k, v in d.items() if "wall" not in k and k != "config"}
        return [strip(x) for x in d] if isinstance(d, list) else d
    for args in (["--nodes", "2", "--iterations", "200"],
                 ["--nodes", "3", "--iterations", "90", "--halo-period", "7", "--region", "40",
                  "--mapping", "intransit", "--ratio", "7"]):
        for how in (model, lambda *a: run("--fidelity", "fast", *a), lambda *a: run("--fidelity", "full", *a)):
            builtin, melt = how(*args), how("--simulation", "melt", *args)
            assert strip(builtin) == strip(melt), (args, builtin["makespan"], melt["makespan"])
            assert melt["config"]["simulation"] == "melt"


# fidelity=smpi: Situ's workflow as an MPI proxy under smpirun, LV08 network: full's numbers.
# Small configurations (about a second each); tests/engine/smpi_slow.py runs the larger ones.
SMPI = [
    ["--iterations", "400", "--nodes", "2"],
    ["--iterations", "200", "--nodes", "3", "--mapping", "intransit", "--ratio", "1", "--dtl", "queue"],
    # one node: a rank's two z neighbours are one rank; halos every 7 iterations; a tail
    ["--iterations", "90", "--stride", "20", "--halo-period", "7", "--region", "40"],
    # an allgather among the analytics hosts, halos every iteration
    ["--analytics", "scatter", "--nodes", "2", "--ratio", "3", "--region", "20",
     "--compute-scaling", "0.3", "--halo-period", "1", "--iterations", "60"],
    # simulation profiles: slabs in a ring; tiles of a closed basin (their declared parameters
    # and shape reach the proxy's processes)
    ["--simulation", "heat3d", "--nodes", "3", "--mapping", "intransit", "--ratio", "1", "--cells", "96", "--iterations", "40",
     "--analytics-cost", "1e-9"],
    ["--simulation", "shallow2d", "--nodes", "2", "--ratio", "3", "--side", "512", "--iterations", "40",
     "--analytics-cost", "1e-9"],
]


def smpi_agreement(args):
    def test():
        full, smpi = run("--fidelity", "full", *args), run("--fidelity", "smpi", *args)
        assert smpi["fidelity"] == "smpi" and smpi["config"]["smpi_network"] == "LV08"
        for k in ("makespan", "sim_active", "analytics_active", "sim_idle"):
            close(smpi[k], full[k], 0.005, k)
        for k in ("R", "A"):
            close(smpi["stage"][k], full["stage"][k], 0.02, "stage " + k)
        for k in ("W", "C"):  # sub-millisecond waits: the order metrics land in may differ
            close(smpi["stage"][k], full["stage"][k], 0.1, "stage " + k)
        assert smpi["conservation"] == full["conservation"], (smpi["conservation"], full["conservation"])
        for k in ("sim_active", "analytics_active"):
            assert len(smpi["per_step"][k]) == smpi["steps"] == full["steps"]
        links = lambda r: {l["name"]: l["bytes"] for l in r["links"]}
        assert links(smpi).keys() == links(full).keys(), (sorted(links(smpi)), sorted(links(full)))
        for name, b in links(full).items():
            close(links(smpi)[name], b, 1e-9, "bytes on " + name)
        assert smpi["wall_seconds"] > 0
    return test


def smpi_network_model():
    # SMPI's piecewise model is another network: the same run, other communication times.
    args = ["--iterations", "200", "--nodes", "3", "--mapping", "intransit", "--ratio", "1"]
    lv, pw = run("--fidelity", "smpi", *args), run("--fidelity", "smpi", "--smpi-network", "SMPI", *args)
    assert pw["config"]["smpi_network"] == "SMPI"
    assert lv["stage"]["R"] != pw["stage"]["R"], "--smpi-network SMPI changed nothing"
    close(pw["makespan"], lv["makespan"], 0.05, "makespan, SMPI vs LV08 network")


STENCIL = os.path.join(os.path.dirname(SITU), "build", "stencil")


def stencil(mapping):
    # The example application (scripts/smpi/stencil.c) computes for real, puts 4 states per rank,
    # and Situ's analytics get them where the mapping says.
    def test():
        # 16 ranks: on one node, analytics on the other; or 8 and 2 analytics on each node
        cores = ["--ratio", "3", "--cores-per-node", "16"] if mapping == "intransit" else \
            ["--ratio", "4", "--cores-per-node", "10"]
        r = run("--smpi-app", STENCIL, "32", "40", "10", "--iterations", "40", "--stride", "10",
                "--nodes", "2", "--mapping", mapping, *cores)
        assert r["fidelity"] == "smpi" and r["steps"] == 4, (r["fidelity"], r["steps"])
        assert r["app"]["command"][1:] == ["32", "40", "10"], r["app"]["command"]
        ranks = r["sim_cores"]
        # the sweeps it computed (3 per rank, SMPI samples the rest) and its halos kept the heat
        want = f"stencil: 32^3 cells, {ranks} ranks, 40 steps, heat left 4096.000000 of 4096"
        assert want in r["app"]["output"], r["app"]["output"]
        c = r["conservation"]
        assert c["puts"] == c["gets"] == c["analyses"] == c["metrics_delivered"] == ranks * 4, c
        slab = 32 * 32 * (32 // ranks) * 8 * ranks * 4  # every rank's slab, 4 times
        links = {l["name"]: l["bytes"] for l in r["links"]}
        if mapping == "intransit":
            assert r["analytics_nodes"] == 1 and r["sim_nodes"] == 1
            close(links["dahu_link_2_DOWN"], slab, 0.01, "states into the analytics node")
        else:
            assert r["analytics_nodes"] == 2
            assert sum(b for n, b in links.items() if n.endswith("loopback")) >= slab
        assert r["makespan"] > 0 and r["analytics_active"] > 0
    return test


def sim_log(tmp):
    """The simulation's XBT categories: quiet unless SITU_SIM_LOG asks, then one line where the
    run starts and one where it ends, a line per step from the collector, in the named file; the
    result is the same either way."""
    def test():
        args = ["run", "--json", "--nodes", "2", "--iterations", "100"]
        for fidelity in ("fast", "full", "smpi"):
            cfg = args + ["--fidelity", fidelity]
            quiet = situ(*cfg)
            assert quiet.stderr == "", f"{fidelity}: SimGrid or Situ wrote on stderr: {quiet.stderr[:200]!r}"
            path = os.path.join(tmp, f"sim-{fidelity}.log")
            env = dict(os.environ, SITU_SIM_LOG="situ_sim.thresh:debug", SITU_SIM_LOG_FILE=path)
            p = subprocess.run([SITU, *cfg], capture_output=True, text=True, timeout=300, env=env)
            assert p.returncode == 0 and p.stderr == "", f"{fidelity}: exit {p.returncode}: {p.stderr[:200]!r}"
            logged, plain = json.loads(p.stdout), json.loads(quiet.stdout)
            for d in (logged, plain):
                d.pop("wall_seconds")
            assert logged == plain, f"{fidelity}: logging changed the result"
            lines = open(path).read().splitlines()
            start = [l for l in lines if "[situ_sim/VERBOSE]" in l and f"{fidelity} fidelity:" in l]
            end = [l for l in lines if "[situ_sim/VERBOSE] ended at" in l]
            assert len(start) == 1 and len(end) == 1, f"{fidelity}: start/end lines {start} {end}"
            analyses = plain["conservation"]["analyses"]
            assert end[0].endswith(f" {analyses} analyses"), f"{fidelity}: {end[0]!r} vs {analyses} analyses"
            steps = [l for l in lines if "[situ_sim_actors/DEBUG]" in l and "every rank's metric is in" in l]
            assert len(steps) == plain["steps"], f"{fidelity}: {len(steps)} collector lines, {plain['steps']} steps"
    return test


def bad(args, code, needle):
    def test():
        p = situ(*args, expect=code)
        assert p.stdout == "", f"stdout not empty: {p.stdout[:80]!r}"
        lines = p.stderr.strip().splitlines()
        assert len(lines) == 1, f"expected one line on stderr, got {len(lines)}: {p.stderr!r}"
        assert needle in lines[0], f"{needle!r} not in {lines[0]!r}"
    return test


def main():
    global failed  # suite.none_matched may add one
    tmp = tempfile.mkdtemp()
    garbage = os.path.join(tmp, "garbage.xml")
    open(garbage, "w").write("<platform><cluster")
    rejected = os.path.join(tmp, "rejected.xml")
    src = open(os.path.join(os.path.dirname(SITU), "platforms", "dahu.xml")).read()
    open(rejected, "w").write(src.replace('core="32"', 'core="32" bogus="1"'))
    unknown = os.path.join(tmp, "unknown-hosts")
    open(unknown, "w").write("dahu-99 slots=2\n")
    few = os.path.join(tmp, "few-slots")
    open(few, "w").write("dahu-3 slots=1\n")

    for a in CONSERVATION:
        check("conservation " + " ".join(a), conservation(a))
    for a in MODEL_AGREEMENT:
        check("queue DTL matches the model within 2% " + " ".join(a), model_agreement(a))
    check("one sender feeding two analytics nodes: its link sets the pace", sender_bound)
    check("the ranks' metrics fetch is on their path every step", metrics_fetch)
    check("an allgather moves both ways at once (cross-traffic)", exchange_both_ways)
    check("a tail and a partial chunk: SimGrid matches the model", tail_and_partial_chunk)
    check("the halo exchange happens, and costs what the model says", halo_is_exchanged)
    check("on-node halo messages cost what a loopback transfer costs", halo_on_node)
    check("in-situ states cost what a loopback transfer costs", states_on_node)
    check("in-transit states cross the analytics node's link", traffic_intransit)
    check("in-situ states stay on the loopback", traffic_insitu)
    check("links above --alert are flagged", link_alerts)
    for a in AGREEMENT:
        check("fast agrees with full within 1% " + " ".join(a), agreement(a))
    for a in sampling.QUICK:
        check("sampled full within 0.5% of every step simulated " + " ".join(a), sampled(a))
    check("no link carries more than it holds (SimGrid's full network update)", link_never_overfull)
    check("network-bound in transit: fast within 1% on makespan and simulation time", network_bound_intransit)
    for a in DRIFT:
        check("the actors may drift: fast is an upper bound and warns " + " ".join(a),
              drift_upper_bound(a))
    check("hostfile mapping places the analytics by host name", hostfile_mapping)
    check("hostfiles: what the model accepts fast and full run alike; the rest is refused once",
          hostfile_one_rule)
    check("model's makespan within 1% of full on the Fig. 8 grid", model_vs_full(FIG8, 0.01))
    check("model's makespan within 2% of full for rho <= 20", model_vs_full(SHORT, 0.02))
    check("model's makespan within 2% of full when an allgather meets the halos",
          model_vs_full(INTERFERENCE, 0.02))
    check("--simulation melt gives the built-in's numbers at model, fast and full",
          melt_profile_is_builtin)
    for a in PROFILES:
        check("model within 2% of full for a simulation profile " + " ".join(a), profile_agreement(a))
    for a in PER_STEP_RUNS:
        check("a profile that reads ctx.step: model, fast and full agree " + " ".join(a), per_step_profile(a))
    check("fig. 8 trend: R=31 at (1000, 50) makes the simulation wait",
          lambda: (lambda r: (r["scenario"] == "IS") or (_ for _ in ()).throw(AssertionError(r["scenario"])))(
              run("--stride", "1000", "--compute-scaling", "50", "--ratio", "31")))
    for name, test in inline.checks(SITU, tmp):
        check(name, test)
    for name, test in reduction.checks(SITU, tmp):
        check(name, test)
    for name, test in files.checks(SITU, tmp):
        check(name, test)
    for name, test in staging.checks(SITU, tmp):
        check(name, test)
    check("the simulation logs to situ_sim only when asked (SITU_SIM_LOG)", sim_log(tmp))
    check("malformed platform: exit 2", bad(["run", "--platform", garbage], 2, garbage))
    check("platform SimGrid would reject: refused at load, exit 2", bad(["run", "--platform", rejected], 2, "bogus"))
    check("fewer nodes than asked: exit 2", bad(["run", "--nodes", "33"], 2, "nodes"))
    check("hostfile with unknown hosts: exit 2",
          bad(["run", "--mapping", "hostfile", "--hostfile", unknown], 2, "dahu-99"))
    check("hostfile with too few slots: exit 2",
          bad(["run", "--mapping", "hostfile", "--hostfile", few], 2, "too few slots"))
    check("unknown fidelity: exit 2", bad(["run", "--fidelity", "exact"], 2, "fidelity"))
    check("unknown sampling: exit 2", bad(["run", "--sampling", "on"], 2, "sampling"))
    check("dtl=file on a platform without disks: exit 2", bad(["run", "--dtl", "file"], 2, "dahu.xml"))
    check("mapping=posthoc on a platform without disks: exit 2",
          bad(["model", "--mapping", "posthoc"], 2, "has no disks"))
    check("files at fidelity=smpi: exit 2",
          bad(["run", "--dtl", "file", "--platform", "platforms/dahu-pfs.xml", "--fidelity", "smpi"], 2,
              "smpi cannot model files"))
    for a in SMPI:
        check("smpi (LV08) agrees with full within 0.5% " + " ".join(a), smpi_agreement(a))
    check("--smpi-network SMPI is another network model", smpi_network_model)
    for mapping in ("insitu", "intransit"):
        check(f"the stencil example runs end to end ({mapping})", stencil(mapping))
    check("a crashing or hanging application: exit 3, nothing left behind", smpi_app.crash_and_hang(SITU, tmp))
    check("--smpi-app: arguments reach the application byte for byte (TMPDIR with a space)",
          smpi_app.arguments(SITU, tmp))
    check("smpi under a TMPDIR with a space and a comma", smpi_app.proxy_tmpdir(SITU, tmp))
    check("--smpi-app: situ_dtl's reason is the one reason line", smpi_app.reasons(SITU, tmp))
    check("--smpi-app: output that is not UTF-8 is kept, escaped", smpi_app.output_bytes(SITU, tmp))
    check("--smpi-app: output past 64 KiB says it was cut", smpi_app.output_cut(SITU, tmp))
    check("--smpi-app: every process of the run dies with situ, its directory goes",
          smpi_app.processes_die(SITU, tmp))
    notelf = os.path.join(tmp, "notelf")
    open(notelf, "w").write("#!/bin/sh\n")
    check("unknown network model: exit 2", bad(["run", "--smpi-network", "ib"], 2, "smpi_network"))
    check("--smpi-app without a program: exit 2", bad(["run", "--smpi-app"], 2, "smpi-app"))
    check("--smpi-app of a missing file: exit 2",
          bad(["run", "--smpi-app", os.path.join(tmp, "nope")], 2, "nope"))
    check("--smpi-app of a script: exit 2", bad(["run", "--smpi-app", notelf], 2, "smpicc"))
    check("--smpi-app at another fidelity: exit 2",
          bad(["run", "--smpi-app", STENCIL, "--fidelity", "full"], 2, "fidelity"))
    failed += suite.none_matched("engine", passed + failed)
    print(f"engine: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
