#include "../../engine/lua/simulation.h"
#include "evaluator.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../engine/base/child.h"
#include "../../engine/lua/script.h"
#include "../../engine/scenario/lesson_wire.h"
#include "../../engine/base/watchdog.h"
#include "../../engine/run/proc.h"

struct evaluator {
    uv_loop_t *loop;
    double time_limit;
    int nice;
    evaluator_cb cb;
    void *ud;
    struct proc *child;           /* NULL until a request needs one, and after it died */
    struct evaluator_reply reply; /* being read from the child */
    size_t got;
    uv_timer_t deadline;
    bool closing, killed_for_time;
    bool superseded; /* the running request was replaced: its child is being killed */
    long seq;
    struct evaluator_request running, queued;
    bool has_running, has_queued;
};

static void start(struct evaluator *ev);

static void deliver(struct evaluator *ev, const struct evaluator_reply *r)
{
    uv_timer_stop(&ev->deadline);
    ev->has_running = false;
    ev->cb(ev->ud, r);
    if (ev->has_queued && !ev->closing && !ev->has_running) {
        ev->has_queued = false;
        ev->running = ev->queued;
        start(ev);
    }
}

static void fail(struct evaluator *ev, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The running request ends in an error reply. */
static void fail(struct evaluator *ev, const char *fmt, ...)
{
    struct evaluator_reply *r = calloc(1, sizeof *r);
    if (!r) {
        ev->has_running = false; /* nothing to say it with: the next request tries again */
        return;
    }
    r->magic = EVALUATOR_MAGIC;
    r->kind = ev->running.kind;
    r->seq = ev->running.seq;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->err, sizeof r->err, fmt, ap);
    va_end(ap);
    deliver(ev, r);
    free(r);
}

/* The file whose code runs: what an error names. */
static const char *analytics_name(const struct evaluator *ev)
{
    if (ev->running.kind == EVAL_GOAL)
        return ev->running.goal.lesson;
    return ev->running.p.analytics[0] ? ev->running.p.analytics : "analytics";
}

static void on_child_exit(void *ud, const struct proc_end *e)
{
    struct evaluator *ev = ud;
    ev->child = NULL; /* proc.h: gone after on_exit */
    ev->got = 0;
    if (!ev->has_running || ev->closing)
        return;
    if (ev->superseded) { /* nobody waits for its answer: on with the newer request */
        ev->superseded = false;
        ev->has_running = ev->has_queued = false;
        ev->running = ev->queued;
        start(ev);
        return;
    }
    if (ev->killed_for_time) {
        fail(ev,
             "%s: no answer within %g s, the time limit: stopped (an endless loop, maybe "
             "inside a library call or a finalizer?)",
             analytics_name(ev), ev->time_limit);
        return;
    }
    /* The child's own last word: the watchdog's "situ: FILE: stopped after ..." */
    char line[512], end[256];
    child_reason(e->err, line, sizeof line);
    child_end_line("the evaluator process", e->status, false, 0, false, 0, NULL, end, sizeof end);
    if (line[0])
        fail(ev, "%s", line);
    else
        fail(ev, "%s: %s", analytics_name(ev), end[0] ? end : "the evaluator process ended");
}

static void on_child_out(void *ud, const char *buf, size_t n)
{
    struct evaluator *ev = ud;
    if (ev->superseded)
        return; /* a stale answer from a child being killed: on_exit starts the newer request */
    while (n > 0 && ev->child) {
        size_t take = sizeof ev->reply - ev->got;
        take = take < n ? take : n;
        memcpy((char *)&ev->reply + ev->got, buf, take);
        ev->got += take;
        buf += take;
        n -= take;
        if (ev->got < sizeof ev->reply)
            return;
        ev->got = 0;
        ev->reply.err[sizeof ev->reply.err - 1] = 0;
        if (ev->reply.magic != EVALUATOR_MAGIC || !ev->has_running ||
            ev->reply.seq != ev->running.seq) {
            proc_kill(ev->child); /* out of step: on_exit reports it */
            return;
        }
        deliver(ev, &ev->reply);
    }
}

static void on_deadline(uv_timer_t *t)
{
    struct evaluator *ev = t->data;
    if (ev->child && ev->has_running) {
        ev->killed_for_time = true;
        proc_kill(ev->child);
    }
}

static void start(struct evaluator *ev)
{
    ev->has_running = true;
    ev->killed_for_time = ev->superseded = false;
    if (!ev->child) {
        char limit[32], nice[16], why[200], self[] = "/proc/self/exe", cmd[] = "__evaluate",
                                            tl[] = "--time-limit", nf[] = "--nice",
                                            sim[] = "--simulation";
        snprintf(limit, sizeof limit, "%.17g", ev->time_limit);
        snprintf(nice, sizeof nice, "%d", ev->nice);
        /* The profile the explorer started with: its parameters are in the requests. */
        char *args[] = {self,
                        cmd,
                        tl,
                        limit,
                        nf,
                        nice,
                        simulation_active()[0] ? sim : NULL,
                        (char *)simulation_active(),
                        NULL};
        struct proc_opts o = {.spec = {.argv = args, .in = CHILD_PIPE}};
        struct proc_cbs cbs = {.on_out = on_child_out, .on_exit = on_child_exit, .ud = ev};
        if (!(ev->child = proc_start(ev->loop, &o, &cbs, why, sizeof why))) {
            fail(ev, "%s: %s", analytics_name(ev), why);
            return;
        }
    }
    if (proc_write(ev->child, &ev->running, sizeof ev->running) < 0) {
        proc_kill(ev->child); /* on_exit reports it */
        return;
    }
    /* The model of one configuration has the time limit, and the grace of the child's own
     * watchdog, which should answer first with a better message; curves evaluate many
     * configurations, each under the child's watchdog. */
    if (ev->running.kind == EVAL_MODEL || ev->running.kind == EVAL_GOAL)
        uv_timer_start(&ev->deadline, on_deadline,
                       (uint64_t)((ev->time_limit + WATCHDOG_GRACE) * 1000) + 1000, 0);
}

struct evaluator *evaluator_new(uv_loop_t *loop, double time_limit, int nice, evaluator_cb cb,
                                void *ud)
{
    struct evaluator *ev = calloc(1, sizeof *ev);
    if (!ev)
        return NULL;
    ev->loop = loop;
    ev->time_limit = time_limit > 0 ? time_limit : ANALYTICS_TIME_LIMIT;
    ev->nice = nice;
    ev->cb = cb;
    ev->ud = ud;
    uv_timer_init(loop, &ev->deadline);
    ev->deadline.data = ev;
    return ev;
}

static long submit(struct evaluator *ev, enum evaluator_kind kind, const struct params *p,
                   const char *key, const struct evaluator_goal *goal)
{
    if (ev->closing)
        return 0;
    struct evaluator_request *r = ev->has_running ? &ev->queued : &ev->running;
    memset(r, 0, sizeof *r);
    r->magic = EVALUATOR_MAGIC;
    r->kind = kind;
    r->seq = ++ev->seq;
    r->p = *p;
    snprintf(r->key, sizeof r->key, "%s", key ? key : "");
    if (goal)
        r->goal = *goal;
    if (!ev->has_running) {
        start(ev);
    } else if (!ev->has_queued && ev->child) {
        /* The running answer is for a configuration already left: stop computing it (a slow
         * analytics' curves take minutes) and start the newer one as soon as it is gone. A new
         * child costs milliseconds; the stale answer could cost seconds. */
        ev->has_queued = ev->superseded = true;
        proc_kill(ev->child);
    } else {
        ev->has_queued = true;
    }
    return r->seq;
}

long evaluator_submit(struct evaluator *ev, enum evaluator_kind kind, const struct params *p,
                      const char *key)
{
    return submit(ev, kind, p, key, NULL);
}

long evaluator_submit_goal(struct evaluator *ev, const struct params *p,
                           const struct evaluator_goal *goal)
{
    return submit(ev, EVAL_GOAL, p, NULL, goal);
}

bool evaluator_busy(const struct evaluator *ev)
{
    return ev->has_running || ev->has_queued;
}

static void on_timer_closed(uv_handle_t *h)
{
    free(h->data);
}

void evaluator_close(struct evaluator *ev)
{
    if (!ev || ev->closing)
        return;
    ev->closing = true;
    ev->has_queued = false;
    proc_close(ev->child);
    ev->child = NULL;
    uv_close((uv_handle_t *)&ev->deadline, on_timer_closed);
}

struct lesson *evaluator_lesson_check(const char *lesson, double time_limit, char *err,
                                      size_t errlen)
{
    char limit[32], self[] = "/proc/self/exe", tl[] = "--time-limit", cmd[] = "__lesson-check";
    snprintf(limit, sizeof limit, "%.17g", time_limit > 0 ? time_limit : ANALYTICS_TIME_LIMIT);
    char *argv[] = {self, tl, limit, cmd, (char *)lesson, NULL};
    struct child c;
    char why[256];
    struct child_spec spec = {.argv = argv, .in = CHILD_NULL, .out = CHILD_PIPE, .err = CHILD_PIPE};
    if (child_start(&c, &spec, why, sizeof why) < 0) {
        snprintf(err, errlen, "%s: cannot check the lesson: %s", lesson, why);
        return NULL;
    }
    /* Its own watchdog stops it at the limit; this one is for a child that cannot. */
    struct child_wait w = {.limit = atof(limit) + WATCHDOG_GRACE + 1, .out_max = LESSON_WIRE_MAX};
    child_wait(&c, &w);
    struct lesson *l = NULL;
    char line[512];
    child_reason(&w.err, line, sizeof line);
    if (w.timed_out)
        snprintf(err, errlen, "%s: no answer within %s s, the time limit", lesson, limit);
    else if (w.overflow)
        snprintf(err, errlen, "%s: the lesson's check said more than %d bytes", lesson,
                 LESSON_WIRE_MAX);
    else if (!WIFEXITED(w.status) || WEXITSTATUS(w.status) != 0)
        snprintf(err, errlen, "%s", line[0] ? line : "the lesson's check failed");
    else
        l = lesson_wire_read(w.out ? w.out : "", w.out_len, err, errlen);
    free(w.out);
    return l;
}
