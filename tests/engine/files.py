"""Files on a platform's disks (--dtl file, --mapping posthoc; model_file.c, sim_file.c): each
state a file striped over every storage host's disk. Model, fast and full agree within 2% where
no caution is given, on two platforms (dahu-pfs: the disks limit; fattree-pfs: an LNET router
node's link limits); where the model warns (actors that read several files each, reads on the
writing nodes) fast and full still agree and the model is an upper bound; the bytes written and
read cross the servers' links; the disks' bandwidths come from the platform (the digest);
post hoc runs its phases in sequence. Run by tests/engine/run.py (make test)."""
import os

from agree import close, situ_json  # noqa: E402  (tests/engine/agree.py)

DAHU = "platforms/dahu-pfs.xml"
FATTREE = "platforms/fattree-pfs.xml"

# (what, arguments) where the model gives no caution: one state per actor, analytics on nodes
# of their own (in transit, ratio 1), and post hoc. 100 iterations: 5 steps, well under a
# second each at full fidelity.
AGREEMENT = [
    ("file in transit, dahu-pfs", ["--platform", DAHU, "--nodes", "4", "--mapping", "intransit",
                                   "--ratio", "1", "--dtl", "file"]),
    ("file in transit, fattree-pfs", ["--platform", FATTREE, "--nodes", "4", "--mapping", "intransit",
                                      "--ratio", "1", "--dtl", "file"]),
    ("a file of compressed, decimated states", ["--platform", DAHU, "--nodes", "4", "--mapping", "intransit",
                                                "--ratio", "1", "--dtl", "file", "--compression", "2",
                                                "--decimation", "2"]),
    ("posthoc, dahu-pfs", ["--platform", DAHU, "--nodes", "4", "--mapping", "posthoc"]),
    ("posthoc files of compressed, decimated states", ["--platform", DAHU, "--nodes", "4", "--mapping", "posthoc",
                                                       "--compression", "4", "--decimation", "2"]),
    ("posthoc with an allgather, fattree-pfs", ["--platform", FATTREE, "--nodes", "4", "--mapping", "posthoc",
                                                "--analytics", "scatter"]),
]

# In situ the reads come to the writing nodes: the model cautions; fast and full agree.
INSITU = [
    ("file in situ, dahu-pfs", ["--platform", DAHU, "--nodes", "4", "--ratio", "1", "--dtl", "file"]),
    ("file in situ, fattree-pfs", ["--platform", FATTREE, "--nodes", "4", "--ratio", "1", "--dtl", "file"]),
]


def call(situ, *args, iterations="100"):
    return situ_json(situ, *args, "--iterations", iterations)


def posthoc_result(r, measured=True):
    """Post hoc: phases in sequence on the same cores, no idle, efficiency 1; files both ways."""
    assert r["scenario"] == "inline" and r["efficiency"] == 1, (r["scenario"], r["efficiency"])
    assert r["sim_idle"] == 0 and r["analytics_idle"] == 0, (r["sim_idle"], r["analytics_idle"])
    assert r["stage"]["Ing"] > 0 and r["stage"]["R"] > 0, r["stage"]
    close(r["makespan"], r["sim_active"] + r["analytics_active"], 0.02 if measured else 1e-9,
          "makespan = simulation + analysis")


def agreement(situ, args):
    def test():
        m = call(situ, "model", *args)
        assert "warning" not in m, m["warning"]
        runs = {fid: call(situ, "run", "--fidelity", fid, "--sampling", "off", *args) for fid in ("fast", "full")}
        for fid, r in runs.items():
            assert "warning" not in r, r["warning"]
            for k in ("makespan", "sim_active", "analytics_active"):
                close(r[k], m[k], 0.02, f"{fid} {k} vs the model")
            for k in ("Ing", "R"):
                close(r["stage"][k], m["stage"][k], 0.02, f"{fid} {k} vs the model")
            if "posthoc" in args:
                posthoc_result(r)
        for k in ("makespan", "sim_active", "analytics_active"):
            close(runs["fast"][k], runs["full"][k], 0.01, f"fast vs full {k}")
        if "posthoc" in args:
            posthoc_result(m, False)
    return test


def insitu(situ, args):
    def test():
        m = call(situ, "model", *args)
        assert "file accesses" in m.get("warning", ""), m.get("warning")
        fast, full = (call(situ, "run", "--fidelity", fid, "--sampling", "off", *args) for fid in ("fast", "full"))
        for k in ("makespan", "sim_active", "analytics_active"):
            close(fast[k], full[k], 0.01, f"fast vs full {k}")
            assert m[k] >= full[k] * 0.999, f"{k}: the model's {m[k]} below full's {full[k]}"
        close(m["makespan"], full["makespan"], 0.02, "model makespan vs full")
    return test


def several_per_actor(situ):
    def test():  # 96 states to 32 actors: 3 files each; full's reads spread out
        args = ["--platform", DAHU, "--nodes", "4", "--mapping", "intransit", "--ratio", "3", "--dtl", "file"]
        m = call(situ, "model", *args)
        fast = call(situ, "run", "--fidelity", "fast", *args)
        full = call(situ, "run", "--fidelity", "full", "--sampling", "off", *args)
        assert "file accesses" in m.get("warning", ""), m.get("warning")
        assert "file accesses" in fast.get("warning", ""), fast.get("warning")
        assert "warning" not in full, full["warning"]
        for r in (m, fast):
            assert r["analytics_active"] > full["analytics_active"], (r["analytics_active"], full["analytics_active"])
            assert r["stage"]["R"] > full["stage"]["R"], (r["stage"], full["stage"])
    return test


def bytes_on_servers(situ):
    def test():  # each state written to and read from the servers: half of it on each of 2
        args = ["--platform", FATTREE, "--nodes", "2", "--mapping", "intransit", "--ratio", "1", "--dtl", "file"]
        for fid in ("fast", "full"):
            r = call(situ, "run", "--fidelity", fid, *args)
            links = {k["name"]: k["bytes"] for k in r["links"]}
            state = r["config"]["data_size"] * r["particles"]  # every rank's state, one step
            for srv in ("oss-1-link", "oss-2-link"):
                close(links[srv], 2 * r["steps"] * state / 2, 1e-6, f"{fid}: bytes on {srv}")
            c = r["conservation"]
            assert c["puts"] == c["gets"] == c["analyses"] == r["sim_cores"] * r["steps"], c
    return test


def disks_from_platform(situ, tmp):
    def test():  # slower disks (the digest reads them): the files take longer, model and full alike
        path = os.path.join(tmp, "slow-pfs.xml")
        src = open(os.path.join(os.path.dirname(situ), DAHU)).read()
        open(path, "w").write(src.replace('write_bw="2.8GBps"', 'write_bw="0.3GBps"'))
        args = ["--nodes", "2", "--mapping", "posthoc"]
        fast_disks = call(situ, "model", "--platform", DAHU, *args)
        m = call(situ, "model", "--platform", path, *args)
        full = call(situ, "run", "--fidelity", "full", "--platform", path, *args)
        # 2.8 GB/s against the node link's 1.2 GB/s, 0.3 GB/s: the disks now set the pace
        assert m["stage"]["Ing"] > 2 * fast_disks["stage"]["Ing"], (m["stage"], fast_disks["stage"])
        assert m["stage"]["R"] == fast_disks["stage"]["R"], (m["stage"], fast_disks["stage"])
        close(full["stage"]["Ing"], m["stage"]["Ing"], 0.02, "full Ing vs the model")
        close(full["makespan"], m["makespan"], 0.02, "full makespan vs the model")
    return test


def reduced_files(situ):
    def test():  # compression 4: a quarter of the bytes to write and read, costs on the ranks
        base = ["--platform", DAHU, "--nodes", "2", "--mapping", "posthoc"]
        for fid in ("model", "full"):
            cmd = ["model"] if fid == "model" else ["run", "--fidelity", "full"]
            whole = call(situ, *cmd, *base)
            four = call(situ, *cmd, *base, "--compression", "4", "--compression-cost", "0",
                        "--decompression-cost", "0")
            close(four["state_bytes_moved"], whole["state_bytes_moved"] / 4, 1e-9, f"{fid}: bytes in a file")
            assert four["stage"]["Ing"] < 0.5 * whole["stage"]["Ing"], (fid, four["stage"], whole["stage"])
            assert four["stage"]["R"] < 0.5 * whole["stage"]["R"], (fid, four["stage"], whole["stage"])
            costly = call(situ, *cmd, *base, "--compression", "4")
            assert costly["stage"]["Ing"] > four["stage"]["Ing"], (fid, "compressing costs the ranks")
            assert costly["stage"]["A"] > four["stage"]["A"], (fid, "restoring costs the analysis")
    return test


def no_sampling(situ):
    def test():  # 30 steps would be sampled; the disks are not watched: every step simulated
        args = ["--platform", DAHU, "--nodes", "2", "--mapping", "intransit", "--ratio", "1", "--dtl", "file"]
        r = call(situ, "run", "--fidelity", "full", *args, iterations="600")
        assert r["sampling"]["steps_simulated"] == r["steps"] == 30, r["sampling"]
    return test


def checks(situ, tmp):
    """(name, test) pairs for run.py's check()."""
    out = [(f"files: model, fast and full within 2%, {what}", agreement(situ, args)) for what, args in AGREEMENT]
    out += [(f"files: model cautions, fast and full agree, {what}", insitu(situ, args)) for what, args in INSITU]
    out.append(("files: several files per actor: model and fast warn, full below", several_per_actor(situ)))
    out.append(("files: each state crosses the servers' links, written and read", bytes_on_servers(situ)))
    out.append(("files: the disks' bandwidths come from the platform", disks_from_platform(situ, tmp)))
    out.append(("files: full fidelity simulates every step (no sampling)", no_sampling(situ)))
    out.append(("files: post hoc files hold reduced states, paid for on the ranks", reduced_files(situ)))
    return out
