#define _GNU_SOURCE /* close_range */
#include "child.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <errno.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

void child_setup(pid_t parent, int in, int out, int err)
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
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
        _exit(3);
    if (in < 0)
        in = open("/dev/null", O_RDONLY);
    if (in < 0 || dup2(in, STDIN_FILENO) < 0 || dup2(out, STDOUT_FILENO) < 0 ||
        dup2(err, STDERR_FILENO) < 0)
        _exit(3);
#ifdef SYS_close_range
    if (syscall(SYS_close_range, 3u, ~0u, 0u) == 0)
        return;
#endif
    for (int fd = 3; fd < 1024; fd++)
        close(fd);
}

int child_spawn(char *const argv[], int in, int out, int err, pid_t *pid)
{
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    sigset_t none, dfl;
    sigemptyset(&none);
    sigfillset(&dfl); /* what the parent ignored stays ignored for these four only (nohup) */
    sigdelset(&dfl, SIGTERM);
    sigdelset(&dfl, SIGINT);
    sigdelset(&dfl, SIGHUP);
    sigdelset(&dfl, SIGPIPE);
    sigdelset(&dfl, SIGKILL);
    sigdelset(&dfl, SIGSTOP);
    int rc = posix_spawn_file_actions_init(&fa);
    if (rc)
        return errno = rc, -1;
    if ((rc = posix_spawnattr_init(&at))) {
        posix_spawn_file_actions_destroy(&fa);
        return errno = rc, -1;
    }
    rc = in < 0 ? posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
                : posix_spawn_file_actions_adddup2(&fa, in, STDIN_FILENO);
    rc = rc ? rc : posix_spawn_file_actions_adddup2(&fa, out, STDOUT_FILENO);
    rc = rc ? rc : posix_spawn_file_actions_adddup2(&fa, err, STDERR_FILENO);
    rc = rc ? rc : posix_spawn_file_actions_addclosefrom_np(&fa, STDERR_FILENO + 1);
    rc = rc ? rc
            : posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
                                                POSIX_SPAWN_SETSIGDEF);
    rc = rc ? rc : posix_spawnattr_setpgroup(&at, 0);
    rc = rc ? rc : posix_spawnattr_setsigmask(&at, &none);
    rc = rc ? rc : posix_spawnattr_setsigdefault(&at, &dfl);
    extern char **environ;
    rc = rc ? rc : posix_spawn(pid, argv[0], &fa, &at, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    if (rc)
        return errno = rc, -1;
    return 0;
}

void child_die_with(pid_t parent)
{
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
        _exit(3);
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

int child_fd_above_std(int fd)
{
    if (fd < 0 || fd > STDERR_FILENO)
        return fd;
    int moved = fcntl(fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
    close(fd);
    return moved;
}
