/* The explorer's helper processes, where its user Lua runs (never on the loop's thread): an
 * evaluator for the model of a Lua analytics, one for a lesson's goals, and the scenario panel's
 * host (the curves' evaluator is loop_curves.c's). Their answers become app calls, as every
 * other event does, whose flags are posted to loop.c. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../engine/lua/script.h"
#include "../procs/evaluator.h"
#include "loop.h"
#include "../procs/scenario_host.h"

/* ---- a scenario: in its own process; its requests go to the runner, its results back to it ---
 */

static struct tui *scenario_tui; /* the explorer whose scenario it is: one per process */

static void on_script_result(void *ud, const struct runner_done *d)
{
    struct tui *t = scenario_tui;
    int i = (int)(intptr_t)ud;
    unsigned flags = app_script_on_result(&t->app, -d->tag, i, d->result, d->error);
    if (flags)
        scenario_host_feed(t->scenario, i, d->params, d->result, d->error ? d->error : "no result");
    loop_post(t, flags);
}

/* What the scenario's process says. Never closes it: that waits for a key (x, or a new one). */
static void on_scenario(void *ud, const struct scenario_event *e)
{
    struct tui *t = ud;
    switch (e->kind) {
    case SCENARIO_OUTPUT:
        loop_post(t, app_script_on_output(&t->app, e->text, e->len));
        break;
    case SCENARIO_WAITING:
        loop_post(t, app_script_on_request(&t->app, e->configs, e->n));
        break;
    case SCENARIO_DONE:
        loop_post(t, app_script_on_end(&t->app, NULL));
        break;
    case SCENARIO_FAILED:
        loop_post(t, app_script_on_end(&t->app, e->text));
        break;
    }
}

/* Starts the scenario the app asked for, and submits what it waits for. The runner says every
 * result on a later loop turn, cache hits too: nothing here runs inside a submission. */
void helpers_script_pump(struct tui *t)
{
    char *words[APP_SCRIPT_ARGS + 1], err[256];
    int nw = app_script_start(&t->app, words, APP_SCRIPT_ARGS + 1);
    if (nw > 0) {
        scenario_host_close(t->scenario);
        t->scenario = scenario_host_start(&t->loop, nw, words, t->app.script_unsafe,
                                          script_time_limit(), on_scenario, t, err, sizeof err);
        if (!t->scenario)
            loop_post(t, app_script_on_end(&t->app, err));
    }
    const struct params *ps;
    int n = app_script_request(&t->app, &ps);
    if (n > 0)
        t->script_tag = -t->app.script.gen;
    for (int i = 0; i < n && !t->quitting; i++)
        runner_submit(t->runner, &ps[i], PRIO_SCRIPT, t->script_tag, 0, on_script_result,
                      (void *)(intptr_t)i);
}

/* ---- the model of a Lua analytics, from the evaluator process ---------------------------------
 */

static void on_model_reply(void *ud, const struct evaluator_reply *r)
{
    struct tui *t = ud;
    if (r->seq != t->model_seq)
        return; /* superseded: a newer request is on its way */
    t->model_landed = true;
    loop_post(
        t, app_on_model(&t->app, t->model_gen_sent, r->ok ? &r->u.m : NULL, r->ok ? NULL : r->err));
}

/* The app asked for a model it cannot compute itself: ask the evaluator (the latest wins). */
static void sync_model(struct tui *t)
{
    if (!t->app.model_pending || t->app.model_gen == t->model_gen_sent || !t->model_ev)
        return;
    t->model_gen_sent = t->app.model_gen;
    t->model_seq = evaluator_submit(t->model_ev, EVAL_MODEL, &t->app.p, NULL);
}

/* ---- a lesson's goal, checked by its evaluator process ----------------------------------------
 */

static void on_goal_reply(void *ud, const struct evaluator_reply *r)
{
    struct tui *t = ud;
    if (r->seq != t->goal_seq)
        return;
    /* A dead or timed-out evaluator is the goal's error, as a failing goal is. */
    loop_post(t, app_lesson_on_goal(&t->app, t->goal_gen_sent,
                                    r->ok ? r->u.goal : LESSON_GOAL_ERROR, r->err));
}

static void sync_goal(struct tui *t)
{
    const char *lesson;
    int step;
    const struct sim_result *sim;
    const char *answer;
    long gen = app_lesson_goal_due(&t->app, &lesson, &step, &sim, &answer);
    if (!gen || gen == t->goal_gen_sent || !t->goal_ev)
        return;
    struct evaluator_goal g = {.step = step, .model = t->app.model, .has_sim = sim != NULL};
    snprintf(g.lesson, sizeof g.lesson, "%s", lesson);
    if (answer) {
        g.has_answer = true;
        snprintf(g.answer, sizeof g.answer, "%s", answer);
    }
    if (sim) {
        g.sim = sim->m;
        g.sim_wall = sim->wall_seconds;
        snprintf(g.sim_fidelity, sizeof g.sim_fidelity, "%s", sim->fidelity);
    }
    t->goal_gen_sent = gen;
    t->goal_seq = evaluator_submit_goal(t->goal_ev, &t->app.p, &g);
}

void helpers_sync(struct tui *t)
{
    sync_model(t);
    sync_goal(t);
}

int helpers_open(struct tui *t)
{
    double limit = script_time_limit();
    scenario_tui = t;
    t->model_ev = evaluator_new(&t->loop, limit, 0, on_model_reply, t);
    t->goal_ev = evaluator_new(&t->loop, limit, 0, on_goal_reply, t);
    if (!t->model_ev || !t->goal_ev)
        return -1;
    helpers_sync(t);
    return 0;
}

void helpers_script_close(struct tui *t)
{
    scenario_host_close(t->scenario);
    t->scenario = NULL;
    if (t->script_tag)
        runner_cancel_tag(t->runner, t->script_tag);
    t->script_tag = 0;
}

void helpers_close(struct tui *t)
{
    evaluator_close(t->model_ev);
    evaluator_close(t->goal_ev);
    t->model_ev = t->goal_ev = NULL;
    scenario_host_close(t->scenario);
    t->scenario = NULL;
}
