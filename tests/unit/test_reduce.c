/* Data reduction (model_reduce.h): the bytes a state moves and the seconds its reduction costs,
 * alone and in the model. Expected values are the header's formulas worked by hand here. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../engine/lua/analytics.h"
#include "../../engine/model/layout.h"
#include "../../engine/model/model.h"
#include "../../engine/model/model_reduce.h"
#include "fixtures.h"

#define LATF 13.01
#define BWF  0.97

/* 2 nodes of 8 cores at 2 Gflop/s (twice the reference), 10 Gb/s links (10 us), a 10 GB/s
 * loopback (1 us). */
static struct fixture_cluster twice_speed = {"node", "", 2, 8, 2e9, 1.25e9, 1e-5, 1e10, 1e-6, 0, 0};

static void close_to(double actual, double expected, const char *what)
{
    double tol = 1e-12 * fmax(fabs(expected), 1e-300);
    cr_assert(fabs(actual - expected) <= tol, "%s = %.17g, expected %.17g", what, actual, expected);
}

static double loopback(double bytes)
{
    return 1e-6 * LATF + bytes / (1e10 * BWF);
}

Test(reduce, bytes_and_costs_of_one_state)
{
    struct params p;
    params_defaults(&p);
    p.compression = 4;
    p.decimation = 2;
    p.compression_cost = 3e-8;
    p.decompression_cost = 5e-9;
    p.decimation_cost = 7e-10;
    /* A state of 8e6 bytes: 1e6 elements; decimation 2 over 3 dimensions keeps 125000. */
    struct analytics_value v = {.cost = 2.5, .bytes = 8e6, .pattern = ANALYTICS_NONE};
    close_to(reduce_kept(&p, 3), 1.0 / 32, "kept, 3 dims");
    close_to(reduce_kept(&p, 1), 1.0 / 8, "kept, 1 dim");
    close_to(reduce_put_cost(&p, 3, 8e6), 1e6 * 7e-10 + 125000 * 3e-8, "put cost");
    struct analytics_value r = reduce_value(&p, 3, &v);
    close_to(r.bytes, 250000, "bytes moved");
    close_to(r.cost, 2.5 + 125000 * 5e-9, "cost with the decompression");
    /* Compression alone: no scan for decimation; decimation alone: nothing to restore. */
    p.decimation = 1;
    close_to(reduce_put_cost(&p, 3, 8e6), 1e6 * 3e-8, "put cost, compression alone");
    close_to(reduce_value(&p, 3, &v).cost, 2.5 + 1e6 * 5e-9, "cost, compression alone");
    p.compression = 1;
    p.decimation = 3;
    close_to(reduce_put_cost(&p, 2, 8e6), 1e6 * 7e-10, "put cost, decimation alone");
    close_to(reduce_value(&p, 2, &v).bytes, 8e6 / 9, "bytes, decimation over 2 dimensions");
    close_to(reduce_value(&p, 2, &v).cost, 2.5, "cost, decimation alone");
    /* None: nothing changes, nothing is paid, whatever the costs say. */
    p.decimation = 1;
    cr_assert(!reduce_on(&p));
    cr_assert_eq(reduce_put_cost(&p, 3, 8e6), 0);
    struct analytics_value same = reduce_value(&p, 3, &v);
    cr_assert_eq(same.bytes, v.bytes);
    cr_assert_eq(same.cost, v.cost);
}

Test(reduce, a_decimation_that_leaves_nothing_is_refused)
{
    struct params p;
    params_defaults(&p);
    char err[256] = "";
    /* 4000 elements over 6 ranks: 666.7 each, a side of 8.74 in 3 dimensions, 25.8 in 2. */
    p.decimation = 8;
    cr_assert_eq(reduce_check(&p, 3, 4000, 6, err, sizeof err), 0, "%s", err);
    p.decimation = 9;
    cr_assert_eq(reduce_check(&p, 3, 4000, 6, err, sizeof err), -1);
    cr_assert(strstr(err, "decimation: 9 ") == err, "%s", err);
    cr_assert(strchr(err, '\n') == NULL);
    cr_assert_eq(reduce_check(&p, 2, 4000, 6, err, sizeof err), 0, "%s", err);
    p.decimation = 26;
    cr_assert_eq(reduce_check(&p, 2, 4000, 6, err, sizeof err), -1);
    /* 4 x 10^3 elements on one rank: a side of 15.87, exactly what 15 fits in. */
    p.decimation = 15;
    cr_assert_eq(reduce_check(&p, 3, 4000, 1, err, sizeof err), 0, "%s", err);
    p.mapping = MAPPING_INLINE; /* no state moves: nothing to decimate */
    p.decimation = 1000;
    cr_assert_eq(reduce_check(&p, 3, 4000, 6, err, sizeof err), 0, "%s", err);
}

/* Region 10 (4000 particles), in situ on one node: 6 ranks, 2 actors taking 3 states each over
 * the loopback; 100 iterations, stride 10. */
static struct params insitu_params(void)
{
    struct params p;
    params_defaults(&p);
    p.nodes = 1;
    p.cores_per_node = 8;
    p.ratio = 3;
    p.region = 10;
    p.iterations = 100;
    p.stride = 10;
    p.halo_period = 5;
    p.sim_cost = 1e-6;
    p.analytics_cost = 1e-6;
    p.data_size = 800; /* 4000 x 800 B: 3.2e6 bytes a step, 533333 per rank (66667 elements) */
    p.compression_cost = 1e-7;
    p.decompression_cost = 2e-8;
    p.decimation_cost = 1e-8;
    return p;
}

static void eval(const struct params *p, const struct platform *pf, struct model_result *m)
{
    struct layout l;
    char err[256] = "";
    cr_assert_eq(params_validate(p, err), 0, "%s", err);
    cr_assert_eq(layout_build(p, pf, &l, err, sizeof err), 0, "%s", err);
    struct analytics_profile prof;
    cr_assert_eq(analytics_profile(p, &l, &prof, err, sizeof err), 0, "%s", err);
    model_eval(p, pf, &l, &prof, m);
    profile_free(&prof);
    layout_free(&l);
}

Test(reduce, the_model_pays_on_both_sides_and_moves_less)
{
    struct platform pf = fixture_flat(&twice_speed);
    struct params p = insitu_params();
    struct model_result plain, m;
    eval(&p, &pf, &plain);
    cr_assert_eq(plain.sim_cores, 6);
    double state = 4000.0 * 800 / 6, elements = state / 8;
    close_to(plain.state_moved, state, "state moved, no reduction");
    cr_assert_eq(plain.stage.Ing, 0);
    close_to(plain.stage.R, 3 * loopback(state), "R, no reduction");

    p.compression = 5;
    p.decimation = 2; /* 1/40 moves; 1/8 of the elements compressed and restored */
    eval(&p, &pf, &m);
    close_to(m.state_moved, state / 40, "state moved");
    /* The ranks' host runs at twice the reference: half the reference seconds. */
    double ing = (elements * 1e-8 + elements / 8 * 1e-7) * 0.5;
    close_to(m.stage.Ing, ing, "Ing");
    close_to(m.stage.S, plain.stage.S, "S");
    close_to(m.stage.R, 3 * loopback(state / 40), "R");
    close_to(m.stage.A, plain.stage.A + 3 * elements / 8 * 2e-8 * 0.5, "A");
    close_to(m.sim_active, 10 * (m.stage.S + ing), "sim_active");

    p.mapping = MAPPING_INLINE; /* ignored: no state moves */
    struct model_result a, b;
    eval(&p, &pf, &a);
    p.compression = 1;
    p.decimation = 1;
    eval(&p, &pf, &b);
    cr_assert_eq(a.makespan, b.makespan);
    cr_assert_eq(a.state_moved, 0);
    platform_free(&pf);
}
