"""The mutants of `make mutants` (tests/mutants/run.py): realistic one-place bugs, each with the
cheapest tests that should catch it. A mutant is killed when any of its tests fails; every test
listed is run, so the report shows how many bite. `old` must occur exactly once in `file`.

`survives`: set only for a mutant no test can catch, with the reason (run.py prints it and
does not count it against the kill ratio's explanation; it still counts in the ratio).

The first four are the survivors of issue 11's mutation pass; the next group its thin kills."""

UNIT = "build/unit --jobs 2 --filter "
ENGINE = "python3 tests/engine/run.py ./situ"
STUDY = "python3 tests/study/run.py ./situ"
OUTPUT = "python3 tests/study/output.py ./situ"
TABLE = "python3 tests/cli/table.py ./situ"
TUI = "python3 tests/tui/bite.py ./situ"
BAD = "python3 tests/bad/run.py ./situ -k "
ADVISE = "python3 tests/advise/run.py ./situ"


def only(names, suite):
    return f"SITU_TESTS='{names}' {suite}"


MUTANTS = [
    # ---- issue 11's survivors ----
    dict(id="runner-key-ignores-analytics-fingerprint", file="engine/runner.c",
         old="if (p->analytics[0] && analytics_fingerprint(p->analytics, fp, sizeof fp) == 0 && fp[0]) {",
         new="if (0 && p->analytics[0] && analytics_fingerprint(p->analytics, fp, sizeof fp) == 0) {",
         tests=[UNIT + "'bite/runner_cache*'", TUI]),
    dict(id="disk-cache-key-hashes-the-analytics-name", file="engine/cache.c",
         old="        return hash_file(h, path);",
         new="        return fnv1a(h, path, strlen(path));",
         tests=[only("analytics content", STUDY)]),
    dict(id="model-table-swaps-simulation-active-idle", file="engine/report.c",
         old='"simulation", unit_time(m->sim_active, a, sizeof a),\n            unit_time(m->sim_idle, b, sizeof b));',
         new='"simulation", unit_time(m->sim_idle, a, sizeof a),\n            unit_time(m->sim_active, b, sizeof b));',
         tests=[TABLE]),
    dict(id="result-parser-swaps-analytics-active-idle", file="engine/result.c",
         old='{"analytics_active", &m->ana_active, true},\n        {"analytics_idle", &m->ana_idle, true},',
         new='{"analytics_active", &m->ana_idle, true},\n        {"analytics_idle", &m->ana_active, true},',
         tests=[UNIT + "'bite/result*'", TUI]),
    # ---- issue 11's thin kills ----
    dict(id="model-drops-the-tail", file="engine/model.c",
         old="    m->makespan = period_sum + tail;",
         new="    m->makespan = period_sum;",
         tests=[UNIT + "'bite/tail*'", UNIT + "'model/trailing*'", only("tail and", ENGINE)]),
    dict(id="model-tail-without-its-halo", file="engine/model.c",
         old="    double tail = m->tail_iterations * iteration +\n                  (double)m->tail_iterations / p->halo_period * (m->halo / exchanges);",
         new="    double tail = m->tail_iterations * iteration;",
         tests=[UNIT + "'bite/tail*'", UNIT + "'model/trailing*'"]),
    dict(id="model-steps-round-up", file="engine/model.c",
         old="    m->steps = p->iterations / p->stride;",
         new="    m->steps = (p->iterations + p->stride - 1) / p->stride;",
         tests=[UNIT + "'bite/steps*'", UNIT + "'bite/tail*'", TABLE]),
    dict(id="model-chunks-without-ceiling", file="engine/model.c",
         old="        double chunks = ceil((double)l->dtl_load[h] / l->ana_per_host[h]);",
         new="        double chunks = (double)l->dtl_load[h] / l->ana_per_host[h];",
         tests=[UNIT + "'bite/a_partial*'", UNIT + "'model/intransit_partial*'", only("tail and", ENGINE)]),
    dict(id="default-halo-period-10", file="engine/params.c",
         old='"halo_period", "iter", PARAM_INT, OFF(halo_period), 20,',
         new='"halo_period", "iter", PARAM_INT, OFF(halo_period), 10,',
         tests=[UNIT + "'bite/default_halo*'", TABLE]),
    dict(id="simulation-skips-a-lone-halo-exchange", file="engine/sim_actors.c",
         old="        if (exchanges)\n            halo_exchange(g, exchanges);",
         new="        if (exchanges > 1)\n            halo_exchange(g, exchanges);",
         tests=[only("halo exchange", ENGINE)]),
    dict(id="simulation-skips-every-halo-exchange", file="engine/sim_actors.c",
         old="        if (exchanges)\n            halo_exchange(g, exchanges);",
         new="        if (0)\n            halo_exchange(g, exchanges);",
         tests=[only("halo exchange", ENGINE)]),
    # ---- more of the model ----
    dict(id="model-halo-once-per-step", file="engine/model.c",
         old="    m->halo = exchanges * halo_exchange_time(p, pf, l);",
         new="    m->halo = halo_exchange_time(p, pf, l);",
         tests=[UNIT + "'bite/default_halo*'", UNIT + "'model/*'", only("halo exchange", ENGINE)]),
    dict(id="model-exchanges-integer-division", file="engine/model.c",
         old="    double exchanges = (double)p->stride / p->halo_period;",
         new="    double exchanges = (double)(p->stride / p->halo_period);",
         tests=[only("halo exchange", ENGINE)]),
    dict(id="model-efficiency-over-the-sum", file="engine/model.c",
         old="    return top > 0 ? 1 - fabs(sim_side - ana_side) / top : 1;",
         new="    return top > 0 ? 1 - fabs(sim_side - ana_side) / (sim_side + ana_side) : 1;",
         tests=[UNIT + "'model/*'", TUI]),
    dict(id="model-scenario-swapped", file="engine/model.c",
         old="    return ana_side > sim_side ? SCENARIO_IS : SCENARIO_IA;",
         new="    return ana_side > sim_side ? SCENARIO_IA : SCENARIO_IS;",
         tests=[UNIT + "'model/*'", only("queue DTL matches", ENGINE)]),
    dict(id="model-transfer-ignores-sharers", file="engine/model.c",
         old="    return lat * NET_LATENCY_FACTOR + bytes * sharers / (bw * NET_BANDWIDTH_FACTOR);",
         new="    return lat * NET_LATENCY_FACTOR + bytes / (bw * NET_BANDWIDTH_FACTOR);",
         tests=[UNIT + "'model/*'", only("sender,both ways", ENGINE)]),
    dict(id="model-sim-idle-from-the-analytics", file="engine/model.c",
         old="    m->sim_idle = fmax(0, period_sum - m->steps * sim_side);",
         new="    m->sim_idle = fmax(0, period_sum - busy_ana);",
         tests=[UNIT + "'model/*'", TUI]),
    dict(id="model-drain-takes-the-longer-side", file="engine/model.c",
         old="fmin(sim_side, last_ana)", new="fmax(sim_side, last_ana)",
         tests=[UNIT + "'model/*'", only("hostfile mapping", ENGINE)]),
    dict(id="model-allreduce-rounds-without-ceiling", file="engine/model.c",
         old="        return ceil(log2(n)) * model_transfer_time(pf, a, b, B, NET_CROSSTRAFFIC);",
         new="        return log2(n) * model_transfer_time(pf, a, b, B, NET_CROSSTRAFFIC);",
         tests=[UNIT + "'model/*'", UNIT + "'analytics/*'"]),
    # ---- results: the JSON, the simulation's report, the explorer ----
    dict(id="result-json-swaps-simulation-active-idle", file="engine/report.c",
         old='m->sim_active, "sim_idle", m->sim_idle,', new='m->sim_idle, "sim_idle", m->sim_active,',
         tests=[TABLE, UNIT + "'runner/*'"]),
    dict(id="simulation-reports-total-halo", file="engine/sim.c",
         old="    m->halo = S ? halo / S : 0;", new="    m->halo = halo;",
         tests=[only("halo exchange", ENGINE)]),
    dict(id="explorer-bar-shows-the-idle-share", file="tui/view_main.c",
         old="    double f = total > 0 ? active / total : 0;",
         new="    double f = total > 0 ? idle / total : 0;",
         tests=[TUI]),
    dict(id="explorer-m-steps-the-dtl", file="tui/app.c",
         old="    case 'm':\n        return step(s, P_MAPPING, 1, false);",
         new="    case 'm':\n        return step(s, P_DTL, 1, false);",
         tests=[TUI]),
    # ---- caches, studies, checks ----
    dict(id="memory-cache-compares-hashes-only", file="engine/runner_cache.c",
         old="        if (e->hash == h && !strcmp(e->key, key))",
         new="        if (e->hash == h && key)",
         tests=[UNIT + "'runner/*'", UNIT + "'bite/runner*'"],
         survives="equivalent but for a 64-bit FNV-1a collision between two configurations: no "
                  "test can build one in reasonable time; the strcmp is defence in depth"),
    dict(id="cache-entry-accepts-a-zero-makespan", file="cli/study.c",
         old="    if (!(makespan > 0)) {", new="    if (!(makespan >= 0)) {",
         tests=[only("cache incomplete", STUDY)]),
    dict(id="cache-entry-accepts-any-efficiency", file="cli/study.c",
         old="    if (!(eff <= 1)) {", new="    if (!(eff <= 10)) {",
         tests=[only("cache incomplete", STUDY)]),
    dict(id="axis-key-may-repeat", file="engine/grid.c",
         old="            if (fresh.ids[j] == id) {", new="            if (0 && fresh.ids[j] == id) {",
         tests=[only("bad lists", STUDY), BAD + "'axis key repeated'"]),
    dict(id="emitted-commands-allow-newlines", file="cli/cmd_sweep.c",
         old="        if (*c < 0x20 || *c == 0x7f)", new="        if (*c < 0x0a || *c == 0x7f)",
         tests=[only("emitted commands refuse", STUDY)]),
    dict(id="params-accept-nan", file="engine/params.c",
         old="    if (d->type == PARAM_PATH || !isfinite(value) || value < d->min || value > d->max)",
         new="    if (d->type == PARAM_PATH || value < d->min || value > d->max)",
         tests=[UNIT + "'params/*'", BAD + "nan"]),
    dict(id="stdout-flush-unchecked", file="engine/outfile.c",
         old="        if (fflush(o->f) == 0 && !ferror(o->f) && !e)",
         new="        if ((fflush(o->f), 1) && !e)",
         tests=[only("dev full", OUTPUT)]),
    # ---- the advisor (issue 13) ----
    dict(id="advise-balance-forgets-idle-cores", file="engine/advise.c",
         old="    a->balance = hi > 0 ? busy * fmin(us, ua) / hi : 0;",
         new="    a->balance = hi > 0 ? (0 * busy) + fmin(us, ua) / hi : 0;",
         tests=[only("argmin,contradiction", ADVISE)]),
    dict(id="advise-pareto-drops-equal-points", file="engine/advise.c",
         old="                   t[k].makespan == c[front[nf - 1]].model.makespan);",
         new="                   t[k].makespan == c[front[nf - 1]].model.makespan && 0);",
         tests=[only("pareto", ADVISE)]),
    dict(id="advise-max-nodes-off-by-one", file="engine/advise.c",
         old="(lim->max_nodes <= 0 || a->nodes <= lim->max_nodes)",
         new="(lim->max_nodes <= 0 || a->nodes <= lim->max_nodes + 1)",
         tests=[only("constraints", ADVISE)]),
    dict(id="advise-order-change-stops-counting", file="cli/cmd_advise.c",
         old="        same = same && chk[j].sim_rank == ok; /* ok counts apart: && would skip it */\n        ok++;",
         new="        same = same && chk[j].sim_rank == ok++;",
         tests=[only("changes the order", ADVISE)]),
]
