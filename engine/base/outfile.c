#include "outfile.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The directory part of path ("." for a bare name), in dir. */
static void dir_of(const char *path, char *dir, size_t len)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, len, ".");
    else if (slash == path)
        snprintf(dir, len, "/");
    else
        snprintf(dir, len, "%.*s", (int)(slash - path), path);
}

/* 0 if dir is a directory we may create files in (subdir: directories), or the errno that says
 * why not. access() cannot tell a read-only mount from root's view, nor /sys or /proc, where
 * creating fails in a directory that looks writable: a probe is created there and removed. */
static int writable_dir(const char *dir, bool subdir)
{
    struct stat st;
    char probe[PATH_MAX];
    if (stat(dir, &st) < 0)
        return errno;
    if (!S_ISDIR(st.st_mode))
        return ENOTDIR;
    if (access(dir, W_OK | X_OK) < 0)
        return errno;
    int n = snprintf(probe, sizeof probe, "%s/.situ-probe.XXXXXX", dir);
    if (n < 0 || (size_t)n >= sizeof probe)
        return ENAMETOOLONG;
    if (subdir)
        return mkdtemp(probe) && rmdir(probe) == 0 ? 0 : errno;
    int fd = mkstemp(probe);
    if (fd < 0)
        return errno;
    close(fd);
    unlink(probe);
    return 0;
}

int outfile_check_dir(const char *dir, const char *const *names, char *err, size_t errlen)
{
    char d[PATH_MAX], parent[PATH_MAX];
    struct stat st;
    if (!dir[0]) {
        snprintf(err, errlen, "empty directory name");
        return -1;
    }
    if (strlen(dir) + 64 >= PATH_MAX) {
        snprintf(err, errlen, "%.64s...: %s", dir, strerror(ENAMETOOLONG));
        return -1;
    }
    snprintf(d, sizeof d, "%s", dir);
    for (size_t n = strlen(d); n > 1 && d[n - 1] == '/'; n--)
        d[n - 1] = 0; /* "out/" is "out": its parent is ".", not "out" */
    int e = 0;
    /* A link to nowhere is there (mkdir fails on it) yet stat says absent: lstat tells. */
    if (lstat(d, &st) == 0 && S_ISLNK(st.st_mode) && stat(d, &st) < 0) {
        snprintf(err, errlen, "%s: is a symbolic link to %s", dir,
                 errno == ENOENT ? "nothing (dangling)" : strerror(errno));
        return -1;
    }
    if (stat(d, &st) == 0 || errno != ENOENT) {
        e = writable_dir(d, true); /* the set's temporary directory goes in it (outset) */
        if (e) {
            snprintf(err, errlen, "%s: %s", dir, e == ENOTDIR ? "not a directory" : strerror(e));
            return -1;
        }
        /* What is already there under the names to be written must be replaceable too. */
        for (int i = 0; names && names[i]; i++) {
            char path[PATH_MAX];
            int n = snprintf(path, sizeof path, "%s/%s", d, names[i]);
            if (n < 0 || (size_t)n >= sizeof path) {
                snprintf(err, errlen, "%.64s...: %s", dir, strerror(ENAMETOOLONG));
                return -1;
            }
            if (outfile_check(path, err, errlen) < 0)
                return -1;
        }
        return 0;
    }
    /* Absent: it will be made in its parent, which must exist (no mkdir -p of a typo). */
    dir_of(d, parent, sizeof parent);
    if ((e = writable_dir(parent, true)) != 0) {
        snprintf(err, errlen, "%s: cannot create in %s: %s", dir, parent, strerror(e));
        return -1;
    }
    return 0;
}

int outfile_check(const char *path, char *err, size_t errlen)
{
    struct stat st;
    char dir[PATH_MAX];
    if (!path[0]) {
        snprintf(err, errlen, "empty file name");
        return -1;
    }
    /* The temporary is ".NAME.XXXXXX": 8 bytes longer than the name, which must still fit. */
    const char *slash = strrchr(path, '/');
    if (strlen(path) + 16 >= PATH_MAX || strlen(slash ? slash + 1 : path) + 8 > NAME_MAX) {
        snprintf(err, errlen, "%.64s...: %s", path, strerror(ENAMETOOLONG));
        return -1;
    }
    /* lstat, never stat: a link is the user's, and rename would replace it, not its target. */
    if (lstat(path, &st) == 0) {
        const char *why = S_ISLNK(st.st_mode)    ? "is a symbolic link; give the file it points to"
                          : S_ISDIR(st.st_mode)  ? "is a directory"
                          : !S_ISREG(st.st_mode) ? "is not a regular file"
                                                 : NULL;
        if (why) {
            snprintf(err, errlen, "%s: %s", path, why);
            return -1;
        }
    } else if (errno != ENOENT) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    dir_of(path, dir, sizeof dir);
    int e = writable_dir(dir, false);
    if (e) {
        snprintf(err, errlen, "%s: cannot write in %s: %s", path, dir, strerror(e));
        return -1;
    }
    return 0;
}

void outfile_hold_signals(sigset_t *saved)
{
    sigset_t held;
    sigemptyset(&held);
    sigaddset(&held, SIGTERM);
    sigaddset(&held, SIGINT);
    sigaddset(&held, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &held, saved);
}

int outfile_open(struct outfile *o, const char *path, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    if (!path) {
        o->f = stdout;
        return 0;
    }
    char dir[PATH_MAX];
    const char *slash = strrchr(path, '/');
    dir_of(path, dir, sizeof dir);
    int n = snprintf(o->tmp, sizeof o->tmp, "%s/.%s.XXXXXX", dir, slash ? slash + 1 : path);
    if (snprintf(o->path, sizeof o->path, "%s", path) >= (int)sizeof o->path ||
        n >= (int)sizeof o->tmp) {
        snprintf(err, errlen, "%.64s...: cannot write: %s", path, strerror(ENAMETOOLONG));
        return -1;
    }
    outfile_hold_signals(&o->saved);
    /* mkstemp opens with O_CREAT | O_EXCL: never someone else's file, never a link's target. */
    int fd = mkstemp(o->tmp);
    if (fd < 0) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        pthread_sigmask(SIG_SETMASK, &o->saved, NULL);
        return -1;
    }
    /* mkstemp makes it 0600; a result file is as readable as any the user creates. */
    mode_t mask = umask(0);
    umask(mask);
    if (fchmod(fd, 0666 & ~mask) < 0 || !(o->f = fdopen(fd, "w"))) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        close(fd);
        unlink(o->tmp);
        pthread_sigmask(SIG_SETMASK, &o->saved, NULL);
        return -1;
    }
    return 0;
}

int outfile_write(struct outfile *o, const void *data, size_t len)
{
    errno = 0;
    if (fwrite(data, 1, len, o->f) == len)
        return 0;
    if (!o->error)
        o->error = errno ? errno : EIO;
    return -1;
}

int outfile_commit(struct outfile *o, char *err, size_t errlen)
{
    /* The first failure's errno is the one worth reporting: save it before cleaning up. */
    int e = o->error;
    errno = 0;
    if (!o->path[0]) {
        if (fflush(o->f) == 0 && !ferror(o->f) && !e)
            return 0;
        e = e ? e : errno;
        snprintf(err, errlen, "standard output: cannot write: %s",
                 e ? strerror(e) : "a write failed");
        return -1;
    }
    if ((fflush(o->f) != 0 || ferror(o->f) || fsync(fileno(o->f)) != 0) && !e)
        e = errno ? errno : EIO;
    if (fclose(o->f) != 0 && !e)
        e = errno;
    o->f = NULL;
    if (!e && rename(o->tmp, o->path) != 0)
        e = errno;
    if (e)
        unlink(o->tmp);
    pthread_sigmask(SIG_SETMASK, &o->saved, NULL); /* a signal held back acts now */
    if (e) {
        snprintf(err, errlen, "%s: cannot write: %s", o->path, strerror(e));
        return -1;
    }
    return 0;
}

void outfile_abort(struct outfile *o)
{
    if (!o->path[0])
        return;
    if (o->f)
        fclose(o->f);
    o->f = NULL;
    unlink(o->tmp);
    pthread_sigmask(SIG_SETMASK, &o->saved, NULL);
}

int outfile_close_stdout(char *err, size_t errlen)
{
    /* A failed write sets the error flag and may lose errno long before exit: the flag is the
     * evidence, and fflush gives the reason when the failure is still pending. */
    errno = 0;
    bool lost = fflush(stdout) != 0;
    int e = errno;
    if (!lost && !ferror(stdout))
        return 0;
    snprintf(err, errlen, "standard output: cannot write: %s",
             e ? strerror(e) : "a write failed, the output is incomplete");
    return -1;
}
