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

/* ---- the readers ---- */

TestSuite(calibrate_read, .init = fixture_dir_make, .fini = fixture_dir_remove);

/* A log as LAMMPS writes one (its echo of each command once per substitution, the thermo
 * output, two runs): the second run after `unfix`, without its analysis. */
static const char *const two_runs_log =
    "LAMMPS (7 Jan 2022)\n"
    "units\t\tlj\n"
    "lattice\t\tfcc 0.8442\n"
    "region\t\tbox block 0 ${n} 0 ${n} 0 ${n}\n"
    "region\t\tbox block 0 6 0 6 0 6\n"
    "pair_style\tlj/cut 2.5\n"
    "neigh_modify\tevery 10 delay 0 check no\n"
    "compute\t\tg all rdf 50\n"
    "fix\t\tr all ave/time ${e} 2 ${f} c_g[*] mode vector\n"
    "fix\t\tr all ave/time 5 2 ${f} c_g[*] mode vector\n"
    "fix\t\tr all ave/time 5 2 10 c_g[*] mode vector\n"
    "run\t\t100\n"
    "Step Temp E_pair E_mol TotEng Press \n"
    "       0            3   -6.7733681            0   -2.2744931   -3.7033504 \n"
    "Loop time of 0.25 on 2 procs for 100 steps with 864 atoms\n"
    "\n"
    "MPI task timing breakdown:\n"
    "Section |  min time  |  avg time  |  max time  |%varavg| %total\n"
    "---------------------------------------------------------------\n"
    "Pair    | 0.1        | 0.15       | 0.2        |   0.0 | 60.00\n"
    "Neigh   | 0.04       | 0.05       | 0.06       |   0.0 | 20.00\n"
    "Other   |            | 0.05       |            |       | 20.00\n"
    "\n"
    "Nlocal:        432.000 ave         432 max         432 min\n"
    "unfix\t\tr\n"
    "run\t\t50\n"
    "Loop time of 0.1 on 2 procs for 50 steps with 864 atoms\n";

Test(calibrate_read, lammps_log_runs_and_their_configuration)
{
    char path[256], err[CALIB_ERR_MAX];
    fixture_write("two.log", two_runs_log, path, sizeof path);
    struct params base;
    params_defaults(&base);
    struct calib_runs r = {0};
    cr_assert_eq(calib_read_lammps(path, &base, &r, err, sizeof err), 0, "%s", err);
    cr_assert_eq(r.n, 2);
    const struct calib_run *a = &r.run[0], *b = &r.run[1];
    cr_assert_eq(a->line, 15);
    cr_assert_eq(a->p.region, 6); /* 864 = 4 * 6^3 */
    cr_assert_eq(a->p.iterations, 100);
    cr_assert_eq(a->p.halo_period, 10);
    cr_assert_eq(a->p.stride, 5); /* Nfreq 10 over Nrepeat 2 */
    cr_assert_eq(a->p.compute_scaling, 1);
    cr_assert_eq(a->p.nodes, 1);
    cr_assert_eq(a->total, 0.25);
    cr_assert_eq(a->nphases, 3);
    cr_assert_str_eq(a->phase_name[1], "Neigh");
    cr_assert_eq(a->phase[1], 0.05);
    cr_assert_str_eq(a->phase_name[2], "Other");
    cr_assert_eq(a->phase[2], 0.05);
    cr_assert_not_null(strstr(a->code, "pair_style lj/cut 2.5"));
    cr_assert_not_null(strstr(a->code, "lattice fcc 0.8442"));
    cr_assert_str_eq(a->code, b->code);
    cr_assert_eq(b->line, 27);
    cr_assert_eq(b->p.iterations, 50);
    cr_assert_eq(b->p.compute_scaling, 0, "unfix'd: no analysis");
    cr_assert_eq(b->p.stride, 50);
    cr_assert_eq(b->nphases, 0);
    calib_runs_free(&r);
}

Test(calibrate_read, recorded_log_phases_add_up_to_the_loop_time)
{
    /* A real log of record.sh (melt-n10-p1-rdf5: a 10^3 box, one rank, an RDF every 5). */
    char err[CALIB_ERR_MAX];
    struct params base;
    params_defaults(&base);
    struct calib_runs r = {0};
    cr_assert_eq(calib_read_lammps("tests/bad/files/calibrate/rdf.log", &base, &r, err, sizeof err),
                 0, "%s", err);
    cr_assert_eq(r.n, 1);
    cr_assert_eq(r.run[0].p.region, 10);
    cr_assert_eq(r.run[0].p.stride, 5);
    cr_assert_eq(r.run[0].p.halo_period, 20);
    cr_assert_eq(r.run[0].nphases, 6);
    double sum = 0;
    for (int i = 0; i < r.run[0].nphases; i++)
        sum += r.run[0].phase[i];
    cr_assert_lt(fabs(sum / r.run[0].total - 1), 0.01, "phases %g, loop %g", sum, r.run[0].total);
    calib_runs_free(&r);
}

Test(calibrate_read, csv_columns_in_either_spelling_with_phases)
{
    char path[256], err[CALIB_ERR_MAX];
    fixture_write("runs.csv",
                  "# two runs\n"
                  "code, region, ranks, compute-scaling, stride, iterations, total, a, b\n"
                  "\n"
                  "x, 12, 4, 0, 100, 100, 3.5, 3, 0.5\n"
                  "x, 14, 2, 2.5, 10, 100, 7.25, 6, 1.25\n",
                  path, sizeof path);
    struct params base;
    params_defaults(&base);
    struct calib_runs r = {0};
    cr_assert_eq(calib_read_csv(path, &base, &r, err, sizeof err), 0, "%s", err);
    cr_assert_eq(r.n, 2);
    cr_assert_eq(r.run[0].line, 4);
    cr_assert_eq(r.run[1].line, 5);
    cr_assert_eq(r.run[1].p.region, 14);
    cr_assert_eq(r.run[1].p.compute_scaling, 2.5);
    cr_assert_eq(r.run[1].p.stride, 10);
    cr_assert_eq(r.run[1].total, 7.25);
    cr_assert_eq(r.run[1].nphases, 2);
    cr_assert_str_eq(r.run[1].phase_name[1], "b");
    cr_assert_eq(r.run[1].phase[1], 1.25);
    cr_assert_str_eq(r.run[1].code, "x");
    cr_assert_eq(r.run[0].p.nodes, 1);
    calib_runs_free(&r);
}

Test(calibrate, says_when_the_runs_barely_separate_two_costs)
{
    struct calib_runs r = {0};
    struct calib_fit f;
    char err[CALIB_ERR_MAX];
    /* Analyses every 10 or 12 iterations only: the two columns are close to parallel. */
    add_run(&r, 10, 1, 300, 10, 1, 0.01, "c.log", 1);
    add_run(&r, 14, 1, 240, 12, 1, -0.01, "c.log", 2);
    add_run(&r, 18, 1, 120, 10, 1, 0.01, "c.log", 3);
    add_run(&r, 12, 1, 240, 12, 1, 0, "c.log", 4);
    cr_assert_eq(calib_fit(&r, costs, 2, linear_forward, NULL, &opts, &f, err, sizeof err), 0, "%s",
                 err);
    cr_assert(f.fitted[0] && f.fitted[1]);
    bool said = false;
    for (int i = 0; i < f.nnotes; i++)
        said = said || strstr(f.note[i], "barely separate sim_cost from analytics_cost");
    cr_assert(said);
    calib_fit_free(&f);
    calib_runs_free(&r);
}
