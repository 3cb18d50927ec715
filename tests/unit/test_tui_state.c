/* The explorer's state and key actions, without a terminal: the screen is a function of this
 * state, so what a key does is checked here (htop-style flags, inline errors, refused moves,
 * presets, results for the current configuration and for the crossover, the curves). Run from
 * the repository root (presets/ and platforms/ are found there). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../engine/lua/evaluate.h"
#include "../../engine/model/model.h"
#include "../../engine/model/result.h"
#include "../../tui/state/app.h"
#include "../../tui/view/draw.h"
#include "../../tui/view/plot.h"
#include "../../tui/loop/stats.h"

static struct app_state *start(const struct params *p)
{
    struct app_state *s = calloc(1, sizeof *s);
    cr_assert_not_null(s);
    char err[512] = "";
    cr_assert_eq(app_init(s, p, "default", err, sizeof err), 0, "app_init: %s", err);
    return s;
}

static struct app_state *start_default(void)
{
    struct params p;
    params_defaults(&p);
    return start(&p);
}

static void stop(struct app_state *s)
{
    app_free(s);
    free(s);
}

static void type(struct app_state *s, const char *text)
{
    for (const char *c = text; *c; c++)
        app_key(s, *c);
}

static void focus_on(struct app_state *s, int id)
{
    for (int i = 0; i < s->nsliders; i++)
        if (s->sliders[i] == id)
            s->focus = i;
    cr_assert_eq(app_focused(s), id);
}

Test(tui_state, sliders_come_from_the_parameter_table)
{
    struct app_state *s = start_default();
    int expected = 0;
    for (int id = 0; id < PARAM_COUNT; id++)
        expected += param_table[id].slider;
    cr_assert_eq(s->nsliders, expected);
    for (int i = 0; i < s->nsliders; i++)
        cr_assert(param_table[s->sliders[i]].slider);
    cr_assert_eq(app_focused(s), P_RATIO, "the explorer starts on the core ratio");
    cr_assert_eq(s->mode, APP_MAIN);
    cr_assert_eq(s->sim_phase, SIM_WAITING);
    stop(s);
}

Test(tui_state, model_matches_situ_model)
{
    struct app_state *s = start_default();
    struct model_result m;
    char err[256];
    cr_assert_eq(evaluate_model(&s->p, &m, err, sizeof err), 0, "%s", err);
    cr_assert_float_eq(s->model.efficiency, m.efficiency, 1e-12);
    cr_assert_float_eq(s->model.makespan, m.makespan, 1e-9);
    stop(s);
}

Test(tui_state, right_steps_the_ratio_through_realisable_values)
{
    struct app_state *s = start_default();
    double eta = s->model.efficiency;
    unsigned f = app_key(s, APP_KEY_RIGHT);
    cr_assert(f & APP_DIRTY);
    cr_assert(f & APP_CONFIG, "a new configuration must reach the loop");
    cr_assert_eq(s->p.ratio, 31);
    cr_assert_neq(s->model.efficiency, eta, "the model did not follow the slider");
    cr_assert(s->modified);

    /* At the top: nothing changes, the reason is shown, no simulation is asked for. */
    f = app_key(s, 'l');
    cr_assert_eq(s->p.ratio, 31);
    cr_assert_not(f & APP_CONFIG);
    cr_assert(strstr(s->notice, "maximum"), "notice: %s", s->notice);

    app_key(s, APP_KEY_LEFT);
    app_key(s, 'h');
    cr_assert_eq(s->p.ratio, 7);
    app_key(s, APP_KEY_PGDN); /* coarse: two realisable values at once */
    cr_assert_eq(s->p.ratio, 1);
    app_key(s, APP_KEY_PGUP);
    cr_assert_eq(s->p.ratio, 7);
    stop(s);
}

Test(tui_state, focus_moves_and_stops_at_the_ends)
{
    struct app_state *s = start_default();
    app_key(s, 'g');
    cr_assert_eq(s->focus, 0);
    app_key(s, APP_KEY_UP);
    cr_assert_eq(s->focus, 0);
    app_key(s, 'j');
    cr_assert_eq(s->focus, 1);
    app_key(s, 'G');
    cr_assert_eq(s->focus, s->nsliders - 1);
    app_key(s, APP_KEY_DOWN);
    cr_assert_eq(s->focus, s->nsliders - 1);
    stop(s);
}

Test(tui_state, typed_garbage_shows_an_error_and_changes_nothing)
{
    struct app_state *s = start_default();
    struct params before = s->p;
    app_key(s, APP_KEY_ENTER);
    cr_assert_eq(s->mode, APP_EDIT);
    type(s, "abc");
    unsigned f = app_key(s, APP_KEY_ENTER);
    cr_assert_not(f & APP_CONFIG);
    cr_assert_eq(s->mode, APP_EDIT, "the error is shown where the value is typed");
    cr_assert(strstr(s->edit_err, "ratio"), "error: %s", s->edit_err);
    cr_assert(strstr(s->edit_err, "abc"), "error: %s", s->edit_err);
    cr_assert_eq(memcmp(&before, &s->p, sizeof before), 0);
    /* Typing again clears the error; Esc leaves without a change. */
    app_key(s, APP_KEY_BACKSPACE);
    cr_assert_str_eq(s->edit, "ab");
    cr_assert_str_empty(s->edit_err);
    app_key(s, APP_KEY_ESC);
    cr_assert_eq(s->mode, APP_MAIN);
    cr_assert_eq(memcmp(&before, &s->p, sizeof before), 0);
    stop(s);
}

Test(tui_state, typed_unrealisable_ratio_names_the_nearest)
{
    struct app_state *s = start_default();
    app_key(s, APP_KEY_ENTER);
    type(s, "5");
    app_key(s, APP_KEY_ENTER);
    cr_assert(strstr(s->edit_err, "3 or 7"), "error: %s", s->edit_err);
    cr_assert_eq(s->p.ratio, 15);
    app_key(s, APP_KEY_CTRL_U);
    cr_assert_eq(s->edit_len, 0);
    type(s, "7");
    unsigned f = app_key(s, APP_KEY_ENTER);
    cr_assert(f & APP_CONFIG);
    cr_assert_eq(s->mode, APP_MAIN);
    cr_assert_eq(s->p.ratio, 7);
    stop(s);
}

Test(tui_state, empty_edit_changes_nothing)
{
    struct app_state *s = start_default();
    app_key(s, 'e');
    unsigned f = app_key(s, APP_KEY_ENTER);
    cr_assert_not(f & APP_CONFIG);
    cr_assert_eq(s->mode, APP_MAIN);
    stop(s);
}

Test(tui_state, q_quits_except_while_typing)
{
    struct app_state *s = start_default();
    cr_assert(app_key(s, 'q') & APP_QUIT);
    cr_assert(app_key(s, APP_KEY_CTRL_C) & APP_QUIT);
    app_key(s, APP_KEY_ENTER);
    cr_assert_not(app_key(s, 'q') & APP_QUIT);
    cr_assert_str_eq(s->edit, "q");
    cr_assert(app_key(s, APP_KEY_CTRL_C) & APP_QUIT);
    stop(s);
}

Test(tui_state, help_opens_and_closes)
{
    struct app_state *s = start_default();
    app_key(s, '?');
    cr_assert_eq(s->mode, APP_HELP);
    cr_assert_eq(app_key(s, APP_KEY_RIGHT), 0, "keys do nothing under the help");
    cr_assert_eq(s->p.ratio, 15);
    app_key(s, APP_KEY_ESC);
    cr_assert_eq(s->mode, APP_MAIN);
    app_key(s, '?');
    app_key(s, '?');
    cr_assert_eq(s->mode, APP_MAIN);
    app_key(s, '?');
    cr_assert(app_key(s, 'q') & APP_QUIT);
    stop(s);
}

Test(tui_state, mapping_skips_what_the_configuration_cannot_take)
{
    struct app_state *s = start_default(); /* one node: in transit is impossible */
    unsigned f = app_key(s, 'm');
    cr_assert(f & APP_CONFIG);
    cr_assert_eq(s->p.mapping, MAPPING_INLINE, "in transit and hostfile skipped");
    stop(s);

    struct params p;
    params_defaults(&p);
    p.nodes = 16;
    s = start(&p);
    f = app_key(s, 'm');
    cr_assert(f & APP_CONFIG);
    cr_assert_eq(s->p.mapping, MAPPING_INTRANSIT);
    app_key(s, 'm'); /* hostfile needs a file: skipped */
    cr_assert_eq(s->p.mapping, MAPPING_INLINE);
    app_key(s, 'm');
    cr_assert_eq(s->p.mapping, MAPPING_INSITU);
    stop(s);
}

Test(tui_state, a_step_into_an_invalid_configuration_is_refused)
{
    struct params p;
    params_defaults(&p);
    p.nodes = 2;
    p.mapping = MAPPING_INTRANSIT;
    struct app_state *s = start(&p);
    focus_on(s, P_NODES);
    unsigned f = app_key(s, APP_KEY_LEFT);
    cr_assert_not(f & APP_CONFIG);
    cr_assert_eq(s->p.nodes, 2);
    cr_assert(strstr(s->notice, "nodes"), "notice: %s", s->notice);

    /* More nodes than the platform has: refused with the layout's reason. */
    app_key(s, APP_KEY_ENTER);
    type(s, "64");
    app_key(s, APP_KEY_ENTER);
    cr_assert_eq(s->p.nodes, 2);
    cr_assert_str_not_empty(s->edit_err);
    stop(s);
}

Test(tui_state, default_key_resets_the_focused_parameter)
{
    struct app_state *s = start_default();
    app_key(s, APP_KEY_RIGHT);
    cr_assert_eq(s->p.ratio, 31);
    cr_assert(app_key(s, 'd') & APP_CONFIG);
    cr_assert_eq(s->p.ratio, 15);
    stop(s);
}

Test(tui_state, rerun_asks_the_loop)
{
    struct app_state *s = start_default();
    cr_assert(app_key(s, 'r') & APP_RERUN);
    stop(s);
}

Test(tui_state, preset_picker_loads_a_preset)
{
    struct app_state *s = start_default();
    /* The picker's list comes from the data directory; set it as the picker would. */
    s->mode = APP_PRESETS;
    s->npresets = 2;
    snprintf(s->presets[0], sizeof s->presets[0], "default");
    snprintf(s->presets[1], sizeof s->presets[1], "fig9-intransit");
    s->preset_sel = 0;
    app_key(s, APP_KEY_DOWN);
    cr_assert_eq(s->preset_sel, 1);
    unsigned f = app_key(s, APP_KEY_ENTER);
    cr_assert(f & APP_CONFIG);
    cr_assert_eq(s->mode, APP_MAIN);
    cr_assert_eq(s->p.nodes, 16);
    cr_assert_eq(s->p.mapping, MAPPING_INTRANSIT);
    cr_assert_str_eq(s->preset, "fig9-intransit");
    cr_assert_not(s->modified);
    stop(s);
}

Test(tui_state, click_focuses_and_sets)
{
    struct app_state *s = start_default();
    cr_assert(app_click(s, 0, -1) & APP_DIRTY);
    cr_assert_eq(app_focused(s), s->sliders[0]);
    focus_on(s, P_RATIO);
    int index = s->focus;
    cr_assert(app_click(s, index, 0.0) & APP_CONFIG);
    cr_assert_eq(s->p.ratio, 1);
    app_click(s, index, 1.0);
    cr_assert_eq(s->p.ratio, 31);
    cr_assert_float_eq(app_position(s, P_RATIO), 1.0, 1e-12);
    stop(s);
}

static struct sim_result fake_result(double makespan)
{
    struct sim_result r;
    memset(&r, 0, sizeof r);
    r.m.makespan = makespan;
    r.m.efficiency = 0.5;
    r.wall_seconds = -1;
    r.activities = -1;
    return r;
}

Test(tui_state, results_land_on_the_current_configuration_only)
{
    struct app_state *s = start_default();
    s->refine = false; /* the fidelity parameter's run alone: its result is the last */
    struct params stale = s->p;
    stale.stride = 40;
    struct sim_result r = fake_result(123);
    unsigned f = app_on_result(s, &stale, &r, NULL, false, 0.1);
    cr_assert_not(s->has_sim, "a stale result was shown as current");
    (void)f;
    cr_assert(app_on_result(s, &s->p, &r, NULL, false, 0.2) & APP_DIRTY);
    cr_assert(s->has_sim);
    cr_assert_eq(s->sim_phase, SIM_DONE);
    cr_assert_float_eq(s->sim.m.makespan, 123, 1e-12);

    /* A new configuration drops the old result; a failure is shown with its reason. */
    app_key(s, APP_KEY_RIGHT);
    cr_assert_not(s->has_sim);
    cr_assert_eq(s->sim_phase, SIM_WAITING);
    app_on_result(s, &s->p, NULL, "exit 3: run: boom", false, 0.1);
    cr_assert_eq(s->sim_phase, SIM_FAILED);
    cr_assert_str_eq(s->sim_err, "exit 3: run: boom");
    cr_assert(strstr(s->last_error, "boom"), "status: %s", s->last_error);
    stop(s);
}

/* Refinement: fast, then full, on the column and on the crossover's points; a less faithful
 * result (a fast run ending late) never replaces a more faithful one; a result of a configuration
 * left behind is never shown; f turns it off. */
Test(tui_state, refinement_keeps_the_most_faithful_result)
{
    struct app_state *s = start_default();
    cr_assert(s->refine, "refinement is on by default");
    cr_assert_eq(app_sim_first(s), FIDELITY_FAST);
    cr_assert_eq(app_sim_target(s), FIDELITY_FULL);
    struct params full;
    app_at_fidelity(&s->p, FIDELITY_FULL, &full);
    struct sim_result fast_r = fake_result(100), full_r = fake_result(90);
    snprintf(fast_r.fidelity, sizeof fast_r.fidelity, "fast");
    snprintf(full_r.fidelity, sizeof full_r.fidelity, "full");

    app_on_result(s, &s->p, &fast_r, NULL, false, 0.1);
    cr_assert(s->has_sim);
    cr_assert_eq(s->sim_phase, SIM_WAITING, "full fidelity is still to come");
    app_on_result(s, &full, &full_r, NULL, false, 2);
    cr_assert_eq(s->sim_phase, SIM_DONE);
    cr_assert_eq(s->sim_fid, FIDELITY_FULL);
    app_on_result(s, &s->p, &fast_r, NULL, false, 0.1);
    cr_assert_float_eq(s->sim.m.makespan, 90, 1e-12, "a late fast result replaced full's");
    app_on_result(s, &s->p, NULL, "exit 1: late", false, 0.1);
    cr_assert_eq(s->sim_phase, SIM_DONE, "a late fast failure hid full's result");

    /* The crossover's points: the same rule. */
    int m = XO_INTRANSIT, i = 2;
    struct params q;
    xover_point_params(&s->xo, m, i, &q);
    app_on_result(s, &q, &fast_r, NULL, false, 0.1);
    q.fidelity = FIDELITY_FULL;
    app_on_result(s, &q, &full_r, NULL, false, 0.1);
    q.fidelity = FIDELITY_FAST;
    app_on_result(s, &q, &fast_r, NULL, false, 0.1);
    cr_assert_eq(s->xo.pstate[m][i], XO_PT_DONE);
    cr_assert_eq(s->xo.pfid[m][i], FIDELITY_FULL);
    cr_assert_float_eq(s->xo.sim[m][i], 90, 1e-12, "a late fast point replaced full's");

    /* A key: the full result of the configuration left behind is not this one's. */
    struct params old = full;
    app_key(s, APP_KEY_RIGHT);
    app_on_result(s, &old, &full_r, NULL, false, 2);
    cr_assert_not(s->has_sim, "a stale full result was shown as current");

    /* f: off, the fidelity parameter's run is the last; on again. */
    cr_assert(app_key(s, 'f') & APP_REFINE);
    cr_assert_not(s->refine);
    cr_assert_eq(app_sim_target(s), FIDELITY_FAST);
    app_on_result(s, &s->p, &fast_r, NULL, false, 0.1);
    cr_assert_eq(s->sim_phase, SIM_DONE);
    cr_assert(app_key(s, 'f') & APP_REFINE);
    cr_assert(s->refine);
    cr_assert_eq(s->sim_phase, SIM_WAITING);
    stop(s);
}

Test(tui_state, job_counts_and_phase)
{
    struct app_state *s = start_default();
    cr_assert(app_set_jobs(s, 2, 3, SIM_QUEUED, FIDELITY_FAST) & APP_DIRTY);
    cr_assert_eq(s->running, 2);
    cr_assert_eq(s->queued, 3);
    cr_assert_eq(s->sim_phase, SIM_QUEUED);
    app_set_jobs(s, 2, 3, SIM_RUNNING, FIDELITY_FAST);
    cr_assert_eq(s->sim_phase, SIM_RUNNING);
    cr_assert_eq(app_set_jobs(s, 2, 3, SIM_RUNNING, FIDELITY_FAST), 0,
                 "nothing changed, nothing to draw");
    stop(s);
}

Test(tui_state, crossover_at_one_node_is_shown_at_two)
{
    struct app_state *s = start_default();
    cr_assert(s->xo.bumped);
    cr_assert_eq(s->xo.base.nodes, 2);
    cr_assert(xover_current(&s->xo));
    cr_assert(s->xo.c.ok[XO_INSITU] && s->xo.c.ok[XO_INTRANSIT] && s->xo.c.ok[XO_INLINE]);
    /* The default strategies: the table's mappings but hostfile, in its order. */
    cr_assert_eq(s->xo.n, 3);
    cr_assert_str_eq(s->xo.c.name[XO_INLINE], "inline");
    /* No crossover: the one named fastest is at or under every other curve at every sample. */
    cr_assert_eq(s->xo.c.ncross, 0);
    cr_assert_eq(s->xo.c.fastest.n, 1);
    for (int m = 0; m < s->xo.c.n; m++)
        for (int i = 0; i < XO_SAMPLES; i++)
            cr_assert_leq(s->xo.c.model[s->xo.c.faster_below][i], s->xo.c.model[m][i] * 1.000001);
    /* The curves rise with the data: in transit pays the network for it. */
    cr_assert_gt(s->xo.c.model[XO_INTRANSIT][XO_SAMPLES - 1], s->xo.c.model[XO_INTRANSIT][0]);
    stop(s);
}

Test(tui_state, crossover_found_and_refined)
{
    /* Analytics-heavy and one analytics core per node in situ: in transit wins for small data,
     * in situ once the data is large. */
    struct params p;
    params_defaults(&p);
    p.nodes = 16;
    p.ratio = 31;
    p.compute_scaling = 10;
    struct app_state *s = start(&p);
    char err[PARAMS_ERR_MAX];
    cr_assert_eq(xover_choose(&s->xo, "insitu,intransit", err, sizeof err), 0, "%s", err);
    xover_rebase(&s->xo, &s->p, &s->pf);
    app_xover_sync(s);
    const struct xover_curves *c = &s->xo.c;
    cr_assert_eq(c->ncross, 1, "crossings: %d", c->ncross);
    cr_assert_eq(c->faster_below, XO_INTRANSIT);
    cr_assert(c->cross_x > XO_MIN && c->cross_x < XO_MAX);
    /* At the crossover both mappings take the same time. */
    double a = xover_model_at(c, XO_INSITU, c->cross_x),
           b = xover_model_at(c, XO_INTRANSIT, c->cross_x);
    cr_assert_float_eq(a, b, 0.02 * a, "%g vs %g at x%g", a, b, c->cross_x);
    stop(s);
}

Test(tui_state, crossover_of_four_strategies_names_the_fastest_in_each_range)
{
    /* In transit wins small data, in situ large; the queue (no transfer cost) is its own curve;
     * inline (every core a rank) is the fourth. */
    struct params p;
    params_defaults(&p);
    p.nodes = 16;
    p.ratio = 31;
    p.compute_scaling = 10;
    struct app_state *s = start(&p);
    char err[PARAMS_ERR_MAX];
    cr_assert_eq(
        xover_choose(&s->xo, "insitu,intransit,intransit:queue,insitu:queue", err, sizeof err), 0,
        "%s", err);
    xover_rebase(&s->xo, &s->p, &s->pf);
    app_xover_sync(s);
    const struct xover_curves *c = &s->xo.c;
    cr_assert_eq(c->n, 4);
    const struct strategy_ranges *f = &c->fastest;
    cr_assert_geq(f->n, 1);
    cr_assert_float_eq(f->from[0], XO_MIN, 1e-9);
    cr_assert_float_eq(f->to[f->n - 1], XO_MAX, 1e-9);
    for (int j = 0; j < f->n; j++) {
        /* In the middle of each range its strategy is at or under every other curve. */
        double mid = sqrt(f->from[j] * f->to[j]), best = xover_model_at(c, f->who[j], mid);
        for (int m = 0; m < c->n; m++)
            cr_assert_leq(best, xover_model_at(c, m, mid) * 1.0001, "range %d: %s over %s at x%g",
                          j, c->name[f->who[j]], c->name[m], mid);
        if (j + 1 < f->n) { /* at a crossing the two take as long */
            double a = xover_model_at(c, f->who[j], f->to[j]),
                   b = xover_model_at(c, f->who[j + 1], f->to[j]);
            cr_assert_float_eq(a, b, 0.02 * a, "%g vs %g at x%g", a, b, f->to[j]);
            cr_assert_eq(f->to[j], f->from[j + 1]);
        }
    }
    /* A point of the queue's curve is that strategy's, and only its. */
    struct params q;
    xover_point_params(&s->xo, 2, 1, &q);
    cr_assert_eq(q.dtl, DTL_QUEUE);
    cr_assert_eq(q.mapping, MAPPING_INTRANSIT);
    struct sim_result r = fake_result(5);
    app_on_result(s, &q, &r, NULL, false, 1);
    cr_assert_eq(s->xo.pstate[2][1], XO_PT_DONE);
    cr_assert_eq(s->xo.pstate[1][1], XO_PT_NONE, "the mailbox's point is another configuration");
    stop(s);
}

Test(tui_state, crossover_strategies_refused_with_one_line)
{
    struct app_state *s = start_default();
    char err[PARAMS_ERR_MAX];
    cr_assert_eq(xover_choose(&s->xo, "insitu,intransit:mailx", err, sizeof err), -1);
    cr_assert(strstr(err, "unknown dtl 'mailx'") && strstr(err, "did you mean 'mailbox'?"), "%s",
              err);
    cr_assert_eq(s->xo.n, 3, "a refused list changes nothing");
    stop(s);
}

Test(tui_state, crossover_points_keep_across_data_scaling_and_mapping_only)
{
    struct params p;
    params_defaults(&p);
    p.nodes = 16;
    struct app_state *s = start(&p);
    struct params q;
    xover_point_params(&s->xo, XO_INTRANSIT, 2, &q);
    struct sim_result r = fake_result(77);
    cr_assert(app_on_result(s, &q, &r, NULL, false, 1) & APP_DIRTY);
    cr_assert_eq(s->xo.pstate[XO_INTRANSIT][2], XO_PT_DONE);
    cr_assert_float_eq(s->xo.sim[XO_INTRANSIT][2], 77, 1e-12);
    app_on_result(s, &p, NULL, "crashed", false, 1);
    cr_assert_eq(s->xo.pstate[XO_INSITU][0], XO_PT_FAILED, "the current config is point 0");

    focus_on(s, P_DATA_SCALING);
    app_key(s, APP_KEY_RIGHT);
    cr_assert_eq(s->xo.pstate[XO_INTRANSIT][2], XO_PT_DONE, "data_scaling does not move the base");
    cr_assert(xover_current(&s->xo));
    focus_on(s, P_STRIDE);
    app_key(s, APP_KEY_RIGHT);
    cr_assert_eq(s->xo.pstate[XO_INTRANSIT][2], XO_PT_NONE, "a new base starts afresh");
    cr_assert_not(xover_current(&s->xo), "curves are recomputed off the key path");
    struct xover_curves *c = malloc(sizeof *c);
    xover_curves_eval(c, &s->xo.base, s->xo.base_key, &s->pf, profile_source_builtin);
    cr_assert(app_on_curves(s, c) & APP_DIRTY);
    cr_assert(xover_current(&s->xo));
    /* Curves for a configuration already left are dropped. */
    snprintf(c->key, sizeof c->key, "stale");
    cr_assert_eq(app_on_curves(s, c), 0);
    free(c);
    stop(s);
}

Test(tui_plot, braille_dots_and_lines)
{
    struct plot p;
    cr_assert_eq(plot_init(&p, 4, 2, true), 0);
    plot_dot(&p, 0, 0, 0);
    char cell[4];
    plot_braille(&p, 0, 0, cell);
    cr_assert_str_eq(cell, "\xe2\xa0\x81"); /* U+2801: dot 1 */
    plot_dot(&p, 1, 3, 1);
    plot_braille(&p, 0, 0, cell);
    cr_assert_str_eq(cell, "\xe2\xa2\x81"); /* U+2881: dots 1 and 8 */
    cr_assert_eq(p.layer[0], 1);
    plot_line(&p, 0, 7, 7, 0, 0); /* corner to corner: every column gets a dot */
    for (int c = 0; c < 4; c++) {
        bool any = p.dots[c] || p.dots[4 + c];
        cr_assert(any, "column %d empty", c);
    }
    plot_dot(&p, 100, 100, 0); /* clipped, not a crash */
    plot_free(&p);

    cr_assert_eq(plot_init(&p, 3, 1, false), 0);
    plot_set_dash(&p, 0, 1);
    plot_line(&p, 0, 0, 2, 0, 0);
    cr_assert(p.dots[0] && !p.dots[1] && p.dots[2], "dashes alternate");
    plot_free(&p);
}

Test(tui_stats, percentiles)
{
    struct stats st = {0};
    cr_assert_eq(stats_percentile(&st, 50), -1);
    for (int i = 100; i >= 1; i--)
        stats_add(&st, i);
    cr_assert_float_eq(stats_percentile(&st, 50), 50, 1e-12);
    cr_assert_float_eq(stats_percentile(&st, 99), 99, 1e-12);
    cr_assert_float_eq(stats_percentile(&st, 100), 100, 1e-12);
    stats_free(&st);
}

/* Lesson text is re-flowed to the panel: the author's line breaks join, paragraphs and lists
 * keep theirs. */
Test(tui_draw, reflow_joins_lines_keeps_paragraphs_and_lists)
{
    char out[256];
    draw_reflow("One step\nof the workflow.\n\nNext paragraph\n- a list\n- item\n  indented", out,
                sizeof out);
    cr_assert_str_eq(out,
                     "One step of the workflow.\n\nNext paragraph\n- a list\n- item\n  indented");
    draw_reflow("cut here", out, 4);
    cr_assert_str_eq(out, "cut");
}
