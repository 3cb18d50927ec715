/* Simulation profiles that read ctx.step: the steps grouped into classes by both the analysis'
 * and the simulation's values (profile.c, the analytics' one home), the Lua profile evaluated
 * per step (analytics_profile), the model summing S per class, and the errors naming the step.
 * Each Criterion test is its own process: an activation does not leak into the next test. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../engine/lua/analytics.h"
#include "../../engine/lua/simulation.h"
#include "../../engine/model/model.h"
#include "fixtures.h"

#define AMR3D "scripts/lua/simulations/amr3d.lua"

TestSuite(steps, .init = fixture_dir_make, .fini = fixture_dir_remove);

Test(steps, classes_group_equal_analysis_and_simulation_values)
{
    struct analytics_profile prof;
    profile_init(&prof, 6);
    struct analytics_value a = {.cost = 1, .bytes = 2}, b = {.cost = 3, .bytes = 2};
    struct sim_profile s = {.particles = 10, .cost = 1, .face = {4, 4, 4}, .halo_period = 1}, t = s;
    t.face[1] = 8; /* the same analysis, another simulation: a class of its own */
    const struct analytics_value *v[6] = {&a, &a, &b, &a, &a, &b};
    const struct sim_profile *w[6] = {&s, &s, &s, &t, &s, &s};
    for (long i = 0; i < 6; i++)
        cr_assert_eq(profile_add_step(&prof, i, v[i], w[i]), 0);
    cr_assert_eq(prof.nclasses, 3);
    const long want_class[6] = {0, 0, 1, 2, 0, 1}, want_count[3] = {3, 2, 1};
    for (long i = 0; i < 6; i++) {
        cr_assert_eq(profile_step_class(&prof, i), want_class[i], "step %ld", i);
        cr_assert_eq(profile_step(&prof, i)->cost, v[i]->cost, "step %ld", i);
        cr_assert_eq(profile_step_sim(&prof, i)->face[1], w[i]->face[1], "step %ld", i);
    }
    for (int k = 0; k < 3; k++)
        cr_assert_eq(prof.classes[k].count, want_count[k], "class %d", k);
    cr_assert_eq(profile_step_class(&prof, 6), want_class[5]); /* the tail: the last step's */
    cr_assert(profile_sim_varies(&prof));
    cr_assert_eq(prof.sim.face[1], s.face[1]); /* prof->sim: the first step's */
    struct analytics_profile copy;
    cr_assert_eq(profile_copy(&copy, &prof), 0);
    cr_assert_eq(profile_step_sim(&copy, 3)->face[1], t.face[1]);
    profile_free(&copy);
    profile_free(&prof);

    profile_init(&prof, 3); /* the analysis alone varies: the simulation does not */
    for (long i = 0; i < 3; i++)
        cr_assert_eq(profile_add_step(&prof, i, i ? &a : &b, &s), 0);
    cr_assert_eq(prof.nclasses, 2);
    cr_assert(!profile_sim_varies(&prof));
    profile_free(&prof);
}

static void amr_params(struct params *p, double every)
{
    char err[512];
    params_defaults(p);
    p->nodes = 2;
    p->cores_per_node = 8;
    p->ratio = 3;
    p->iterations = 120; /* 12 steps, no tail */
    p->stride = 10;
    snprintf(p->simulation, sizeof p->simulation, "%s", AMR3D);
    cr_assert_eq(params_set_number(p, params_find("cells"), 48, err), 0, "%s", err);
    cr_assert_eq(params_set_number(p, params_find("refine_every"), every, err), 0, "%s", err);
}

/* The refined steps are a class of their own; the model's simulation time is the plain steps'
 * S and the refined steps' S, each as the model gives it for a run made of those steps only. */
Test(steps, a_profile_that_reads_ctx_step_is_evaluated_per_class)
{
    char err[512];
    cr_assert_eq(simulation_activate(AMR3D, err, sizeof err), 0, "%s", err);
    struct platform pf = fixture_small_platform();
    const double every[3] = {4, 10000 /* never refined */, 1 /* always */};
    struct model_result m[3];
    for (int k = 0; k < 3; k++) {
        struct params p;
        amr_params(&p, every[k]);
        struct layout l;
        cr_assert_eq(layout_build(&p, &pf, &l, err, sizeof err), 0, "%s", err);
        struct analytics_profile prof;
        cr_assert_eq(analytics_profile(&p, &l, &prof, err, sizeof err), 0, "%s", err);
        if (k == 0) {
            cr_assert_eq(prof.nclasses, 2);
            cr_assert_eq(prof.classes[1].count, 3); /* steps 3, 7 and 11 */
            for (long i = 0; i < 12; i++)
                cr_assert_eq(profile_step_class(&prof, i), (i + 1) % 4 == 0, "step %ld", i);
            cr_assert_eq(prof.classes[1].sim.cost, 3 * prof.classes[0].sim.cost);
            cr_assert_eq(prof.classes[1].sim.face[0], 4 * prof.classes[0].sim.face[0]);
        } else
            cr_assert_eq(prof.nclasses, 1);
        model_eval(&p, &pf, &l, &prof, &m[k]);
        profile_free(&prof);
        layout_free(&l);
    }
    double plain = m[1].sim_active / 12, refined = m[2].sim_active / 12;
    cr_assert_gt(refined, plain * 1.1, "refined %g, plain %g", refined, plain);
    cr_assert_float_eq(m[0].sim_active, 9 * plain + 3 * refined, 1e-12 * m[0].sim_active);
    cr_assert_float_eq(m[0].stage.S, (9 * plain + 3 * refined) / 12, 1e-12);
    cr_assert_float_eq(m[0].halo, (9 * m[1].halo + 3 * m[2].halo) / 12, 1e-15);
    platform_free(&pf);
}

static void eval_fails(const char *name, const char *text, const char *want)
{
    char err[512], path[256];
    fixture_write(name, text, path, sizeof path);
    cr_assert_eq(simulation_activate(path, err, sizeof err), 0, "%s", err);
    struct platform pf = fixture_small_platform();
    struct params p;
    params_defaults(&p);
    p.nodes = 1;
    p.cores_per_node = 8;
    p.ratio = 3;
    p.iterations = 100;
    p.stride = 10;
    snprintf(p.simulation, sizeof p.simulation, "%s", path);
    struct layout l;
    cr_assert_eq(layout_build(&p, &pf, &l, err, sizeof err), 0, "%s", err);
    struct analytics_profile prof;
    cr_assert_eq(analytics_profile(&p, &l, &prof, err, sizeof err), -1);
    cr_assert(strstr(err, want), "'%s' lacks '%s'", err, want);
    cr_assert(strstr(err, name), "'%s' names no file", err);
    cr_assert_null(prof.classes);
    layout_free(&l);
    platform_free(&pf);
}

Test(steps, a_nan_at_one_step_names_the_step)
{
    eval_fails("nan_step.lua",
               "return {name = 'n', particles = 1, halo = {x = 1},\n"
               "  cost = function(ctx) if ctx.step == 6 then return 0/0 end return 1 end}\n",
               "cost returned NaN at ctx.step = 6");
}

Test(steps, an_error_at_one_step_names_the_step)
{
    eval_fails("error_step.lua",
               "return {name = 'e', particles = 1, cost = 1,\n"
               "  halo = function(ctx) if ctx.step > 3 then error('too deep') end\n"
               "    return {x = 1} end}\n",
               "error_step.lua:2: too deep (at ctx.step = 4)");
}

Test(steps, a_step_past_the_run_is_never_asked)
{
    eval_fails("past.lua",
               "return {name = 'p', particles = 1, halo = {x = 1},\n"
               "  cost = function(ctx) assert(ctx.step < ctx.steps, 'past') return ctx.step end,\n"
               "  state = function(ctx) return ctx.step < 9 and 1 or -1 end}\n",
               "state returned -1 at ctx.step = 9");
}

/* The engines scale one set of halo messages per step: each step's faces over the largest's. */
Test(steps, halos_scale_from_the_largest_step)
{
    struct analytics_profile prof;
    profile_init(&prof, 4);
    struct analytics_value v = {.cost = 1};
    struct sim_profile s = {.cost = 1, .face = {2, 6, 0}, .halo_period = 1}, big = s, odd = s;
    for (int d = 0; d < 3; d++)
        big.face[d] = 4 * s.face[d];
    odd.face[1] = 7; /* one axis grows alone */
    const struct sim_profile *w[4] = {&s, &big, &s, &big};
    for (long i = 0; i < 4; i++)
        cr_assert_eq(profile_add_step(&prof, i, &v, w[i]), 0);
    double ref[3], scale[4];
    char err[512];
    cr_assert_eq(profile_halo_scales(&prof, "p.lua", ref, scale, err, sizeof err), 0, "%s", err);
    cr_assert_eq(ref[1], big.face[1]);
    for (long i = 0; i < 4; i++)
        cr_assert_float_eq(scale[i] * ref[1], w[i]->face[1], 1e-12, "step %ld", i);
    profile_free(&prof);
    profile_init(&prof, 4);
    w[3] = &odd;
    for (long i = 0; i < 4; i++)
        cr_assert_eq(profile_add_step(&prof, i, &v, w[i]), 0);
    cr_assert_eq(profile_halo_scales(&prof, "p.lua", ref, NULL, err, sizeof err), -1);
    cr_assert(strstr(err, "p.lua: halo at ctx.step = 3"), "%s", err);
    profile_free(&prof);
}
