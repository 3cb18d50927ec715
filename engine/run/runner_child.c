/* One child process of the runner (see runner.h), the only place a simulation is forked: the
 * fork (its own process group, PR_SET_PDEATHSIG, default signals, nothing of ours left open),
 * then the simulation in that child or an exec of this binary; reading its stdout and its most
 * telling stderr line; the time limit; SIGKILL to its process group; reaping on SIGCHLD; the
 * signal-safe registry of live children; and turning its end into a result (one parse of its
 * JSON line) or a one-line reason for the scheduler (runner.c). */
#define _GNU_SOURCE /* pipe2 */
#include "runner_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../base/child.h"

#define PID_SLOTS 256

/* Children a fatal-signal handler must kill: plain stores, read by runner_kill_all_signal_safe. */
static volatile pid_t live_pids[PID_SLOTS];

void runner_child_kill(struct job *j)
{
    /* Each child leads its own process group, so -pid is everything it started too: a shell's
     * grandchildren die as well and cannot hold the pipes open. Once it is reaped its pid may be
     * another process's: nothing is sent then (what its group left has been killed on exit). */
    if (j->pid > 0 && !j->exited)
        kill(-j->pid, SIGKILL);
}

static int pid_take_slot(pid_t pid)
{
    for (int i = 0; i < PID_SLOTS; i++) {
        if (live_pids[i] == 0) {
            live_pids[i] = pid;
            return i;
        }
    }
    return -1;
}

static void pid_register(struct job *j)
{
    j->pid_slot = pid_take_slot(j->pid);
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

/* ---- the reason: the one parser of a child's stderr ------------------------------------- */

/* A line of a SimGrid backtrace ("  ->  3# ...", "Backtrace:"): never the reason. */
static bool backtrace_line(const char *msg, size_t n)
{
    while (n && *msg == ' ') {
        msg++;
        n--;
    }
    return (n >= 2 && !strncmp(msg, "->", 2)) || (n >= 9 && !strncmp(msg + n - 9, "acktrace:", 9));
}

/* A complete stderr line: it becomes the reason unless it tells nothing (empty, SimGrid's
 * "Exiting now.", a backtrace). SimGrid's "[clock] file:line: [category/LEVEL] " and situ's
 * "situ: " prefixes go. */
static void stderr_line(struct job *j)
{
    char *msg = j->err_cur;
    size_t n = j->err_cur_len;
    j->err_cur_len = 0;
    while (n && msg[n - 1] == ' ')
        n--;
    msg[n] = 0;
    char *tag = strstr(msg, "/ERROR] ");
    if (!tag)
        tag = strstr(msg, "/CRITICAL] ");
    if (tag)
        msg = strstr(tag, "] ") + 2;
    if (!strncmp(msg, "situ: ", 6))
        msg += 6;
    n = strlen(msg);
    if (n && strncmp(msg, "Exiting now.", 12) && !backtrace_line(msg, n))
        memmove(j->err_line, msg, n + 1);
}

/* ---- finishing a child ------------------------------------------------------------------- */

static void on_handle_closed(uv_handle_t *h)
{
    struct job *j = h->data;
    if (--j->open_handles == 0)
        j->r->job_free(j);
}

static void close_handles(struct job *j)
{
    j->open_handles = 3;
    uv_close((uv_handle_t *)&j->out, on_handle_closed);
    uv_close((uv_handle_t *)&j->err, on_handle_closed);
    uv_close((uv_handle_t *)&j->timer, on_handle_closed);
}

/* The child's end as one line (error), or its result: its JSON line parsed once, into *json and
 * *res. Returns 0 for a result. */
static int judge(struct job *j, json_t **json, struct sim_result *res, char *error, size_t len)
{
    struct runner *r = j->r;
    if (j->err_cur_len)
        stderr_line(j);
    const char *why = j->err_line, *sep = why[0] ? ": " : "";
    if (j->timed_out) {
        snprintf(error, len, "simulation timed out after %g s (the time limit)", r->time_limit);
    } else if (j->overflow) {
        snprintf(error, len, "simulation printed more than %zu bytes (killed)", r->output_max);
    } else if (j->term_signal) {
        snprintf(error, len, "simulation crashed (%s)%s%.200s", strsignal(j->term_signal), sep,
                 why);
    } else if (j->exit_status != 0) {
        snprintf(error, len, "simulation failed (exit %d)%s%.200s", j->exit_status, sep, why);
    } else {
        char perr[RESULT_ERR_MAX];
        *json = result_load(j->out_buf ? j->out_buf : "", j->out_len, perr, sizeof perr);
        if (*json && result_from_json(*json, res, perr, sizeof perr) == 0)
            return 0;
        json_decref(*json);
        *json = NULL;
        snprintf(error, len, "simulation printed an unreadable result: %s", perr);
    }
    return -1;
}

static void finish(struct job *j)
{
    j->finished = true;
    pid_unregister(j);
    double secs = (double)(uv_hrtime() - j->started) / 1e9;
    char error[RUNNER_ERR_MAX] = "";
    struct sim_result res;
    memset(&res, 0, sizeof res);
    json_t *json = NULL;
    /* An orphan's end interests nobody: it is not judged, nor parsed. */
    bool ok = j->waiters && judge(j, &json, &res, error, sizeof error) == 0;
    /* The job stays allocated until its handles have closed, after the callbacks below. */
    close_handles(j);
    j->r->job_ended(j, ok ? &res : NULL, json, ok ? NULL : error, secs);
    json_decref(json);
    result_free(&res);
}

static void maybe_finish(struct job *j)
{
    if (j->exited && j->eofs == 2 && !j->finished)
        finish(j);
}

/* The ready child is gone (reaped): its descriptors and its slot go with it. */
static void ready_forget(struct runner *r)
{
    close(r->ready_in);
    close(r->ready_out);
    close(r->ready_err);
    if (r->ready_slot >= 0)
        live_pids[r->ready_slot] = 0;
    r->ready_pid = 0;
}

void runner_child_ready_stop(struct runner *r)
{
    if (r->ready_pid <= 0)
        return;
    kill(-r->ready_pid, SIGKILL);
    while (waitpid(r->ready_pid, NULL, 0) < 0 && errno == EINTR)
        ;
    ready_forget(r);
}

void runner_child_reap(struct runner *r)
{
    /* A ready child that died waiting (it could not start, or was killed): the next urgent
     * job starts cold, and a new ready child follows it. */
    if (r->ready_pid > 0 && waitpid(r->ready_pid, NULL, WNOHANG) == r->ready_pid) {
        kill(-r->ready_pid, SIGKILL);
        ready_forget(r);
    }
    for (struct job *j = r->running, *next; j; j = next) {
        next = j->next; /* finish may unlink j */
        int status;
        if (j->pid <= 0 || j->exited || waitpid(j->pid, &status, WNOHANG) != j->pid)
            continue;
        kill(-j->pid, SIGKILL); /* whatever the child left behind in its group */
        j->exited = true;
        if (--r->unreaped == 0)
            uv_unref((uv_handle_t *)&r->sigchld);
        j->exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 0;
        j->term_signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
        uv_timer_stop(&j->timer);
        maybe_finish(j);
    }
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
    for (ssize_t i = 0; i < n; i++) {
        char c = buf->base[i];
        if (c == '\n' || c == '\r')
            stderr_line(j);
        else if (j->err_cur_len < STDERR_LINE_MAX && (c != ' ' || j->err_cur_len))
            j->err_cur[j->err_cur_len++] = c == '\t' ? ' ' : c;
    }
}

/* ---- starting a child -------------------------------------------------------------------- */

static void pipes_close(int fds[2][2])
{
    for (int i = 0; i < 2; i++)
        for (int k = 0; k < 2; k++)
            if (fds[i][k] >= 0)
                close(fds[i][k]);
}

/* ---- the ready child ---------------------------------------------------------------------- */

void runner_child_ready_start(struct runner *r)
{
    if (!r->ready_on || r->ready_pid > 0)
        return;
    /* stdin (the child reads, we write), stdout and stderr (we read): [pipe][read, write]. */
    int fds[3][2] = {{-1, -1}, {-1, -1}, {-1, -1}};
    char ready_flag[] = "--ready";
    char **args = calloc((size_t)r->nprefix + 2, sizeof *args); /* before the fork: see child.h */
    if (!args)
        return; /* jobs start cold, as without a ready child */
    for (int i = 0; i < r->nprefix; i++)
        args[i] = r->prefix[i];
    args[r->nprefix] = ready_flag;
    bool ok = true;
    for (int i = 0; i < 3 && ok; i++)
        ok = pipe2(fds[i], O_CLOEXEC) == 0;
    /* The child's ends above 2 (see child_fd_above_std); ours never become its 0, 1 or 2. */
    ok = ok && (fds[0][0] = child_fd_above_std(fds[0][0])) >= 0 &&
         (fds[1][1] = child_fd_above_std(fds[1][1])) >= 0 &&
         (fds[2][1] = child_fd_above_std(fds[2][1])) >= 0 &&
         fcntl(fds[0][1], F_SETFL, O_NONBLOCK) == 0;
    pid_t parent = getpid(), pid = ok ? fork() : -1;
    if (pid == 0) {
        child_setup(parent, fds[0][0], fds[1][1], fds[2][1]);
        execv(args[0], args);
        _exit(127); /* reaped as a ready child that died: the next job starts cold */
    }
    free(args);
    int child_ends[] = {fds[0][0], fds[1][1], fds[2][1]};
    for (int i = 0; i < 3; i++)
        if (child_ends[i] >= 0)
            close(child_ends[i]);
    if (pid < 0) { /* no ready child: jobs start cold, as without one */
        for (int i = 0; i < 3; i++)
            if (fds[i][i == 0] >= 0)
                close(fds[i][i == 0]);
        return;
    }
    setpgid(pid, pid);
    r->ready_pid = pid;
    r->ready_in = fds[0][1];
    r->ready_out = fds[1][0];
    r->ready_err = fds[2][0];
    r->ready_slot = pid_take_slot(pid);
}

/* Hands the parameter arguments args[0..n) to the ready child, each NUL-terminated on its stdin,
 * then EOF. On success its pid and its stdout and stderr read ends go to *pid and out; the
 * caller starts the next one. On failure (none, it died, the pipe is full) the caller starts a
 * cold child; a ready child that failed is killed and reaped here. */
static bool ready_take(struct runner *r, char *const *args, int n, pid_t *pid, int out[2])
{
    if (r->ready_pid <= 0)
        return false;
    char buf[65536]; /* a pipe's capacity: what a non-blocking write can hand over at once */
    size_t len = 0;
    bool ok = true;
    for (int i = 0; i < n && ok; i++) {
        size_t k = strlen(args[i]) + 1;
        ok = len + k <= sizeof buf;
        if (ok)
            memcpy(buf + len, args[i], k);
        len += k;
    }
    /* Non-blocking: a child whose pipe would not take it all at once is not waited for. */
    ok = ok && waitpid(r->ready_pid, NULL, WNOHANG) == 0 &&
         write(r->ready_in, buf, len) == (ssize_t)len;
    if (!ok) {
        runner_child_ready_stop(r);
        return false;
    }
    close(r->ready_in);
    *pid = r->ready_pid;
    out[0] = r->ready_out;
    out[1] = r->ready_err;
    if (r->ready_slot >= 0)
        live_pids[r->ready_slot] = 0; /* the job registers it anew */
    r->ready_pid = 0;
    return true;
}

/* ---- a job's child ------------------------------------------------------------------------- */

int runner_child_start(struct job *j, char *error, size_t errlen)
{
    struct runner *r = j->r;
    j->started = uv_hrtime();
    j->out.data = j->err.data = j->timer.data = j;
    j->pid_slot = -1;
    uv_pipe_init(r->loop, &j->out, 0);
    uv_pipe_init(r->loop, &j->err, 0);
    uv_timer_init(r->loop, &j->timer);

    /* Every parameter explicitly: the child's defaults may not be ours. Built before the fork:
     * the child may only exec it. */
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
    const char *what = args[0];

    int fds[2][2] = {{-1, -1}, {-1, -1}}; /* stdout, stderr: read end, write end */
    /* What someone waits for goes to the ready child, if there is one: no process start. */
    int handed[2];
    pid_t pid = -1;
    if (j->priority > 0 && ready_take(r, args + r->nprefix, n - r->nprefix, &pid, handed)) {
        fds[0][0] = handed[0];
        fds[1][0] = handed[1];
        runner_child_ready_start(r); /* the next one, for the next key */
        goto started;
    }
    if (access(args[0], X_OK) < 0) { /* said here: the child could only exit */
        snprintf(error, errlen, "cannot start %s: %s", what, strerror(errno));
        close_handles(j);
        return -1;
    }
    if (pipe2(fds[0], O_CLOEXEC) < 0 || pipe2(fds[1], O_CLOEXEC) < 0 ||
        (fds[0][1] = child_fd_above_std(fds[0][1])) < 0 ||
        (fds[1][1] = child_fd_above_std(fds[1][1])) < 0) {
        snprintf(error, errlen, "cannot start %s: %s", what, strerror(errno));
        pipes_close(fds);
        close_handles(j);
        return -1;
    }
    pid_t parent = getpid();
    pid = fork();
    if (pid == 0) {
        child_setup(parent, -1, fds[0][1], fds[1][1]);
        execv(args[0], args);
        static const char msg[] = "situ: cannot run the simulation: exec failed\n";
        ssize_t ignored = write(STDERR_FILENO, msg, sizeof msg - 1);
        (void)ignored;
        _exit(127);
    }
    if (pid < 0) {
        snprintf(error, errlen, "cannot start %s: %s", what, strerror(errno));
        pipes_close(fds);
        close_handles(j);
        return -1;
    }
started:
    j->pid = pid;
    if (r->unreaped++ == 0) /* its SIGCHLD must be seen, even once its pipes have closed */
        uv_ref((uv_handle_t *)&r->sigchld);
    setpgid(pid, pid); /* as the child does: whichever runs first, the group exists */
    pid_register(j);
    if (fds[0][1] >= 0) /* a ready child's ends were closed when it started */
        close(fds[0][1]);
    if (fds[1][1] >= 0)
        close(fds[1][1]);
    uv_pipe_open(&j->out, fds[0][0]);
    uv_pipe_open(&j->err, fds[1][0]);
    /* Background work (priority <= 0) runs below the caller, the whole group: an interactive
     * parent must stay responsive while its children use every core. What someone waits for
     * now keeps the caller's priority. */
    if (j->priority <= 0)
        setpriority(PRIO_PGRP, (id_t)pid, 10);
    if (r->time_limit > 0)
        uv_timer_start(&j->timer, on_timeout, (uint64_t)(r->time_limit * 1000), 0);
    uv_read_start((uv_stream_t *)&j->out, on_alloc, on_stdout);
    uv_read_start((uv_stream_t *)&j->err, on_alloc, on_stderr);
    /* It may have ended before the SIGCHLD handler could see it as ours. */
    runner_child_reap(r);
    /* An urgent job that found no ready child (the last one died waiting): one for the next. */
    if (j->priority > 0)
        runner_child_ready_start(r);
    return 0;
}
