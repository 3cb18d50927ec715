/* Getting a platform's digest: from the cache ($XDG_CACHE_HOME/situ/platforms/KEY.json, KEY a hash
 * of the file's contents, the digest format and the SimGrid version the helper was built with), or
 * from a child process that loads the file with SimGrid: the simulation helper exec'd as
 * `situ-sim __digest` (engine/sim/sim_digest.c). SimGrid is loaded in the helper only: the front
 * end links none of it. */
#define _GNU_SOURCE /* pipe2, memfd_create */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../base/cache_dir.h"
#include "../base/child.h"
#include "../base/datadir.h"
#include "../base/infile.h"
#include "digest.h" /* the digest's limits and format */
#include "layout.h"
#include "model.h"
#include "platform.h"
#include "platform_xml.h"

static char digest_program[4096]; /* "": the simulation helper */

void platform_set_digest_program(const char *path)
{
    snprintf(digest_program, sizeof digest_program, "%s", path ? path : "");
}

/* The host pairs a routes-only child reads on its stdin ("A B" lines), in a memory file: it
 * reads them all before it writes anything, and a file cannot fill up as a pipe would. */
static int pairs_file(const long *pairs, long npairs)
{
    int fd = memfd_create("situ-digest-pairs", MFD_CLOEXEC);
    FILE *f = fd >= 0 ? fdopen(dup(fd), "w") : NULL;
    bool ok = f != NULL;
    for (long k = 0; ok && k < npairs; k++)
        ok = fprintf(f, "%ld %ld\n", pairs[2 * k], pairs[2 * k + 1]) > 0;
    ok = f && fclose(f) == 0 && ok && lseek(fd, 0, SEEK_SET) == 0;
    if (!ok && fd >= 0)
        close(fd);
    return ok ? fd : -1;
}

/* Runs `situ-sim __digest PATH [--routes]` (sim_digest.c); *out gets its stdout (malloc'd). -1 with
 * err naming the file and SimGrid's reason. A child like any other (engine/base/child.h): an
 * exec, its own group, death with this process, killed group and all past DIGEST_SECONDS_MAX or
 * DIGEST_BYTES_MAX. */
static int digest_child(const char *path, const long *pairs, long npairs, bool routes_only,
                        struct platform_text *out, char *err, size_t errlen)
{
    char self[sizeof digest_program];
    if (digest_program[0])
        memcpy(self, digest_program, sizeof self);
    else if (datadir_helper(self, sizeof self, err, errlen) < 0)
        return -1;
    char *argv[] = {self, "__digest", (char *)path, routes_only ? "--routes" : NULL, NULL};
    *out = (struct platform_text){0};
    int in = routes_only ? pairs_file(pairs, npairs) : CHILD_NULL;
    struct child c;
    char why[512];
    struct child_spec spec = {.argv = argv, .in = in, .out = CHILD_PIPE, .err = CHILD_PIPE};
    int started = in == -1 && routes_only ? -1 : child_start(&c, &spec, why, sizeof why);
    if (in >= 0)
        close(in);
    if (started < 0) {
        snprintf(err, errlen, "%s: cannot start SimGrid (%s): %s", path, self,
                 routes_only && in < 0 ? strerror(errno) : why);
        return -1;
    }
    struct child_wait w = {.limit = DIGEST_SECONDS_MAX, .out_max = DIGEST_BYTES_MAX};
    child_wait(&c, &w);
    char reason[384];
    child_reason(&w.err, reason, sizeof reason);
    if (!w.timed_out && !w.overflow && WIFEXITED(w.status) && WEXITSTATUS(w.status) == 0 &&
        w.out_len > 0) {
        *out = (struct platform_text){.buf = w.out, .len = w.out_len, .cap = w.out_len + 1};
        return 0;
    }
    free(w.out);
    if (w.timed_out || w.overflow) /* SimGrid builds every host before it can say anything */
        snprintf(err, errlen,
                 "%s: too large: SimGrid took over %d s or %d MiB to describe it (Situ takes up "
                 "to %d hosts)",
                 path, DIGEST_SECONDS_MAX, DIGEST_BYTES_MAX >> 20, PLATFORM_MAX_HOSTS);
    else if (WIFSIGNALED(w.status) && WTERMSIG(w.status) != SIGABRT) /* SimGrid's errors abort */
        snprintf(err, errlen, "%s: SimGrid crashed reading it (%s)", path,
                 strsignal(WTERMSIG(w.status)));
    else
        snprintf(err, errlen, "%s: %s", path, reason[0] ? reason : "SimGrid could not read it");
    return -1;
}

/* The digest's name in the cache directory (cache_dir.h: the default one, or a private one when
 * that cannot be written). */
static void cache_name(const struct platform *pf, char *out, size_t len)
{
    snprintf(out, len, "platforms/%016llx.json", (unsigned long long)pf->key);
}

static int cache_file(const struct platform *pf, char *out, size_t len)
{
    char name[64];
    cache_name(pf, name, sizeof name);
    return cache_file_path(name, out, len);
}

/* Writes the digest text to the cache. A simulation child reads it back from there, so a cache
 * directory that cannot be written gives way to a private one (cache_file_write). */
static void cache_store(const struct platform *pf, const char *text, size_t len)
{
    char name[64];
    cache_name(pf, name, sizeof name);
    cache_file_write(name, text, len);
}

/* A named file's name and content into the key ("missing" when it cannot be read). */
static int key_named(const struct platform_file *f, void *ud)
{
    uint64_t *key = ud;
    char buf[16384];
    *key = cache_fnv1a(*key, f->path, strlen(f->path) + 1);
    char err[INFILE_ERR_MAX]; /* said by the up-front check (platform_files_check) */
    FILE *in = infile_open(f->path, f->attr, 0, err, sizeof err);
    size_t n = 0;
    while (in && (n = fread(buf, 1, sizeof buf, in)) > 0)
        *key = cache_fnv1a(*key, buf, n);
    if (!in || ferror(in))
        *key = cache_fnv1a(*key, "missing", 7);
    if (in)
        fclose(in);
    return 0;
}

/* The cache key of a platform file and of the files it names (SimGrid reads a profile's first
 * value into the digest: a link's bandwidth_file sets its bandwidth): -1 with err when the
 * platform cannot be read. */
static int file_key(const char *path, uint64_t *key, char *err, size_t errlen)
{
    struct platform_text file;
    if (platform_read_text(path, &file, err, errlen) < 0)
        return -1;
    int format = DIGEST_FORMAT;
    *key = cache_fnv1a(CACHE_FNV_SEED, &format, sizeof format);
    *key = cache_fnv1a(*key, SITU_SIMGRID_VERSION, sizeof SITU_SIMGRID_VERSION);
    *key = cache_fnv1a(*key, file.buf ? file.buf : "", file.len);
    free(file.buf);
    platform_each_file(path, key_named, key, NULL);
    return 0;
}

bool platform_cached(const char *path)
{
    char why[256], cached[4200];
    struct platform probe = {0};
    return file_key(path, &probe.key, why, sizeof why) == 0 &&
           cache_file(&probe, cached, sizeof cached) == 0 && access(cached, F_OK) == 0;
}

/* What the digest cannot tell: a <config> element would set SimGrid's models (network/model,
 * factors) for the simulation, while Situ sets them itself and its model assumes LV08. A
 * streaming read, without the network or entity substitution. */
static bool sets_simgrid_config(const char *path)
{
    static const char *const config[] = {"config", NULL};
    if (!platform_xml_may_name(path, config))
        return false;
    char why[256];
    const struct platform_xml *x = platform_xml(why, sizeof why);
    xmlTextReaderPtr r = x ? platform_xml_open(x, path) : NULL;
    bool found = false;
    while (r && !found && x->read(r) == 1)
        found = x->node_type(r) == XML_READER_TYPE_ELEMENT &&
                !strcmp((const char *)x->local_name(r), "config");
    if (r)
        x->free_reader(r);
    return found;
}

int platform_load(const char *path, struct platform *pf, char *err, size_t errlen)
{
    struct platform_text digest;
    uint64_t key;
    bool traced;
    memset(pf, 0, sizeof *pf);
    if (file_key(path, &key, err, errlen) < 0)
        return -1;
    /* A file it names that SimGrid could not read: said up front, cached digest or not. */
    if (platform_files_check(path, &traced, err, errlen) < 0)
        return -1;
    /* Cached or not: a digest is the same with or without it. */
    if (sets_simgrid_config(path)) {
        snprintf(err, errlen,
                 "%s: a <config> element would set SimGrid's models, which Situ sets itself (its "
                 "model assumes SimGrid's defaults): remove it",
                 path);
        return -1;
    }

    char cached[4200], why[256];
    struct platform probe = {.key = key};
    if (cache_file(&probe, cached, sizeof cached) == 0 && access(cached, F_OK) == 0) {
        if (platform_read_digest(cached, pf, why, sizeof why) == 0)
            goto loaded;
        unlink(cached); /* corrupt: made again below */
    }
    /* SimGrid reads the file by its path after we hashed it: its digest is kept only if the file
     * kept its identity (inode, size, times) from before the hash to after the digest, so that
     * the bytes hashed are the bytes SimGrid read; else the cache would hold one version's digest
     * under another's key (an editor saving as we read: even A, B, then A again). */
    for (int tries = 1;; tries++) {
        struct stat before, after;
        if (stat(path, &before) < 0) {
            snprintf(err, errlen, "%s: %s", path, strerror(errno));
            return -1;
        }
        uint64_t again;
        if (file_key(path, &key, err, errlen) < 0 ||
            digest_child(path, NULL, 0, false, &digest, err, errlen) < 0)
            return -1;
        /* The files it names too: their content is checked again, as what SimGrid read. */
        if (stat(path, &after) == 0 && cache_stat_stamp(&before) == cache_stat_stamp(&after) &&
            file_key(path, &again, err, errlen) == 0 && again == key)
            break;
        free(digest.buf);
        if (tries == 3) {
            snprintf(err, errlen,
                     "%s: changed while SimGrid read it, %d times: read it again once it is saved",
                     path, tries);
            return -1;
        }
    }
    if (platform_parse_digest(digest.buf, digest.len, pf, why, sizeof why) < 0) {
        snprintf(err, errlen, "%s: %s", path, why);
        free(digest.buf);
        return -1;
    }
    pf->key = key;
    cache_store(pf, digest.buf, digest.len);
    free(digest.buf);
loaded:
    pf->key = key;
    pf->traced = traced;
    snprintf(pf->path, sizeof pf->path, "%s", path);
    return 0;
}

static int pair_order(const void *x, const void *y)
{
    const long *a = x, *b = y;
    return a[0] != b[0] ? (a[0] > b[0]) - (a[0] < b[0]) : (a[1] > b[1]) - (a[1] < b[1]);
}

/* Adds the new routes to the cached digest, so the next load knows them too. */
static void cache_add_routes(const struct platform *pf, const char *routes_json, size_t len)
{
    char file[4200], why[256];
    struct platform_text old;
    if (cache_file(pf, file, sizeof file) < 0 ||
        platform_read_text(file, &old, why, sizeof why) < 0)
        return;
    json_error_t jerr;
    json_t *doc = json_loadb(old.buf ? old.buf : "", old.len, 0, &jerr);
    json_t *fresh = json_loadb(routes_json, len, 0, &jerr);
    free(old.buf);
    json_t *routes = json_object_get(doc, "routes");
    if (json_is_array(routes) && json_is_array(json_object_get(fresh, "routes"))) {
        json_array_extend(routes, json_object_get(fresh, "routes"));
        char *text = json_dumps(doc, JSON_COMPACT);
        if (text)
            cache_store(pf, text, strlen(text));
        free(text);
    }
    json_decref(doc);
    json_decref(fresh);
}

int platform_need_routes(struct platform *pf, const int *pairs, long npairs, char *err,
                         size_t errlen)
{
    long *missing = malloc(sizeof(long) * 2 * (size_t)(npairs + 1)), n = 0;
    if (!missing) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (long k = 0; k < npairs; k++) {
        int len;
        if (!platform_route(pf, pairs[2 * k], pairs[2 * k + 1], &len)) {
            missing[2 * n] = pairs[2 * k];
            missing[2 * n + 1] = pairs[2 * k + 1];
            n++;
        }
    }
    qsort(missing, (size_t)n, 2 * sizeof(long), pair_order);
    long u = 0;
    for (long k = 0; k < n; k++)
        if (!u || pair_order(&missing[2 * k], &missing[2 * (u - 1)])) {
            missing[2 * u] = missing[2 * k];
            missing[2 * u + 1] = missing[2 * k + 1];
            u++;
        }
    int rc = 0;
    uint64_t key = pf->key;
    struct platform_text routes;
    /* The routes must be the digest's platform's: a file edited since is read again first. */
    if (u > 0 && (file_key(pf->path, &key, err, errlen) < 0 || key != pf->key)) {
        if (key != pf->key)
            snprintf(err, errlen, "%s: changed since it was read; load it again", pf->path);
        rc = -1;
    } else if (u > 0 &&
               (rc = digest_child(pf->path, missing, u, true, &routes, err, errlen)) == 0) {
        rc = platform_add_routes(pf, routes.buf, routes.len, err, errlen);
        /* As for the digest: cached only when they are still the digest's file's. */
        if (rc == 0 && file_key(pf->path, &key, err, errlen) == 0 && key == pf->key)
            cache_add_routes(pf, routes.buf, routes.len);
        free(routes.buf);
    }
    free(missing);
    return rc;
}

/* model_route_pairs' n pairs and, on a platform with disks, both ways between every host the
 * layout uses and every file server (model_file.c reads them): -1 when out of memory (*pairs
 * freed). */
static long with_servers(const struct platform *pf, const struct layout *l, int **pairs, long n)
{
    if (n < 0 || pf->ndisks < 1)
        return n;
    int *grown = realloc(*pairs, sizeof(int) * 2 * ((size_t)n + 2 * (size_t)l->hosts * pf->ndisks));
    if (!grown) {
        free(*pairs);
        return -1;
    }
    *pairs = grown;
    for (int h = 0; h < l->hosts; h++)
        for (int s = 0; (l->sim_per_host[h] || l->ana_per_host[h]) && s < pf->ndisks; s++) {
            int srv = pf->disk[s].host;
            grown[2 * n] = h, grown[2 * n + 1] = srv, n++;
            grown[2 * n] = srv, grown[2 * n + 1] = h, n++;
        }
    return n;
}

int platform_need_layout_routes(struct platform *pf, const struct layout *l, char *err,
                                size_t errlen)
{
    int *pairs;
    long n = with_servers(pf, l, &pairs, model_route_pairs(l, &pairs));
    if (n < 0) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int rc = platform_need_routes(pf, pairs, n, err, errlen);
    /* SimGrid gives no links for two hosts that no route joins (an asymmetric route's missing
     * way back); its simulation then stops at the first transfer between them. Said here, once,
     * for the model and every engine alike. */
    for (long k = 0; rc == 0 && k < n; k++) {
        int a = pairs[2 * k], b = pairs[2 * k + 1], links;
        if (a != b && platform_route(pf, a, b, &links) && links == 0) {
            char from[128], to[128];
            platform_host_name(pf, a, from, sizeof from);
            platform_host_name(pf, b, to, sizeof to);
            snprintf(err, errlen,
                     "%s: no route from %s to %s, which the workflow sends between (SimGrid "
                     "would stop at the first transfer): give the platform one",
                     pf->path, from, to);
            rc = -1;
        }
    }
    free(pairs);
    return rc;
}

bool platform_layout_routes_missing(const struct platform *pf, const struct layout *l)
{
    int *pairs, n;
    long count = with_servers(pf, l, &pairs, model_route_pairs(l, &pairs));
    bool missing = count < 0;
    for (long k = 0; !missing && k < count; k++)
        missing = !platform_route(pf, pairs[2 * k], pairs[2 * k + 1], &n);
    free(count < 0 ? NULL : pairs);
    return missing;
}
