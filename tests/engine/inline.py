"""mapping=inline at every level (model.h): every core a rank that analyses its own part every
stride, then the ranks' exchange. The model, fast and full agree within 2% on two platforms and
for each exchange pattern, without a caution; smpi agrees with full; nothing travels to analytics
(no puts, no metrics), and the result says inline (no idle, efficiency 1). Run by
tests/engine/run.py (make test); tests/engine/smpi_levels.py puts them beside the other levels."""
import os

from agree import close, situ_json  # noqa: E402  (tests/engine/agree.py)

# (what, arguments): one exchange pattern each, on two platforms of different topologies. 400
# iterations: 20 steps, each full run well under a second.
AGREEMENT = [
    ("thermo (no exchange), dahu, 2 nodes", ["--iterations", "400", "--nodes", "2"]),
    ("scatter (allgather), dahu, 4 nodes", ["--iterations", "400", "--nodes", "4", "--analytics", "scatter"]),
    ("histogram (allreduce), fat tree, 4 nodes",
     ["--iterations", "400", "--nodes", "4", "--analytics", "histogram", "--platform", "platforms/fattree64.xml"]),
    ("scatter (allgather), dragonfly, 8 nodes",
     ["--iterations", "400", "--nodes", "8", "--analytics", "scatter", "--platform", "platforms/dragonfly64.xml"]),
    # one rank, as calibrate fits a one-rank run (cores_per_node 1 is valid for inline only)
    ("thermo, one rank (--cores-per-node 1)", ["--iterations", "400", "--nodes", "1", "--cores-per-node", "1",
                                               "--region", "20"]),
]

GATHER = """return { name = 'gathered', description = 'a gather of 1 MB per rank to rank 0',
  cost = function(c) return c.particles * c.analytics_cost * c.compute_scaling end,
  bytes = function(c) return 0 end,
  exchange = function(c) return { pattern = 'gather', bytes = 1e6 } end }
"""


def call(situ, *args):
    return situ_json(situ, *args, "--mapping", "inline")


def inline_result(r, measured=True):
    """What every inline result says, whoever computed it. A rank is never idle: its S and its
    analysis fill the run, but for the ranks that end first (a gather's senders) in a measure."""
    assert r["scenario"] == "inline", r["scenario"]
    assert r["efficiency"] == 1, r["efficiency"]
    assert r["analytics_cores"] == 0 and r["analytics_nodes"] == 0
    cores = r["config"]["nodes"] * r["config"]["cores_per_node"]
    assert r["sim_cores"] == cores, f"{r['sim_cores']} ranks on {cores} cores"
    assert r["sim_idle"] == 0 and r["analytics_idle"] == 0, (r["sim_idle"], r["analytics_idle"])
    st = r["stage"]
    assert st["R"] == st["Ing"] == st["W"] == st["C"] == 0, st
    close(r["makespan"], r["sim_active"] + r["analytics_active"], 0.02 if measured else 1e-9,
          "makespan = sim + analysis")
    assert "warning" not in r, r["warning"]


def agreement(situ, args):
    def test():
        m = call(situ, "model", *args)
        inline_result(m, False)
        for fid in ("fast", "full"):
            r = call(situ, "run", "--fidelity", fid, *args)
            inline_result(r)
            for k in ("makespan", "sim_active", "analytics_active"):
                close(r[k], m[k], 0.02, f"{fid} {k} vs the model")
            c = r["conservation"]
            assert c["analyses"] == r["sim_cores"] * r["steps"], c
            assert c["puts"] == c["gets"] == c["metrics_delivered"] == 0, c
            assert len(r["per_step"]["analytics_active"]) == r["steps"]
        assert m["stage"]["A"] > 0
    return test


def gather(situ, tmp):
    def test():
        path = os.path.join(tmp, "gathered.lua")
        open(path, "w").write(GATHER)
        args = ["--iterations", "200", "--nodes", "3", "--analytics", path]
        m = call(situ, "model", *args)
        full = call(situ, "run", "--fidelity", "full", *args)
        inline_result(full)
        # 64 ranks' MB to rank 0's node over its link: it dominates the analysis
        assert m["stage"]["A"] > 64e6 / 1.25e9, m["stage"]
        close(full["makespan"], m["makespan"], 0.02, "full makespan vs the model")
    return test


def no_analysis(situ):
    def test():  # compute_scaling 0: the built-in thermo costs nothing inline (situ calibrate)
        args = ["--iterations", "200", "--nodes", "2", "--compute-scaling", "0"]
        m, full = call(situ, "model", *args), call(situ, "run", "--fidelity", "full", *args)
        assert m["analytics_active"] == 0 and full["analytics_active"] == 0, (m, full)
        close(full["makespan"], m["makespan"], 0.02, "makespan")
    return test


def smpi(situ):
    def test():
        args = ["--iterations", "200", "--nodes", "2", "--analytics", "scatter"]
        full, sm = call(situ, "run", "--fidelity", "full", *args), call(situ, "run", "--fidelity", "smpi", *args)
        inline_result(sm)
        for k in ("makespan", "sim_active", "analytics_active"):
            close(sm[k], full[k], 0.005, "smpi vs full " + k)
        assert sm["conservation"] == full["conservation"], (sm["conservation"], full["conservation"])
    return test


def torus(situ):
    def test():  # the exchange into a torus node over several links: a caution, an upper bound
        args = ["--iterations", "200", "--nodes", "8", "--analytics", "scatter", "--platform",
                "platforms/torus64.xml"]
        m, full = call(situ, "model", *args), call(situ, "run", "--fidelity", "full", *args)
        assert "several links" in m.get("warning", ""), m.get("warning")
        assert full["makespan"] <= m["makespan"], (full["makespan"], m["makespan"])
    return test


def smpi_app(situ):
    def test():  # an MPI application's ranks analyse inline at each situ_dtl_put
        stencil = os.path.join(os.path.dirname(situ), "build", "stencil")
        args = ["--iterations", "40", "--stride", "10", "--nodes", "2", "--cores-per-node", "8",
                "--analytics", "scatter"]
        r = call(situ, "run", "--smpi-app", stencil, "32", "40", "10", *args)
        m = call(situ, "model", *args)
        assert r["scenario"] == "inline" and r["sim_cores"] == 16 and r["steps"] == 4, r
        assert "heat left 4096.000000 of 4096" in r["app"]["output"], r["app"]["output"]
        c = r["conservation"]
        assert c["analyses"] == 16 * 4 and c["puts"] == c["metrics_delivered"] == 0, c
        # the model's analysis, and the ranks' waits for each other at the exchange (the
        # application's own compute is uneven)
        assert m["analytics_active"] * 0.99 <= r["analytics_active"] <= m["analytics_active"] * 1.1, \
            (r["analytics_active"], m["analytics_active"])
    return test


def checks(situ, tmp):
    """(name, test) pairs for run.py's check()."""
    out = [(f"inline: model, fast and full within 2%, {what}", agreement(situ, args)) for what, args in AGREEMENT]
    out.append(("inline: a gather to rank 0's node, model vs full within 2%", gather(situ, tmp)))
    out.append(("inline: compute_scaling 0 costs nothing", no_analysis(situ)))
    out.append(("inline: smpi agrees with full within 0.5%", smpi(situ)))
    out.append(("inline: --smpi-app, the application's ranks analyse at each put", smpi_app(situ)))
    out.append(("inline: on a torus the model cautions and is an upper bound", torus(situ)))
    return out
