/* The lesson panel's state without a terminal: opening a lesson loads step 1's configuration,
 * n and b move through the steps (forward loads the step on top of the user's changes, back
 * keeps them), h shows the hint a level at a time, n past the end shows the summary and R
 * restarts, and the goal is re-checked on every model update. Also the link view's
 * scale and order, and the static scaling curves. Run from the repository root. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../engine/scenario/lesson.h"
#include "../../tui/state/app.h"
#include "../../tui/links/links.h"
#include "../../tui/scaling/scaling.h"

static struct app_state *lesson_start(const char *name)
{
    struct app_state *s = calloc(1, sizeof *s);
    struct params p;
    params_defaults(&p);
    char err[1024] = "";
    cr_assert_eq(app_init(s, &p, "", err, sizeof err), 0, "app_init: %s", err);
    struct lesson *l = lesson_load(name, err, sizeof err);
    cr_assert_not_null(l, "lesson_load: %s", err);
    int rc = app_lesson_open(s, l, err, sizeof err);
    cr_assert_geq(rc, 0, "app_lesson_open: %s", err);
    return s;
}

/* What the loop and the evaluator process do with a due goal check: the same lesson_goal_check,
 * here in the test's process. Returns the goal. */
static enum lesson_goal settle(struct app_state *s)
{
    const char *path;
    int step;
    const struct sim_result *sim;
    const char *answer;
    long gen = app_lesson_goal_due(s, &path, &step, &sim, &answer);
    if (gen) {
        char msg[APP_MSG_MAX];
        struct lesson_state st = {&s->p, &s->model, sim, answer};
        int g = lesson_goal_check(s->lesson.l, step, &st, msg, sizeof msg);
        cr_assert(app_lesson_on_goal(s, gen, g, msg) & APP_DIRTY);
        cr_assert_eq(app_lesson_on_goal(s, gen, g, msg), 0u, "answered once");
    }
    cr_assert_not(s->lesson.goal_pending);
    return s->lesson.goal;
}

static void stop(struct app_state *s)
{
    app_free(s);
    free(s);
}

static void focus_on(struct app_state *s, int id)
{
    for (int i = 0; i < s->nsliders; i++)
        if (s->sliders[i] == id)
            s->focus = i;
}

Test(lesson_panel, open_loads_step_one)
{
    struct app_state *s = lesson_start("efficiency");
    cr_assert_eq(s->lesson.step, 0);
    cr_assert_eq(s->pane, APP_PANE_LESSON);
    cr_assert_eq(s->p.nodes, 2);
    cr_assert_eq(s->p.stride, 1000);
    cr_assert_eq(s->p.ratio, 1);
    cr_assert_not(s->lesson.goal_pending, "no goal: nothing to check");
    cr_assert_eq(s->lesson.goal, LESSON_NO_GOAL);
    stop(s);
}

Test(lesson_panel, next_back_and_goal)
{
    struct app_state *s = lesson_start("efficiency");
    unsigned f = app_key(s, 'n');
    cr_assert(f & APP_DIRTY);
    cr_assert_eq(s->lesson.step, 1);
    cr_assert(s->lesson.goal_pending, "the goal is checked off this thread");
    cr_assert_eq(settle(s), LESSON_GOAL_NOT_MET);
    /* Reaching the goal by keys: raise the ratio to 31, the goal is checked again each time. */
    focus_on(s, P_RATIO);
    for (int i = 0; i < 4; i++) {
        app_key(s, APP_KEY_RIGHT);
        cr_assert(s->lesson.goal_pending);
    }
    cr_assert_eq(s->p.ratio, 31);
    /* A stale answer (for an older check) is ignored. */
    cr_assert_eq(app_lesson_on_goal(s, s->lesson.goal_gen - 1, LESSON_GOAL_MET, ""), 0u);
    cr_assert_eq(settle(s), LESSON_GOAL_MET, "%s", s->lesson.msg);
    /* This goal reads only the model: it is never said to check SimGrid, even with a
     * simulated result on screen; an answer that read state.sim is. */
    cr_assert_not(s->lesson.goal_sim);
    app_goal_recheck(s);
    cr_assert(
        app_lesson_on_goal(s, s->lesson.goal_gen, LESSON_GOAL_MET | LESSON_GOAL_READ_SIM, "") &
        APP_DIRTY);
    cr_assert_eq(s->lesson.goal, LESSON_GOAL_MET);
    cr_assert(s->lesson.goal_sim);
    /* Forward keeps what the user found (step 3 loads no configuration). */
    app_key(s, 'n');
    cr_assert_eq(s->lesson.step, 2);
    cr_assert_eq(s->p.ratio, 31);
    /* Back loads step 2 as it was set up (ratio 1: its text reads against that), the student's
     * work put aside; y brings it back, and again the setup. */
    f = app_key(s, 'b');
    cr_assert_eq(s->lesson.step, 1);
    cr_assert_eq(s->p.ratio, 1);
    cr_assert(f & APP_CONFIG);
    cr_assert(strstr(s->notice, "y brings your changes back"), "%s", s->notice);
    cr_assert_eq(settle(s), LESSON_GOAL_NOT_MET);
    cr_assert(s->lesson.met & 2, "met before stays met in the tally");
    f = app_key(s, APP_KEY_LESSON_YOURS);
    cr_assert(f & APP_CONFIG);
    cr_assert_eq(s->p.ratio, 31);
    cr_assert_eq(settle(s), LESSON_GOAL_MET);
    app_key(s, APP_KEY_LESSON_YOURS);
    cr_assert_eq(s->p.ratio, 1, "y swaps back to the setup");
    stop(s);
}

Test(lesson_panel, next_asks_once_on_an_unmet_goal)
{
    struct app_state *s = lesson_start("efficiency");
    app_key(s, 'n');
    cr_assert_eq(settle(s), LESSON_GOAL_NOT_MET);
    app_key(s, 'n');
    cr_assert_eq(s->lesson.step, 1, "an unmet goal: n asks first");
    cr_assert(strstr(s->notice, "n again"), "%s", s->notice);
    app_key(s, 'n');
    cr_assert_eq(s->lesson.step, 2, "the second n moves on");
    /* Another key between the two: n asks again. */
    settle(s);
    app_key(s, 'n');
    app_key(s, 'c');
    app_key(s, 'n');
    cr_assert_eq(s->lesson.step, 2);
    stop(s);
}

Test(lesson_panel, reset_step_and_explorer_keys)
{
    struct app_state *s = lesson_start("efficiency");
    app_key(s, 'n');
    focus_on(s, P_RATIO);
    /* h is a step left in a lesson too, l a step right: the explorer's keys are not shadowed. */
    app_key(s, 'l');
    cr_assert_eq(s->p.ratio, 3);
    app_key(s, 'h');
    cr_assert_eq(s->p.ratio, 1);
    cr_assert_eq(s->lesson.hint_level, 0);
    app_key(s, APP_KEY_LESSON_HINT);
    cr_assert_eq(s->lesson.hint_level, 1);
    app_key(s, 'l');
    app_key(s, 'l');
    cr_assert_eq(s->p.ratio, 7);
    unsigned f = app_key(s, APP_KEY_LESSON_RESET);
    cr_assert(f & APP_CONFIG);
    cr_assert_eq(s->lesson.step, 1, "R resets the step, not the lesson");
    cr_assert_eq(s->p.ratio, 1);
    app_key(s, APP_KEY_LESSON_YOURS);
    cr_assert_eq(s->p.ratio, 7, "y: the changes R put aside");
    /* q asks once in a lesson. */
    cr_assert_not(app_key(s, 'q') & APP_QUIT);
    cr_assert(app_key(s, 'q') & APP_QUIT);
    stop(s);
}

Test(lesson_panel, last_resort_hint_asks_first)
{
    struct app_state *s = lesson_start("efficiency");
    for (int i = 0; i < 3; i++) {
        app_key(s, 'n');
        app_key(s, 'n');
    }
    cr_assert_eq(s->lesson.step, 3);
    int levels = lesson_step_hint_count(s->lesson.l, 3);
    cr_assert(lesson_step_hint_last_resort(s->lesson.l, 3));
    for (int k = 1; k < levels; k++)
        app_key(s, APP_KEY_LESSON_HINT);
    cr_assert_eq(s->lesson.hint_level, levels - 1);
    app_key(s, APP_KEY_LESSON_HINT);
    cr_assert_eq(s->lesson.hint_level, levels - 1, "the last resort asks first");
    cr_assert(strstr(s->notice, "give the answer away"), "%s", s->notice);
    app_key(s, APP_KEY_LESSON_HINT);
    cr_assert_eq(s->lesson.hint_level, levels);
    stop(s);
}

Test(lesson_panel, ends_refuse_and_hints_are_graded)
{
    struct app_state *s = lesson_start("efficiency");
    app_key(s, 'b');
    cr_assert_eq(s->lesson.step, 0);
    cr_assert(strstr(s->notice, "first step"));
    app_key(s, APP_KEY_LESSON_HINT);
    cr_assert_eq(s->lesson.hint_level, 1, "a step without a hint still answers the key");
    app_key(s, APP_KEY_LESSON_HINT);
    cr_assert_eq(s->lesson.hint_level, 0);
    app_key(s, 'n');
    cr_assert_eq(s->lesson.hint_level, 0, "a new step starts with its hint hidden");
    int levels = lesson_step_hint_count(s->lesson.l, s->lesson.step);
    cr_assert_geq(levels, 2, "the lesson's hints are graded");
    for (int k = 1; k <= levels; k++) {
        app_key(s, APP_KEY_LESSON_HINT);
        cr_assert_eq(s->lesson.hint_level, k, "the key shows one more level");
    }
    app_key(s, APP_KEY_LESSON_HINT);
    cr_assert_eq(s->lesson.hint_level, 0, "past the last level, h hides the hint");
    /* No hint gives the answer away: the solution's value is in none of them. */
    for (int i = 0; i < lesson_step_count(s->lesson.l); i++)
        for (int k = 0; k < lesson_step_hint_count(s->lesson.l, i); k++)
            cr_assert_null(strstr(lesson_step_hint_at(s->lesson.l, i, k), "69"), "step %d", i + 1);
    stop(s);
}

Test(lesson_panel, completion_summary_and_restart)
{
    struct app_state *s = lesson_start("efficiency");
    app_key(s, 'n');
    focus_on(s, P_RATIO);
    for (int i = 0; i < 4; i++)
        app_key(s, APP_KEY_RIGHT);
    cr_assert_eq(settle(s), LESSON_GOAL_MET);
    int n = lesson_step_count(s->lesson.l);
    for (int i = 0; i < n - 2; i++) {
        app_key(s, 'n');
        if (s->lesson.step == i + 1) /* it asked: the goal is not met */
            app_key(s, 'n');
        settle(s);
    }
    cr_assert_eq(s->lesson.step, n - 1);
    cr_assert_not(s->lesson.done);
    app_key(s, 'c');
    cr_assert_eq(s->pane, APP_PANE_XOVER);
    app_key(s, 'n');
    cr_assert_not(s->lesson.done, "step 4's goal is not met: n asks first");
    app_key(s, 'n');
    cr_assert(s->lesson.done, "n past the last step finishes the lesson");
    cr_assert_eq(s->pane, APP_PANE_LESSON, "the summary shows");
    int goals, met = app_lesson_goals_met(s, &goals);
    cr_assert_eq(goals, 3);
    cr_assert_geq(met, 1, "step 2's goal was met");
    cr_assert_lt(met, goals, "step 4's (compute_scaling 69) was not");
    cr_assert_geq(app_lesson_seconds(s), 0);
    app_key(s, 'n');
    cr_assert(strstr(s->notice, "R restarts"), "%s", s->notice);
    /* R: step 1 from the configuration the lesson started with, the tally cleared. */
    unsigned f = app_key(s, 'R');
    cr_assert(f & APP_CONFIG);
    cr_assert_not(s->lesson.done);
    cr_assert_eq(s->lesson.step, 0);
    cr_assert_eq(s->p.ratio, 1);
    cr_assert_eq(app_lesson_goals_met(s, &goals), 0);
    stop(s);
}

Test(lesson_panel, views_toggle_and_come_back_to_the_lesson)
{
    struct app_state *s = lesson_start("mapping");
    app_key(s, 'u');
    cr_assert_eq(s->pane, APP_PANE_LINKS);
    app_key(s, 's');
    cr_assert_eq(s->pane, APP_PANE_SCALING);
    app_key(s, 's');
    cr_assert_eq(s->pane, APP_PANE_LESSON);
    /* c is a toggle too: the plot, then the lesson again. */
    app_key(s, 'c');
    cr_assert_eq(s->pane, APP_PANE_XOVER);
    app_key(s, 'c');
    cr_assert_eq(s->pane, APP_PANE_LESSON);
    /* Esc closes the link and scaling views. */
    app_key(s, 'u');
    app_key(s, APP_KEY_ESC);
    cr_assert_eq(s->pane, APP_PANE_LESSON);
    app_key(s, 's');
    app_key(s, APP_KEY_ESC);
    cr_assert_eq(s->pane, APP_PANE_LESSON);
    stop(s);
}

Test(lesson_panel, unknown_lesson_is_an_error)
{
    struct app_state *s = calloc(1, sizeof *s);
    struct params p;
    params_defaults(&p);
    char err[1024] = "";
    cr_assert_eq(app_init(s, &p, "", err, sizeof err), 0);
    cr_assert_null(lesson_load("nosuch", err, sizeof err));
    cr_assert(strstr(err, "nosuch"), "%s", err);
    cr_assert_null(s->lesson.l);
    stop(s);
}

Test(links_view, scale_and_order)
{
    cr_assert_eq(links_classify(0.05), LINKS_LOW);
    cr_assert_eq(links_classify(0.5), LINKS_GOOD);
    cr_assert_eq(links_classify(0.7), LINKS_HIGH);
    cr_assert_eq(links_classify(0.95), LINKS_HOT);
    struct result_link l[3] = {
        {"a", "node", 1, 0.2}, {"b", "spine", 1, 0.9}, {"c", "node", 1, 0.5}};
    struct sim_result r = {0};
    r.nlinks = 3;
    r.links = l;
    int order[3];
    cr_assert_eq(links_sorted(&r, order, 3), 3);
    cr_assert_eq(order[0], 1);
    cr_assert_eq(order[1], 2);
    cr_assert_eq(order[2], 0);
    cr_assert_eq(links_over(&r, 0.75), 1);
    cr_assert_eq(links_sorted(&r, order, 1), 1);
    cr_assert_eq(order[0], 1, "the busiest survives a short list");
    cr_assert_str_eq(links_first_saturated(&r, 0.4)->place, "spine", "the busiest level first");
    cr_assert_null(links_first_saturated(&r, 0.95), "nothing above the alert");
}

Test(scaling_view, curves_per_node_count)
{
    struct app_state *s = calloc(1, sizeof *s);
    struct params p;
    params_defaults(&p);
    char err[1024] = "";
    cr_assert_eq(app_init(s, &p, "", err, sizeof err), 0);
    app_scaling_sync(s);
    const struct scaling_curves *c = &s->sc.c;
    cr_assert(scaling_current(&s->sc));
    cr_assert_eq(c->ncurves, 4); /* 1 node is the current count: 1, 2, 4, 8 */
    cr_assert_eq(c->nodes[0], 1);
    for (int k = 0; k < c->ncurves; k++) {
        cr_assert(c->ok[k], "curve %d", k);
        cr_assert(c->time[k][SC_REGIONS - 1] > c->time[k][0]);
        cr_assert(isfinite(c->spread[k]));
    }
    stop(s);
}
