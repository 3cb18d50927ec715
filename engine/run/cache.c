#include "cache.h"

#include "../base/infile.h"
#include "../lua/analytics.h"
#include "../lua/simulation.h"
#include "../model/platform.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef SITU_VERSION
#define SITU_VERSION "dev"
#endif

/* ---- the input files ---------------------------------------------------------------------- */

/* The file a file parameter's value stands for, as the run opens it: the path as given, but an
 * analytics is often a name ("scatter") for a file in the data directories. */
static void input_path(int id, const char *value, char *path, size_t len)
{
    char err[512];
    if (id == P_ANALYTICS && analytics_resolve(value, path, len, err, sizeof err) == 0)
        return;
    if (id == P_SIMULATION && simulation_resolve(value, path, len, err, sizeof err) == 0)
        return;
    snprintf(path, len, "%s", value);
}

/* Its content and its identity, through one descriptor: what was read is what was stamped. */
static void input_read(const char *path, struct cache_input *in)
{
    /* What is no regular file (a FIFO would block here) is "missing": its reader refuses it. */
    char err[INFILE_ERR_MAX];
    FILE *f = infile_open(path, "input", 0, err, sizeof err);
    struct stat st;
    in->stamp = 0;
    in->hash = CACHE_FNV_SEED;
    if (f && fstat(fileno(f), &st) == 0) {
        in->stamp = cache_stat_stamp(&st);
    }
    char buf[16384];
    size_t n;
    while (f && (n = fread(buf, 1, sizeof buf, f)) > 0)
        in->hash = cache_fnv1a(in->hash, buf, n);
    if (!f || ferror(f))
        in->hash = cache_fnv1a(CACHE_FNV_SEED, "missing", 7);
    if (f)
        fclose(f);
}

/* Calls fn for each input file of p: the one loop over the parameter table, then the files the
 * platform names (platform_each_file: SimGrid reads them too), under the platform's id. */
struct named {
    int (*fn)(int id, const char *path, void *ud);
    void *ud;
};

static int each_named(const struct platform_file *f, void *ud)
{
    const struct named *n = ud;
    return n->fn(P_PLATFORM, f->path, n->ud);
}

static int each_input(const struct params *p, int (*fn)(int id, const char *path, void *ud),
                      void *ud)
{
    for (int id = 0; id < PARAM_COUNT; id++) {
        const struct param_desc *d = &param_table[id];
        const char *value = (const char *)p + d->offset;
        if (d->type != PARAM_PATH || params_is_name(id) || !value[0])
            continue;
        char path[PATH_MAX];
        input_path(id, value, path, sizeof path);
        int rc = fn(id, path, ud);
        if (rc)
            return rc;
    }
    struct named n = {fn, ud};
    return p->platform[0] ? platform_each_file(p->platform, each_named, &n, NULL) : 0;
}

bool cache_inputs_same_paths(const struct params *a, const struct params *b)
{
    for (int id = 0; id < PARAM_COUNT; id++) {
        const struct param_desc *d = &param_table[id];
        if (d->type == PARAM_PATH && !params_is_name(id) &&
            strcmp((const char *)a + d->offset, (const char *)b + d->offset))
            return false;
    }
    return true;
}

/* Past CACHE_INPUTS_MAX files (a platform with a trace per host), the rest share the last slot:
 * their hashes and stamps folded into it, in order. */
static void fold(struct cache_input *into, const struct cache_input *more)
{
    into->hash = cache_fnv1a(into->hash, &more->hash, sizeof more->hash);
    into->stamp = cache_fnv1a(into->stamp, &more->stamp, sizeof more->stamp);
}

static int take_one(int id, const char *path, void *ud)
{
    struct cache_inputs *in = ud;
    struct cache_input one = {.id = id};
    input_read(path, &one);
    if (in->n < CACHE_INPUTS_MAX)
        in->in[in->n++] = one;
    else
        fold(&in->in[CACHE_INPUTS_MAX - 1], &one);
    in->files++;
    return 0;
}

void cache_inputs_take(const struct params *p, struct cache_inputs *in)
{
    memset(in, 0, sizeof *in);
    each_input(p, take_one, in);
}

uint64_t cache_inputs_digest(const struct cache_inputs *in)
{
    uint64_t h = CACHE_FNV_SEED;
    for (int i = 0; i < in->n; i++) {
        h = cache_fnv1a(h, &in->in[i].id, sizeof in->in[i].id);
        h = cache_fnv1a(h, &in->in[i].hash, sizeof in->in[i].hash);
    }
    return cache_fnv1a(h, &in->files, sizeof in->files);
}

/* The path of input file k (in each_input's order). */
struct nth {
    int k, i;
    char path[PATH_MAX];
};

static int nth_one(int id, const char *path, void *ud)
{
    struct nth *c = ud;
    (void)id;
    if (c->i++ < c->k)
        return 0;
    snprintf(c->path, sizeof c->path, "%s", path);
    return 1;
}

/* Files already said to have changed, so that a sweep says it once. */
static char said[8][PATH_MAX];
static int nsaid;

int cache_inputs_same(const struct params *p, const struct cache_inputs *in, char *changed,
                      size_t len)
{
    struct cache_inputs now;
    if (changed && len)
        changed[0] = 0;
    cache_inputs_take(p, &now);
    int k = 0;
    while (k < in->n && k < now.n && in->in[k].id == now.in[k].id &&
           in->in[k].hash == now.in[k].hash && in->in[k].stamp == now.in[k].stamp)
        k++;
    if (k == in->n && k == now.n && in->files == now.files)
        return 0;
    /* The first file that differs; in the folded slot, any of those past it. */
    struct nth c = {.k = k};
    if (k == CACHE_INPUTS_MAX - 1 && (in->files > CACHE_INPUTS_MAX || now.files > CACHE_INPUTS_MAX))
        snprintf(c.path, sizeof c.path, "a file %s names", p->platform);
    else if (each_input(p, nth_one, &c) != 1)
        snprintf(c.path, sizeof c.path, "a file %s names", p->platform); /* one fewer now */
    if (changed)
        snprintf(changed, len, "%s", c.path);
    for (int i = 0; i < nsaid; i++)
        if (!strcmp(said[i], c.path))
            return -1;
    if (nsaid < (int)(sizeof said / sizeof said[0]))
        snprintf(said[nsaid++], PATH_MAX, "%s", c.path);
    fprintf(stderr, "situ: %s changed during the run: result not cached\n", c.path);
    return -1;
}

/* ---- entries ------------------------------------------------------------------------------ */

/* The canonical text of a configuration plus what its inputs contained before the run. */
static uint64_t entry_key(const struct params *p, const struct cache_inputs *in, char *canon,
                          size_t len)
{
    params_canonical(p, canon, len);
    uint64_t h = cache_fnv1a(CACHE_FNV_SEED, SITU_VERSION, strlen(SITU_VERSION));
    h = cache_fnv1a(h, canon, strlen(canon));
    uint64_t inputs = cache_inputs_digest(in);
    return cache_fnv1a(h, &inputs, sizeof inputs);
}

static void entry_path(const char *dir, uint64_t key, char *out, size_t len)
{
    snprintf(out, len, "%s/%016llx.json", dir, (unsigned long long)key);
}

int cache_get(const char *dir, const struct params *p, const struct cache_inputs *in, char **json)
{
    char canon[PARAMS_CANONICAL_MAX], path[PARAMS_PATH_MAX + 64];
    *json = NULL;
    entry_path(dir, entry_key(p, in, canon, sizeof canon), path, sizeof path);
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

int cache_put(const char *dir, const struct params *p, const struct cache_inputs *in,
              const char *json, char *changed, size_t len)
{
    char canon[PARAMS_CANONICAL_MAX], path[PARAMS_PATH_MAX + 64], tmp[PARAMS_PATH_MAX + 96];
    if (cache_inputs_same(p, in, changed, len) < 0)
        return CACHE_CHANGED;
    if (!cache_dir_usable(dir))
        return -1;
    json_error_t jerr;
    json_t *result = json_loads(json, 0, &jerr);
    if (!result)
        return -1;
    if (cache_mkdir_p(dir) < 0) {
        char why[PARAMS_PATH_MAX + 64];
        snprintf(why, sizeof why, "cannot create %s: %s", dir, strerror(errno));
        cache_dir_unusable(dir, why);
        cache_dir_say();
        json_decref(result);
        return -1;
    }
    entry_path(dir, entry_key(p, in, canon, sizeof canon), path, sizeof path);
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
    json_t *entry = json_pack("{s:s,s:o}", "config_key", canon, "result", result);
    errno = 0;
    int rc = entry && json_dump_file(entry, tmp, JSON_COMPACT | JSON_REAL_PRECISION(12)) == 0 &&
                     rename(tmp, path) == 0
                 ? 0
                 : -1;
    if (rc < 0) {
        char why[2 * PARAMS_PATH_MAX + 64];
        snprintf(why, sizeof why, "cannot write %s: %s", path,
                 errno ? strerror(errno) : "out of memory");
        unlink(tmp);
        cache_dir_unusable(dir, why);
        cache_dir_say();
    }
    json_decref(entry);
    return rc;
}
