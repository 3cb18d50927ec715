#define _GNU_SOURCE /* pipe2, memmem */
#include "child.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---- the registry of live children ------------------------------------------------------ */

#define CHILD_SLOTS 256

/* Children a fatal-signal handler must kill: plain stores, read by child_kill_all_signal_safe. */
static volatile pid_t live_pids[CHILD_SLOTS];

static int slot_take(pid_t pid)
{
    for (int i = 0; i < CHILD_SLOTS; i++) {
        if (__sync_bool_compare_and_swap(&live_pids[i], 0, pid))
            return i;
    }
    return -1;
}

void child_kill_all_signal_safe(void)
{
    for (int i = 0; i < CHILD_SLOTS; i++) {
        pid_t pid = live_pids[i];
        if (pid <= 0)
            continue;
        kill(-pid, SIGKILL);
        waitpid(pid, NULL, 0); /* reaped here: the process is about to die */
        live_pids[i] = 0;
    }
}

/* ---- starting one ------------------------------------------------------------------------ */

/* In the forked child, before the exec: async-signal-safe calls only (the parent may have
 * threads). Exits 3 when any of it fails, 127 when the exec does. */
/* Closes lo..hi (hi -1: all above lo). */
static void close_from(int lo, int hi)
{
    if (hi >= 0 && hi < lo)
        return;
#ifdef SYS_close_range
    if (syscall(SYS_close_range, (unsigned)lo, hi < 0 ? ~0u : (unsigned)hi, 0u) == 0)
        return;
#endif
    for (int f = lo; f <= (hi < 0 ? 1023 : hi); f++)
        close(f);
}

static _Noreturn void in_child(const struct child_spec *s, pid_t parent, const int fd[3],
                               const int keep[CHILD_KEEP_MAX])
{
    setpgid(0, 0);
    for (int sig = 1; sig < NSIG; sig++) {
        struct sigaction cur;
        if (sig == SIGKILL || sig == SIGSTOP || sigaction(sig, NULL, &cur) < 0)
            continue;
        bool keep = cur.sa_handler == SIG_IGN &&
                    (sig == SIGTERM || sig == SIGINT || sig == SIGHUP || sig == SIGPIPE);
        if (!keep && cur.sa_handler != SIG_DFL) {
            struct sigaction dfl = {.sa_handler = SIG_DFL};
            sigaction(sig, &dfl, NULL);
        }
    }
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    if (!s->outlive_parent && (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent))
        _exit(3);
    /* Every descriptor given is above 2 (child_start moved them): no dup2 below closes the
     * source of another. */
    for (int k = 0; k < 3; k++)
        if (dup2(fd[k], k) < 0)
            _exit(3);
    for (int k = 0; k < s->nkeep; k++) {
        int fd = keep[k], at = s->keep[k].at;
        if (fd == at ? fcntl(fd, F_SETFD, 0) < 0 : dup2(fd, at) < 0)
            _exit(3);
    }
    /* Nothing else of ours: every descriptor from 3 on but the kept ones. */
    int from = 3;
    for (int at = 3; at <= CHILD_KEEP_AT_MAX + 1; at++) {
        bool kept = false;
        for (int k = 0; k < s->nkeep; k++)
            kept = kept || s->keep[k].at == at;
        if (kept || at == CHILD_KEEP_AT_MAX + 1) {
            close_from(from, kept ? at - 1 : -1);
            from = at + 1;
        }
    }
    execv(s->argv[0], s->argv);
    static const char msg[] = "situ: cannot run ";
    ssize_t w = write(STDERR_FILENO, msg, sizeof msg - 1);
    w = write(STDERR_FILENO, s->argv[0], strlen(s->argv[0]));
    w = write(STDERR_FILENO, ": exec failed\n", 14);
    (void)w;
    _exit(127);
}

/* A descriptor above 2 (close-on-exec): a caller whose own stdout is closed gets 1 from pipe(),
 * and in_child's dup2 onto 0, 1 and 2 would close it. -1 (fd closed) on failure. */
static int above_std(int fd)
{
    if (fd < 0 || fd > STDERR_FILENO)
        return fd;
    int moved = fcntl(fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
    close(fd);
    return moved;
}

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

int child_start(struct child *c, const struct child_spec *s, char *why, size_t len)
{
    *c = (struct child){.pid = 0, .in = -1, .out = -1, .err = -1, .slot = -1};
    /* For each of 0, 1, 2: the child's descriptor (theirs), and ours if it is a pipe; `given`
     * the caller's own, which are not ours to close. */
    int theirs[3] = {-1, -1, -1}, ours[3] = {-1, -1, -1}, want[3] = {s->in, s->out, s->err};
    bool made[3] = {false, false, false}, ok = access(s->argv[0], X_OK) == 0;
    for (int k = 0; k < 3 && ok; k++) {
        if (want[k] == CHILD_PIPE) {
            int p[2];
            ok = pipe2(p, O_CLOEXEC) == 0;
            if (ok) {
                theirs[k] = p[k == 0 ? 0 : 1];
                ours[k] = p[k == 0 ? 1 : 0];
                made[k] = true;
            }
        } else if (want[k] == CHILD_NULL) {
            ok = (theirs[k] =
                      open("/dev/null", k == 0 ? O_RDONLY | O_CLOEXEC : O_WRONLY | O_CLOEXEC)) >= 0;
            made[k] = ok;
        } else if (want[k] <= STDERR_FILENO) { /* ours at 0, 1 or 2: a copy above them */
            ok = (theirs[k] = fcntl(want[k], F_DUPFD_CLOEXEC, STDERR_FILENO + 1)) >= 0;
            made[k] = ok;
        } else {
            theirs[k] = want[k];
        }
        ok = ok && (!made[k] || (theirs[k] = above_std(theirs[k])) >= 0);
        ok = ok && (ours[k] < 0 || (ours[k] = above_std(ours[k])) >= 0);
    }
    /* A kept descriptor at 0, 1 or 2 would be gone once those are the child's: a copy. */
    int keep[CHILD_KEEP_MAX] = {-1, -1};
    bool keep_made[CHILD_KEEP_MAX] = {false, false};
    for (int k = 0; k < s->nkeep && ok; k++) {
        if (k >= CHILD_KEEP_MAX || s->keep[k].at <= STDERR_FILENO ||
            s->keep[k].at > CHILD_KEEP_AT_MAX) {
            ok = false;
            errno = EINVAL;
            break;
        }
        keep[k] = s->keep[k].fd;
        if (keep[k] <= STDERR_FILENO)
            ok = keep_made[k] = (keep[k] = fcntl(keep[k], F_DUPFD_CLOEXEC, 16)) >= 0;
    }
    pid_t parent = getpid(), pid = -1;
    int fork_errno = 0;
    if (ok) {
        pid = fork();
        if (pid == 0)
            in_child(s, parent, theirs, keep);
        fork_errno = errno;
    } else {
        fork_errno = errno;
    }
    for (int k = 0; k < 3; k++)
        if (made[k])
            close_fd(&theirs[k]);
    for (int k = 0; k < CHILD_KEEP_MAX; k++)
        if (keep_made[k])
            close_fd(&keep[k]);
    if (pid < 0) {
        for (int k = 0; k < 3; k++)
            close_fd(&ours[k]);
        snprintf(why, len, "cannot start %s: %s", s->argv[0], strerror(fork_errno));
        errno = fork_errno;
        return -1;
    }
    setpgid(pid, pid); /* as the child does: whichever runs first, the group exists */
    if (s->nice > 0)
        setpriority(PRIO_PGRP, (id_t)pid, s->nice);
    c->pid = pid;
    c->in = ours[0];
    c->out = ours[1];
    c->err = ours[2];
    c->slot = slot_take(pid);
    return 0;
}

void child_kill(const struct child *c)
{
    if (c->pid > 0)
        kill(-c->pid, SIGKILL);
}

int child_reap(struct child *c, bool block, int *status)
{
    if (c->pid <= 0)
        return -1;
    int st = 0;
    pid_t r;
    while ((r = waitpid(c->pid, &st, block ? 0 : WNOHANG)) < 0 && errno == EINTR)
        ;
    if (r == 0)
        return 0;
    if (r < 0)
        return -1;
    kill(-c->pid, SIGKILL); /* whatever it left behind in its group */
    if (c->slot >= 0)
        live_pids[c->slot] = 0;
    c->slot = -1;
    c->pid = 0;
    if (status)
        *status = st;
    return 1;
}

void child_close_pipes(struct child *c)
{
    close_fd(&c->in);
    close_fd(&c->out);
    close_fd(&c->err);
}

int child_threads(void)
{
    DIR *d = opendir("/proc/self/task");
    if (!d)
        return 0;
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

/* ---- waiting for one child ------------------------------------------------------------- */

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* One read of its stdout into w->out: 1 while it is open, 0 at its end, -1 past out_max. */
static int take_out(struct child_wait *w, int fd, size_t *cap)
{
    char buf[65536];
    ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0)
        return errno == EINTR || errno == EAGAIN ? 1 : 0;
    if (n == 0)
        return 0;
    if (w->out_len + (size_t)n > w->out_max)
        return -1;
    if (w->out_len + (size_t)n + 1 > *cap) {
        size_t grown = *cap ? *cap : 4096;
        while (grown < w->out_len + (size_t)n + 1)
            grown *= 2;
        char *p = realloc(w->out, grown);
        if (!p)
            return -1;
        w->out = p;
        *cap = grown;
    }
    memcpy(w->out + w->out_len, buf, (size_t)n);
    w->out_len += (size_t)n;
    w->out[w->out_len] = 0;
    return 1;
}

static int take_err(struct child_wait *w, int fd)
{
    char buf[4096];
    ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0)
        return errno == EINTR || errno == EAGAIN ? 1 : 0;
    child_err_feed(&w->err, buf, (size_t)n);
    return n > 0;
}

int child_wait(struct child *c, struct child_wait *w)
{
    w->out = NULL;
    w->out_len = 0;
    w->err.len = 0;
    w->err.cut = false;
    w->err.text[0] = 0;
    w->status = 0;
    w->timed_out = w->overflow = false;
    size_t cap = 0;
    double deadline = w->limit > 0 ? now_s() + w->limit : 0;
    bool ended = false;
    while (c->out >= 0 || c->err >= 0 || !ended) {
        if (deadline && now_s() > deadline) {
            w->timed_out = true;
            break;
        }
        /* Its end is looked for every 10 ms, pipes open or not: what it leaves behind in its
         * group may hold them, and child_reap kills that group. */
        struct pollfd fds[2] = {{c->out, POLLIN, 0}, {c->err, POLLIN, 0}};
        if (poll(fds, 2, 10) < 0 && errno != EINTR)
            break;
        if (fds[0].revents) {
            int r = take_out(w, c->out, &cap);
            w->overflow = r < 0;
            if (w->overflow) /* killed before its pipe closes: a shell around it would otherwise
                              * see its command die of SIGPIPE and exit 141, not be killed */
                child_kill(c);
            if (r <= 0) {
                close(c->out);
                c->out = -1;
            }
            if (w->overflow)
                break;
        }
        if (fds[1].revents && !take_err(w, c->err)) {
            close(c->err);
            c->err = -1;
        }
        ended = ended || child_reap(c, false, &w->status) == 1;
    }
    if (!ended) {
        child_kill(c);
        child_reap(c, true, &w->status);
    }
    child_close_pipes(c);
    return w->overflow ? -1 : 0;
}
