#include "runner.h"

#include "analytics.h"
#include "cache.h"
#include "runner_cache.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define PID_SLOTS       256
#define STDERR_LINE_MAX 200

/* Children a fatal-signal handler must kill: plain stores, read by runner_kill_all_signal_safe. */
static volatile pid_t live_pids[PID_SLOTS];

struct waiter {
    long id;
    int tag;
    int priority;
    runner_cb cb;
    void *ud;
    struct waiter *next;
};

enum job_state { JOB_QUEUED, JOB_RUNNING };

struct job {
    struct runner *r;
    struct job *prev, *next; /* in r->queued or r->running */
    enum job_state state;
    struct params p;
    char key[RUNNER_KEY_MAX];
    uint64_t hash;
    struct waiter *waiters; /* none left: an orphan, killed and reaped without callbacks */
    int priority;           /* the highest of the waiters' */
    long seq;               /* FIFO order among equal priorities */
    bool force;

    uv_process_t proc;
    uv_pipe_t out, err;
    uv_timer_t timer;
    int open_handles; /* the job is freed when the last one has closed */
    int pid_slot;
    uint64_t started;
    bool exited, timed_out, overflow;
    int eofs; /* 2 when both pipes are done */
    int64_t exit_status;
    int term_signal;

    char *out_buf;
    size_t out_len, out_cap;
    char err_line[STDERR_LINE_MAX + 1]; /* last complete non-empty stderr line */
    char err_cur[STDERR_LINE_MAX + 1];  /* the line being read */
    size_t err_cur_len;
};

struct runner {
    uv_loop_t *loop;
    char **prefix; /* argv before the parameter flags */
    int nprefix;
    int max_jobs;
    double time_limit;
    size_t output_max;
    void (*on_change)(void *ud);
    void *on_change_ud;

    struct job *queued, *running;
    int nqueued, nrunning; /* nrunning counts orphans not yet reaped: they still hold a slot */
    long next_id, next_seq;
    bool pumping, pump_again;
    uv_idle_t kick; /* starts children on the next loop turn, never inside a caller's event */
    bool kick_open;

    struct rcache *cache; /* this session's results */
    char *disk;           /* the results directory shared with `situ sweep`, or NULL */

    char readbuf[65536];
};

static void pump(struct runner *r);
static void schedule(struct runner *r);

/* ---- small helpers ---------------------------------------------------------------------- */

static void notify(struct runner *r)
{
    if (r->on_change)
        r->on_change(r->on_change_ud);
}

static void list_push(struct job **head, struct job *j)
{
    j->prev = NULL;
    j->next = *head;
    if (*head)
        (*head)->prev = j;
    *head = j;
}

static void list_unlink(struct job **head, struct job *j)
{
    if (j->prev)
        j->prev->next = j->next;
    else
        *head = j->next;
    if (j->next)
        j->next->prev = j->prev;
    j->prev = j->next = NULL;
}

static void kill_group(struct job *j)
{
    /* Children run in their own session (UV_PROCESS_DETACHED), so -pid is their whole group:
     * a shell's grandchildren die too and cannot hold the pipes open. */
    if (j->proc.pid > 0)
        kill(-j->proc.pid, SIGKILL);
}

static void pid_register(struct job *j)
{
    j->pid_slot = -1;
    for (int i = 0; i < PID_SLOTS; i++) {
        if (live_pids[i] == 0) {
            live_pids[i] = j->proc.pid;
            j->pid_slot = i;
            return;
        }
    }
}

static void pid_unregister(struct job *j)
{
    if (j->pid_slot >= 0)
        live_pids[j->pid_slot] = 0;
    j->pid_slot = -1;
}

void runner_kill_all_signal_safe(void)
{
    for (int i = 0; i < PID_SLOTS; i++) {
        pid_t pid = live_pids[i];
        if (pid <= 0)
            continue;
        kill(-pid, SIGKILL);
        waitpid(pid, NULL, 0); /* reaped here: the process is about to die, libuv with it */
        live_pids[i] = 0;
    }
}

/* The cache key: the configuration, plus the analytics file's content identity when there is
 * one (params_canonical has only its name, and an edited file must not hit old results). */
static void runner_key(const struct params *p, char *key, size_t len)
{
    params_canonical(p, key, len);
    char fp[PARAMS_PATH_MAX + 64];
    if (p->analytics[0] && analytics_fingerprint(p->analytics, fp, sizeof fp) == 0 && fp[0]) {
        size_t n = strlen(key);
        snprintf(key + n, len - n, ";analytics@=%s", fp);
    }
}

const struct sim_result *runner_lookup(struct runner *r, const struct params *p)
{
    char key[RUNNER_KEY_MAX];
    runner_key(p, key, sizeof key);
    return rcache_get(r->cache, key, rcache_hash(key));
}

/* ---- lifecycle ---------------------------------------------------------------------------- */

struct runner *runner_new(uv_loop_t *loop, const struct runner_opts *o, char *err, size_t errlen)
{
    if (err && errlen)
        err[0] = 0;
    struct runner *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(err, errlen, "runner: out of memory");
        return NULL;
    }
    r->loop = loop;
    r->max_jobs = o && o->max_jobs > 0 ? o->max_jobs : (int)uv_available_parallelism();
    r->time_limit = o && o->time_limit > 0 ? o->time_limit : 60;
    r->output_max = o && o->output_max > 0 ? o->output_max : (size_t)64 << 20;
    r->on_change = o ? o->on_change : NULL;
    r->on_change_ud = o ? o->on_change_ud : NULL;
    r->next_id = 1;
    r->cache = rcache_new(o ? o->cache_max : 0);
    if (!r->cache || (o && o->disk_cache && !(r->disk = strdup(o->disk_cache))))
        goto fail;
    uv_idle_init(loop, &r->kick);
    r->kick.data = r;
    r->kick_open = true;

    const char *self_argv[] = {NULL, "run", "--json", NULL};
    char self[4096];
    const char *const *argv = o ? o->argv : NULL;
    if (!argv) {
        ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
        if (n <= 0) {
            snprintf(err, errlen, "runner: cannot find this program (/proc/self/exe): %s",
                     strerror(errno));
            goto fail;
        }
        self[n] = 0;
        self_argv[0] = self;
        argv = self_argv;
    }
    while (argv[r->nprefix])
        r->nprefix++;
    if (r->nprefix == 0) {
        snprintf(err, errlen, "runner: empty command");
        goto fail;
    }
    r->prefix = calloc((size_t)r->nprefix, sizeof *r->prefix);
    if (!r->prefix)
        goto fail;
    for (int i = 0; i < r->nprefix; i++)
        if (!(r->prefix[i] = strdup(argv[i])))
            goto fail;
    return r;
fail:
    if (err && !err[0])
        snprintf(err, errlen, "runner: out of memory");
    runner_free(r);
    return NULL;
}

static void job_free(struct job *j)
{
    for (struct waiter *w = j->waiters, *next; w; w = next) {
        next = w->next;
        free(w);
    }
    free(j->out_buf);
    free(j);
}

void runner_free(struct runner *r)
{
    if (!r)
        return;
    while (r->queued) {
        struct job *j = r->queued;
        list_unlink(&r->queued, j);
        job_free(j);
    }
    /* Running jobs own libuv handles; runner_shutdown and a drained loop have closed them. */
    rcache_free(r->cache);
    free(r->disk);
    for (int i = 0; r->prefix && i < r->nprefix; i++)
        free(r->prefix[i]);
    free(r->prefix);
    free(r);
}

static void on_kick_closed(uv_handle_t *h)
{
    (void)h;
}

void runner_shutdown(struct runner *r)
{
    if (r->kick_open) {
        uv_close((uv_handle_t *)&r->kick, on_kick_closed);
        r->kick_open = false;
    }
    while (r->queued) {
        struct job *j = r->queued;
        list_unlink(&r->queued, j);
        job_free(j);
    }
    r->nqueued = 0;
    for (struct job *j = r->running; j; j = j->next) {
        for (struct waiter *w = j->waiters, *next; w; w = next) {
            next = w->next;
            free(w);
        }
        j->waiters = NULL;
        kill_group(j);
    }
    notify(r);
}

/* ---- finishing a child ------------------------------------------------------------------- */

static void on_handle_closed(uv_handle_t *h)
{
    struct job *j = h->data;
    if (--j->open_handles == 0)
        job_free(j);
}

static void close_handles(struct job *j)
{
    j->open_handles = 4;
    uv_close((uv_handle_t *)&j->proc, on_handle_closed);
    uv_close((uv_handle_t *)&j->out, on_handle_closed);
    uv_close((uv_handle_t *)&j->err, on_handle_closed);
    uv_close((uv_handle_t *)&j->timer, on_handle_closed);
}

/* What the child's stderr said last, without the "situ: " every situ error starts with. */
static const char *stderr_reason(struct job *j)
{
    if (j->err_cur_len) {
        snprintf(j->err_line, sizeof j->err_line, "%s", j->err_cur);
        j->err_cur_len = 0;
    }
    const char *s = j->err_line;
    return strncmp(s, "situ: ", 6) ? s : s + 6;
}

static void deliver(struct runner *r, struct job *j, struct waiter *waiters,
                    const struct sim_result *res, const char *error, bool cached, double secs)
{
    for (struct waiter *w = waiters, *next; w; w = next) {
        next = w->next;
        struct runner_done d = {
            .id = w->id,
            .tag = w->tag,
            .params = &j->p,
            .key = j->key,
            .status = error ? RUNNER_FAILED : RUNNER_OK,
            .result = error ? NULL : res,
            .error = error,
            .cached = cached,
            .seconds = secs,
        };
        if (w->cb)
            w->cb(w->ud, &d);
        free(w);
    }
    (void)r;
}

static void finish(struct job *j)
{
    struct runner *r = j->r;
    list_unlink(&r->running, j);
    r->nrunning--;
    pid_unregister(j);
    double secs = (double)(uv_hrtime() - j->started) / 1e9;

    struct waiter *waiters = j->waiters;
    j->waiters = NULL;
    char error[RUNNER_ERR_MAX] = "";
    struct sim_result res;
    memset(&res, 0, sizeof res);
    bool ok = false;
    if (waiters) {
        const char *why = stderr_reason(j);
        const char *sep = why[0] ? ": " : "";
        if (j->timed_out)
            snprintf(error, sizeof error, "time limit of %g s exceeded (killed)", r->time_limit);
        else if (j->overflow)
            snprintf(error, sizeof error, "output larger than %zu bytes (killed)", r->output_max);
        else if (j->term_signal)
            snprintf(error, sizeof error, "crashed: signal %d (%s)%s%.200s", j->term_signal,
                     strsignal(j->term_signal), sep, why);
        else if (j->exit_status != 0)
            snprintf(error, sizeof error, "exit %d%s%.200s", (int)j->exit_status, sep, why);
        else {
            char perr[RESULT_ERR_MAX];
            if (result_parse(j->out_buf ? j->out_buf : "", j->out_len, &res, perr, sizeof perr) < 0)
                snprintf(error, sizeof error, "bad output: %s", perr);
            else
                ok = true;
        }
        if (ok) {
            rcache_put(r->cache, j->key, j->hash, &res);
            if (r->disk) /* the very line `situ sweep` would have stored */
                cache_put(r->disk, &j->p, j->out_buf);
        }
    }
    /* The job stays allocated until its handles have closed, after the callbacks below. */
    close_handles(j);
    deliver(r, j, waiters, ok ? &res : NULL, ok ? NULL : error, false, secs);
    result_free(&res);
    notify(r);
    schedule(r);
}

static void maybe_finish(struct job *j)
{
    if (j->exited && j->eofs == 2)
        finish(j);
}

static void on_exit_cb(uv_process_t *proc, int64_t exit_status, int term_signal)
{
    struct job *j = proc->data;
    j->exited = true;
    j->exit_status = exit_status;
    j->term_signal = term_signal;
    uv_timer_stop(&j->timer);
    kill_group(j); /* whatever the child left behind in its group */
    maybe_finish(j);
}

static void on_timeout(uv_timer_t *t)
{
    struct job *j = t->data;
    j->timed_out = true;
    kill_group(j);
}

static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf)
{
    struct job *j = h->data;
    (void)suggested;
    *buf = uv_buf_init(j->r->readbuf, sizeof j->r->readbuf);
}

static void stop_pipe(struct job *j, uv_stream_t *s)
{
    uv_read_stop(s);
    j->eofs++;
    maybe_finish(j);
}

static void on_stdout(uv_stream_t *s, ssize_t n, const uv_buf_t *buf)
{
    struct job *j = s->data;
    if (n < 0) {
        stop_pipe(j, s);
        return;
    }
    if (j->overflow)
        return;
    if (j->out_len + (size_t)n + 1 > j->r->output_max) {
        j->overflow = true;
        kill_group(j);
        return;
    }
    if (j->out_len + (size_t)n + 1 > j->out_cap) {
        size_t cap = j->out_cap ? j->out_cap : 4096;
        while (cap < j->out_len + (size_t)n + 1)
            cap *= 2;
        char *grown = realloc(j->out_buf, cap);
        if (!grown) {
            j->overflow = true;
            kill_group(j);
            return;
        }
        j->out_buf = grown;
        j->out_cap = cap;
    }
    memcpy(j->out_buf + j->out_len, buf->base, (size_t)n);
    j->out_len += (size_t)n;
    j->out_buf[j->out_len] = 0;
}

static void on_stderr(uv_stream_t *s, ssize_t n, const uv_buf_t *buf)
{
    struct job *j = s->data;
    if (n < 0) {
        stop_pipe(j, s);
        return;
    }
    /* Keep only the last non-empty line: it is the error a failing situ prints. */
    for (ssize_t i = 0; i < n; i++) {
        char c = buf->base[i];
        if (c == '\n' || c == '\r') {
            while (j->err_cur_len && j->err_cur[j->err_cur_len - 1] == ' ')
                j->err_cur_len--;
            if (j->err_cur_len) {
                j->err_cur[j->err_cur_len] = 0;
                memcpy(j->err_line, j->err_cur, j->err_cur_len + 1);
            }
            j->err_cur_len = 0;
        } else if (j->err_cur_len < STDERR_LINE_MAX && (c != ' ' || j->err_cur_len)) {
            j->err_cur[j->err_cur_len++] = c == '\t' ? ' ' : c;
            j->err_cur[j->err_cur_len] = 0;
        }
    }
}

/* ---- starting a child -------------------------------------------------------------------- */

static void fail_start(struct job *j, const char *fmt, ...)
{
    struct runner *r = j->r;
    char error[RUNNER_ERR_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(error, sizeof error, fmt, ap);
    va_end(ap);
    list_unlink(&r->running, j);
    r->nrunning--;
    struct waiter *waiters = j->waiters;
    j->waiters = NULL;
    close_handles(j);
    deliver(r, j, waiters, NULL, error, false, 0);
    notify(r);
}

static void start(struct runner *r, struct job *j)
{
    list_unlink(&r->queued, j);
    r->nqueued--;
    list_push(&r->running, j);
    r->nrunning++;
    j->state = JOB_RUNNING;
    j->started = uv_hrtime();
    j->proc.data = j->out.data = j->err.data = j->timer.data = j;
    j->pid_slot = -1;
    uv_pipe_init(r->loop, &j->out, 0);
    uv_pipe_init(r->loop, &j->err, 0);
    uv_timer_init(r->loop, &j->timer);

    /* Every parameter explicitly: the child's defaults may not be ours. */
    char *args[r->nprefix + 2 * PARAM_COUNT + 1];
    char flags[PARAM_COUNT][40];
    char values[PARAM_COUNT][PARAMS_PATH_MAX];
    int n = 0;
    for (int i = 0; i < r->nprefix; i++)
        args[n++] = r->prefix[i];
    for (int id = 0; id < PARAM_COUNT; id++) {
        snprintf(flags[id], sizeof flags[id], "--%s", param_table[id].key);
        if (param_table[id].type == PARAM_REAL)
            snprintf(values[id], sizeof values[id], "%.17g", params_get_number(&j->p, id));
        else
            params_format(&j->p, id, values[id], sizeof values[id]);
        args[n++] = flags[id];
        args[n++] = values[id];
    }
    args[n] = NULL;

    uv_stdio_container_t stdio[3] = {
        {.flags = UV_IGNORE},
        {.flags = UV_CREATE_PIPE | UV_WRITABLE_PIPE, .data.stream = (uv_stream_t *)&j->out},
        {.flags = UV_CREATE_PIPE | UV_WRITABLE_PIPE, .data.stream = (uv_stream_t *)&j->err},
    };
    uv_process_options_t po = {
        .exit_cb = on_exit_cb,
        .file = args[0],
        .args = args,
        .stdio = stdio,
        .stdio_count = 3,
        /* Its own session: no controlling terminal to scribble on, one group to kill. */
        .flags = UV_PROCESS_DETACHED,
    };
    int rc = uv_spawn(r->loop, &j->proc, &po);
    if (rc < 0) {
        fail_start(j, "cannot start %s: %s", args[0], uv_strerror(rc));
        return;
    }
    pid_register(j);
    /* Background work (priority <= 0) runs below the caller, the whole group (a child that
     * forks passes it on): an interactive parent must stay responsive while its children use
     * every core. What someone waits for now keeps the caller's priority. */
    if (j->priority <= 0)
        setpriority(PRIO_PGRP, (id_t)j->proc.pid, 10);
    uv_timer_start(&j->timer, on_timeout, (uint64_t)(r->time_limit * 1000), 0);
    uv_read_start((uv_stream_t *)&j->out, on_alloc, on_stdout);
    uv_read_start((uv_stream_t *)&j->err, on_alloc, on_stderr);
}

static struct job *most_urgent(struct runner *r)
{
    struct job *best = NULL;
    for (struct job *j = r->queued; j; j = j->next)
        if (!best || j->priority > best->priority ||
            (j->priority == best->priority && j->seq < best->seq))
            best = j;
    return best;
}

static struct job *job_new(struct runner *r, const struct params *p, const char *key, uint64_t h)
{
    struct job *j = calloc(1, sizeof *j);
    if (!j)
        return NULL;
    j->r = r;
    j->p = *p;
    snprintf(j->key, sizeof j->key, "%s", key);
    j->hash = h;
    j->seq = r->next_seq++;
    j->state = JOB_QUEUED;
    return j;
}

/* Every slot is taken and `want` is more urgent than some running child: kill the least urgent
 * one and queue its waiters again in a fresh job, ahead of its priority class. */
static void preempt_for(struct runner *r, struct job *want)
{
    struct job *victim = NULL;
    for (struct job *j = r->running; j; j = j->next) {
        if (!j->waiters) /* an orphan is already dying: its slot frees itself */
            return;
        if (!victim || j->priority < victim->priority)
            victim = j;
    }
    if (!victim || victim->priority >= want->priority)
        return;
    struct job *again = job_new(r, &victim->p, victim->key, victim->hash);
    if (!again)
        return;
    again->waiters = victim->waiters;
    again->priority = victim->priority;
    again->force = victim->force;
    again->seq = victim->seq;
    victim->waiters = NULL;
    kill_group(victim);
    list_push(&r->queued, again);
    r->nqueued++;
}

static bool urgent_running(const struct runner *r)
{
    for (const struct job *j = r->running; j; j = j->next)
        if (j->waiters && j->priority > 0)
            return true;
    return false;
}

static void pump(struct runner *r)
{
    if (r->pumping) {
        r->pump_again = true;
        return;
    }
    r->pumping = true;
    do {
        r->pump_again = false;
        struct job *j;
        while ((j = most_urgent(r)) != NULL && r->nrunning < r->max_jobs) {
            if (j->priority <= 0 && urgent_running(r))
                break; /* background waits: what someone waits for gets the cores */
            start(r, j);
        }
        if ((j = most_urgent(r)) != NULL)
            preempt_for(r, j);
    } while (r->pump_again);
    r->pumping = false;
    notify(r);
}

static void on_kick(uv_idle_t *h)
{
    struct runner *r = h->data;
    uv_idle_stop(h);
    pump(r);
}

/* Forking takes milliseconds: children start from an idle callback, so a submission, a cancel
 * or a child's exit never makes the caller's event (a key, a frame) wait for it. */
static void schedule(struct runner *r)
{
    if (r->kick_open && r->queued)
        uv_idle_start(&r->kick, on_kick);
}

/* ---- the public queue operations ---------------------------------------------------------- */

static struct job *find_job(struct job *list, const char *key, uint64_t h)
{
    for (struct job *j = list; j; j = j->next)
        if (j->waiters && j->hash == h && !strcmp(j->key, key))
            return j;
    return NULL;
}

/* A result an earlier session or a sweep stored on disk; it joins the memory cache. */
static const struct sim_result *disk_lookup(struct runner *r, const struct params *p,
                                            const char *key, uint64_t h)
{
    char *json = NULL;
    if (cache_get(r->disk, p, &json) < 0)
        return NULL;
    struct sim_result res;
    char err[RESULT_ERR_MAX];
    int rc = result_parse(json, strlen(json), &res, err, sizeof err);
    free(json);
    if (rc < 0)
        return NULL; /* an entry we cannot read is a miss: the simulation runs again */
    rcache_put(r->cache, key, h, &res);
    result_free(&res);
    return rcache_get(r->cache, key, h);
}

long runner_submit(struct runner *r, const struct params *p, int priority, int tag, unsigned flags,
                   runner_cb cb, void *ud)
{
    char key[RUNNER_KEY_MAX];
    runner_key(p, key, sizeof key);
    uint64_t h = rcache_hash(key);
    bool force = flags & RUNNER_FORCE;
    const struct sim_result *hit = force ? NULL : rcache_get(r->cache, key, h);
    if (!hit && !force && r->disk)
        hit = disk_lookup(r, p, key, h);
    if (hit) {
        struct runner_done d = {.tag = tag,
                                .params = p,
                                .key = key,
                                .status = RUNNER_OK,
                                .result = hit,
                                .cached = true};
        if (cb)
            cb(ud, &d);
        return 0;
    }
    struct waiter *w = calloc(1, sizeof *w);
    if (!w)
        goto oom;
    w->id = r->next_id++;
    w->tag = tag;
    w->priority = priority;
    w->cb = cb;
    w->ud = ud;

    /* An identical configuration already queued, or running and not older than a forced
     * re-run asks for, is shared. */
    struct job *j = find_job(r->queued, key, h);
    if (!j && !force)
        j = find_job(r->running, key, h);
    if (!j) {
        j = job_new(r, p, key, h);
        if (!j) {
            free(w);
            goto oom;
        }
        j->priority = priority;
        list_push(&r->queued, j);
        r->nqueued++;
    }
    j->force = j->force || force;
    if (priority > j->priority && j->state == JOB_QUEUED)
        j->priority = priority;
    w->next = j->waiters;
    j->waiters = w;
    notify(r);
    schedule(r);
    return w->id;
oom : {
    struct runner_done d = {.tag = tag,
                            .params = p,
                            .key = key,
                            .status = RUNNER_FAILED,
                            .error = "runner: out of memory"};
    if (cb)
        cb(ud, &d);
    return -1;
}
}

/* Removes the waiters that match; returns how many. A job left without waiters is dropped
 * (queued) or killed (running: it is reaped, and freed, when its exit arrives). */
static int drop_waiters(struct runner *r, bool by_id, long id, int tag)
{
    int dropped = 0;
    struct job *lists[2] = {r->queued, r->running};
    for (int l = 0; l < 2; l++) {
        for (struct job *j = lists[l], *next; j; j = next) {
            next = j->next;
            if (!j->waiters)
                continue;
            for (struct waiter **pp = &j->waiters; *pp;) {
                struct waiter *w = *pp;
                if (by_id ? w->id == id : w->tag == tag) {
                    *pp = w->next;
                    free(w);
                    dropped++;
                } else {
                    pp = &w->next;
                }
            }
            if (j->waiters)
                continue;
            if (j->state == JOB_QUEUED) {
                list_unlink(&r->queued, j);
                r->nqueued--;
                job_free(j);
            } else {
                kill_group(j);
            }
        }
    }
    if (dropped) {
        notify(r);
        schedule(r);
    }
    return dropped;
}

int runner_cancel(struct runner *r, long id)
{
    return id > 0 ? drop_waiters(r, true, id, 0) : 0;
}

int runner_cancel_tag(struct runner *r, int tag)
{
    return drop_waiters(r, false, 0, tag);
}

enum runner_job_state runner_job_state(const struct runner *r, long id)
{
    const struct job *lists[2] = {r->queued, r->running};
    for (int l = 0; l < 2; l++)
        for (const struct job *j = lists[l]; j; j = j->next)
            for (const struct waiter *w = j->waiters; w; w = w->next)
                if (w->id == id)
                    return l == 0 ? RUNNER_JOB_QUEUED : RUNNER_JOB_RUNNING;
    return RUNNER_JOB_NONE;
}

void runner_counts(const struct runner *r, int *running, int *queued)
{
    int live = 0;
    for (const struct job *j = r->running; j; j = j->next)
        live += j->waiters != NULL;
    if (running)
        *running = live;
    if (queued)
        *queued = r->nqueued;
}
