/* Tests that bite (issue 11, item 7): each one was written against a mutant that survived the
 * rest of the suite, and fails on it (tests/mutants/list.tsv names the mutant each one kills).
 * Run from the repository root after `make situ` (the runner tests start ./situ children). */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <uv.h>

#include "../../engine/lua/evaluate.h"
#include "../../engine/model/model.h"
#include "../../engine/model/params.h"
#include "../../engine/model/result.h"
#include "../../engine/run/runner.h"
#include "fixtures.h"

/* ---- the result parser: four different numbers, each in its own field --------------------- */

#define DISTINCT_KEYS                                                                              \
    "\"particles\":1000.0,\"sim_cores\":30,\"analytics_cores\":2,\"steps\":3,"                     \
    "\"stage\":{\"S\":1.0,\"Ing\":0.0,\"R\":0.1,\"A\":0.2,\"W\":0.0,\"C\":0.0},"                   \
    "\"sim_active\":11.0,\"sim_idle\":2.0,\"analytics_active\":7.0,\"analytics_idle\":3.0,"        \
    "\"makespan\":13.0,\"efficiency\":0.5,\"scenario\":\"IS\""

Test(bite, result_parser_keeps_active_and_idle_apart)
{
    const char *json = "{" DISTINCT_KEYS ",\"per_step\":{\"sim_active\":[1,1,1],"
                       "\"sim_idle\":[2,2,2],\"analytics_active\":[7,7,7],"
                       "\"analytics_idle\":[3,3,3]}}";
    struct sim_result r;
    char err[RESULT_ERR_MAX] = "";
    cr_assert_eq(result_parse(json, strlen(json), &r, err, sizeof err), 0, "%s", err);
    cr_assert_eq(r.m.sim_active, 11.0, "sim_active %g", r.m.sim_active);
    cr_assert_eq(r.m.sim_idle, 2.0, "sim_idle %g", r.m.sim_idle);
    cr_assert_eq(r.m.ana_active, 7.0, "analytics_active %g", r.m.ana_active);
    cr_assert_eq(r.m.ana_idle, 3.0, "analytics_idle %g", r.m.ana_idle);
    cr_assert_eq(r.m.makespan, 13.0);
    cr_assert_eq(r.m.efficiency, 0.5);
    cr_assert_eq(r.m.scenario, SCENARIO_IS);
    /* The bar the explorer draws: 70% active for the analytics, not 30%. */
    cr_assert_float_eq(r.m.ana_active / (r.m.ana_active + r.m.ana_idle), 0.7, 1e-12);
    cr_assert_eq(r.nsteps, 3);
    cr_assert_eq(r.step_sim_active[0], 1.0);
    cr_assert_eq(r.step_sim_idle[0], 2.0);
    cr_assert_eq(r.step_ana_active[0], 7.0);
    cr_assert_eq(r.step_ana_idle[0], 3.0);
    result_free(&r);
}

/* Step sampling's record: how many steps SimGrid simulated names the engine ("full sampled"); a
 * result without it (older cache entries, fast) is not called sampled. */
Test(bite, result_parser_reads_sampling_and_names_the_engine)
{
    const char *json = "{" DISTINCT_KEYS ",\"fidelity\":\"full\","
                       "\"sampling\":{\"steps_simulated\":2,\"error\":0.001}}";
    struct sim_result r;
    char err[RESULT_ERR_MAX] = "";
    cr_assert_eq(result_parse(json, strlen(json), &r, err, sizeof err), 0, "%s", err);
    cr_assert_eq(r.steps_simulated, 2);
    cr_assert_float_eq(r.sampling_error, 0.001, 1e-15);
    cr_assert_eq(result_fidelity(&r), FIDELITY_FULL);
    cr_assert_str_eq(result_engine(&r), r.m.steps > 2 ? "full sampled" : "full");
    cr_assert_gt(r.m.steps, 2, "the fixture must have more steps than it simulated");
    result_free(&r);

    const char *every = "{" DISTINCT_KEYS ",\"fidelity\":\"full\","
                        "\"sampling\":{\"steps_simulated\":3,\"error\":0}}";
    cr_assert_eq(result_parse(every, strlen(every), &r, err, sizeof err), 0, "%s", err);
    cr_assert_str_eq(result_engine(&r), "full", "every step simulated is not sampled");
    result_free(&r);

    const char *plain = "{" DISTINCT_KEYS ",\"fidelity\":\"fast\"}";
    cr_assert_eq(result_parse(plain, strlen(plain), &r, err, sizeof err), 0, "%s", err);
    cr_assert_eq(r.steps_simulated, -1);
    cr_assert_str_eq(result_engine(&r), "fast");
    result_free(&r);

    const char *bad = "{" DISTINCT_KEYS ",\"sampling\":{\"steps_simulated\":-1}}";
    cr_assert_eq(result_parse(bad, strlen(bad), &r, err, sizeof err), -1);
    cr_assert(strstr(err, "sampling: key 'steps_simulated'"), "reason: %s", err);
}

/* ---- the explorer's memory cache: an analytics edit is a new configuration ---------------- */

struct done {
    int n;
    bool ok, cached;
    double makespan;
    char error[RUNNER_ERR_MAX];
};

static void on_done(void *ud, const struct runner_done *d)
{
    struct done *s = ud;
    s->n++;
    s->ok = d->status == RUNNER_OK;
    s->cached = d->cached;
    s->makespan = d->result ? d->result->m.makespan : -1;
    snprintf(s->error, sizeof s->error, "%s", d->error ? d->error : "");
}

static void write_analytics(const char *path, const char *cost, long mtime)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fprintf(f, "return { name = \"bite\", cost = %s, bytes = 0 }\n", cost);
    cr_assert_eq(fclose(f), 0);
    /* An edit made within the same clock tick must still count: set the time apart too. */
    struct timespec t[2] = {{mtime, 0}, {mtime, 0}};
    cr_assert_eq(utimensat(AT_FDCWD, path, t, 0), 0);
}

static double simulate(uv_loop_t *loop, struct runner *r, const struct params *p)
{
    struct done s = {0};
    long id = runner_submit(r, p, 1, 1, 0, on_done, &s);
    cr_assert_gt(id, 0, "served from a cache: %s", s.error);
    uint64_t end = uv_hrtime() + 15000000000ull;
    while (s.n < 1 && uv_hrtime() < end)
        uv_run(loop, UV_RUN_ONCE);
    cr_assert(s.n == 1 && s.ok && !s.cached, "child: %s", s.error);
    return s.makespan;
}

Test(bite, runner_cache_misses_after_an_analytics_edit, .init = fixture_dir_make,
     .fini = fixture_dir_remove, .timeout = 30)
{
    cr_assert_eq(access("./situ", X_OK), 0, "run from the repository root after make situ");
    char path[256];
    snprintf(path, sizeof path, "%s/bite.lua", fixture_dir);
    write_analytics(path, "0.05", 1000000000);
    uv_loop_t loop;
    uv_loop_init(&loop);
    const char *argv[] = {"./situ", "model", "--json", NULL};
    struct runner_opts o = {.argv = argv};
    char err[256] = "";
    struct runner *r = runner_new(&loop, &o, err, sizeof err);
    cr_assert_not_null(r, "%s", err);
    struct params p;
    params_defaults(&p);
    p.iterations = 400;
    snprintf(p.analytics, sizeof p.analytics, "%s", path);
    double cheap = simulate(&loop, r, &p);
    cr_assert_not_null(runner_lookup(r, &p), "the result was not kept");

    /* The analytics gets 100x dearer: the old result must not answer for the new file. */
    write_analytics(path, "5.0", 1000000100);
    cr_assert_null(runner_lookup(r, &p), "an analytics edit still hits the old result");
    double dear = simulate(&loop, r, &p);
    cr_assert_gt(dear, 2 * cheap, "makespan %g after the edit, %g before", dear, cheap);
    const struct sim_result *hit = runner_lookup(r, &p);
    cr_assert_not_null(hit);
    cr_assert_eq(hit->m.makespan, dear);

    runner_shutdown(r);
    uv_run(&loop, UV_RUN_DEFAULT);
    runner_free(r);
    cr_assert_eq(uv_loop_close(&loop), 0);
}

/* ---- the model: the tail, rho's floor, the chunks' ceiling, the default halo period -------- */

static void model_of(const struct params *p, struct model_result *m)
{
    char err[512] = "";
    cr_assert_eq(evaluate_model(p, m, err, sizeof err), 0, "%s", err);
}

static void close_rel(double actual, double expected, double tol, const char *what)
{
    cr_assert(fabs(actual - expected) <= tol * fabs(expected), "%s = %.17g, expected %.17g", what,
              actual, expected);
}

/* 419 iterations with stride 20: 20 steps (the floor, never 21) and 19 trailing iterations,
 * each one S/20 (its compute plus its share of the halo exchanges, whatever the halo period). */
Test(bite, tail_is_its_iterations_and_their_halos)
{
    for (long period = 7; period <= 20; period += 13) {
        struct params p;
        params_defaults(&p);
        p.halo_period = period;
        p.iterations = 400;
        struct model_result whole, tailed;
        model_of(&p, &whole);
        p.iterations = 419;
        model_of(&p, &tailed);
        cr_assert_eq(tailed.steps, 20, "steps %ld (period %ld)", tailed.steps, period);
        cr_assert_eq(tailed.tail_iterations, 19);
        /* The tail is 19 iterations and the halo exchanges that fall in them (counted, as the
         * engine makes them: none at period 20, two at period 7, iterations 406 and 413). */
        double iteration = (whole.stage.S - whole.halo) / p.stride;
        double one_halo = whole.halo / ((double)(400 / period) / 20);
        long tail_halos = 419 / period - 400 / period;
        cr_assert_eq(tail_halos, period == 7 ? 2 : 0);
        double tail = 19 * iteration + tail_halos * one_halo;
        /* eq. 5 adds the tail whole; the best prediction less, as the tail hides the drain. */
        close_rel(tailed.makespan_eq5, whole.makespan_eq5 + tail, 1e-12, "eq. 5 with the tail");
        cr_assert(tailed.makespan > whole.makespan && tailed.makespan <= whole.makespan + tail,
                  "makespan with the tail: %g, without %g", tailed.makespan, whole.makespan);
        close_rel(tailed.sim_active, whole.sim_active + tail, 1e-12, "sim_active with the tail");
        cr_assert_eq(tailed.steps * p.stride + tailed.tail_iterations, p.iterations);
    }
}

Test(bite, steps_are_the_floor_of_iterations_over_stride)
{
    struct params p;
    params_defaults(&p);
    const long cases[][3] = {{419, 20, 20}, {439, 20, 21}, {401, 20, 20}, {1999, 1000, 1}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        p.iterations = cases[i][0];
        p.stride = cases[i][1];
        struct model_result m;
        model_of(&p, &m);
        cr_assert_eq(m.steps, cases[i][2], "%ld/%ld: %ld steps", cases[i][0], cases[i][1], m.steps);
    }
}

/* In transit on 3 dahu nodes at ratio 1: 32 states over 2 analytics nodes of 32 actors, so 16
 * per node: half the actors get one state, and the step costs one whole chunk (not half). */
Test(bite, a_partial_chunk_costs_a_whole_one)
{
    struct params p;
    params_defaults(&p);
    p.nodes = 3;
    p.ratio = 1;
    p.mapping = MAPPING_INTRANSIT;
    p.dtl = DTL_QUEUE;
    struct model_result part;
    model_of(&p, &part);
    cr_assert_eq(part.sim_cores, 32);
    cr_assert_eq(part.ana_cores, 64);
    cr_assert_eq(part.chunks, 1.0, "chunks %g", part.chunks);
    /* The same 32 states on one analytics node of 32 actors (nodes 2): one whole chunk each.
     * The partial chunk costs no less than that (its host has as many actors per state). */
    p.nodes = 2;
    struct model_result whole;
    model_of(&p, &whole);
    cr_assert_eq(whole.chunks, 1.0);
    cr_assert_geq(part.stage.A, whole.stage.A * (1 - 1e-12), "A %g < one chunk's %g", part.stage.A,
                  whole.stage.A);
}

Test(bite, default_halo_period_is_twenty)
{
    struct params p;
    params_defaults(&p);
    cr_assert_eq(p.halo_period, 20);
    struct model_result def, explicit20, ten;
    model_of(&p, &def);
    p.halo_period = 20;
    model_of(&p, &explicit20);
    p.halo_period = 10;
    model_of(&p, &ten);
    cr_assert_eq(def.halo, explicit20.halo);
    cr_assert_eq(def.makespan, explicit20.makespan);
    close_rel(ten.halo, 2 * def.halo, 1e-12, "halo every 10 iterations");
}
