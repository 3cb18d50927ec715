/* Simulation profiles below the command line: melt.lua against the built-in's C, a profile's
 * declared parameters in the one table, its decomposition in the layout, its numbers in the
 * model, and the rule that a process has one profile. Each Criterion test is its own process:
 * an activation does not leak into the next test. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../engine/lua/analytics.h"
#include "../../engine/lua/simulation.h"
#include "../../engine/model/model.h"
#include "fixtures.h"

#define MELT   "scripts/lua/simulations/melt.lua"
#define HEAT3D "scripts/lua/simulations/heat3d.lua"

TestSuite(simulation, .init = fixture_dir_make, .fini = fixture_dir_remove);

static struct params small_params(long nodes)
{
    struct params p;
    params_defaults(&p);
    p.nodes = nodes;
    p.cores_per_node = 8;
    p.ratio = 3;
    p.region = 10;
    p.iterations = 100;
    p.stride = 10;
    return p;
}

Test(simulation, melt_lua_is_the_builtin_bit_for_bit)
{
    char err[512];
    cr_assert_eq(simulation_activate(MELT, err, sizeof err), 0, "%s", err);
    struct platform pf = fixture_small_platform();
    const long regions[] = {7, 10, 33}, halos[] = {1, 7, 20};
    for (long nodes = 1; nodes <= 4; nodes++)
        for (int k = 0; k < 3; k++) {
            struct params p = small_params(nodes);
            p.region = regions[k];
            p.halo_period = halos[k];
            p.sim_cost *= 1 + k / 3.0;
            struct layout l;
            cr_assert_eq(layout_build(&p, &pf, &l, err, sizeof err), 0, "%s", err);
            struct sim_profile c, lua;
            simprofile_melt(&p, &l, &c);
            snprintf(p.simulation, sizeof p.simulation, "%s", MELT);
            cr_assert_eq(simulation_eval(&p, &l, &lua, err, sizeof err), 0, "%s", err);
            cr_assert(memcmp(&c, &lua, sizeof c) == 0,
                      "nodes %ld region %ld: C cost %.17g faces %.17g %.17g %.17g, Lua %.17g "
                      "%.17g %.17g %.17g",
                      nodes, p.region, c.cost, c.face[0], c.face[1], c.face[2], lua.cost,
                      lua.face[0], lua.face[1], lua.face[2]);
            layout_free(&l);
        }
    platform_free(&pf);
}

Test(simulation, declared_parameters_are_the_tables)
{
    char err[512];
    cr_assert_eq(params_find("cells"), -1);
    int before = PARAM_COUNT;
    cr_assert_eq(simulation_activate(HEAT3D, err, sizeof err), 0, "%s", err);
    cr_assert_eq(PARAM_COUNT, before + 2);
    int cells = params_find("cells"), cost = params_find("cell-cost");
    cr_assert_eq(cells, P_EXTRA0);
    cr_assert_eq(cost, P_EXTRA0 + 1);
    cr_assert_str_eq(param_table[cost].unit, "s/cell/it");
    struct params p;
    params_defaults(&p);
    cr_assert_eq(params_get_number(&p, cells), 256);
    char *argv[] = {"situ", "--cell-cost=4e-9", "--cells", "64", NULL};
    int i = 1;
    cr_assert_eq(params_parse_flag(&p, 4, argv, &i, err), 1, "%s", err);
    cr_assert_eq(params_parse_flag(&p, 4, argv, &i, err), 1, "%s", err);
    cr_assert_eq(params_get_number(&p, cost), 4e-9);
    cr_assert_eq(params_get_number(&p, cells), 64);
    cr_assert_eq(params_set_number(&p, cells, 4, err), -1); /* below its declared min */
    cr_assert(strstr(err, "cells"), "%s", err);
    char key[PARAMS_CANONICAL_MAX];
    params_canonical(&p, key, sizeof key);
    char want[96];
    snprintf(want, sizeof want, ";cells=64;cell_cost=%.17g", 4e-9);
    cr_assert(strstr(key, want), "%s", key);
    /* One profile per process: another is refused, the same one again is not. */
    cr_assert_eq(simulation_activate(HEAT3D, err, sizeof err), 0, "%s", err);
    cr_assert_eq(simulation_activate(MELT, err, sizeof err), -1);
    cr_assert(strstr(err, "one simulation profile"), "%s", err);
}

Test(simulation, a_configuration_names_the_active_profile)
{
    char err[512];
    struct platform pf = fixture_small_platform();
    struct params p = small_params(2);
    struct layout l;
    cr_assert_eq(layout_build(&p, &pf, &l, err, sizeof err), 0, "%s", err);
    struct sim_profile s;
    snprintf(p.simulation, sizeof p.simulation, "%s", HEAT3D);
    cr_assert_eq(simulation_eval(&p, &l, &s, err, sizeof err), -1); /* never activated */
    cr_assert(strstr(err, "--simulation"), "%s", err);
    layout_free(&l);
    platform_free(&pf);
}

Test(simulation, a_bounded_2d_decomposition_has_no_neighbour_past_its_walls)
{
    char err[512];
    const char *path;
    char buf[256];
    fixture_write("walls.lua",
                  "return {name = 'walls', particles = 1, cost = 1, halo = {x = 1, y = 1},\n"
                  "  decomposition = {dims = 2, periodic = false}}\n",
                  buf, sizeof buf);
    path = buf;
    cr_assert_eq(simulation_activate(path, err, sizeof err), 0, "%s", err);
    struct platform pf = fixture_small_platform();
    struct params p = small_params(1); /* 6 ranks: 3 x 2 */
    struct layout l;
    cr_assert_eq(layout_build(&p, &pf, &l, err, sizeof err), 0, "%s", err);
    cr_assert_eq(l.px * l.py, 6);
    cr_assert_eq(l.pz, 1);
    cr_assert(l.bounded);
    cr_assert_eq(layout_neighbour(&l, 0, -1, 0, 0), 0); /* the west wall */
    cr_assert_eq(layout_neighbour(&l, 0, 1, 0, 0), 1);
    cr_assert_eq(layout_neighbour(&l, 0, 0, -1, 0), 0); /* the south wall */
    cr_assert_eq(layout_neighbour(&l, 0, 0, 1, 0), l.px);
    long last = l.sim_cores - 1;
    cr_assert_eq(layout_neighbour(&l, last, 1, 0, 0), last);
    cr_assert_eq(layout_neighbour(&l, last, 0, 1, 0), last);
    layout_free(&l);
    platform_free(&pf);
}

/* The model's S is the profile's cost times the stride plus its halos: doubling a declared cost
 * parameter adds exactly the profile's own compute to S. */
Test(simulation, the_model_reads_the_profiles_cost)
{
    char err[512];
    cr_assert_eq(simulation_activate(HEAT3D, err, sizeof err), 0, "%s", err);
    struct platform pf = fixture_small_platform();
    struct params p = small_params(2);
    snprintf(p.simulation, sizeof p.simulation, "%s", HEAT3D);
    int cells = params_find("cells"), cost = params_find("cell_cost");
    cr_assert_eq(params_set_number(&p, cells, 48, err), 0, "%s", err);
    struct layout l;
    cr_assert_eq(layout_build(&p, &pf, &l, err, sizeof err), 0, "%s", err);
    cr_assert_eq(l.px, l.sim_cores); /* slabs */
    struct model_result m[2];
    double c[2] = {2e-9, 4e-9};
    for (int k = 0; k < 2; k++) {
        cr_assert_eq(params_set_number(&p, cost, c[k], err), 0, "%s", err);
        struct analytics_profile prof;
        cr_assert_eq(analytics_profile(&p, &l, &prof, err, sizeof err), 0, "%s", err);
        cr_assert_eq(prof.sim.halo_period, 1);
        cr_assert_eq(prof.sim.face[0], 48.0 * 48 * 8);
        cr_assert_eq(prof.sim.face[1], 0);
        model_eval(&p, &pf, &l, &prof, &m[k]);
        profile_free(&prof);
    }
    cr_assert_eq(m[0].particles, 48.0 * 48 * 48);
    /* 1 Gf hosts against the reference core: the compute part scales by REFERENCE_SPEED/1e9. */
    double per_rank = 48.0 * 48 * 48 / l.sim_cores * (c[1] - c[0]) * REFERENCE_SPEED / 1e9;
    cr_assert_float_eq(m[1].stage.S - m[0].stage.S, p.stride * per_rank, 1e-12);
    cr_assert_eq(m[1].halo, m[0].halo);
    layout_free(&l);
    platform_free(&pf);
}
