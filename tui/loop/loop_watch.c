/* The files the explorer follows, reloaded on save: the analytics (its model is evaluated anew),
 * the lesson (a checking child runs it, where a hang is stopped at the limit, and hands it over
 * as data: the panel reloads at the same step, and no line of it runs here) and the scenario
 * (it runs again). Each file's directory is watched, since an editor saves by renaming a new
 * file over the old, and a change acts once the burst of events has settled. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../engine/lua/analytics.h"
#include "../../engine/base/watchdog.h"
#include "../../engine/lua/script.h"
#include "../../engine/scenario/lesson_wire.h"
#include "loop.h"

/* "dir" and "base" of path ("." for a bare name). */
static void split_path(const char *path, char *dir, size_t dlen, char *base, size_t blen)
{
    const char *slash = strrchr(path, '/');
    if (slash) {
        snprintf(dir, dlen, "%.*s", (int)(slash - path) + (slash == path), path);
        snprintf(base, blen, "%s", slash + 1);
    } else {
        snprintf(dir, dlen, ".");
        snprintf(base, blen, "%s", path);
    }
}

static void on_lesson_checked(void *ud, const struct proc_end *e)
{
    struct tui *t = ud;
    t->lesson_check = NULL; /* proc.h: gone after on_exit */
    if (t->quitting)
        return;
    char why[APP_MSG_MAX], reason[APP_MSG_MAX];
    struct lesson *l = NULL;
    child_reason(e->err, reason, sizeof reason);
    child_end_line("its check", e->status, e->timed_out, e->limit, e->overflow, LESSON_WIRE_MAX,
                   reason, why, sizeof why);
    if (!why[0])
        l = lesson_wire_read(e->out, e->out_len, why, sizeof why);
    else if (reason[0] && !e->overflow)
        snprintf(why, sizeof why, "%s", reason); /* the check's own word: "FILE:LINE: ..." */
    loop_post(t, l ? app_lesson_reload(&t->app, l)
                   : app_lesson_reload_failed(&t->app, why[0] ? why : "its check failed"));
}

/* The lesson is user code: a child runs it under the limit and hands over what the panel needs
 * as data (as at start-up); this process never runs a line of it, and the loop goes on
 * meanwhile. */
static void lesson_changed(struct tui *t)
{
    if (!t->app.lesson.l || t->lesson_check)
        return;
    char limit[32], why[256];
    double secs = script_time_limit(); /* 0: none given, the default (as at start-up) */
    snprintf(limit, sizeof limit, "%.17g", secs > 0 ? secs : ANALYTICS_TIME_LIMIT);
    char *args[] = {"/proc/self/exe",
                    "--time-limit",
                    limit,
                    "__lesson-check",
                    (char *)lesson_path(t->app.lesson.l),
                    NULL};
    /* Its lesson, as data, is kept whole (up to LESSON_WIRE_MAX) for on_lesson_checked. */
    /* Its own watchdog stops it at the limit; this one is for a child that cannot. */
    struct proc_opts o = {.spec = {.argv = args, .in = CHILD_NULL},
                          .time_limit = atof(limit) + WATCHDOG_GRACE + 1,
                          .out_max = LESSON_WIRE_MAX};
    struct proc_cbs cbs = {.on_exit = on_lesson_checked, .ud = t};
    t->lesson_check = proc_start(&t->loop, &o, &cbs, why, sizeof why);
    if (!t->lesson_check)
        loop_post(t, app_lesson_reload_failed(&t->app, why));
}

static void on_settled(uv_timer_t *h)
{
    struct watch *w = h->data;
    struct tui *t = w->t;
    switch (w->kind) {
    case WATCH_ANALYTICS:
        loop_post(t, app_on_analytics_changed(&t->app));
        break;
    case WATCH_LESSON:
        lesson_changed(t);
        break;
    default:
        loop_post(t, app_script_reload(&t->app));
    }
}

/* Only enqueues: the settle timer runs when the editor's burst of events is over. */
static void on_event(uv_fs_event_t *h, const char *filename, int events, int status)
{
    struct watch *w = h->data;
    (void)events;
    if (status < 0 || w->t->quitting)
        return;
    if (filename && strcmp(filename, w->base))
        return;
    uv_timer_start(&w->settle, on_settled, RELOAD_MS, 0);
}

static void watch_path(struct watch *w, const char *path)
{
    char dir[sizeof w->dir], base[sizeof w->base];
    dir[0] = base[0] = 0;
    if (path && path[0])
        split_path(path, dir, sizeof dir, base, sizeof base);
    if (w->on && !strcmp(dir, w->dir) && !strcmp(base, w->base))
        return;
    if (w->on)
        uv_fs_event_stop(&w->ev);
    w->on = false;
    snprintf(w->dir, sizeof w->dir, "%s", dir);
    snprintf(w->base, sizeof w->base, "%s", base);
    if (dir[0] && uv_fs_event_start(&w->ev, on_event, dir, 0) == 0)
        w->on = true;
}

void watch_init(struct tui *t)
{
    for (int k = 0; k < WATCH_KINDS; k++) {
        struct watch *w = &t->watches[k];
        w->kind = (enum watch_kind)k;
        w->t = t;
        uv_fs_event_init(&t->loop, &w->ev);
        w->ev.data = w;
        uv_timer_init(&t->loop, &w->settle);
        w->settle.data = w;
    }
}

void watch_sync(struct tui *t)
{
    if (t->quitting)
        return;
    const struct app_state *a = &t->app;
    char path[PARAMS_PATH_MAX], err[256];
    bool lua = a->p.analytics[0] &&
               analytics_resolve(a->p.analytics, path, sizeof path, err, sizeof err) == 0;
    watch_path(&t->watches[WATCH_ANALYTICS], lua ? path : NULL);
    watch_path(&t->watches[WATCH_LESSON], a->lesson.l ? lesson_path(a->lesson.l) : NULL);
    watch_path(&t->watches[WATCH_SCENARIO],
               a->script.phase != APP_SCRIPT_OFF ? a->script.path : NULL);
}

void watch_close(struct tui *t)
{
    for (int k = 0; k < WATCH_KINDS; k++) {
        uv_close((uv_handle_t *)&t->watches[k].ev, NULL);
        uv_close((uv_handle_t *)&t->watches[k].settle, NULL);
    }
    proc_close(t->lesson_check);
    t->lesson_check = NULL;
}
