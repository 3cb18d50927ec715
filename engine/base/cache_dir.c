#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700 /* nftw */
#endif
#include "cache_dir.h"

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"

#define UNUSABLE_MAX 8 /* directories a process finds unusable: the default, --cache's, ours */

/* One lock for all of it: the explorer reads platforms on its thread pool. */
static struct {
    pthread_mutex_t lock;
    char unusable[UNUSABLE_MAX][PATH_MAX];
    int nunusable;
    char told[UNUSABLE_MAX][PATH_MAX + 64]; /* what cache_dir_say has yet to say */
    int ntold;
    char priv[PATH_MAX]; /* the private directory, "" until made or adopted */
    pid_t owner;         /* the process that made it and removes it; 0: adopted */
    bool closed;         /* removed at exit: nothing is made again */
} st = {.lock = PTHREAD_MUTEX_INITIALIZER};

int cache_default_dir(char *out, size_t len)
{
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (xdg && *xdg)
        snprintf(out, len, "%s/situ", xdg);
    else if (home && *home)
        snprintf(out, len, "%s/.cache/situ", home);
    else
        return -1;
    return 0;
}

uint64_t cache_stat_stamp(const struct stat *st)
{
    int64_t f[] = {(int64_t)st->st_dev,          (int64_t)st->st_ino,
                   (int64_t)st->st_size,         (int64_t)st->st_mtim.tv_sec,
                   (int64_t)st->st_mtim.tv_nsec, (int64_t)st->st_ctim.tv_sec,
                   (int64_t)st->st_ctim.tv_nsec};
    return cache_fnv1a(CACHE_FNV_SEED, f, sizeof f);
}

uint64_t cache_fnv1a(uint64_t h, const void *data, size_t len)
{
    const unsigned char *b = data;
    for (size_t i = 0; i < len; i++) {
        h ^= b[i];
        h *= 1099511628211ull;
    }
    return h;
}

int cache_mkdir_p(const char *dir)
{
    char tmp[PATH_MAX];
    if ((size_t)snprintf(tmp, sizeof tmp, "%s", dir) >= sizeof tmp) {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (char *s = tmp + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = 0;
        if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
            return -1;
        *s = '/';
    }
    return mkdir(tmp, 0755) < 0 && errno != EEXIST ? -1 : 0;
}

static bool usable_locked(const char *dir)
{
    for (int i = 0; i < st.nunusable; i++)
        if (!strcmp(st.unusable[i], dir))
            return false;
    return true;
}

/* Marks dir; true the first time, when the caller says so. */
static bool mark_locked(const char *dir)
{
    if (!usable_locked(dir))
        return false;
    if (st.nunusable < UNUSABLE_MAX)
        snprintf(st.unusable[st.nunusable++], PATH_MAX, "%s", dir);
    return true;
}

static void tell_locked(const char *line)
{
    if (st.ntold < UNUSABLE_MAX)
        snprintf(st.told[st.ntold++], sizeof st.told[0], "%s", line);
}

void cache_dir_unusable(const char *dir, const char *why)
{
    char line[sizeof st.told[0]];
    snprintf(line, sizeof line, "cache directory %s unusable (%s): nothing is cached", dir, why);
    pthread_mutex_lock(&st.lock);
    if (mark_locked(dir))
        tell_locked(line);
    pthread_mutex_unlock(&st.lock);
}

void cache_dir_say(void)
{
    char lines[UNUSABLE_MAX][PATH_MAX + 64];
    pthread_mutex_lock(&st.lock);
    int n = st.ntold;
    memcpy(lines, st.told, sizeof lines[0] * (size_t)n);
    st.ntold = 0;
    pthread_mutex_unlock(&st.lock);
    for (int i = 0; i < n; i++)
        fprintf(stderr, "situ: %s\n", lines[i]);
}

bool cache_dir_usable(const char *dir)
{
    pthread_mutex_lock(&st.lock);
    bool ok = usable_locked(dir);
    pthread_mutex_unlock(&st.lock);
    return ok;
}

static int remove_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

/* Only the process that made it removes it: a forked child inherits this handler too. */
void cache_dir_cleanup(void)
{
    pthread_mutex_lock(&st.lock);
    st.closed = true;
    if (st.priv[0] && st.owner == getpid()) {
        nftw(st.priv, remove_one, 16, FTW_DEPTH | FTW_PHYS);
        st.priv[0] = 0;
    }
    pthread_mutex_unlock(&st.lock);
}

/* The private directory of the process that exec'd us (never ours to remove). */
static bool adopt_locked(void)
{
    const char *env = getenv(CACHE_PRIVATE_ENV);
    struct stat sb;
    if (!env || !*env || strlen(env) >= PATH_MAX || stat(env, &sb) < 0 || !S_ISDIR(sb.st_mode))
        return false;
    snprintf(st.priv, sizeof st.priv, "%s", env);
    st.owner = 0;
    return true;
}

static const char *make_private_locked(void)
{
    const char *tmpdir = getenv("TMPDIR"), *bases[] = {tmpdir && *tmpdir ? tmpdir : "/tmp", "/tmp"};
    for (int i = 0; i < 2 && !st.closed; i++) {
        char dir[PATH_MAX];
        if ((size_t)snprintf(dir, sizeof dir, "%s/situ-cache-XXXXXX", bases[i]) >= sizeof dir ||
            !mkdtemp(dir))
            continue;
        snprintf(st.priv, sizeof st.priv, "%s", dir);
        st.owner = getpid();
        static bool registered;
        if (!registered)
            registered = atexit(cache_dir_cleanup) == 0;
        /* The explorer's children are exec'd: they find it here. This process's only setenv,
         * so a thread reading the environment meanwhile never sees its array freed. */
        setenv(CACHE_PRIVATE_ENV, dir, 1);
        return st.priv;
    }
    return NULL;
}

/* The directory names go in, or NULL; *none when there is no default directory at all. */
static const char *root_locked(char *def, size_t len, bool *none)
{
    *none = false;
    if (st.priv[0] || adopt_locked())
        return usable_locked(st.priv) ? st.priv : NULL;
    if (cache_default_dir(def, len) == 0 && usable_locked(def))
        return def;
    *none = !def[0];
    return make_private_locked();
}

int cache_file_path(const char *name, char *out, size_t len)
{
    char def[PATH_MAX] = "";
    bool none;
    static bool told;
    pthread_mutex_lock(&st.lock);
    const char *root = root_locked(def, sizeof def, &none);
    int n = root ? snprintf(out, len, "%s/%s", root, name) : -1;
    if (none && root && !told)
        tell_locked("no cache directory (neither XDG_CACHE_HOME nor HOME is set): nothing is "
                    "cached");
    told = told || (none && root);
    pthread_mutex_unlock(&st.lock);
    return n >= 0 && (size_t)n < len ? 0 : -1;
}

/* One attempt; -1 with why. */
static int write_in(const char *path, const void *data, size_t len, char *why, size_t whylen)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = 0;
    if (slash && cache_mkdir_p(dir) < 0) {
        snprintf(why, whylen, "cannot create %s: %s", dir, strerror(errno));
        return -1;
    }
    struct outfile o;
    char err[OUTFILE_ERR_MAX];
    /* A failed write is kept in o and reported by the commit, which removes the temporary. */
    if (outfile_open(&o, path, err, sizeof err) < 0 ||
        (outfile_write(&o, data, len), outfile_commit(&o, err, sizeof err)) < 0) {
        snprintf(why, whylen, "%s", err);
        return -1;
    }
    return 0;
}

int cache_file_write(const char *name, const void *data, size_t len)
{
    for (int attempt = 0; attempt < 2; attempt++) {
        char path[PATH_MAX], why[OUTFILE_ERR_MAX + 64];
        if (cache_file_path(name, path, sizeof path) < 0)
            return -1;
        if (write_in(path, data, len, why, sizeof why) == 0)
            return 0;
        /* The directory is the path without name: the root the entry went in. */
        size_t root = strlen(path) - strlen(name) - 1;
        path[root] = 0;
        cache_dir_unusable(path, why);
    }
    return -1;
}
