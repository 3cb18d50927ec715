/* The processes of an SMPI run: the warden and smpimain (sim_smpi_proc.h). */
#define _GNU_SOURCE /* nftw, syscall (pidfd_open), _Fork */
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

/* In smpimain's process, before the exec: the runner's child setup (own group, death with the
 * warden, output into the directory), then the directory as SIM_SMPI_DIR_FD. */
static _Noreturn void exec_main(const char *dir, char *const argv[], pid_t warden)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/app.out", dir);
    int out = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    snprintf(path, sizeof path, "%s/app.err", dir);
    int err = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (out < 0 || err < 0)
        _exit(127);
    child_setup(warden, -1, out, err);
    int d = open(dir, O_RDONLY | O_DIRECTORY); /* the lowest free: SIM_SMPI_DIR_FD */
    if (d < 0 || (d != SIM_SMPI_DIR_FD && dup2(d, SIM_SMPI_DIR_FD) < 0))
        _exit(127);
    execv(argv[0], argv);
    fprintf(stderr, "situ: cannot run %s: %s (make deps installs libsimgrid-dev)\n", argv[0],
            strerror(errno));
    _exit(127);
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

static _Noreturn void warden(const char *dir, char *const argv[], int life, int report)
{
    setpgid(0, 0);
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    struct report rep = {0, 0};
    pid_t self = getpid(), m = _Fork();
    if (m == 0)
        exec_main(dir, argv, self);
    signal(SIGPIPE, SIG_IGN); /* a dead caller: EPIPE, not death before the cleaning */
    catch_stops();
    bool ended = m < 0;
    if (m < 0)
        rep.start_errno = errno ? errno : EAGAIN;
    if (m > 0) {
        setpgid(m, m); /* as the child does: whichever runs first, the group exists */
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
    _exit(0);
}

int sim_smpi_proc_start(struct sim_smpi_proc *pr, const char *dir, char *const argv[], char *err,
                        size_t errlen)
{
    int life[2] = {-1, -1}, report[2] = {-1, -1};
    if (pipe2(life, O_CLOEXEC) < 0 || pipe2(report, O_CLOEXEC) < 0) {
        snprintf(err, errlen, "cannot start smpimain: %s", strerror(errno));
        for (int i = 0; i < 2; i++)
            if (life[i] >= 0)
                close(life[i]);
        return -1;
    }
    fflush(NULL); /* nothing buffered is written twice */
    /* _Fork: no atfork handler runs in the warden. libuv's (the runner's loop) closes and
     * reopens its signal pipe by descriptor number, in this process a number since reused (the
     * runner's child closed every descriptor): it would close the warden's end of a pipe. */
    pid_t w = _Fork();
    if (w == 0) {
        close(life[1]);
        close(report[0]);
        warden(dir, argv, life[0], report[1]);
    }
    int fork_errno = errno;
    close(life[0]);
    close(report[1]);
    if (w < 0) {
        close(life[1]);
        close(report[0]);
        snprintf(err, errlen, "cannot fork: %s", strerror(fork_errno));
        return -1;
    }
    setpgid(w, w); /* as the warden does: out of this group at once */
    pr->warden = w;
    pr->life = life[1];
    pr->report = report[0];
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
    while (waitpid(pr->warden, NULL, 0) < 0 && errno == EINTR)
        ;
}
