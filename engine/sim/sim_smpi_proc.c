/* The processes of an SMPI run: the warden and smpimain (sim_smpi_proc.h). */
#define _GNU_SOURCE /* nftw, syscall (pidfd_open) */
#include "sim_smpi_proc.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../base/child.h"

struct report {
    int status;      /* smpimain's wait status */
    int start_errno; /* not 0: smpimain could not be forked */
};

static int remove_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    remove(path);
    return 0;
}

void sim_smpi_proc_remove_dir(const char *dir)
{
    nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void sleep_ms(long ms)
{
    struct timespec d = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&d, NULL);
}

/* smpimain, a child like any other (engine/base/child.h): its own group, death with the
 * warden, its output into the directory, which it has open as SIM_SMPI_DIR_FD. */
static int start_main(const char *dir, char *const argv[], struct child *m)
{
    char path[PATH_MAX], why[512];
    snprintf(path, sizeof path, "%s/app.out", dir);
    int out = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    snprintf(path, sizeof path, "%s/app.err", dir);
    int err = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    int d = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    struct child_spec spec = {.argv = argv,
                              .in = CHILD_NULL,
                              .out = out,
                              .err = err,
                              .keep = {{d, SIM_SMPI_DIR_FD}},
                              .nkeep = 1};
    int rc = out < 0 || err < 0 || d < 0 ? -1 : child_start(m, &spec, why, sizeof why);
    int start_errno = errno ? errno : EAGAIN;
    if (out >= 0)
        close(out);
    if (err >= 0)
        close(err);
    if (d >= 0)
        close(d);
    return rc < 0 ? -start_errno : 0;
}

/* Kills each child the warden has (orphans of the run come to it: it is their subreaper) until
 * none is left. Without /proc's list of children, only the dead are reaped. */
static void reap_the_rest(void)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/self/task/%ld/children", (long)getpid());
    for (;;) {
        FILE *f = fopen(path, "r");
        for (long pid; f && fscanf(f, "%ld", &pid) == 1;)
            kill((pid_t)pid, SIGKILL);
        if (f)
            fclose(f);
        pid_t r = waitpid(-1, NULL, WNOHANG);
        if (r < 0 && errno != EINTR)
            return; /* ECHILD: none left */
        if (r == 0 && !f)
            return;
        if (r == 0)
            sleep_ms(10);
    }
}

static bool main_ended(pid_t m)
{
    siginfo_t si;
    memset(&si, 0, sizeof si);
    return waitid(P_PID, (id_t)m, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == m;
}

static volatile sig_atomic_t warden_stop;

static void on_stop(int sig)
{
    (void)sig;
    warden_stop = 1;
}

/* A TERM, INT, HUP or QUIT to the warden itself (`pkill situ` reaches it) ends the run as the
 * caller's end does, cleaned up; one that was ignored (nohup) stays ignored. */
static void catch_stops(void)
{
    static const int sigs[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT};
    struct sigaction sa = {.sa_handler = on_stop}, cur;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        if (sigaction(sigs[i], NULL, &cur) == 0 && cur.sa_handler == SIG_DFL)
            sigaction(sigs[i], &sa, NULL);
}

/* The warden, on its own: stdin is the life pipe, stdout the report pipe. */
static int warden(const char *dir, char *const argv[])
{
    const int life = STDIN_FILENO, report = STDOUT_FILENO;
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    signal(SIGPIPE, SIG_IGN); /* a dead caller: EPIPE, not death before the cleaning */
    catch_stops();
    struct report rep = {0, 0};
    struct child main_child;
    int rc = start_main(dir, argv, &main_child);
    pid_t m = rc < 0 ? -1 : main_child.pid;
    bool ended = m < 0;
    if (m < 0)
        rep.start_errno = -rc;
    if (m > 0) {
        int pidfd = -1;
#ifdef SYS_pidfd_open
        pidfd = (int)syscall(SYS_pidfd_open, m, 0);
#endif
        /* smpimain's end (its pidfd turns readable; polled without one), or the caller's */
        for (;;) {
            struct pollfd fds[2] = {{life, POLLIN, 0}, {pidfd, POLLIN, 0}};
            int n = poll(fds, pidfd >= 0 ? 2 : 1, pidfd >= 0 ? -1 : 100);
            if ((ended = main_ended(m)))
                break;
            if ((n > 0 && fds[0].revents) || warden_stop)
                break;
        }
        /* smpimain is a zombie or still running: its group's id cannot be another's yet */
        kill(-m, SIGKILL);
        while (waitpid(m, &rep.status, 0) < 0 && errno == EINTR)
            ;
        reap_the_rest();
    }
    if (ended) { /* the caller reads the directory, then closes its end */
        ssize_t w = write(report, &rep, sizeof rep);
        (void)w;
        char c;
        for (ssize_t r; (r = read(life, &c, 1)) != 0;)
            if (r < 0 && (errno != EINTR || warden_stop))
                break;
    }
    sim_smpi_proc_remove_dir(dir);
    return 0;
}

int sim_smpi_warden_main(int argc, char **argv)
{
    if (argc < 5 || strcmp(argv[3], "--")) {
        fprintf(stderr, "usage: situ-sim __smpi-warden DIR -- APP [ARG ...]\n");
        return 2;
    }
    return warden(argv[2], argv + 4);
}

int sim_smpi_proc_start(struct sim_smpi_proc *pr, const char *dir, char *const argv[], char *err,
                        size_t errlen)
{
    int n = 0;
    while (argv[n])
        n++;
    char self[] = "/proc/self/exe", cmd[] = "__smpi-warden", sep[] = "--";
    char **args = calloc((size_t)n + 5, sizeof *args);
    if (!args) {
        snprintf(err, errlen, "cannot start smpimain: out of memory");
        return -1;
    }
    args[0] = self;
    args[1] = cmd;
    args[2] = (char *)dir;
    args[3] = sep;
    memcpy(args + 4, argv, (size_t)n * sizeof *args);
    /* The warden keeps our stdout and stderr open (the second at its 2, the first at 3). */
    struct child_spec spec = {.argv = args,
                              .in = CHILD_PIPE,
                              .out = CHILD_PIPE,
                              .err = STDERR_FILENO,
                              .keep = {{STDOUT_FILENO, 3}},
                              .nkeep = 1,
                              .outlive_parent = true};
    struct child w;
    char why[512];
    fflush(NULL); /* nothing buffered is written twice */
    int rc = child_start(&w, &spec, why, sizeof why);
    free(args);
    if (rc < 0) {
        snprintf(err, errlen, "cannot start smpimain: %s", why);
        return -1;
    }
    pr->warden = w;
    pr->life = w.in;
    pr->report = w.out;
    return 0;
}

int sim_smpi_proc_wait(struct sim_smpi_proc *pr, double seconds, int *status, int *start_errno)
{
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    struct report rep;
    size_t got = 0;
    while (got < sizeof rep) {
        int ms = -1;
        if (seconds > 0) {
            clock_gettime(CLOCK_MONOTONIC, &t);
            double left =
                seconds - (double)(t.tv_sec - t0.tv_sec) - (t.tv_nsec - t0.tv_nsec) * 1e-9;
            if (left <= 0)
                return -1;
            ms = left > 1e6 ? 1000000000 : (int)(left * 1000) + 1;
        }
        struct pollfd fd = {pr->report, POLLIN, 0};
        int n = poll(&fd, 1, ms);
        if (n < 0 && errno == EINTR)
            continue;
        if (n == 0)
            continue; /* the deadline is checked above */
        ssize_t r = read(pr->report, (char *)&rep + got, sizeof rep - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -2;
        got += (size_t)r;
    }
    *status = rep.start_errno ? -1 : rep.status;
    *start_errno = rep.start_errno;
    return 0;
}

void sim_smpi_proc_end(struct sim_smpi_proc *pr)
{
    close(pr->life);
    close(pr->report);
    child_reap(&pr->warden, true, NULL);
}
