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
#include "proc.h"

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

static void on_child_exit(void *ud, int status, const char *err_tail)
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
    char line[PROC_ERR_TAIL];
    proc_last_line(err_tail, line, sizeof line);
    if (line[0])
        fail(ev, "%s", line);
    else
        fail(ev, "%s: the evaluator process ended (status %d)", analytics_name(ev), status);
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
        char limit[32], nice[16], why[200];
        snprintf(limit, sizeof limit, "%.17g", ev->time_limit);
        snprintf(nice, sizeof nice, "%d", ev->nice);
        /* The profile the explorer started with: its parameters are in the requests. */
        const char *args[] = {"__evaluate",
                              "--time-limit",
                              limit,
                              "--nice",
                              nice,
                              simulation_active()[0] ? "--simulation" : NULL,
                              simulation_active(),
                              NULL};
        struct proc_cbs cbs = {.on_out = on_child_out, .on_exit = on_child_exit, .ud = ev};
        if (!(ev->child = proc_start(ev->loop, args, &cbs, why, sizeof why))) {
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

/* Appends what fd has now to *buf (grown as needed, at most max bytes kept: the first ones, or
 * with tail the last ones); false at its end (or an error: nothing more will come). */
static bool take(int fd, char **buf, size_t *len, size_t *cap, size_t max, bool tail)
{
    char chunk[16384];
    ssize_t n = read(fd, chunk, sizeof chunk);
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return true;
    if (n <= 0)
        return false;
    if (tail && *len + (size_t)n >= max && *len > (size_t)n) { /* the newer part is the reason */
        memmove(*buf, *buf + (size_t)n, *len - (size_t)n);
        *len -= (size_t)n;
    }
    if (*len + (size_t)n + 1 > *cap && *len + (size_t)n < max) {
        size_t want = (*len + (size_t)n + 1) * 2;
        char *grown = realloc(*buf, want);
        if (grown) {
            *buf = grown;
            *cap = want;
        }
    }
    if (*len + (size_t)n + 1 > *cap)
        return true; /* over max, or no memory: dropped, and the reader finds it cut short */
    memcpy(*buf + *len, chunk, (size_t)n);
    *len += (size_t)n;
    (*buf)[*len] = 0;
    return true;
}

struct lesson *evaluator_lesson_check(const char *lesson, double time_limit, char *err,
                                      size_t errlen)
{
    char limit[32];
    snprintf(limit, sizeof limit, "%.17g", time_limit > 0 ? time_limit : ANALYTICS_TIME_LIMIT);
    int out[2] = {-1, -1}, errp[2] = {-1, -1};
    if (pipe(out) < 0 || pipe(errp) < 0 || (out[1] = child_fd_above_std(out[1])) < 0 ||
        (errp[1] = child_fd_above_std(errp[1])) < 0) {
        snprintf(err, errlen, "%s: cannot check the lesson: %s", lesson, strerror(errno));
        for (int k = 0; k < 2; k++) {
            if (out[k] >= 0)
                close(out[k]);
            if (errp[k] >= 0)
                close(errp[k]);
        }
        return NULL;
    }
    /* As every child of ours (engine/base/child.h): its own process group, dying with this
     * process, no descriptor of ours but its pipes. */
    pid_t parent = getpid(), pid = fork();
    if (pid == 0) {
        child_setup(parent, -1, out[1], errp[1]);
        execl("/proc/self/exe", "situ", "--time-limit", limit, "__lesson-check", lesson,
              (char *)NULL);
        _exit(127);
    }
    if (pid > 0)
        setpgid(pid, pid); /* as the child does: whichever runs first, the group exists */
    close(out[1]);
    close(errp[1]);
    if (pid < 0) {
        close(out[0]);
        close(errp[0]);
        snprintf(err, errlen, "%s: cannot check the lesson: %s", lesson, strerror(errno));
        return NULL;
    }
    /* Its own watchdog stops it at the limit; this deadline is for a child that cannot. Both
     * pipes are read as it goes: a lesson bigger than a pipe must not stall it. */
    double wait_s = atof(limit) + WATCHDOG_GRACE + 1;
    struct timespec t0, now;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    char *wire = NULL, *text = NULL;
    size_t wlen = 0, wcap = 0, tlen = 0, tcap = 0;
    bool out_open = true, err_open = true, done = false;
    int status = 0;
    for (;;) {
        struct pollfd fds[2] = {{out_open ? out[0] : -1, POLLIN, 0},
                                {err_open ? errp[0] : -1, POLLIN, 0}};
        if (out_open || err_open)
            (void)poll(fds, 2, 10);
        else
            nanosleep(&(struct timespec){0, 10000000}, NULL);
        if (out_open && fds[0].revents)
            out_open = take(out[0], &wire, &wlen, &wcap, LESSON_WIRE_MAX, false);
        if (err_open && fds[1].revents)
            err_open = take(errp[0], &text, &tlen, &tcap, 64 * 1024, true);
        done = done || waitpid(pid, &status, WNOHANG) == pid;
        if (done && !out_open && !err_open)
            break;
        clock_gettime(CLOCK_MONOTONIC, &now);
        if ((double)(now.tv_sec - t0.tv_sec) + (now.tv_nsec - t0.tv_nsec) / 1e9 > wait_s)
            break;
    }
    close(out[0]);
    close(errp[0]);
    struct lesson *l = NULL;
    char line[PROC_ERR_TAIL];
    proc_last_line(text ? text : "", line, sizeof line);
    if (!done) {
        kill(-pid, SIGKILL); /* its group: whatever it started goes with it */
        waitpid(pid, &status, 0);
        snprintf(err, errlen, "%s: no answer within %s s, the time limit", lesson, limit);
    } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        snprintf(err, errlen, "%s", line[0] ? line : "the lesson's check failed");
    } else {
        l = lesson_wire_read(wire ? wire : "", wlen, err, errlen);
    }
    free(wire);
    free(text);
    return l;
}
