/* A child process on a libuv loop (proc.h). Started by child_start, not uv_spawn: libuv's spawn
 * knows neither death with the parent nor the registry a fatal signal empties. So it is reaped
 * here too, by a SIGCHLD handle of its own that asks for its pid only. */
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

struct proc {
    struct child child;
    int pid; /* child.pid is 0 once reaped */
    uv_pipe_t in, out, err;
    uv_signal_t sigchld;
    uv_timer_t timer;
    bool has_in;
    struct proc_cbs cbs;
    size_t out_max;
    double limit;
    uint64_t started;
    int status;
    bool exited, timed_out, overflow, ended, closed; /* closed: no more callbacks */
    int eofs;                                        /* 2 once stdout and stderr are done */
    int open;                                        /* handles not closed yet */
    char *out_buf;
    size_t out_len, out_cap;
    struct child_err errs;
    char readbuf[65536];
};

static void handle_closed(uv_handle_t *h)
{
    struct proc *p = h->data;
    if (--p->open == 0) {
        free(p->out_buf);
        free(p);
    }
}

static void close_handle(uv_handle_t *h)
{
    if (!uv_is_closing(h))
        uv_close(h, handle_closed);
}

static void close_all(struct proc *p)
{
    if (p->has_in)
        close_handle((uv_handle_t *)&p->in);
    close_handle((uv_handle_t *)&p->out);
    close_handle((uv_handle_t *)&p->err);
    close_handle((uv_handle_t *)&p->sigchld);
    close_handle((uv_handle_t *)&p->timer);
}

/* Reaped and both pipes done: its end, once. */
static void maybe_end(struct proc *p)
{
    if (!p->exited || p->eofs < 2 || p->ended)
        return;
    p->ended = true;
    struct proc_end end = {
        .status = p->status,
        .timed_out = p->timed_out,
        .overflow = p->overflow,
        .limit = p->limit,
        .out = p->out_buf ? p->out_buf : "",
        .out_len = p->out_len,
        .err = &p->errs,
        .secs = (double)(uv_hrtime() - p->started) / 1e9,
    };
    bool tell = !p->closed;
    p->closed = true;
    if (tell && p->cbs.on_exit)
        p->cbs.on_exit(p->cbs.ud, &end);
    close_all(p); /* after the callback: end.out and end.err live until then */
}

static void on_sigchld(uv_signal_t *h, int sig)
{
    struct proc *p = h->data;
    (void)sig;
    if (p->exited || child_reap(&p->child, false, &p->status) != 1)
        return;
    p->exited = true;
    uv_signal_stop(h);
    uv_timer_stop(&p->timer);
    maybe_end(p);
}

static void on_timeout(uv_timer_t *t)
{
    struct proc *p = t->data;
    p->timed_out = true;
    proc_kill(p);
}

static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf)
{
    struct proc *p = h->data;
    (void)suggested;
    *buf = uv_buf_init(p->readbuf, sizeof p->readbuf);
}

static void pipe_done(struct proc *p, uv_stream_t *s)
{
    uv_read_stop(s);
    p->eofs++;
    maybe_end(p);
}

/* Kept whole, up to out_max: more is an overflow, and it is killed. */
static void keep_out(struct proc *p, const char *buf, size_t n)
{
    if (p->overflow)
        return;
    if (p->out_len + n > p->out_max) {
        p->overflow = true;
        proc_kill(p);
        return;
    }
    if (p->out_len + n + 1 > p->out_cap) {
        size_t cap = p->out_cap ? p->out_cap : 4096;
        while (cap < p->out_len + n + 1)
            cap *= 2;
        char *grown = realloc(p->out_buf, cap);
        if (!grown) {
            p->overflow = true;
            proc_kill(p);
            return;
        }
        p->out_buf = grown;
        p->out_cap = cap;
    }
    memcpy(p->out_buf + p->out_len, buf, n);
    p->out_len += n;
    p->out_buf[p->out_len] = 0;
}

static void on_stdout(uv_stream_t *s, ssize_t n, const uv_buf_t *buf)
{
    struct proc *p = s->data;
    if (n < 0) {
        pipe_done(p, s);
        return;
    }
    if (n == 0)
        return;
    if (p->out_max > 0)
        keep_out(p, buf->base, (size_t)n);
    else if (!p->closed && p->cbs.on_out)
        p->cbs.on_out(p->cbs.ud, buf->base, (size_t)n);
}

static void on_stderr(uv_stream_t *s, ssize_t n, const uv_buf_t *buf)
{
    struct proc *p = s->data;
    if (n < 0)
        pipe_done(p, s);
    else if (n > 0)
        child_err_feed(&p->errs, buf->base, (size_t)n);
}

struct proc *proc_start(uv_loop_t *loop, const struct proc_opts *o, const struct proc_cbs *cbs,
                        char *why, size_t len)
{
    struct proc *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(why, len, "cannot start %s: out of memory", o->spec.argv[0]);
        return NULL;
    }
    struct child_spec spec = o->spec;
    spec.out = spec.err = CHILD_PIPE;
    if (child_start(&p->child, &spec, why, len) < 0) {
        free(p);
        return NULL;
    }
    p->cbs = *cbs;
    p->pid = (int)p->child.pid;
    p->out_max = o->out_max;
    p->started = uv_hrtime();
    p->has_in = p->child.in >= 0;
    p->in.data = p->out.data = p->err.data = p->sigchld.data = p->timer.data = p;
    p->open = 4 + p->has_in;
    uv_signal_init(loop, &p->sigchld);
    uv_timer_init(loop, &p->timer);
    uv_pipe_init(loop, &p->out, 0);
    uv_pipe_init(loop, &p->err, 0);
    uv_pipe_open(&p->out, p->child.out);
    uv_pipe_open(&p->err, p->child.err);
    if (p->has_in) {
        uv_pipe_init(loop, &p->in, 0);
        uv_pipe_open(&p->in, p->child.in);
    }
    p->child.in = p->child.out = p->child.err = -1; /* the pipes own them now */
    uv_signal_start(&p->sigchld, on_sigchld, SIGCHLD);
    p->limit = o->time_limit > 0 ? o->time_limit : 0;
    if (o->time_limit > 0)
        uv_timer_start(&p->timer, on_timeout, (uint64_t)(o->time_limit * 1000), 0);
    uv_read_start((uv_stream_t *)&p->out, on_alloc, on_stdout);
    uv_read_start((uv_stream_t *)&p->err, on_alloc, on_stderr);
    on_sigchld(&p->sigchld, SIGCHLD); /* it may have ended before the handle could see it */
    return p;
}

void proc_hand_over(struct proc *p, const struct proc_cbs *cbs, double time_limit)
{
    p->cbs = *cbs;
    p->started = uv_hrtime();
    p->limit = time_limit > 0 ? time_limit : 0;
    if (time_limit > 0 && !p->exited)
        uv_timer_start(&p->timer, on_timeout, (uint64_t)(time_limit * 1000), 0);
}

static void on_written(uv_write_t *w, int status)
{
    (void)status; /* a child gone before reading: its end says so */
    free(w);
}

int proc_write(struct proc *p, const void *buf, size_t n)
{
    if (p->closed || !p->has_in || uv_is_closing((uv_handle_t *)&p->in))
        return -1;
    uv_write_t *w = malloc(sizeof *w + n); /* the request and its bytes, freed together */
    if (!w)
        return -1;
    memcpy(w + 1, buf, n);
    uv_buf_t b = uv_buf_init((char *)(w + 1), (unsigned)n);
    if (uv_write(w, (uv_stream_t *)&p->in, &b, 1, on_written) < 0) {
        free(w);
        return -1;
    }
    return 0;
}

/* What was written has gone (or cannot): closing our end is the EOF, as a pipe has no
 * half-close (shutdown() is for sockets). */
static void on_shut(uv_shutdown_t *sd, int status)
{
    (void)status;
    close_handle((uv_handle_t *)sd->handle);
    free(sd);
}

void proc_close_in(struct proc *p)
{
    /* uv_close would drop what is queued: the shutdown's callback closes it once it has gone. */
    if (p->has_in && !uv_is_closing((uv_handle_t *)&p->in)) {
        uv_shutdown_t *sd = malloc(sizeof *sd);
        if (!sd || uv_shutdown(sd, (uv_stream_t *)&p->in, on_shut) < 0) {
            free(sd);
            close_handle((uv_handle_t *)&p->in);
        }
    }
}

void proc_kill(struct proc *p)
{
    if (!p->exited)
        child_kill(&p->child);
}

bool proc_exited(const struct proc *p)
{
    return p->exited;
}

int proc_pid(const struct proc *p)
{
    return p->pid;
}

void proc_close(struct proc *p)
{
    if (!p)
        return;
    proc_kill(p);
    p->closed = true; /* reaped and closed as usual, silently */
}
