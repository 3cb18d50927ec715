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

#include "../state/app.h"

void app_lesson_close(struct app_state *s)
{
    lesson_free(s->lesson.l);
    free(s->lesson.setup);
    free(s->lesson.setup_set);
    char student[sizeof s->lesson.student]; /* who is working: the next lesson's too */
    memcpy(student, s->lesson.student, sizeof student);
    memset(&s->lesson, 0, sizeof s->lesson);
    memcpy(s->lesson.student, student, sizeof student);
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
    if (ls->answered && !ls->answer_logged &&
        (ls->goal == LESSON_GOAL_MET || ls->goal == LESSON_GOAL_NOT_MET)) {
        ls->answer_logged = true; /* judged: the instructor's report lists the wrong ones */
        app_lesson_log(s, ls->goal == LESSON_GOAL_MET ? "answer right" : "answer wrong", ls->step,
                       ls->answer);
    }
    if (ls->goal == LESSON_GOAL_MET && ls->step < APP_LESSON_STEPS &&
        !((ls->met >> ls->step) & 1)) {
        ls->met |= 1ULL << ls->step;
        app_lesson_log(s, "goal met", ls->step, msg);
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

/* The configuration on screen is step i's setup (b and R bring it back). */
static void keep_setup(struct app_state *s, int i)
{
    struct app_lesson *ls = &s->lesson;
    if (ls->setup && i >= 0 && i < lesson_step_count(ls->l)) {
        ls->setup[i] = s->p;
        ls->setup_set[i] = 1;
    }
}

/* Step i's setup: as it was loaded when the student entered it, or, if they never did in this
 * run (a resumed lesson), as the lesson builds it: each step's configuration and solution on top
 * of the start, as the instructor's check walks it. */
static int setup_of(struct app_state *s, int i, struct params *out, char *err, size_t errlen)
{
    struct app_lesson *ls = &s->lesson;
    if (ls->setup_set && ls->setup_set[i]) {
        *out = ls->setup[i];
        return 0;
    }
    struct params p = ls->start, q;
    for (int k = 0; k <= i; k++) {
        if (lesson_step_config(ls->l, k, &p, &q, err, errlen) < 0)
            return -1;
        p = q;
        if (k < i && lesson_step_solution(ls->l, k, &p, &q, err, errlen) < 0)
            return -1;
        p = q;
    }
    *out = p;
    return 0;
}

/* Loads setup into the app, the configuration on screen put aside (y brings it back). */
static unsigned load_setup(struct app_state *s, const struct params *setup)
{
    struct app_lesson *ls = &s->lesson;
    struct params mine = s->p;
    char err[APP_MSG_MAX];
    int rc = app_apply(s, setup, err, sizeof err);
    if (rc < 0) {
        app_notice(s, true, "%s", err);
        return APP_DIRTY;
    }
    if (rc > 0) { /* nothing to put aside when the screen already showed the setup */
        ls->aside = mine;
        ls->has_aside = true;
        s->modified = strcmp(s->key, s->base_key) != 0;
    }
    return APP_DIRTY | (rc > 0 ? APP_CONFIG : 0);
}

bool app_confirm(struct app_state *s, int key, const char *msg)
{
    if (s->confirm_prev == key)
        return true;
    s->confirm_key = key;
    app_notice(s, false, "%s", msg);
    return false;
}

unsigned app_lesson_next(struct app_state *s)
{
    struct app_lesson *ls = &s->lesson;
    if (!ls->l)
        return 0;
    s->text_scroll = 0;
    bool unmet = !ls->done && lesson_step_has_goal(ls->l, ls->step) &&
                 !(ls->step < APP_LESSON_STEPS && (ls->met >> ls->step) & 1) &&
                 (ls->goal_pending || ls->goal != LESSON_GOAL_MET);
    if (unmet && !app_confirm(s, 'n', "the goal is not met yet: n again moves on anyway"))
        return APP_DIRTY;
    if (unmet)
        app_lesson_log(s, "skip", ls->step, NULL);
    return app_lesson_goto(s, ls->step + 1);
}

unsigned app_lesson_back(struct app_state *s)
{
    struct app_lesson *ls = &s->lesson;
    if (!ls->l)
        return 0;
    s->text_scroll = 0;
    if (ls->done || ls->step == 0)
        return app_lesson_goto(s, ls->done ? ls->step : -1);
    int to = ls->step - 1;
    struct params setup;
    char err[APP_MSG_MAX];
    if (setup_of(s, to, &setup, err, sizeof err) < 0) {
        app_notice(s, true, "%s", err);
        return APP_DIRTY;
    }
    unsigned put = app_lesson_goto(s, to), f = load_setup(s, &setup);
    app_lesson_log(s, "back", to, NULL);
    bool aside = f & APP_CONFIG; /* this b put the student's changes aside */
    f |= put;
    if (aside && !s->notice_error)
        app_notice(s, false, "step %d as it was set up; %c brings your changes back", to + 1,
                   APP_KEY_LESSON_YOURS);
    app_goal_recheck(s);
    return f;
}

unsigned app_lesson_reset_step(struct app_state *s)
{
    struct app_lesson *ls = &s->lesson;
    if (!ls->l)
        return 0;
    struct params setup;
    char err[APP_MSG_MAX];
    if (setup_of(s, ls->step, &setup, err, sizeof err) < 0) {
        app_notice(s, true, "%s", err);
        return APP_DIRTY;
    }
    unsigned f = load_setup(s, &setup);
    ls->hint_level = 0;
    app_lesson_log(s, "reset", ls->step, NULL);
    if (!s->notice_error && (f & APP_CONFIG))
        app_notice(s, false, "step %d reset: %c brings your changes back", ls->step + 1,
                   APP_KEY_LESSON_YOURS);
    else if (!s->notice_error)
        app_notice(s, false, "step %d reset (it was as set up)", ls->step + 1);
    app_goal_recheck(s);
    return f;
}

unsigned app_lesson_yours(struct app_state *s)
{
    struct app_lesson *ls = &s->lesson;
    if (!ls->l || !ls->has_aside) {
        app_notice(s, false, "no changes put aside (b and R put them aside)");
        return APP_DIRTY;
    }
    struct params mine = ls->aside;
    unsigned f = load_setup(s, &mine); /* swaps: what was on screen is now aside */
    if (!s->notice_error)
        app_notice(s, false, "your changes are back; %c again shows the step's setup",
                   APP_KEY_LESSON_YOURS);
    app_goal_recheck(s);
    return f;
}

unsigned app_lesson_quit(struct app_state *s)
{
    struct app_lesson *ls = &s->lesson;
    if (ls->l && !app_confirm(s, 'q',
                              s->lesson_log[0] ? "q again quits the lesson (your place is kept)"
                                               : "q again quits the lesson"))
        return APP_DIRTY;
    if (ls->l)
        app_lesson_log(s, "quit", ls->done ? -1 : ls->step, NULL);
    return APP_QUIT;
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
        ls->t_end = app_lesson_now();
        app_lesson_log(s, "complete", -1, NULL);
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
        ls->t_start += app_lesson_now() - ls->t_end;
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
    if (i > from)
        keep_setup(s, i);
    if (i != from)
        app_lesson_log(s, "step", i, NULL);
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
    ls->has_aside = false;
    memset(ls->setup_set, 0, (size_t)lesson_step_count(ls->l));
    ls->t_start = app_lesson_now();
    s->pane = APP_PANE_LESSON;
    if (load_step(s, 0, &ls->start, &changed, err, sizeof err) < 0) {
        snprintf(s->notice, sizeof s->notice, "%s", err);
        s->notice_error = true;
    } else {
        snprintf(s->notice, sizeof s->notice, "lesson restarted");
        s->notice_error = false;
        keep_setup(s, 0);
        app_lesson_log(s, "restart", -1, NULL);
    }
    app_goal_recheck(s);
    return APP_DIRTY | (changed ? APP_CONFIG : 0);
}

unsigned app_lesson_hint(struct app_state *s)
{
    struct app_lesson *ls = &s->lesson;
    if (!ls->l)
        return 0;
    int n = lesson_step_hint_count(ls->l, ls->step);
    s->pane = APP_PANE_LESSON;
    /* The last resort may give the answer away: the key asks once before showing it. */
    if (n > 0 && ls->hint_level == n - 1 && lesson_step_hint_last_resort(ls->l, ls->step) &&
        !app_confirm(s, APP_KEY_LESSON_HINT,
                     "the last hint may give the answer away: i again shows it"))
        return APP_DIRTY;
    /* A step without a hint still answers the key, with "no hint", so it is never silent. */
    ls->hint_level = ls->hint_level < (n ? n : 1) ? ls->hint_level + 1 : 0;
    if (ls->hint_level > 0 && n > 0)
        app_lesson_log(s, "hint", ls->step,
                       ls->hint_level == n && lesson_step_hint_last_resort(ls->l, ls->step)
                           ? "last resort"
                           : NULL);
    return APP_DIRTY;
}

int app_lesson_open(struct app_state *s, struct lesson *l, char *err, size_t errlen)
{
    app_lesson_close(s);
    lesson_set_output(l, NULL); /* a goal's print() would write over the screen */
    s->lesson.l = l;
    s->lesson.start = s->p;
    s->lesson.step = 0;
    s->lesson.t_start = app_lesson_now();
    s->pane = APP_PANE_LESSON;
    int n = lesson_step_count(l);
    s->lesson.setup = calloc((size_t)n, sizeof *s->lesson.setup);
    s->lesson.setup_set = calloc((size_t)n, 1);
    if (!s->lesson.setup || !s->lesson.setup_set) {
        snprintf(err, errlen, "out of memory");
        app_lesson_close(s);
        return -1;
    }
    int changed = 0;
    char e[APP_MSG_MAX];
    if (load_step(s, 0, &s->p, &changed, e, sizeof e) < 0) {
        snprintf(err, errlen, "%s", e);
        app_lesson_close(s);
        return -1;
    }
    keep_setup(s, 0);
    if (app_lesson_resume(s) > 0)
        changed = 1;
    app_goal_recheck(s);
    return (int)(APP_DIRTY | (changed ? APP_CONFIG : 0));
}

int app_lesson_resume(struct app_state *s)
{
    struct app_lesson *ls = &s->lesson;
    int step;
    unsigned long long met;
    double seconds;
    if (app_lesson_log_place(s, &step, &met, &seconds) <= 0) {
        app_lesson_log(s, "start", -1, NULL);
        return 0;
    }
    struct params setup;
    char err[APP_MSG_MAX];
    int rc = 0;
    ls->met = met;
    ls->t_start = app_lesson_now() - seconds; /* the clock goes on where it stopped */
    if (step > 0 && setup_of(s, step, &setup, err, sizeof err) == 0 &&
        (rc = app_apply(s, &setup, err, sizeof err)) >= 0) {
        ls->step = step;
        keep_setup(s, step);
        app_notice(s, false, "welcome back: step %d, where you left", step + 1);
    } else if (step > 0) {
        app_notice(s, true, "not resumed: %s", err);
        rc = 0;
    }
    app_lesson_log(s, "start", -1, step > 0 ? "resumed" : NULL);
    if (ls->step > 0)
        app_lesson_log(s, "step", ls->step, NULL);
    return rc > 0;
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
    ls->answer_logged = false;
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
    int n = lesson_step_count(l);
    if (n != lesson_step_count(ls->l)) { /* the setups kept were of the old steps */
        struct params *setup = calloc((size_t)n, sizeof *setup);
        unsigned char *set = calloc((size_t)n, 1);
        if (!setup || !set) {
            free(setup);
            free(set);
            lesson_free(l);
            return app_lesson_reload_failed(s, "out of memory");
        }
        free(ls->setup);
        free(ls->setup_set);
        ls->setup = setup;
        ls->setup_set = set;
    }
    lesson_set_output(l, NULL);
    lesson_free(ls->l);
    ls->l = l;
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
