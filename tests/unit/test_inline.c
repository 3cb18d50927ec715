/* mapping=inline in the model and the placement (model.h): every core a rank, each rank analysing
 * its own part after its S, then the ranks' exchange. Expected values are the formulas by hand. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../engine/lua/analytics.h"
#include "../../engine/model/layout.h"
#include "../../engine/model/model.h"
#include "fixtures.h"

#define LATF 13.01
#define BWF  0.97

/* 4 nodes of 8 cores at 2 Gflop/s (twice the reference), 10 Gb/s links (10 us), a 10 GB/s
 * loopback (1 us). */
static struct fixture_cluster twice_speed = {"node", "", 4, 8, 2e9, 1.25e9, 1e-5, 1e10, 1e-6, 0, 0};

static void close_to(double actual, double expected, const char *what)
{
    double tol = 1e-12 * fmax(fabs(expected), 1e-300);
    cr_assert(fabs(actual - expected) <= tol, "%s = %.17g, expected %.17g", what, actual, expected);
}

static double loopback(double bytes)
{
    return 1e-6 * LATF + bytes / (1e10 * BWF);
}

static double network(double bytes, double sharers)
{
    return 2 * 1e-5 * LATF + bytes * sharers / (1.25e9 * BWF);
}

/* Region 10 (4000 particles), 100 iterations, stride 10, halo every 5; ratio 2 is not
 * realisable on 8 cores, and inline does not use it. */
static struct params inline_params(void)
{
    struct params p;
    params_defaults(&p);
    p.nodes = 1;
    p.cores_per_node = 8;
    p.ratio = 2;
    p.region = 10;
    p.iterations = 100;
    p.stride = 10;
    p.halo_period = 5;
    p.sim_cost = 1e-6;
    p.analytics_cost = 1e-6;
    p.compute_scaling = 4;
    p.mapping = MAPPING_INLINE;
    return p;
}

static void eval(const struct params *p, const struct platform *pf, struct model_result *m)
{
    struct layout l;
    char err[256] = "";
    cr_assert_eq(params_validate(p, err), 0, "%s", err);
    cr_assert_eq(layout_build(p, pf, &l, err, sizeof err), 0, "%s", err);
    cr_assert(l.inline_ranks);
    memset(m, 0x5a, sizeof *m);
    struct analytics_profile prof;
    cr_assert_eq(analytics_profile(p, &l, &prof, err, sizeof err), 0, "%s", err);
    model_eval(p, pf, &l, &prof, m);
    profile_free(&prof);
    layout_free(&l);
}

Test(inline, every_core_a_rank_and_no_idle)
{
    struct platform pf = fixture_flat(&twice_speed);
    struct params p = inline_params();
    struct model_result m;
    eval(&p, &pf, &m);
    cr_assert_eq(m.sim_cores, 8);
    cr_assert_eq(m.ana_cores, 0);
    cr_assert_eq(m.ana_nodes, 0);
    /* 8 ranks, 2 x 2 x 2 boxes of 5^3 cells (500 particles): every face 25 cells x 4 x 32 B on
     * the loopback, two exchanges a step. Thermo: 4000 particles x 1e-6 s x 4, an eighth per
     * rank, at twice the reference speed; no exchange. */
    double S = 10 * 500 * 1e-6 * 0.5 + 2 * loopback(3200);
    double A = 4000 * 1e-6 * 4 / 8 * 0.5;
    close_to(m.stage.S, S, "S");
    close_to(m.stage.A, A, "A");
    cr_assert_eq(m.stage.R + m.stage.Ing + m.stage.W + m.stage.C, 0);
    close_to(m.sim_active, 10 * S, "sim_active");
    close_to(m.ana_active, 10 * A, "ana_active");
    cr_assert_eq(m.sim_idle, 0);
    cr_assert_eq(m.ana_idle, 0);
    close_to(m.makespan, 10 * (S + A), "makespan");
    close_to(m.makespan_eq5, m.makespan, "eq. 5");
    cr_assert_eq(m.efficiency, 1);
    cr_assert_eq(m.scenario, SCENARIO_INLINE);
    cr_assert_str_eq(model_scenario_name(m.scenario), "inline");

    p.compute_scaling = 0; /* no analysis: it costs nothing */
    eval(&p, &pf, &m);
    cr_assert_eq(m.stage.A, 0);
    close_to(m.makespan, 10 * S, "makespan without analysis");
    platform_free(&pf);
}

Test(inline, the_ranks_exchange_across_nodes, .init = fixture_dir_make, .fini = fixture_dir_remove)
{
    struct platform pf = fixture_flat(&twice_speed);
    struct params p = inline_params();
    struct model_result m;
    char path[256];
    fixture_write(
        "sum.lua",
        "return { name = 'sum', cost = function(c) return c.particles * 1e-6 end,\n"
        "  bytes = function(c) return 0 end,\n"
        "  exchange = function(c) return { pattern = 'allreduce', bytes = 16384 } end }\n",
        path, sizeof path);
    snprintf(p.analytics, sizeof p.analytics, "%s", path);
    p.nodes = 4; /* 32 ranks on 4 hosts: log2(4) rounds between hosts, both ways at once */
    eval(&p, &pf, &m);
    cr_assert_eq(m.sim_cores, 32);
    cr_assert_eq(m.sim_nodes, 4);
    double A = 4000 * 1e-6 / 32 * 0.5 + 2 * network(16384, 1.05);
    close_to(m.stage.A, A, "A");
    close_to(m.makespan, m.sim_active + 10 * A, "makespan");
    p.nodes = 1; /* on one host the ranks combine in shared memory: no network */
    eval(&p, &pf, &m);
    close_to(m.stage.A, 4000 * 1e-6 / 8 * 0.5, "A on one node");
    platform_free(&pf);
}

Test(inline, what_makes_no_sense_with_it_is_refused)
{
    struct params p = inline_params();
    char err[PARAMS_ERR_MAX] = "";
    cr_assert_eq(params_validate(&p, err), 0, "any ratio: %s", err);
    snprintf(p.hostfile, sizeof p.hostfile, "hosts.txt");
    cr_assert_eq(params_validate(&p, err), -1);
    cr_assert(strstr(err, "hostfile") == err, "%s", err);
    p.hostfile[0] = 0;
    snprintf(p.analytics_zone, sizeof p.analytics_zone, "staging");
    cr_assert_eq(params_validate(&p, err), -1);
    cr_assert(strstr(err, "analytics_zone") == err, "%s", err);
    p.mapping = MAPPING_INSITU; /* the ratio matters again */
    p.analytics_zone[0] = 0;
    cr_assert_eq(params_validate(&p, err), -1);
    cr_assert(strstr(err, "ratio") == err, "%s", err);
}

Test(inline, placement_every_core_a_rank_and_states_stay_home)
{
    struct platform pf = fixture_flat(&twice_speed);
    struct params p = inline_params();
    p.nodes = 3;
    p.cores_per_node = 6; /* of the hosts' 8 */
    struct layout l, x;
    char err[256] = "";
    cr_assert_eq(layout_build(&p, &pf, &l, err, sizeof err), 0, "%s", err);
    cr_assert_eq(l.sim_cores, 18);
    cr_assert_eq(l.ana_cores, 0);
    cr_assert_eq(l.sim_nodes, 3);
    cr_assert_eq(l.ana_nodes, 0);
    cr_assert_eq(l.nodes_used, 3);
    for (int h = 0; h < pf.hosts; h++) {
        cr_assert_eq(l.sim_per_host[h], h < 3 ? 6 : 0, "host %d", h);
        cr_assert_eq(l.ana_per_host[h] + l.dtl_load[h], 0, "host %d", h);
    }
    for (long r = 0; r < l.sim_cores; r++) {
        cr_assert_eq(l.rank_host[r], r / 6);
        cr_assert_eq(l.dtl_host[r], l.rank_host[r]);
    }
    cr_assert_eq(l.collector_host, l.rank_host[0]);
    /* The exchange sees the ranks' hosts as its own. */
    layout_inline_view(&l, &x);
    cr_assert_eq(x.ana_cores, 18);
    cr_assert_eq(x.ana_per_host[1], 6);
    cr_assert_eq(x.dtl_load[2], 6);
    layout_free(&l);
    p.nodes = 5; /* more than the platform's 4 hosts */
    cr_assert_eq(layout_build(&p, &pf, &l, err, sizeof err), -1);
    cr_assert(strstr(err, "nodes") == err, "%s", err);
    platform_free(&pf);
}
