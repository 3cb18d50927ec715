/* The analytic model (paper, section 5.1). Every expected value is computed here, by hand, from
 * the formulas; the code under test is only ever on the "actual" side. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../engine/lua/analytics.h"
#include "../../engine/lua/evaluate.h"
#include "../../engine/model/layout.h"
#include "../../engine/model/model.h"
#include "fixtures.h"

/* SimGrid's LV08 network model: latencies x 13.01, bandwidths x 0.97. */
#define LATF 13.01
#define BWF  0.97

static void close_to(double actual, double expected, const char *what)
{
    double tol = 1e-12 * fmax(fabs(expected), 1e-300);
    cr_assert(fabs(actual - expected) <= tol, "%s = %.17g, expected %.17g", what, actual, expected);
}

/* A hand-made cluster: 4 nodes of 8 cores at 2 Gflop/s (twice the reference core), 10 Gb/s
 * links with 10 us latency, a 10 GB/s loopback with 1 us latency. */
#define SMALL_SPEED 2e9
#define SMALL_BW    1.25e9
#define SMALL_LAT   1e-5
#define SMALL_LBW   1e10
#define SMALL_LLAT  1e-6

static struct fixture_cluster twice_speed = {
    "node", "", 4, 8, SMALL_SPEED, SMALL_BW, SMALL_LAT, SMALL_LBW, SMALL_LLAT, 0, 0};

static struct platform twice_speed_platform(void)
{
    return fixture_flat(&twice_speed);
}

static double loopback(double bytes)
{
    return SMALL_LLAT * LATF + bytes / (SMALL_LBW * BWF);
}

static double network(double bytes, double sharers)
{
    return 2 * SMALL_LAT * LATF + bytes * sharers / (SMALL_BW * BWF);
}

/* One node of 8 cores, ratio 1 (4 simulation ranks, 4 analytics actors), region 10 (4000
 * particles, 1000 per rank), 100 iterations, stride 10, halo every 5 iterations. */
static struct params small_params(void)
{
    struct params p;
    params_defaults(&p);
    p.nodes = 1;
    p.cores_per_node = 8;
    p.ratio = 1;
    p.region = 10;
    p.iterations = 100;
    p.stride = 10;
    p.halo_period = 5;
    p.sim_cost = 1e-6;
    p.analytics_cost = 1e-6;
    p.compute_scaling = 4;
    p.data_size = 100;
    p.data_scaling = 1;
    p.dtl = DTL_QUEUE;
    return p;
}

static void eval(const struct params *p, const struct platform *pf, struct model_result *m)
{
    struct layout l;
    char err[256] = "";
    cr_assert_eq(params_validate(p, err), 0, "%s", err);
    cr_assert_eq(layout_build(p, pf, &l, err, sizeof err), 0, "%s", err);
    memset(m, 0x5a, sizeof *m);
    struct analytics_profile prof;
    cr_assert_eq(analytics_profile(p, &l, &prof, err, sizeof err), 0, "%s", err);
    model_eval(p, pf, &l, &prof, m);
    profile_free(&prof);
    layout_free(&l);
}

/* Hand values of the single-node small case. 4 ranks decompose 2 x 2 x 1; region 10 gives boxes
 * of 5 x 5 x 10 cells, so x and y faces are 5*10 cells * 4 particles * 32 B = 6400 B (z has no
 * neighbour but itself). All ranks share the node: the halo goes through the loopback. */
static double small_S(void)
{
    double f = 1e9 / SMALL_SPEED;
    double iteration = 1000 * 1e-6 * f;
    double halo_t = loopback(5.0 * 10 * 4 * 32);
    return 10 * iteration + (10.0 / 5) * halo_t;
}

Test(model, lv08_factors)
{
    cr_assert_eq(NET_LATENCY_FACTOR, 13.01);
    cr_assert_eq(NET_BANDWIDTH_FACTOR, 0.97);
}

Test(model, particles_and_steps)
{
    struct platform pf = twice_speed_platform();
    struct params p = small_params();
    struct model_result m;
    p.region = 70;
    p.iterations = 8000;
    p.stride = 20;
    p.cores_per_node = 8;
    eval(&p, &pf, &m);
    cr_assert_eq(m.particles, 1372000.0, "region 70: %.0f particles", m.particles);
    cr_assert_eq(m.steps, 400);
    cr_assert_eq(m.tail_iterations, 0);
    p.stride = 1000;
    eval(&p, &pf, &m);
    cr_assert_eq(m.steps, 8);
    p.stride = 3;
    eval(&p, &pf, &m);
    cr_assert_eq(m.steps, 2666);
    cr_assert_eq(m.tail_iterations, 2);
    p.region = 1;
    p.stride = 8000;
    eval(&p, &pf, &m);
    cr_assert_eq(m.particles, 4.0);
    cr_assert_eq(m.steps, 1);
}

Test(model, scenario_IA_queue)
{
    struct platform pf = twice_speed_platform();
    struct params p = small_params();
    struct model_result m;
    eval(&p, &pf, &m);

    double S = small_S();
    double A = 1 * 1000 * 1e-6 * 4 * 0.5; /* chunks * particles/rank * cost * scaling * f */
    cr_assert_gt(S, A, "the case is not simulation-bound: S=%g A=%g", S, A);
    cr_assert_eq(m.sim_cores, 4);
    cr_assert_eq(m.ana_cores, 4);
    cr_assert_eq(m.chunks, 1);
    close_to(m.halo, 2 * loopback(6400), "halo");
    close_to(m.stage.S, S, "S");
    cr_assert_eq(m.stage.Ing, 0);
    cr_assert_eq(m.stage.R, 0, "queue DTL: no retrieval time");
    close_to(m.stage.A, A, "A");
    cr_assert_eq(m.stage.W, 0);
    cr_assert_eq(m.stage.C, 0);
    cr_assert_eq(m.steps, 10);
    close_to(m.makespan_eq5, 10 * S, "makespan_eq5");
    close_to(m.makespan, 10 * S + A, "makespan: eq. 5 plus fill/drain");
    close_to(m.sim_active, 10 * S, "sim_active");
    cr_assert_eq(m.sim_idle, 0);
    close_to(m.ana_active, 10 * A, "ana_active");
    close_to(m.ana_idle, 10 * (S - A), "ana_idle");
    close_to(m.efficiency, 1 - (S - A) / S, "efficiency");
    cr_assert_eq(m.scenario, SCENARIO_IA);
    cr_assert_str_eq(model_scenario_name(m.scenario), "IA");
}

Test(model, scenario_IS_queue)
{
    struct platform pf = twice_speed_platform();
    struct params p = small_params();
    struct model_result m;
    p.compute_scaling = 20;
    eval(&p, &pf, &m);

    double S = small_S();
    double A = 1000 * 1e-6 * 20 * 0.5;
    cr_assert_gt(A, S, "the case is not analytics-bound: S=%g A=%g", S, A);
    close_to(m.stage.S, S, "S");
    close_to(m.stage.A, A, "A");
    close_to(m.makespan_eq5, 10 * A, "makespan_eq5");
    close_to(m.makespan, 10 * A + S, "makespan: eq. 5 plus fill/drain");
    close_to(m.sim_active, 10 * S, "sim_active");
    close_to(m.sim_idle, 10 * (A - S), "sim_idle");
    close_to(m.ana_active, 10 * A, "ana_active");
    cr_assert_eq(m.ana_idle, 0);
    close_to(m.efficiency, 1 - (A - S) / A, "efficiency");
    cr_assert_eq(m.scenario, SCENARIO_IS);
    cr_assert_str_eq(model_scenario_name(m.scenario), "IS");
}

Test(model, balanced)
{
    struct platform pf = twice_speed_platform();
    struct params p = small_params();
    struct model_result m;
    double S = small_S();
    /* Pick the compute scaling that makes A equal S: A = 1000 * 1e-6 * scaling * 0.5. */
    p.compute_scaling = S / (1000 * 1e-6 * 0.5);
    eval(&p, &pf, &m);
    close_to(m.stage.A, S, "A");
    cr_assert_float_eq(m.efficiency, 1.0, 1e-12);
    cr_assert_eq(m.scenario, SCENARIO_BALANCED);
    cr_assert_str_eq(model_scenario_name(m.scenario), "balanced");
    cr_assert_float_eq(m.sim_idle, 0, 1e-12);
    cr_assert_float_eq(m.ana_idle, 0, 1e-12);
    close_to(m.makespan_eq5, 10 * S, "makespan_eq5");
}

Test(model, mailbox_on_one_node)
{
    struct platform pf = twice_speed_platform();
    struct params p = small_params();
    struct model_result m;
    p.dtl = DTL_MAILBOX;
    p.data_scaling = 2;
    eval(&p, &pf, &m);

    double S = small_S();
    double A = 1000 * 1e-6 * 4 * 0.5;
    double R = loopback(1000 * 100 * 2); /* one chunk of 1000 particles x 200 B, same node */
    double W = loopback(64), C = loopback(64);
    close_to(m.stage.S, S, "S");
    cr_assert_eq(m.stage.Ing, 0);
    close_to(m.stage.R, R, "R");
    close_to(m.stage.A, A, "A");
    close_to(m.stage.W, W, "W");
    close_to(m.stage.C, C, "C");
    double ana = R + A + W + C;
    cr_assert_gt(S, ana);
    /* The analytics waits for the simulation, and each rank still fetches its metrics (a
     * rendezvous) before its next put: C is on its path every step. */
    close_to(m.makespan_eq5, 10 * (S + C), "makespan_eq5");
    close_to(m.sim_idle, 10 * C, "sim_idle");
    close_to(m.ana_active, 10 * (R + A), "ana_active");
    close_to(m.ana_idle, 10 * (S + C - R - A), "ana_idle");
    close_to(m.efficiency, 1 - (S - ana) / S, "efficiency");
    cr_assert_eq(m.scenario, SCENARIO_IA);
}

Test(model, intransit_crosses_the_network)
{
    struct platform pf = twice_speed_platform();
    struct params p = small_params();
    struct model_result m;
    p.nodes = 2;
    p.mapping = MAPPING_INTRANSIT;
    p.dtl = DTL_MAILBOX;
    eval(&p, &pf, &m);

    /* Node 1 simulates with 8 ranks (500 particles each, 2 x 2 x 2 boxes of 5^3 cells: every
     * face 25 cells = 3200 B, all on node); node 2 analyses with 8 actors, one chunk each. */
    cr_assert_eq(m.sim_cores, 8);
    cr_assert_eq(m.ana_cores, 8);
    cr_assert_eq(m.sim_nodes, 1);
    cr_assert_eq(m.ana_nodes, 1);
    cr_assert_eq(m.nodes_used, 2);
    double S = 10 * 500 * 1e-6 * 0.5 + 2 * loopback(3200);
    double A = 500 * 1e-6 * 4 * 0.5;
    /* The 8 actors fetch at once over the analytics node's link: 8 sharers. */
    double R = network(500 * 100, 8);
    double W = loopback(64);   /* actors and collector share the analytics node */
    double C = network(64, 1); /* the copy to the simulation node */
    close_to(m.stage.S, S, "S");
    close_to(m.stage.R, R, "R");
    close_to(m.stage.A, A, "A");
    close_to(m.stage.W, W, "W");
    close_to(m.stage.C, C, "C");
    double ana = R + A + W + C;
    close_to(m.efficiency, 1 - fabs(S - ana) / fmax(S, ana), "efficiency");
    cr_assert_eq(m.scenario, S > ana ? SCENARIO_IA : SCENARIO_IS);
}

Test(model, intransit_partial_chunks)
{
    struct platform pf = twice_speed_platform();
    struct params p = small_params();
    struct model_result m;
    p.nodes = 3; /* ratio 1 on 3 nodes: round(3 / 2) = 2 analytics nodes, 1 simulation node */
    p.mapping = MAPPING_INTRANSIT;
    p.dtl = DTL_MAILBOX;
    eval(&p, &pf, &m);
    cr_assert_eq(m.sim_cores, 8);
    cr_assert_eq(m.ana_cores, 16);
    cr_assert_eq(m.ana_nodes, 2);
    /* 8 states over 2 nodes of 8 actors: 4 per node, so half the actors get one state and the
     * others none. The step still costs one whole chunk; 4 fetches share each receiving link,
     * but the one simulation node's link carries all 8 states at once: it sets the pace (what
     * SimGrid measures, fast and full: 231.9 s against the model's 229.0 s on a 3-node dahu). */
    cr_assert_eq(m.chunks, 1);
    close_to(m.stage.A, 500 * 1e-6 * 4 * 0.5, "A");
    close_to(m.stage.R, network(8 * 500 * 100, 1), "R");
    cr_assert_gt(m.stage.R, network(500 * 100, 4));
}

/* dtl=staging with states of no bytes, or so few that a transfer's time vanishes beside the
 * date (1e-12 B/particle: 4e-19 s at t = 1e-4 s): the queue's event loop took no step and
 * looped for ever (inf x 0 = NaN for 0 bytes). Now a figure: the transfers take no time, the
 * states land after the route's latency. The timeout fails the test should it loop again. */
Test(model, staging_states_of_no_bytes_end, .timeout = 10)
{
    struct platform pf = twice_speed_platform();
    struct params p = small_params();
    p.nodes = 2;
    p.mapping = MAPPING_INTRANSIT;
    p.dtl = DTL_STAGING;
    struct model_result none, tiny, few, some;
    p.data_size = 0;
    eval(&p, &pf, &none);
    p.data_size = 1e-300;
    eval(&p, &pf, &tiny);
    p.data_size = 1e-12;
    eval(&p, &pf, &few);
    p.data_size = 100;
    eval(&p, &pf, &some);
    const struct model_result *all[] = {&none, &tiny, &few, &some};
    for (int i = 0; i < 4; i++)
        cr_assert(isfinite(all[i]->makespan) && isfinite(all[i]->stage.R), "result %d", i);
    /* 8 ranks on node 1, 8 actors on node 2: one state each, all landing after the route's
     * latency (two links), analysed at once; no put waits. */
    close_to(none.stage.R, network(0, 1), "R of empty states");
    cr_assert_eq(none.staging_wait, 0);
    close_to(tiny.makespan, none.makespan, "makespan of 1e-300 B/particle");
    cr_assert(none.stage.R <= few.stage.R && few.stage.R < some.stage.R, "R %g, %g, %g",
              none.stage.R, few.stage.R, some.stage.R);
}

Test(model, halo_across_nodes)
{
    struct platform pf = twice_speed_platform();
    struct params p = small_params();
    struct model_result m;
    p.nodes = 2; /* insitu: 4 ranks per node, 8 ranks in 2 x 2 x 2 */
    eval(&p, &pf, &m);
    /* Ranks 0-3 (z = 0) on node 1, 4-7 (z = 1) on node 2. Each rank sends its two z faces
     * (3200 B each) off node: 4 ranks x 2 x 3200 B share the node's link. x and y faces stay on
     * the node, the largest is 3200 B over the loopback. The faces cross the link both ways at
     * once: SimGrid's cross-traffic leaves 1/1.05 of it to each way. */
    double off = network(4 * 2 * 3200, 1.05), on = loopback(3200);
    close_to(m.halo, 2 * fmax(off, on), "halo");
    close_to(m.stage.S, 10 * 500 * 1e-6 * 0.5 + m.halo, "S");
}

Test(model, trailing_iterations)
{
    struct platform pf = twice_speed_platform();
    struct params p = small_params();
    struct model_result m;
    p.iterations = 105; /* 10 steps of 10, then 5 iterations with no analysis */
    eval(&p, &pf, &m);
    double S = small_S();
    double tail = 5 * 1000 * 1e-6 * 0.5 + (5.0 / 5) * loopback(6400);
    cr_assert_eq(m.steps, 10);
    cr_assert_eq(m.tail_iterations, 5);
    close_to(m.makespan_eq5, 10 * S + tail, "makespan_eq5");
    close_to(m.sim_active, 10 * S + tail, "sim_active");
}

Test(model, platform_speed_scales_costs)
{
    struct platform pf = twice_speed_platform();
    struct params p = small_params();
    struct model_result fast, slow;
    eval(&p, &pf, &fast);
    struct fixture_cluster c = twice_speed;
    c.speed = 1e9; /* the reference core: costs at face value */
    pf = fixture_flat(&c);
    eval(&p, &pf, &slow);
    close_to(slow.stage.A, 1000 * 1e-6 * 4, "A on a reference core");
    close_to(slow.stage.A, 2 * fast.stage.A, "A twice as long at half the speed");
}

Test(model, transfer_time)
{
    struct platform pf = twice_speed_platform();
    close_to(model_transfer_time(&pf, 1, 1, 1e6, 1), loopback(1e6), "loopback");
    close_to(model_transfer_time(&pf, 1, 1, 1e6, 5), loopback(1e6), "loopback is not shared");
    close_to(model_transfer_time(&pf, 0, 1, 1e6, 1), network(1e6, 1), "network");
    close_to(model_transfer_time(&pf, 0, 1, 1e6, 4), network(1e6, 4), "network, 4 sharers");
    close_to(model_transfer_time(&pf, 0, 1, 1e6, 0), network(1e6, 1), "sharers < 1 means 1");
    struct fixture_cluster c = twice_speed;
    c.bb_bw = 1.25e8; /* a slower backbone is the bottleneck */
    c.bb_lat = 5e-6;
    pf = fixture_flat(&c);
    close_to(model_transfer_time(&pf, 0, 1, 1e6, 1),
             (2 * SMALL_LAT + 5e-6) * LATF + 1e6 / (1.25e8 * BWF), "backbone");
    c.lbw = 0; /* no loopback: same-node traffic goes through the switch */
    pf = fixture_flat(&c);
    close_to(model_transfer_time(&pf, 2, 2, 1e6, 1),
             (2 * SMALL_LAT + 5e-6) * LATF + 1e6 / (1.25e8 * BWF), "no loopback");
}

Test(model, efficiency_and_scenario_functions)
{
    close_to(model_efficiency(3, 1), 1.0 / 3, "eta(3, 1)");
    close_to(model_efficiency(1, 4), 0.25, "eta(1, 4)");
    cr_assert_eq(model_efficiency(2, 2), 1);
    cr_assert_eq(model_efficiency(0, 0), 1);
    cr_assert_eq(model_scenario(3, 1), SCENARIO_IA);
    cr_assert_eq(model_scenario(1, 3), SCENARIO_IS);
    cr_assert_eq(model_scenario(2, 2), SCENARIO_BALANCED);
    cr_assert_eq(model_scenario(0, 0), SCENARIO_BALANCED);
}

Test(model, table1_core_splits)
{
    struct platform pf = fixture_dahu_platform();
    long ratios[] = {1, 3, 7, 15, 31};
    long sim[] = {16, 24, 28, 30, 31}, ana[] = {16, 8, 4, 2, 1};
    for (int i = 0; i < 5; i++) {
        struct params p;
        struct model_result m;
        params_defaults(&p);
        p.ratio = ratios[i];
        eval(&p, &pf, &m);
        cr_assert_eq(m.sim_cores, sim[i], "R=%ld: %ld simulation cores", ratios[i], m.sim_cores);
        cr_assert_eq(m.ana_cores, ana[i], "R=%ld: %ld analytics cores", ratios[i], m.ana_cores);
        cr_assert_eq(m.particles, 1372000.0);
        cr_assert_eq(m.steps, 400);
    }
}

/* Fig. 8 of the paper, (stride, compute scaling) = (1000, 50) on one node: the analytics waits
 * (IA) for R = 1, 3, 7, 15, and the simulation waits (IS) at R = 31. Read from the shipped
 * platform file: this is a property of the configuration Situ ships. */
Test(model, fig8_trend_on_dahu)
{
    struct platform pf;
    char err[512] = "";
    cr_assert_eq(platform_load("platforms/dahu.xml", &pf, err, sizeof err), 0,
                 "%s (run the unit tests from the repository root)", err);
    long ratios[] = {1, 3, 7, 15, 31};
    double prev_A = 0, prev_S = INFINITY;
    for (int i = 0; i < 5; i++) {
        struct params p;
        struct model_result m;
        params_defaults(&p);
        p.stride = 1000;
        p.compute_scaling = 50;
        p.ratio = ratios[i];
        eval(&p, &pf, &m);
        long ana = 32 / (ratios[i] + 1), sim = 32 - ana;
        /* Each actor analyses R states of 1372000/sim particles at 7.93e-7 s x 50. */
        double A = ratios[i] * (1372000.0 / sim) * 7.93e-7 * 50;
        double S_compute = 1000 * (1372000.0 / sim) * 8.2e-7;
        close_to(m.stage.A, A, "A");
        cr_assert(m.stage.S >= S_compute && m.stage.S < 1.01 * S_compute,
                  "R=%ld: S=%g, compute alone %g", ratios[i], m.stage.S, S_compute);
        cr_assert_eq(m.scenario, ratios[i] == 31 ? SCENARIO_IS : SCENARIO_IA,
                     "R=%ld: scenario %s (S=%g, R+A=%g)", ratios[i],
                     model_scenario_name(m.scenario), m.stage.S, m.stage.R + m.stage.A);
        /* Opposite trends: the simulation speeds up, the analytics slows down, with R. */
        cr_assert_lt(m.stage.S, prev_S);
        cr_assert_gt(m.stage.A, prev_A);
        prev_S = m.stage.S;
        prev_A = m.stage.A;
        if (ratios[i] == 31) {
            /* 31 ranks decompose 31 x 1 x 1: two 70 x 70-cell faces (627200 B) per rank, over
             * the loopback, 50 exchanges per step. */
            double halo = 50 * (0.72e-6 * LATF + 627200 / (20.16e9 * BWF));
            close_to(m.halo, halo, "halo at R=31");
            close_to(m.stage.S, S_compute + halo, "S at R=31");
            double R = 31 * (0.72e-6 * LATF + 1372000.0 / 31 * 100 / (20.16e9 * BWF));
            close_to(m.stage.R, R, "R at R=31");
            double ana_side = R + A + 2 * (0.72e-6 * LATF + 64 / (20.16e9 * BWF));
            close_to(m.efficiency, m.stage.S / ana_side, "efficiency at R=31");
        }
    }
    platform_free(&pf);
}

Test(model, run_checks_input)
{
    struct params p;
    struct model_result m;
    char err[512] = "";
    params_defaults(&p);
    p.ratio = 5;
    cr_assert_eq(evaluate_model(&p, &m, err, sizeof err), -1);
    cr_assert_not_null(strstr(err, "ratio"), "%s", err);
    params_defaults(&p);
    snprintf(p.platform, sizeof p.platform, "/nonexistent/situ.xml");
    cr_assert_eq(evaluate_model(&p, &m, err, sizeof err), -1);
    cr_assert_not_null(strstr(err, "/nonexistent/situ.xml"), "%s", err);
}

/* Issue 15's network-bound case on dahu: 4 nodes in transit, 3 simulation nodes of 32 ranks
 * (6 x 4 x 4: the node boundaries cut it unevenly) send 96 states to one node of 32 actors,
 * which wait for them (IA) and take 3 each. */
static struct params drift_params(void)
{
    struct params p;
    params_defaults(&p);
    p.nodes = 4;
    p.ratio = 15;
    p.mapping = MAPPING_INTRANSIT;
    p.dtl = DTL_MAILBOX;
    p.stride = 20;
    p.iterations = 400;
    return p;
}

Test(model, drift_range_where_the_actors_may_drift)
{
    struct platform pf = fixture_dahu_platform();
    struct params p = drift_params();
    struct model_result m;
    eval(&p, &pf, &m);
    cr_assert_eq(m.scenario, SCENARIO_IA);
    cr_assert_eq(m.chunks, 3);
    /* Fully drifted, each actor's transfers overlap the others' analyses: R - A a step (every
     * actor takes as many states, so the mean is the critical actor's). */
    close_to(m.ana_active - m.ana_active_drifted, m.steps * m.stage.A, "drift");
    char w[640];
    cr_assert(strstr(model_warning(&m, w, sizeof w), "upper bound"), "warning: '%s'", w);
    platform_free(&pf);
}

/* One state per actor (6 nodes in transit, ratio 1: 96 states to 3 hosts of 32 actors, from 3
 * simulation nodes cut unevenly): one round whose transfers start up to a halo exchange apart.
 * Full fidelity measured 2.0% below fast; the estimate is a halo exchange off each retrieval. */
Test(model, drift_range_of_one_round)
{
    struct platform pf = fixture_dahu_platform();
    struct params p = drift_params();
    p.nodes = 6;
    p.ratio = 1;
    struct model_result m;
    eval(&p, &pf, &m);
    cr_assert_eq(m.scenario, SCENARIO_IA);
    cr_assert_eq(m.chunks, 1);
    double exchange = m.halo; /* one exchange a step */
    close_to(m.ana_active - m.ana_active_drifted, m.steps * exchange, "drift of one round");
    char w[640];
    cr_assert(strstr(model_warning(&m, w, sizeof w), "upper bound"), "'%s'", w);
    platform_free(&pf);
}

/* The analytics sets the pace (IS): 16 nodes in transit, 15 simulation nodes (480 ranks, cut
 * unevenly) to one node of 32 actors taking 15 each. States wait for the actors, whose rounds
 * drift apart all the same, and the step is shorter: full measured analytics -8.8%, makespan
 * -7.1% of fast's; the model says both are upper bounds. */
Test(model, drift_range_where_the_analytics_sets_the_pace)
{
    struct platform pf = fixture_dahu_platform();
    struct params p = drift_params();
    p.nodes = 16;
    p.iterations = 800;
    struct model_result m;
    eval(&p, &pf, &m);
    cr_assert_eq(m.scenario, SCENARIO_IS);
    cr_assert_eq(m.chunks, 15);
    close_to(m.ana_active - m.ana_active_drifted, m.steps * m.stage.A, "drift");
    char w[640];
    cr_assert(strstr(model_warning(&m, w, sizeof w), "so the makespan, is an upper bound"), "'%s'",
              w);
    platform_free(&pf);
}

Test(model, no_drift_range_where_the_actors_keep_in_step)
{
    struct platform pf = fixture_dahu_platform();
    const char *why[] = {"an even cut (2 simulation nodes)",
                         "the queue DTL",
                         "one halo exchange is 0.9% of one analysis (IS)",
                         "no halo exchange in the run",
                         "in situ",
                         "one halo exchange is 0.4% of one analysis"};
    for (int k = 0; k < 6; k++) {
        struct params p = drift_params();
        if (k == 0)
            p.nodes = 3; /* 2 x 32 ranks, 4 x 4 x 4: each node takes two whole z planes */
        else if (k == 1)
            p.dtl = DTL_QUEUE;
        else if (k == 2)
            p.compute_scaling = 20;
        else if (k == 3)
            p.halo_period = 1000;
        else if (k == 4)
            p.mapping = MAPPING_INSITU;
        else /* IA still (S 11.8 s, R + A 1.8 s), but the states arrive within 2 ms of 0.57 s */
            p.ratio = 3, p.stride = 1000, p.iterations = 2000, p.compute_scaling = 50;
        struct model_result m;
        eval(&p, &pf, &m);
        cr_assert_eq(m.ana_active_drifted, m.ana_active, "%s: %g against %g", why[k],
                     m.ana_active_drifted, m.ana_active);
        char w[640];
        cr_assert_str_empty(model_warning(&m, w, sizeof w), "%s: '%s'", why[k], w);
    }
    platform_free(&pf);
}

/* The simulation side: a node's ranks differ in what they send off it (the same 6 x 4 x 4 cut),
 * and with a halo exchange every iteration of a region-30 box the halos are 44% of S: full
 * fidelity's ranks drift apart (fast's S measured 6.8% above full's). At the defaults (one
 * exchange a step, region 70) the halos are 1% of S: no caution. */
Test(model, ranks_drift_where_halos_are_much_of_S)
{
    struct platform pf = fixture_dahu_platform();
    struct params p = drift_params();
    struct model_result m;
    eval(&p, &pf, &m);
    cr_assert_not(m.ranks_drift, "halo %g of S %g", m.halo, m.stage.S);
    p.region = 30;
    p.halo_period = 1;
    p.dtl = DTL_QUEUE; /* no states on the network: the caution is the ranks' alone */
    eval(&p, &pf, &m);
    cr_assert(m.ranks_drift, "halo %g of S %g", m.halo, m.stage.S);
    cr_assert_eq(m.ana_active_drifted, m.ana_active);
    char w[640];
    cr_assert(strstr(model_warning(&m, w, sizeof w), "S (so the makespan) may be an upper bound"),
              "'%s'", w);
    p.mapping = MAPPING_INSITU; /* 4 nodes of 31 ranks, 31 x 2 x 2: every rank alike */
    p.ratio = 31;
    eval(&p, &pf, &m);
    cr_assert_not(m.ranks_drift, "in situ, an even cut");
    platform_free(&pf);
}
