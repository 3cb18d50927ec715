/* The lesson panel's state: which step is on, the configuration each step loads, and the goal's
 * status, re-checked whenever the model or the simulation of the configuration changes. The
 * lesson is user code: a checking child reads it and hands it over as data (lesson_wire.h), and
 * the evaluator process checks its goals (the loop asks, app_lesson_goal_due, and hands the
 * answer to app_lesson_on_goal); none of its Lua runs on this thread. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../engine/base/outfile.h"
#include "app.h"

/* The lesson's own clock: how long a student took, not the wall clock (which may jump). */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* --log FILE: one JSON line per event, for the instructor: a goal met (the first time in this
 * run of the lesson), the lesson complete, a restart. Appended whole (outfile_append); a failed
 * write says so on screen and the lesson goes on. */
static void log_event(struct app_state *s, const char *event, int step, const char *msg)
{
    struct app_lesson *ls = &s->lesson;
    if (!s->lesson_log[0] || !ls->l)
        return;
    char when[32], cmd[2048];
    time_t t = time(NULL);
    struct tm tm;
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&t, &tm));
    json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:f}", "time", when, "event", event, "lesson",
                          lesson_path(ls->l), "title", lesson_title(ls->l), "seconds",
                          app_lesson_seconds(s));
    if (step >= 0)
        json_object_set_new(o, "step", json_integer(step + 1));
    if (msg && msg[0])
        json_object_set_new(o, "message", json_string(msg));
    if (!strcmp(event, "complete")) {
        int goals, met = app_lesson_goals_met(s, &goals);
        json_object_set_new(o, "goals_met", json_integer(met));
        json_object_set_new(o, "goals", json_integer(goals));
    }
    if (app_command_line(s, cmd, sizeof cmd) == 0)
        json_object_set_new(o, "command", json_string(cmd));
    char *line = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    char err[OUTFILE_ERR_MAX];
    if (!line) {
        snprintf(err, sizeof err, "%s: out of memory", s->lesson_log);
    } else {
        size_t n = strlen(line);
        char *nl = realloc(line, n + 2);
        if (nl) {
            line = nl;
            memcpy(line + n, "\n", 2);
        }
        if (nl && outfile_append(s->lesson_log, line, err, sizeof err) == 0)
            err[0] = 0;
        else if (!nl)
            snprintf(err, sizeof err, "%s: out of memory", s->lesson_log);
        free(line);
    }
    if (err[0])
        app_notice(s, true, "log: %.*s", APP_MSG_MAX - 8, err);
}

void app_lesson_close(struct app_state *s)
{
    lesson_free(s->lesson.l);
    memset(&s->lesson, 0, sizeof s->lesson);
    if (s->pane == APP_PANE_LESSON)
        s->pane = APP_PANE_XOVER;
}

long app_lesson_goal_due(const struct app_state *s, const char **lesson, int *step,
                         const struct sim_result **sim, const char **answer)
{
    *answer = s->lesson.answered ? s->lesson.answer : NULL;
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
    ls->goal_sim = goal & LESSON_GOAL_READ_SIM; /* the goal read the simulated result */
    snprintf(ls->msg, sizeof ls->msg, "%s", msg);
    if (ls->goal == LESSON_GOAL_MET && ls->step < APP_LESSON_STEPS &&
        !((ls->met >> ls->step) & 1)) {
        ls->met |= 1ULL << ls->step;
        log_event(s, "goal met", ls->step, msg);
    }
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
        log_event(s, "complete", -1, NULL);
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
    if (i != from)
        ls->answered = false, ls->answer[0] = 0; /* another step, another question */
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
    app_goal_recheck(s); /* the step changed even if the configuration did not */
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
    ls->answered = false;
    ls->answer[0] = 0;
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
        log_event(s, "restart", -1, NULL);
    }
    app_goal_recheck(s);
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

int app_lesson_open(struct app_state *s, struct lesson *l, char *err, size_t errlen)
{
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
    app_goal_recheck(s);
    return (int)(APP_DIRTY | (changed ? APP_CONFIG : 0));
}

unsigned app_lesson_answer_begin(struct app_state *s)
{
    struct app_lesson *ls = &s->lesson;
    if (!ls->l || ls->done || !lesson_step_question(ls->l, ls->step)[0]) {
        app_notice(s, false, "this step asks no question (A answers one)");
        return APP_DIRTY;
    }
    s->mode = APP_ANSWER;
    s->pane = APP_PANE_LESSON;
    snprintf(s->edit, sizeof s->edit, "%.*s", APP_EDIT_MAX - 1, ls->answer); /* to correct it */
    s->edit_len = (int)strlen(s->edit);
    s->edit_prefilled = s->edit_len > 0;
    s->edit_err[0] = 0;
    return APP_DIRTY;
}

unsigned app_lesson_answer_commit(struct app_state *s)
{
    struct app_lesson *ls = &s->lesson;
    s->mode = APP_MAIN;
    if (!ls->l)
        return APP_DIRTY;
    snprintf(ls->answer, sizeof ls->answer, "%s", s->edit);
    ls->answered = true;
    app_goal_recheck(s); /* the goal reads the answer: the evaluator checks it, never here */
    return APP_DIRTY;
}

unsigned app_lesson_reload(struct app_state *s, struct lesson *l)
{
    struct app_lesson *ls = &s->lesson;
    if (!ls->l) {
        lesson_free(l);
        return 0;
    }
    lesson_set_output(l, NULL);
    lesson_free(ls->l);
    ls->l = l;
    int n = lesson_step_count(l);
    if (ls->step >= n)
        ls->step = n - 1;
    if (n < APP_LESSON_STEPS)
        ls->met &= (1ULL << n) - 1; /* steps that are gone met nothing */
    ls->hint_level = 0;
    s->text_scroll = 0;
    app_notice(s, false, "lesson reloaded: step %d of %d", ls->step + 1, n);
    app_goal_recheck(s); /* the goal may have changed too */
    return APP_DIRTY;
}

unsigned app_lesson_reload_failed(struct app_state *s, const char *why)
{
    app_notice(s, true, "lesson not reloaded: %s", why);
    snprintf(s->last_error, sizeof s->last_error, "lesson: %s", why);
    return APP_DIRTY;
}
