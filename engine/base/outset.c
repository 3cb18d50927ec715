/* A set of files written whole or not at all (outfile.h: struct outset). The set is written in a
 * temporary directory; the commit moves it into place only once every file is there:
 *  - DIR absent: the temporary directory is made beside it (.NAME.XXXXXX in its parent) and
 *    renamed to DIR, one atomic step;
 *  - DIR present: the temporary directory is made inside it (.situ-set.XXXXXX: the parent of an
 *    existing DIR, $HOME's say, need not be writable), then each file is renamed over its name,
 *    the one it replaces first kept as a hard link beside the set; should a rename fail, the
 *    files already moved are put back (or removed, where none was there), so DIR is as it was.
 * Files of DIR that are not in the set are never touched: a set replaces its own names only. */
#define _GNU_SOURCE /* mkdtemp */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"

/* Removes the temporary directory and what is in it (files only: the set makes no others). */
static void remove_tmp(const char *tmp)
{
    DIR *d = opendir(tmp);
    for (struct dirent *e; d && (e = readdir(d));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        char path[PATH_MAX];
        if (snprintf(path, sizeof path, "%s/%s", tmp, e->d_name) < (int)sizeof path)
            unlink(path);
    }
    if (d)
        closedir(d);
    rmdir(tmp);
}

int outset_open(struct outset *s, const char *dir, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    if (snprintf(s->dir, sizeof s->dir, "%s", dir) >= (int)sizeof s->dir - 32) {
        snprintf(err, errlen, "%.64s...: cannot write: %s", dir, strerror(ENAMETOOLONG));
        return -1;
    }
    for (size_t n = strlen(s->dir); n > 1 && s->dir[n - 1] == '/'; n--)
        s->dir[n - 1] = 0;
    struct stat st;
    s->fresh = stat(s->dir, &st) < 0 && errno == ENOENT;
    int n; /* fits: dir leaves 32 bytes (above), and the compiler is told it is checked */
    if (s->fresh) {
        const char *slash = strrchr(s->dir, '/');
        if (!slash)
            n = snprintf(s->tmp, sizeof s->tmp, ".%s.XXXXXX", s->dir);
        else
            n = snprintf(s->tmp, sizeof s->tmp, "%.*s/.%s.XXXXXX", (int)(slash - s->dir), s->dir,
                         slash + 1);
    } else {
        n = snprintf(s->tmp, sizeof s->tmp, "%s/.situ-set.XXXXXX", s->dir);
    }
    if (n < 0 || (size_t)n >= sizeof s->tmp) {
        snprintf(err, errlen, "%.64s...: cannot write: %s", dir, strerror(ENAMETOOLONG));
        return -1;
    }
    outfile_hold_signals(&s->saved); /* until the set is whole or gone */
    if (!mkdtemp(s->tmp)) {
        snprintf(err, errlen, "%s: cannot write: %s", s->dir, strerror(errno));
        s->tmp[0] = 0;
        pthread_sigmask(SIG_SETMASK, &s->saved, NULL);
        return -1;
    }
    return 0;
}

const char *outset_path(const struct outset *s, const char *name, char *buf, size_t len)
{
    snprintf(buf, len, "%s/%s", s->tmp, name);
    return buf;
}

void outset_abort(struct outset *s)
{
    if (!s->tmp[0])
        return;
    remove_tmp(s->tmp);
    s->tmp[0] = 0;
    pthread_sigmask(SIG_SETMASK, &s->saved, NULL);
}

void outset_fail(struct outset *s, char *err, size_t errlen)
{
    size_t n = strlen(s->tmp);
    char *at = n ? strstr(err, s->tmp) : NULL;
    if (at && at[n] == '/') {
        char rest[OUTFILE_ERR_MAX];
        snprintf(rest, sizeof rest, "%s", at + n);
        snprintf(at, errlen - (size_t)(at - err), "%s%s", s->dir, rest);
    }
    outset_abort(s);
}

/* dir/prefixNAME into buf (PATH_MAX): the set's names are short, a path too long fails. */
static int join(char *buf, const char *dir, const char *prefix, const char *name)
{
    size_t a = strlen(dir), b = strlen(prefix), c = strlen(name);
    if (a + 1 + b + c >= PATH_MAX)
        return -1;
    memcpy(buf, dir, a);
    buf[a] = '/';
    memcpy(buf + a + 1, prefix, b);
    memcpy(buf + a + 1 + b, name, c + 1);
    return 0;
}

#define SET_MAX 64 /* files in one set: a figure's four, advise's five */

/* Moves the set's files into the existing directory: 0, or -1 with DIR as it was. */
static int move_in(struct outset *s, char *err, size_t errlen)
{
    char names[SET_MAX][NAME_MAX + 1];
    bool had[SET_MAX] = {0};
    int n = 0, moved = 0, e = 0;
    const char *what = "";
    DIR *d = opendir(s->tmp);
    for (struct dirent *ent; d && (ent = readdir(d));) {
        if (ent->d_name[0] == '.') /* ., .., and the kept old files (".old.NAME") */
            continue;
        if (n == SET_MAX) {
            e = E2BIG;
            break;
        }
        snprintf(names[n++], sizeof names[0], "%s", ent->d_name);
    }
    if (!d)
        e = errno;
    else
        closedir(d);
    char from[PATH_MAX], to[PATH_MAX], old[PATH_MAX];
    /* The files it replaces, kept first: nothing of DIR moves until all are. */
    for (int i = 0; !e && i < n; i++) {
        struct stat st;
        if (join(to, s->dir, "", names[i]) < 0 || join(old, s->tmp, ".old.", names[i]) < 0)
            e = ENAMETOOLONG, what = s->dir;
        else if (lstat(to, &st) < 0) {
            if (errno != ENOENT)
                e = errno, what = to;
        } else if (S_ISDIR(st.st_mode)) {
            e = EISDIR, what = to;
        } else if (link(to, old) < 0) {
            e = errno, what = to;
        } else {
            had[i] = true;
        }
    }
    for (; !e && moved < n; moved++) {
        errno = 0;
        if (join(from, s->tmp, "", names[moved]) < 0 || join(to, s->dir, "", names[moved]) < 0 ||
            rename(from, to) < 0) {
            e = errno ? errno : ENAMETOOLONG, what = to;
            break;
        }
    }
    if (!e)
        return 0;
    snprintf(err, errlen, "%s: cannot write: %s", what[0] ? what : s->dir, strerror(e));
    for (int i = 0; i < moved; i++) {   /* back as it was */
        join(to, s->dir, "", names[i]); /* both fitted on the way in */
        join(old, s->tmp, ".old.", names[i]);
        if (had[i])
            rename(old, to);
        else
            unlink(to);
    }
    return -1;
}

int outset_commit(struct outset *s, char *err, size_t errlen)
{
    int rc = 0;
    if (s->fresh) {
        /* mkdtemp made it 0700; the directory is as open as any the user creates. */
        mode_t mask = umask(0);
        umask(mask);
        if (chmod(s->tmp, 0777 & ~mask) == 0 && rename(s->tmp, s->dir) == 0) {
            s->tmp[0] = 0;
            pthread_sigmask(SIG_SETMASK, &s->saved, NULL);
            return 0;
        }
        if (errno != EEXIST && errno != ENOTEMPTY) {
            snprintf(err, errlen, "%s: cannot write: %s", s->dir, strerror(errno));
            rc = -1;
        }
        /* Made meanwhile by someone else: moved in file by file, as into any. */
    }
    if (rc == 0)
        rc = move_in(s, err, errlen);
    outset_abort(s); /* the temporary directory goes, the replaced files with it */
    return rc;
}
