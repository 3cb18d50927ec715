#include "datadir.h"

#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef SITU_DATADIR
#define SITU_DATADIR "/usr/local/share/situ"
#endif

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

int datadir_self(char *out, size_t len)
{
    ssize_t n = readlink("/proc/self/exe", out, len - 1);
    if (n <= 0 || (size_t)n >= len - 1) {
        snprintf(out, len, "situ");
        return -1;
    }
    out[n] = 0;
    return 0;
}

/* Candidate roots in order: the binary's own directory (a source-tree build), then the install. */
static int root(int which, char *out, size_t len)
{
    if (which == 0) {
        char exe[PATH_MAX];
        if (datadir_self(exe, sizeof exe) < 0)
            return -1;
        char *slash = strrchr(exe, '/');
        if (!slash)
            return -1;
        *slash = 0;
        snprintf(out, len, "%s", exe);
        return 0;
    }
    if (which == 1) {
        snprintf(out, len, "%s", SITU_DATADIR);
        return 0;
    }
    return -1;
}

int datadir_find(const char *sub, char *out, size_t len)
{
    char base[PATH_MAX], cand[PATH_MAX * 2];
    for (int i = 0; root(i, base, sizeof base) == 0; i++) {
        snprintf(cand, sizeof cand, "%s/%s", base, sub);
        if (exists(cand) && strlen(cand) < len) {
            snprintf(out, len, "%s", cand);
            return 0;
        }
    }
    return -1;
}

static int name_cmp(const void *a, const void *b)
{
    return strcmp(a, b);
}

int datadir_list(const char *sub, const char *suffix, char names[][DATADIR_NAME_MAX], int max)
{
    char dir[PATH_MAX];
    if (datadir_find(sub, dir, sizeof dir) < 0)
        return 0;
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    size_t sl = strlen(suffix);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (e->d_name[0] == '.' || len <= sl || strcmp(e->d_name + len - sl, suffix) ||
            len - sl >= DATADIR_NAME_MAX)
            continue;
        if (n < max)
            snprintf(names[n], DATADIR_NAME_MAX, "%.*s", (int)(len - sl), e->d_name);
        n++;
    }
    closedir(d);
    qsort(names, (size_t)(n < max ? n : max), DATADIR_NAME_MAX, name_cmp);
    return n;
}

int datadir_resolve_lua(const char *kind, const char *sub, const char *name, char *path, size_t len,
                        char *err, size_t errlen)
{
    size_t n = strlen(name);
    if (strchr(name, '/') || (n >= 4 && !strcmp(name + n - 4, ".lua"))) {
        if (datadir_resolve(name, path, len) == 0)
            return 0;
        snprintf(err, errlen, "%s: '%s': no such file", kind, name);
        return -1;
    }
    char rel[PATH_MAX];
    snprintf(rel, sizeof rel, "%.200s/%.512s.lua", sub, name);
    if (datadir_resolve(rel, path, len) == 0)
        return 0;
    char names[32][DATADIR_NAME_MAX], list[32 * (DATADIR_NAME_MAX + 2)] = "";
    int found = datadir_list(sub, ".lua", names, 32);
    for (int i = 0; i < found && i < 32; i++) {
        if (i)
            strcat(list, ", ");
        strcat(list, names[i]);
    }
    if (snprintf(err, errlen, "%s: no %s named '%s' (a .lua file, or one of: %s)", kind, kind, name,
                 found ? list : "none installed") >= (int)errlen)
        err[errlen - 1] = 0;
    return -1;
}

int datadir_helper(char *out, size_t len, char *err, size_t errlen)
{
    char dir[PATH_MAX];
    for (int which = 0; root(which, dir, sizeof dir) == 0; which++) {
        if (snprintf(out, len, "%s/" DATADIR_HELPER, dir) >= (int)len)
            continue;
        if (access(out, X_OK) == 0)
            return 0;
    }
    snprintf(err, errlen,
             "the simulation helper %s is neither beside this program nor in %s: run "
             "'make' (or 'make install')",
             DATADIR_HELPER, SITU_DATADIR);
    return -1;
}

int datadir_resolve(const char *path, char *out, size_t len)
{
    snprintf(out, len, "%s", path);
    if (exists(path) || path[0] == '/')
        return exists(path) ? 0 : -1;
    return datadir_find(path, out, len); /* out keeps the path as given if it is nowhere */
}
