/* situ calibrate's parts: the readers of LAMMPS logs and CSV files, and the fit. The fit is
 * checked against data this file makes from known costs with its own forward function (a cost
 * model written here, not the model's), never against numbers read off the code under test. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../engine/model/calibrate.h"
#include "fixtures.h"

/* The test's own cost model: ranks = cores_per_node; a constant per rank, sim_cost per particle
 * iteration over the ranks, analytics_cost per particle and analysis over the ranks. */
static int linear_forward(void *ud, const struct params *p, double *t, char *err, size_t len)
{
    (void)ud, (void)err, (void)len;
    double parts = 4.0 * p->region * p->region * p->region, ranks = (double)p->cores_per_node;
    double analyses = (double)(p->iterations / p->stride);
    *t = 0.01 * ranks + p->sim_cost * parts * p->iterations / ranks +
         p->analytics_cost * p->compute_scaling * parts * analyses / ranks;
    return 0;
}

/* The same with the slower side setting the pace (as in situ): not linear in the costs. */
static int max_forward(void *ud, const struct params *p, double *t, char *err, size_t len)
{
    (void)ud, (void)err, (void)len;
    double parts = 4.0 * p->region * p->region * p->region;
    *t = fmax(p->sim_cost * parts * p->iterations,
              p->analytics_cost * p->compute_scaling * parts * (p->iterations / p->stride));
    return 0;
}

static const double true_sim = 7.5e-7, true_ana = 2.2e-6;

/* A run of the given configuration, measured as the test's model says at the true costs times
 * (1 + noise). */
static void add_run(struct calib_runs *r, long region, long ranks, long iterations, long stride,
                    double scaling, double noise, const char *file, int line)
{
    if (r->n == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 32;
        r->run = realloc(r->run, (size_t)r->cap * sizeof *r->run);
        cr_assert_not_null(r->run);
    }
    struct calib_run *run = &r->run[r->n++];
    memset(run, 0, sizeof *run);
    params_defaults(&run->p);
    snprintf(run->file, sizeof run->file, "%s", file);
    run->line = line;
    snprintf(run->code, sizeof run->code, "test code");
    run->p.region = region;
    run->p.cores_per_node = ranks;
    run->p.iterations = iterations;
    run->p.stride = stride;
    run->p.compute_scaling = scaling;
    struct params truth = run->p;
    truth.sim_cost = true_sim;
    truth.analytics_cost = true_ana;
    linear_forward(NULL, &truth, &run->total, NULL, 0);
    run->total *= 1 + noise;
}

static const int costs[2] = {P_SIM_COST, P_ANALYTICS_COST};
static const struct calib_options opts = {CALIB_MIN, 0.10};

/* Eight configurations, three repeats each: noise of up to 2% that the minimum mostly removes,
 * and one slow spell (+40%) that it removes entirely. */
static void eight_configurations(struct calib_runs *r, double jitter)
{
    static const long cfg[8][4] = {{10, 1, 300, 300}, {14, 1, 200, 200}, {18, 1, 100, 5},
                                   {10, 1, 300, 5},   {14, 2, 200, 20},  {18, 2, 100, 100},
                                   {10, 2, 300, 2},   {14, 1, 200, 20}};
    for (int k = 0; k < 3; k++)
        for (int c = 0; c < 8; c++) {
            bool none = cfg[c][3] == cfg[c][2];
            double noise = jitter * ((c * 7 + k * 3) % 5) / 4.0 + (c == 2 && k == 1 ? 0.4 : 0);
            add_run(r, cfg[c][0], cfg[c][1], cfg[c][2], cfg[c][3], none ? 0 : 1, noise, "runs.csv",
                    2 + c + 8 * k);
        }
}

Test(calibrate, recovers_known_costs_from_exact_runs)
{
    struct calib_runs r = {0};
    struct calib_fit f;
    char err[CALIB_ERR_MAX];
    eight_configurations(&r, 0);
    cr_assert_eq(calib_fit(&r, costs, 2, linear_forward, NULL, &opts, &f, err, sizeof err), 0, "%s",
                 err);
    cr_assert_eq(f.ngroups, 8);
    cr_assert(f.fitted[0] && f.fitted[1]);
    cr_assert_float_eq(f.value[0], true_sim, 1e-9 * true_sim);
    cr_assert_float_eq(f.value[1], true_ana, 1e-9 * true_ana);
    cr_assert(f.linear);
    cr_assert(f.fits);
    cr_assert_lt(f.worst, 1e-9);
    for (int g = 0; g < f.ngroups; g++)
        cr_assert_eq(f.group[g].nrep, 3);
    calib_fit_free(&f);
    calib_runs_free(&r);
}

Test(calibrate, recovers_costs_within_their_uncertainty_from_noisy_runs)
{
    struct calib_runs r = {0};
    struct calib_fit f;
    char err[CALIB_ERR_MAX];
    eight_configurations(&r, 0.02);
    cr_assert_eq(calib_fit(&r, costs, 2, linear_forward, NULL, &opts, &f, err, sizeof err), 0, "%s",
                 err);
    const double truth[2] = {true_sim, true_ana};
    for (int j = 0; j < 2; j++) {
        cr_assert(isfinite(f.sigma[j]) && f.sigma[j] > 0);
        cr_assert_lt(fabs(f.value[j] - truth[j]), 4 * f.sigma[j] + 1e-3 * truth[j],
                     "%s: %g for %g (sigma %g)", param_table[costs[j]].key, f.value[j], truth[j],
                     f.sigma[j]);
        cr_assert_lt(fabs(f.value[j] / truth[j] - 1), 0.03);
    }
    /* The slow spell of configuration 2 is a repeat the minimum drops: its spread shows it. */
    cr_assert_gt(f.group[2].hi / f.group[2].lo, 1.35);
    cr_assert_lt(fabs(f.group[2].measured / f.group[2].lo - 1), 1e-12);
    cr_assert_eq(f.dof, 6);
    calib_fit_free(&f);
    calib_runs_free(&r);
}

Test(calibrate, leave_one_out_matches_a_refit_without_the_configuration)
{
    struct calib_runs r = {0};
    struct calib_fit f;
    char err[CALIB_ERR_MAX];
    eight_configurations(&r, 0.03);
    cr_assert_eq(calib_fit(&r, costs, 2, linear_forward, NULL, &opts, &f, err, sizeof err), 0, "%s",
                 err);
    for (int g = 0; g < f.ngroups; g++) {
        /* The runs of every configuration but g, fitted again; g's runs, predicted. */
        struct calib_runs rest = {0}, out = {0};
        struct calib_params_key {
            char k[PARAMS_CANONICAL_MAX];
        } *gk = malloc(sizeof *gk), *rk = malloc(sizeof *rk);
        params_canonical(&r.run[f.group[g].first].p, gk->k, sizeof gk->k);
        for (int i = 0; i < r.n; i++) {
            params_canonical(&r.run[i].p, rk->k, sizeof rk->k);
            struct calib_runs *to = strcmp(rk->k, gk->k) ? &rest : &out;
            if (to->n == to->cap) {
                to->cap = to->cap ? 2 * to->cap : 32;
                to->run = realloc(to->run, (size_t)to->cap * sizeof *to->run);
            }
            to->run[to->n++] = r.run[i];
        }
        struct calib_fit f2, check;
        cr_assert_eq(calib_fit(&rest, costs, 2, linear_forward, NULL, &opts, &f2, err, sizeof err),
                     0, "%s", err);
        cr_assert_eq(calib_check(&out, &f2, linear_forward, NULL, &opts, &check, err, sizeof err),
                     0, "%s", err);
        cr_assert_eq(check.ngroups, 1);
        cr_assert_float_eq(f.group[g].loo, check.group[0].residual, 1e-9, "configuration %d", g);
        calib_fit_free(&f2);
        calib_fit_free(&check);
        calib_runs_free(&rest);
        calib_runs_free(&out);
        free(gk);
        free(rk);
    }
    calib_fit_free(&f);
    calib_runs_free(&r);
}

Test(calibrate, names_two_costs_the_runs_cannot_separate)
{
    struct calib_runs r = {0};
    struct calib_fit f;
    char err[CALIB_ERR_MAX];
    /* Every run analyses every 10 iterations: analytics and simulation scale alike. */
    add_run(&r, 10, 1, 300, 10, 1, 0, "a.log", 1);
    add_run(&r, 14, 1, 200, 10, 1, 0, "a.log", 2);
    add_run(&r, 18, 1, 100, 10, 1, 0, "a.log", 3);
    cr_assert_eq(calib_fit(&r, costs, 2, linear_forward, NULL, &opts, &f, err, sizeof err), 0, "%s",
                 err);
    cr_assert(f.fitted[0]);
    cr_assert_not(f.fitted[1]);
    bool named = false;
    for (int i = 0; i < f.nnotes; i++)
        named = named || (strstr(f.note[i], "cannot separate sim_cost from analytics_cost"));
    cr_assert(named, "no note names the pair");
    calib_fit_free(&f);
    calib_runs_free(&r);
}

Test(calibrate, keeps_a_cost_no_run_exercises)
{
    struct calib_runs r = {0};
    struct calib_fit f;
    char err[CALIB_ERR_MAX];
    add_run(&r, 10, 1, 300, 300, 0, 0, "a.log", 1);
    add_run(&r, 14, 2, 200, 200, 0, 0, "a.log", 2);
    cr_assert_eq(calib_fit(&r, costs, 2, linear_forward, NULL, &opts, &f, err, sizeof err), 0, "%s",
                 err);
    cr_assert(f.fitted[0]);
    cr_assert_not(f.fitted[1]);
    cr_assert_float_eq(f.value[0], true_sim, 1e-9 * true_sim);
    cr_assert_eq(f.value[1], r.run[0].p.analytics_cost);
    cr_assert_not_null(strstr(f.note[0], "no run exercises analytics_cost"));
    calib_fit_free(&f);
    calib_runs_free(&r);
}

Test(calibrate, refuses_fewer_configurations_than_costs)
{
    struct calib_runs r = {0};
    struct calib_fit f;
    char err[CALIB_ERR_MAX] = "";
    add_run(&r, 10, 1, 300, 10, 1, 0, "one.log", 7);
    add_run(&r, 10, 1, 300, 10, 1, 0.1, "one.log", 9); /* a repeat: still one configuration */
    cr_assert_eq(calib_fit(&r, costs, 2, linear_forward, NULL, &opts, &f, err, sizeof err), -1);
    cr_assert_not_null(
        strstr(err,
               "one.log:9: 1 distinct configuration for 2 costs to fit (sim_cost, analytics_cost)"),
        "%s", err);
    calib_fit_free(&f);
    calib_runs_free(&r);
}

Test(calibrate, says_when_the_model_is_not_linear_in_the_costs)
{
    struct calib_runs r = {0};
    struct calib_fit f;
    char err[CALIB_ERR_MAX];
    eight_configurations(&r, 0);
    cr_assert_eq(calib_fit(&r, costs, 2, max_forward, NULL, &opts, &f, err, sizeof err), 0, "%s",
                 err);
    cr_assert_not(f.linear);
    calib_fit_free(&f);
    calib_runs_free(&r);
}

Test(calibrate, refuses_runs_of_different_codes)
{
    struct calib_runs r = {0};
    struct calib_fit f;
    char err[CALIB_ERR_MAX] = "";
    eight_configurations(&r, 0);
    snprintf(r.run[5].code, sizeof r.run[5].code, "another code");
    cr_assert_eq(calib_fit(&r, costs, 2, linear_forward, NULL, &opts, &f, err, sizeof err), -1);
    cr_assert_not_null(strstr(err, "runs.csv:7: runs of another code (another code)"), "%s", err);
    calib_fit_free(&f);
    calib_runs_free(&r);
}

Test(calibrate, reduces_repeats_by_minimum_median_or_mean)
{
    const double got[3] = {1.3, 1.0, 1.2};
    const double want[3] = {1.0, 1.2, 3.5 / 3};
    for (int m = 0; m < 3; m++) {
        struct calib_runs r = {0};
        struct calib_fit f;
        char err[CALIB_ERR_MAX];
        for (int k = 0; k < 3; k++) {
            add_run(&r, 10, 1, 300, 300, 0, 0, "x.csv", k + 2);
            r.run[r.n - 1].total = got[k];
        }
        add_run(&r, 12, 1, 300, 300, 0, 0, "x.csv", 5);
        struct calib_options o = {(enum calib_reduce)m, 0.1};
        cr_assert_eq(calib_fit(&r, costs, 2, linear_forward, NULL, &o, &f, err, sizeof err), 0,
                     "%s", err);
        cr_assert_float_eq(f.group[0].measured, want[m], 1e-12, "%s", calib_reduce_name(o.reduce));
        cr_assert_eq(f.group[0].lo, 1.0);
        cr_assert_eq(f.group[0].hi, 1.3);
        calib_fit_free(&f);
        calib_runs_free(&r);
    }
}

Test(calibrate, cost_parameters_are_those_in_seconds_per_something)
{
    int ids[PARAM_COUNT];
    int n = calib_cost_params(ids, PARAM_COUNT);
    cr_assert_geq(n, 2);
    bool sim = false, ana = false;
    for (int i = 0; i < n; i++) {
        cr_assert_eq(strncmp(param_table[ids[i]].unit, "s/", 2), 0);
        sim = sim || ids[i] == P_SIM_COST;
        ana = ana || ids[i] == P_ANALYTICS_COST;
    }
    cr_assert(sim && ana);
}

Test(calibrate, holds_a_cost_that_fits_below_its_least_value)
{
    struct calib_runs r = {0};
    struct calib_fit f;
    char err[CALIB_ERR_MAX];
    /* Runs with an analysis measured faster than without: only a negative cost would fit. */
    add_run(&r, 10, 1, 300, 300, 0, 0, "n.log", 1);
    add_run(&r, 14, 1, 200, 200, 0, 0, "n.log", 2);
    add_run(&r, 10, 1, 300, 5, 1, 0, "n.log", 3);
    add_run(&r, 14, 1, 200, 5, 1, 0, "n.log", 4);
    r.run[2].total = r.run[0].total * 0.9;
    r.run[3].total = r.run[1].total * 0.9;
    cr_assert_eq(calib_fit(&r, costs, 2, linear_forward, NULL, &opts, &f, err, sizeof err), 0, "%s",
                 err);
    cr_assert_not(f.fitted[1]);
    cr_assert_eq(f.value[1], param_table[P_ANALYTICS_COST].min);
    cr_assert(f.fitted[0] && f.value[0] > 0);
    bool said = false;
    for (int i = 0; i < f.nnotes; i++)
        said = said || strstr(f.note[i], "analytics_cost fitted below its least value");
    cr_assert(said);
    calib_fit_free(&f);
    calib_runs_free(&r);
}
