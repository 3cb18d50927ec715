#include "cache.h"

#include "../lua/analytics.h"

#include <errno.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef SITU_VERSION
#define SITU_VERSION "dev"
#endif

static uint64_t hash_file(uint64_t h, const char *path)
{
    if (!path[0])
        return h;
    FILE *f = fopen(path, "rb");
    if (!f)
        return cache_fnv1a(h, "missing", 7);
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        h = cache_fnv1a(h, buf, n);
    fclose(f);
    return h;
}

/* The canonical text of a configuration plus what its inputs contain. */
static uint64_t entry_key(const struct params *p, char *canon, size_t len)
{
    params_canonical(p, canon, len);
    uint64_t h = cache_fnv1a(CACHE_FNV_SEED, SITU_VERSION, strlen(SITU_VERSION));
    h = cache_fnv1a(h, canon, strlen(canon));
    h = hash_file(h, p->platform);
    h = hash_file(h, p->hostfile);
    /* An analytics is often a name ("scatter"): hash the file the name stands for. */
    char path[PARAMS_PATH_MAX], err[512];
    if (p->analytics[0] && analytics_resolve(p->analytics, path, sizeof path, err, sizeof err) == 0)
        return hash_file(h, path);
    return hash_file(h, p->analytics);
}

static void entry_path(const char *dir, uint64_t key, char *out, size_t len)
{
    snprintf(out, len, "%s/%016llx.json", dir, (unsigned long long)key);
}

int cache_get(const char *dir, const struct params *p, char **json)
{
    char canon[PARAMS_CANONICAL_MAX], path[PARAMS_PATH_MAX + 64];
    *json = NULL;
    entry_path(dir, entry_key(p, canon, sizeof canon), path, sizeof path);
    json_error_t jerr;
    json_t *entry = json_load_file(path, 0, &jerr);
    if (!entry) {
        if (access(path, F_OK) == 0)
            unlink(path); /* unreadable: drop it, the run will replace it */
        return -1;
    }
    const char *stored = json_string_value(json_object_get(entry, "config_key"));
    json_t *result = json_object_get(entry, "result");
    int rc = -1;
    /* A result carries at least its makespan; anything else is not one of ours. */
    if (stored && !strcmp(stored, canon) && json_is_object(result) &&
        json_is_number(json_object_get(result, "makespan"))) {
        *json = json_dumps(result, JSON_COMPACT | JSON_REAL_PRECISION(12));
        rc = *json ? 0 : -1;
    } else {
        unlink(path);
    }
    json_decref(entry);
    return rc;
}

int cache_put(const char *dir, const struct params *p, const char *json)
{
    char canon[PARAMS_CANONICAL_MAX], path[PARAMS_PATH_MAX + 64], tmp[PARAMS_PATH_MAX + 96];
    json_error_t jerr;
    json_t *result = json_loads(json, 0, &jerr);
    if (!result || cache_mkdir_p(dir) < 0) {
        json_decref(result);
        return -1;
    }
    entry_path(dir, entry_key(p, canon, sizeof canon), path, sizeof path);
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
    json_t *entry = json_pack("{s:s,s:o}", "config_key", canon, "result", result);
    int rc = entry && json_dump_file(entry, tmp, JSON_COMPACT | JSON_REAL_PRECISION(12)) == 0 &&
                     rename(tmp, path) == 0
                 ? 0
                 : -1;
    if (rc < 0)
        unlink(tmp);
    json_decref(entry);
    return rc;
}
