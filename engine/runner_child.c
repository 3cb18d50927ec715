/* One child process of the runner (see runner.h): spawning it with libuv in its own session,
 * reading its stdout and its last stderr line, the time limit, SIGKILL to its process group, the
 * signal-safe registry of live children, and turning its end into a result or a one-line reason
 * for the scheduler (runner.c). */
#include "runner_internal.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define PID_SLOTS 256

/* Children a fatal-signal handler must kill: plain stores, read by runner_kill_all_signal_safe. */
static volatile pid_t live_pids[PID_SLOTS];

void runner_child_kill(struct job *j)
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

/* ---- finishing a child ------------------------------------------------------------------- */

static void on_handle_closed(uv_handle_t *h)
{
    struct job *j = h->data;
    if (--j->open_handles == 0)
        runner_job_free(j);
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

static void finish(struct job *j)
{
    struct runner *r = j->r;
    pid_unregister(j);
    double secs = (double)(uv_hrtime() - j->started) / 1e9;

    char error[RUNNER_ERR_MAX] = "";
    struct sim_result res;
    memset(&res, 0, sizeof res);
    bool ok = false;
    if (j->waiters) { /* an orphan's end interests nobody */
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
    }
    /* The job stays allocated until its handles have closed, after the callbacks below. */
    close_handles(j);
    runner_job_ended(j, ok ? &res : NULL, ok ? NULL : error, secs);
    result_free(&res);
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
    runner_child_kill(j); /* whatever the child left behind in its group */
    maybe_finish(j);
}

static void on_timeout(uv_timer_t *t)
{
    struct job *j = t->data;
    j->timed_out = true;
    runner_child_kill(j);
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
        runner_child_kill(j);
        return;
    }
    if (j->out_len + (size_t)n + 1 > j->out_cap) {
        size_t cap = j->out_cap ? j->out_cap : 4096;
        while (cap < j->out_len + (size_t)n + 1)
            cap *= 2;
        char *grown = realloc(j->out_buf, cap);
        if (!grown) {
            j->overflow = true;
            runner_child_kill(j);
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

extern char **environ;

/* Our environment plus SITU_PARENT_PID=<us>: a `situ run` child then asks the kernel to end it
 * when we die (PR_SET_PDEATHSIG), which covers what no handler can, a SIGKILLed explorer.
 * malloc'd (the strings are environ's, and `mine`). NULL if out of memory. */
static char **child_env(char *mine, size_t len)
{
    size_t n = 0;
    while (environ[n])
        n++;
    char **env = malloc((n + 2) * sizeof *env);
    if (!env)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (strncmp(environ[i], "SITU_PARENT_PID=", 16))
            env[k++] = environ[i];
    snprintf(mine, len, "SITU_PARENT_PID=%ld", (long)getpid());
    env[k++] = mine;
    env[k] = NULL;
    return env;
}

int runner_child_start(struct job *j, char *error, size_t errlen)
{
    struct runner *r = j->r;
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
    char mine[64];
    char **env = child_env(mine, sizeof mine);
    if (!env) {
        snprintf(error, errlen, "cannot start %s: out of memory", args[0]);
        close_handles(j);
        return -1;
    }
    uv_process_options_t po = {
        .exit_cb = on_exit_cb,
        .file = args[0],
        .args = args,
        .env = env,
        .stdio = stdio,
        .stdio_count = 3,
        /* Its own session: no controlling terminal to scribble on, one group to kill. */
        .flags = UV_PROCESS_DETACHED,
    };
    int rc = uv_spawn(r->loop, &j->proc, &po);
    free(env); /* uv_spawn has forked and exec'd with it */
    if (rc < 0) {
        snprintf(error, errlen, "cannot start %s: %s", args[0], uv_strerror(rc));
        close_handles(j);
        return -1;
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
    return 0;
}
