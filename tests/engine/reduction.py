"""Data reduction (--compression, --decimation; model_reduce.h) at every level: the model and
fast within 2% of full, in situ and in transit, on two platforms; the bytes a state moves (the
result's state_bytes_moved and the links' traffic) are the unreduced ones over ratio * S^3; smpi
agrees with full, and an application's own states (--smpi-app) are reduced too; inline ignores
reduction. tests/engine/run.py (make test) runs the quick checks, `python3 tests/engine/reduction.py ./situ`
(make test-slow) every one; tests/engine/smpi_levels.py puts the configurations beside the other
levels."""
import os

from agree import close, situ_json  # noqa: E402  (tests/engine/agree.py)

FAT = "platforms/fattree64.xml"
# (what, arguments): 400 iterations, 20 steps, each full run well under a second.
AGREEMENT = [
    ("in situ, dahu, compression 4", ["--iterations", "400", "--nodes", "2", "--data-scaling", "20",
                                      "--compression", "4"]),
    ("in transit, dahu, network-bound, compression 4",
     ["--iterations", "400", "--nodes", "3", "--mapping", "intransit", "--ratio", "1",
      "--data-scaling", "20", "--compression", "4"]),
    ("in transit, dahu, decimation 2 (its cost 1e-8)",
     ["--iterations", "400", "--nodes", "3", "--mapping", "intransit", "--ratio", "1",
      "--data-scaling", "20", "--decimation", "2", "--decimation-cost", "1e-8"]),
    ("in transit, fat tree, analytics-bound by decompression, compression 8",
     ["--iterations", "400", "--nodes", "4", "--platform", FAT, "--mapping", "intransit",
      "--ratio", "3", "--data-scaling", "50", "--compression", "8", "--decompression-cost", "1e-7"]),
    ("in situ, fat tree, compression 3 and decimation 2",
     ["--iterations", "400", "--nodes", "4", "--platform", FAT, "--data-scaling", "20",
      "--compression", "3", "--decimation", "2"]),
    ("in transit, queue DTL, compression 2",
     ["--iterations", "200", "--nodes", "3", "--mapping", "intransit", "--ratio", "1", "--dtl", "queue",
      "--compression", "2", "--compression-cost", "1e-7"]),
]


call = situ_json


def without(args, *flags):
    """args without the given flags and their values: the configuration unreduced."""
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
        elif a in flags:
            skip = True
        else:
            out.append(a)
    return out


def kept(args):
    """The share of a state that moves, from the arguments: 1 / (ratio * S^3) for the melt."""
    r = float(args[args.index("--compression") + 1]) if "--compression" in args else 1
    s = int(args[args.index("--decimation") + 1]) if "--decimation" in args else 1
    return 1 / (r * s ** 3)


def agreement(situ, args):
    def test():
        m = call(situ, "model", *args)
        assert not m.get("warning"), m["warning"]
        plain = call(situ, "model", *without(args, "--compression", "--decimation"))
        close(m["state_bytes_moved"], plain["state_bytes_moved"] * kept(args), 1e-9, "state moved")
        assert m["stage"]["Ing"] > 0, m["stage"]
        runs = {fid: call(situ, "run", "--fidelity", fid, *args) for fid in ("fast", "full")}
        for fid, r in runs.items():
            assert r["state_bytes_moved"] == m["state_bytes_moved"], (fid, r["state_bytes_moved"])
            close(r["stage"]["Ing"], m["stage"]["Ing"], 1e-9, f"{fid} Ing vs the model")
            c = r["conservation"]
            assert c["puts"] == c["gets"] == c["analyses"] == r["sim_cores"] * r["sampling"]["steps_simulated"], c
        for k in ("makespan", "sim_active", "analytics_active"):
            close(m[k], runs["full"][k], 0.02, f"model {k} vs full")
            close(runs["fast"][k], runs["full"][k], 0.02, f"fast {k} vs full")
    return test


def traffic(situ):
    # In transit the states cross the simulation node's uplink: with compression 4 and decimation
    # 2 it carries 1/32 of what it carries unreduced, as the reduction says, and the run is faster.
    def test():
        args = ["--iterations", "200", "--nodes", "3", "--mapping", "intransit", "--ratio", "1",
                "--data-scaling", "20", "--fidelity", "full", "--sampling", "off"]
        up = lambda r: {l["name"]: l["bytes"] for l in r["links"]}["dahu_link_1_UP"]
        plain = call(situ, "run", *args)
        red = call(situ, "run", *args, "--compression", "4", "--decimation", "2")
        close(up(red), up(plain) / 32, 1e-9, "bytes up the simulation node's link")
        assert red["makespan"] < 0.9 * plain["makespan"], (red["makespan"], plain["makespan"])
    return test


def costs_follow(situ):
    # The costs are paid where they belong: compression's on the ranks (Ing, simulation active
    # time), decompression's in the analysis (A); none when the ratio is 1.
    def test():
        base = ["--iterations", "200", "--nodes", "2", "--fidelity", "full"]
        a = call(situ, "run", *base, "--compression", "2", "--compression-cost", "1e-6")
        b = call(situ, "run", *base, "--compression", "2", "--compression-cost", "2e-6")
        close(b["stage"]["Ing"], 2 * a["stage"]["Ing"], 1e-9, "Ing doubles with its cost")
        close(b["stage"]["A"], a["stage"]["A"], 1e-9, "A does not move with compression's cost")
        c = call(situ, "run", *base, "--compression", "2", "--decompression-cost", "1e-6")
        assert c["stage"]["A"] > a["stage"]["A"], (c["stage"]["A"], a["stage"]["A"])
        none = call(situ, "run", *base, "--compression-cost", "1", "--decompression-cost", "1")
        assert none["stage"]["Ing"] == 0, none["stage"]
    return test


def smpi(situ):
    def test():
        args = ["--iterations", "200", "--nodes", "3", "--mapping", "intransit", "--ratio", "1",
                "--compression", "4", "--decimation", "2", "--data-scaling", "20"]
        full, smpi = call(situ, "run", "--fidelity", "full", *args), call(situ, "run", "--fidelity", "smpi", *args)
        for k in ("makespan", "sim_active", "analytics_active"):
            close(smpi[k], full[k], 0.005, f"smpi {k} vs full")
        close(smpi["stage"]["Ing"], full["stage"]["Ing"], 1e-6, "smpi Ing vs full")
        links = lambda r: {l["name"]: l["bytes"] for l in r["links"]}
        for name, b in links(full).items():
            close(links(smpi)[name], b, 1e-9, "bytes on " + name)
    return test


def smpi_app(situ):
    # The stencil's own slabs, compressed 4:1: a quarter of them cross into the analytics node,
    # and the ranks spent their compression before each put.
    def test():
        stencil = os.path.join(os.path.dirname(situ), "build", "stencil")
        base = [stencil, "32", "40", "10", "--iterations", "40", "--stride", "10", "--nodes", "2",
                "--mapping", "intransit", "--ratio", "3", "--cores-per-node", "16"]
        down = lambda r: {l["name"]: l["bytes"] for l in r["links"]}["dahu_link_2_DOWN"]
        plain = call(situ, "run", "--smpi-app", *base)
        red = call(situ, "run", "--smpi-app", *base, "--compression", "4", "--compression-cost", "1e-6")
        ranks = red["sim_cores"]
        slab = 32 * 32 * (32 // ranks) * 8 * ranks * 4  # every rank's slab, 4 times
        metrics = down(plain) - slab  # what else comes in: metrics copies, the same both runs
        close(down(red) - metrics, slab / 4, 1e-6, "states into the analytics node")
        # 32 * 32 * (32 / ranks) elements per state at 1e-6 s on a reference core
        assert red["stage"]["Ing"] > 0 and red["sim_active"] > plain["sim_active"], red["stage"]
    return test


def inline_ignores(situ):
    def test():
        args = ["--iterations", "200", "--nodes", "2", "--mapping", "inline"]
        for how in (("model",), ("run", "--fidelity", "full")):
            a, b = call(situ, *how, *args), call(situ, *how, *args, "--compression", "8", "--decimation", "40")
            assert a["makespan"] == b["makespan"], (how, a["makespan"], b["makespan"])
            assert b["state_bytes_moved"] == 0 and b["stage"]["Ing"] == 0, b
    return test


# make test runs these (about 7 s); make test-slow runs every check (this file's main).
QUICK = ("in situ, dahu, compression 4", "in transit, dahu, decimation 2 (its cost 1e-8)",
         "in transit, fat tree, analytics-bound by decompression, compression 8")


def checks(situ, tmp, every=False):
    """(name, test) pairs for run.py's check(): the quick ones, or every one."""
    del tmp
    out = [(f"reduction: model and fast within 2% of full, {what}", agreement(situ, args))
           for what, args in AGREEMENT if every or what in QUICK]
    out.append(("reduction: in transit the links carry the reduced states", traffic(situ)))
    out.append(("reduction: smpi agrees with full within 0.5%", smpi(situ)))
    out.append(("reduction: mapping=inline ignores it", inline_ignores(situ)))
    if every:
        out.append(("reduction: compression costs the ranks, decompression the analysis",
                    costs_follow(situ)))
        out.append(("reduction: --smpi-app, the application's states are reduced", smpi_app(situ)))
    return out


def main():
    import sys
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    import suite  # noqa: E402
    situ = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "./situ")
    passed = failed = 0
    for name, test in checks(situ, None, every=True):
        if not suite.selected(name):
            continue
        try:
            test()
            passed += 1
            print(f"ok   {name}")
        except Exception as e:  # a failed check names itself and goes on
            failed += 1
            print(f"FAIL {name}: {e}")
    failed += suite.none_matched("reduction", passed + failed)
    print(f"reduction: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
