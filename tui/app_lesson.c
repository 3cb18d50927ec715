/* The lesson panel's state: which step is on, the configuration each step loads, and the goal's
 * status, re-checked whenever the model or the simulation of the configuration changes. The
 * goal is user code: the evaluator process checks it (the loop asks, app_lesson_goal_due, and
 * hands the answer to app_lesson_on_goal); never this thread. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "app.h"

/* The lesson's own clock: how long a student took, not the wall clock (which may jump). */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

void app_lesson_close(struct app_state *s)
{
    lesson_free(s->lesson.l);
    memset(&s->lesson, 0, sizeof s->lesson);
    if (s->pane == APP_PANE_LESSON)
        s->pane = APP_PANE_XOVER;
}

void app_lesson_check(struct app_state *s)
{
    struct app_lesson *ls = &s->lesson;
    if (!ls->l)
        return;
    if (!lesson_step_has_goal(ls->l, ls->step)) {
        ls->goal = LESSON_NO_GOAL;
        ls->msg[0] = 0;
        ls->goal_pending = false;
        return;
    }
    ls->goal_pending = true;
    ls->goal_gen++;
}

long app_lesson_goal_due(const struct app_state *s, const char **lesson, int *step,
                         const struct sim_result **sim)
{
    const struct app_lesson *ls = &s->lesson;
    if (!ls->l || !ls->goal_pending || !s->model_valid || s->model_pending)
        return 0; /* a Lua analytics' model first: app_on_model checks again */
    *lesson = lesson_path(ls->l);
    *step = ls->step;
    *sim = s->has_sim ? &s->sim : NULL;
    return ls->goal_gen;
}

unsigned app_lesson_on_goal(struct app_state *s, long gen, int goal, const char *msg)
{
    struct app_lesson *ls = &s->lesson;
    if (!ls->l || gen != ls->goal_gen || !ls->goal_pending)
        return 0; /* for a step or a configuration already left */
    ls->goal_pending = false;
    ls->goal = (enum lesson_goal)(goal & ~LESSON_GOAL_READ_SIM);
    if (ls->goal == LESSON_GOAL_MET && ls->step < APP_LESSON_STEPS)
        ls->met |= 1ULL << ls->step;
    ls->goal_sim = goal & LESSON_GOAL_READ_SIM; /* the goal read the simulated result */
    snprintf(ls->msg, sizeof ls->msg, "%s", msg);
    return APP_DIRTY;
}

/* Applies step i's configuration on top of base into the app. */
static int load_step(struct app_state *s, int i, const struct params *base, int *changed, char *err,
                     size_t errlen)
{
    struct params next;
    if (lesson_step_config(s->lesson.l, i, base, &next, err, errlen) < 0)
        return -1;
    int rc = app_apply(s, &next, err, errlen);
    if (rc < 0)
        return -1;
    *changed = *changed || rc > 0;
    return 0;
}

unsigned app_lesson_goto(struct app_state *s, int i)
{
    struct app_lesson *ls = &s->lesson;
    if (!ls->l)
        return 0;
    int n = lesson_step_count(ls->l);
    s->pane = APP_PANE_LESSON;
    if (i >= n && !ls->done) {
        ls->done = true;
        ls->t_end = now();
        return APP_DIRTY;
    }
    if (i < 0 || i >= n) {
        snprintf(s->notice, sizeof s->notice, "%s",
                 i < 0 ? "this is the first step" : "the lesson is over: R restarts it");
        s->notice_error = false;
        return APP_DIRTY;
    }
    if (ls->done) { /* b from the summary: back to the last step, the clock running again */
        ls->done = false;
        ls->t_start += now() - ls->t_end;
        if (i == ls->step)
            return APP_DIRTY;
    }
    char err[APP_MSG_MAX];
    int changed = 0, rc = 0;
    int from = ls->step;
    ls->step = i;
    ls->hint_level = 0;
    /* Forward: what the user found in the steps between stays, as in the headless walk. Back:
     * nothing moves; the step's text is read again against the student's own configuration. */
    for (int k = from + 1; k <= i && rc == 0; k++)
        rc = load_step(s, k, &s->p, &changed, err, sizeof err);
    if (rc < 0) {
        snprintf(s->notice, sizeof s->notice, "%s", err);
        s->notice_error = true;
    }
    if (changed)
        s->modified = strcmp(s->key, s->base_key) != 0;
    app_lesson_check(s); /* the step changed even if the configuration did not */
    return APP_DIRTY | (changed ? APP_CONFIG : 0);
}

unsigned app_lesson_restart(struct app_state *s)
{
    struct app_lesson *ls = &s->lesson;
    if (!ls->l)
        return 0;
    char err[APP_MSG_MAX];
    int changed = 0;
    ls->step = 0;
    ls->hint_level = 0;
    ls->met = 0;
    ls->done = false;
    ls->t_start = now();
    s->pane = APP_PANE_LESSON;
    if (load_step(s, 0, &ls->start, &changed, err, sizeof err) < 0) {
        snprintf(s->notice, sizeof s->notice, "%s", err);
        s->notice_error = true;
    } else {
        snprintf(s->notice, sizeof s->notice, "lesson restarted");
        s->notice_error = false;
    }
    app_lesson_check(s);
    return APP_DIRTY | (changed ? APP_CONFIG : 0);
}

int app_lesson_goals_met(const struct app_state *s, int *goals)
{
    const struct app_lesson *ls = &s->lesson;
    int met = 0;
    *goals = 0;
    for (int i = 0; ls->l && i < lesson_step_count(ls->l) && i < APP_LESSON_STEPS; i++) {
        if (!lesson_step_has_goal(ls->l, i))
            continue;
        (*goals)++;
        met += (ls->met >> i) & 1;
    }
    return met;
}

double app_lesson_seconds(const struct app_state *s)
{
    const struct app_lesson *ls = &s->lesson;
    return (ls->done ? ls->t_end : now()) - ls->t_start;
}

unsigned app_lesson_hint(struct app_state *s)
{
    struct app_lesson *ls = &s->lesson;
    if (!ls->l)
        return 0;
    int n = lesson_step_hint_count(ls->l, ls->step);
    /* A step without a hint still answers h, with "no hint", so the key is never silent. */
    ls->hint_level = ls->hint_level < (n ? n : 1) ? ls->hint_level + 1 : 0;
    s->pane = APP_PANE_LESSON;
    return APP_DIRTY;
}

int app_lesson_open(struct app_state *s, const char *name, char *err, size_t errlen)
{
    struct lesson *l = lesson_load(name, err, errlen);
    if (!l)
        return -1;
    app_lesson_close(s);
    lesson_set_output(l, NULL); /* a goal's print() would write over the screen */
    s->lesson.l = l;
    s->lesson.start = s->p;
    s->lesson.step = 0;
    s->lesson.t_start = now();
    s->pane = APP_PANE_LESSON;
    int changed = 0;
    char e[APP_MSG_MAX];
    if (load_step(s, 0, &s->p, &changed, e, sizeof e) < 0) {
        snprintf(err, errlen, "%s", e);
        app_lesson_close(s);
        return -1;
    }
    app_lesson_check(s);
    return (int)(APP_DIRTY | (changed ? APP_CONFIG : 0));
}
