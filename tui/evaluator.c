#include "evaluator.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/script.h"
#include "../engine/watchdog.h"

/* One child and its pipes; freed when every handle has closed, which may be after the
 * evaluator has moved on to a new child. */
struct child {
    struct evaluator *ev; /* NULL once the evaluator no longer listens to it */
    uv_process_t proc;
    uv_pipe_t in, out, err;
    int open; /* handles not closed yet */
    bool exited;
    struct evaluator_reply *reply; /* being read */
    size_t got;
    char err_tail[EVALUATOR_ERR_MAX]; /* the end of its stderr: the watchdog's line */
    size_t err_len;
};

struct evaluator {
    uv_loop_t *loop;
    double time_limit;
    int nice;
    evaluator_cb cb;
    void *ud;
    struct child *child;
    uv_timer_t deadline;
    bool closing, killed_for_time;
    long seq;
    struct evaluator_request running, queued;
    bool has_running, has_queued;
};

static void start(struct evaluator *ev);

static void child_handle_closed(uv_handle_t *h)
{
    struct child *c = h->data;
    if (--c->open == 0) {
        free(c->reply);
        free(c);
    }
}

static void child_release(struct child *c)
{
    c->ev = NULL;
    uv_close((uv_handle_t *)&c->in, child_handle_closed);
    uv_close((uv_handle_t *)&c->out, child_handle_closed);
    uv_close((uv_handle_t *)&c->err, child_handle_closed);
    if (c->exited)
        uv_close((uv_handle_t *)&c->proc, child_handle_closed);
    else
        uv_process_kill(&c->proc, SIGKILL); /* on_exit closes it */
}

static void deliver(struct evaluator *ev, struct evaluator_reply *r)
{
    uv_timer_stop(&ev->deadline);
    ev->has_running = false;
    ev->cb(ev->ud, r);
    if (ev->has_queued && !ev->closing) {
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

static const char *analytics_name(const struct evaluator *ev)
{
    return ev->running.p.analytics[0] ? ev->running.p.analytics : "analytics";
}

static void on_exit_cb(uv_process_t *proc, int64_t status, int sig)
{
    struct child *c = proc->data;
    c->exited = true;
    struct evaluator *ev = c->ev;
    if (!ev) {
        uv_close((uv_handle_t *)proc, child_handle_closed);
        return;
    }
    ev->child = NULL;
    child_release(c);
    if (!ev->has_running || ev->closing)
        return;
    if (ev->killed_for_time) {
        fail(ev,
             "%s: no answer within %g s, the time limit: stopped (an endless loop, maybe "
             "inside a library call or a finalizer?)",
             analytics_name(ev), ev->time_limit);
        return;
    }
    /* The child's own last word (the watchdog's line, "situ: FILE: stopped after ..."). */
    char *line = c->err_tail, *nl;
    while ((nl = strchr(line, '\n')) && nl[1])
        line = nl + 1;
    if ((nl = strchr(line, '\n')))
        *nl = 0;
    if (!strncmp(line, "situ: ", 6))
        line += 6;
    if (line[0])
        fail(ev, "%s", line);
    else
        fail(ev, "%s: the evaluator process ended (status %d)", analytics_name(ev),
             sig ? 128 + sig : (int)status);
}

static void alloc_cb(uv_handle_t *h, size_t suggested, uv_buf_t *buf)
{
    struct child *c = h->data;
    (void)suggested;
    if (h == (uv_handle_t *)&c->err) {
        if (c->err_len + 1 >= sizeof c->err_tail) { /* keep the tail */
            memmove(c->err_tail, c->err_tail + c->err_len / 2, c->err_len - c->err_len / 2);
            c->err_len -= c->err_len / 2;
        }
        *buf =
            uv_buf_init(c->err_tail + c->err_len, (unsigned)(sizeof c->err_tail - 1 - c->err_len));
        return;
    }
    if (!c->reply)
        c->reply = malloc(sizeof *c->reply);
    *buf = c->reply ? uv_buf_init((char *)c->reply + c->got, (unsigned)(sizeof *c->reply - c->got))
                    : uv_buf_init(NULL, 0);
}

static void on_err(uv_stream_t *s, ssize_t n, const uv_buf_t *buf)
{
    struct child *c = s->data;
    (void)buf;
    if (n > 0) {
        c->err_len += (size_t)n;
        c->err_tail[c->err_len] = 0;
    } else if (n < 0) {
        uv_read_stop(s);
    }
}

static void on_out(uv_stream_t *s, ssize_t n, const uv_buf_t *buf)
{
    struct child *c = s->data;
    (void)buf;
    if (n < 0) {
        uv_read_stop(s);
        return;
    }
    c->got += (size_t)n;
    struct evaluator *ev = c->ev;
    if (c->got < sizeof *c->reply || !ev)
        return;
    c->got = 0;
    struct evaluator_reply *r = c->reply;
    r->err[sizeof r->err - 1] = 0;
    if (r->magic != EVALUATOR_MAGIC || !ev->has_running || r->seq != ev->running.seq) {
        uv_process_kill(&c->proc, SIGKILL); /* out of step: on_exit reports it */
        return;
    }
    deliver(ev, r);
}

static struct child *spawn(struct evaluator *ev, char *why, size_t len)
{
    struct child *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(why, len, "out of memory");
        return NULL;
    }
    c->ev = ev;
    uv_pipe_init(ev->loop, &c->in, 0);
    uv_pipe_init(ev->loop, &c->out, 0);
    uv_pipe_init(ev->loop, &c->err, 0);
    c->in.data = c->out.data = c->err.data = c->proc.data = c;
    c->open = 4;
    char limit[32], nice[16];
    snprintf(limit, sizeof limit, "%.17g", ev->time_limit);
    snprintf(nice, sizeof nice, "%d", ev->nice);
    char *args[] = {"/proc/self/exe", "__evaluate", "--time-limit", limit, "--nice", nice, NULL};
    uv_stdio_container_t stdio[3] = {
        {.flags = UV_CREATE_PIPE | UV_READABLE_PIPE, .data.stream = (uv_stream_t *)&c->in},
        {.flags = UV_CREATE_PIPE | UV_WRITABLE_PIPE, .data.stream = (uv_stream_t *)&c->out},
        {.flags = UV_CREATE_PIPE | UV_WRITABLE_PIPE, .data.stream = (uv_stream_t *)&c->err},
    };
    uv_process_options_t po = {
        .exit_cb = on_exit_cb,
        .file = args[0],
        .args = args,
        .stdio = stdio,
        .stdio_count = 3,
        .flags = UV_PROCESS_DETACHED, /* no terminal of ours to touch; one group to kill */
    };
    int rc = uv_spawn(ev->loop, &c->proc, &po);
    if (rc < 0) {
        snprintf(why, len, "cannot start the evaluator process: %s", uv_strerror(rc));
        c->exited = true;
        child_release(c);
        return NULL;
    }
    uv_read_start((uv_stream_t *)&c->out, alloc_cb, on_out);
    uv_read_start((uv_stream_t *)&c->err, alloc_cb, on_err);
    return c;
}

static void on_deadline(uv_timer_t *t)
{
    struct evaluator *ev = t->data;
    if (ev->child && ev->has_running) {
        ev->killed_for_time = true;
        uv_process_kill(&ev->child->proc, SIGKILL);
    }
}

static void on_written(uv_write_t *w, int status)
{
    (void)status; /* a child gone before reading: on_exit reports it */
    free(w->data);
    free(w);
}

static void start(struct evaluator *ev)
{
    char why[200];
    ev->has_running = true;
    ev->killed_for_time = false;
    if (!ev->child && !(ev->child = spawn(ev, why, sizeof why))) {
        fail(ev, "%s: %s", analytics_name(ev), why);
        return;
    }
    uv_write_t *w = malloc(sizeof *w);
    struct evaluator_request *copy = malloc(sizeof *copy);
    if (!w || !copy) {
        free(w);
        free(copy);
        fail(ev, "%s: out of memory", analytics_name(ev));
        return;
    }
    *copy = ev->running;
    w->data = copy;
    uv_buf_t buf = uv_buf_init((char *)copy, sizeof *copy);
    if (uv_write(w, (uv_stream_t *)&ev->child->in, &buf, 1, on_written) < 0) {
        free(w);
        free(copy);
        uv_process_kill(&ev->child->proc, SIGKILL); /* on_exit reports it */
        return;
    }
    /* The model of one configuration has the time limit, and the grace of the child's own
     * watchdog, which should answer first with a better message; curves evaluate many
     * configurations, each under the child's watchdog. */
    if (ev->running.kind == EVAL_MODEL)
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

long evaluator_submit(struct evaluator *ev, enum evaluator_kind kind, const struct params *p,
                      const char *key)
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
    if (ev->has_running)
        ev->has_queued = true;
    else
        start(ev);
    return r->seq;
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
    if (ev->child) {
        struct child *c = ev->child;
        ev->child = NULL;
        child_release(c);
    }
    uv_close((uv_handle_t *)&ev->deadline, on_timer_closed);
}
