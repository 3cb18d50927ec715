/* Getting a platform's digest: from the cache ($XDG_CACHE_HOME/situ/platforms/KEY.json, KEY a hash
 * of the file's contents, the digest format and the SimGrid library's version), or from a child
 * process that loads the file with SimGrid (digest.c). Fork without exec, as the simulations do:
 * SimGrid is initialised in the child only, and dies with it. */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <libxml/xmlreader.h>
#include <poll.h>
#include <signal.h>
#include <simgrid/config.h> /* before version.h, which needs its macros */
#include <simgrid/version.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../base/cache_dir.h"
#include "digest.h"
#include "layout.h"
#include "model.h"
#include "platform.h"

/* SimGrid's reason, from the child's stderr: its last line that says something (not "Exiting
 * now.", not a backtrace's), without SimGrid's "[clock] file:line: [category/LEVEL] " prefix. */
static void simgrid_reason(const char *text, char *out, size_t len)
{
    out[0] = 0;
    for (const char *end = text ? text + strlen(text) : NULL; end && end > text;) {
        while (end > text && (end[-1] == '\n' || end[-1] == ' '))
            end--;
        const char *start = end;
        while (start > text && start[-1] != '\n')
            start--;
        const char *tag = strstr(start, "/ERROR] "), *msg = start;
        if (!tag || tag > end)
            tag = strstr(start, "/CRITICAL] ");
        if (tag && tag < end)
            msg = strstr(tag, "] ") + 2;
        while (msg < end && *msg == ' ')
            msg++;
        if (end > msg && strncmp(msg, "Exiting now.", 12) && strncmp(msg, "->", 2) &&
            !strstr(msg, "acktrace")) {
            snprintf(out, len, "%.*s", (int)(end - msg), msg);
            return;
        }
        end = start;
    }
}

/* Runs digest_print in a child; *out gets its stdout (malloc'd). -1 with err naming the file and
 * SimGrid's reason (its last error line). */
static int digest_child(const char *path, const long *pairs, long npairs, bool routes_only,
                        struct platform_text *out, char *err, size_t errlen)
{
    int po[2], pe[2];
    if (pipe(po) < 0 || pipe(pe) < 0) {
        snprintf(err, errlen, "%s: cannot start SimGrid: %s", path, strerror(errno));
        return -1;
    }
    fflush(stdout);
    fflush(stderr);
    pid_t parent = getpid(), pid = fork();
    if (pid == 0) {
        if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
            _exit(3);
        dup2(po[1], STDOUT_FILENO);
        dup2(pe[1], STDERR_FILENO);
        close(po[0]), close(po[1]), close(pe[0]), close(pe[1]);
        int rc = digest_print(path, pairs, npairs, routes_only);
        fflush(stdout);
        _exit(rc);
    }
    close(po[1]);
    close(pe[1]);
    struct platform_text msg = {0};
    *out = (struct platform_text){0};
    bool ok = pid > 0, too_long = false;
    struct timespec t0, now;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int open_fds = 2; ok && open_fds > 0;) {
        struct pollfd fds[2] = {{po[0], POLLIN, 0}, {pe[0], POLLIN, 0}};
        if (poll(fds, 2, 200) < 0 && errno != EINTR)
            break;
        clock_gettime(CLOCK_MONOTONIC, &now);
        /* SimGrid builds every host of a huge platform before anything can be said of it. */
        if (now.tv_sec - t0.tv_sec > DIGEST_SECONDS_MAX || out->len > DIGEST_BYTES_MAX) {
            too_long = true;
            ok = false;
            break;
        }
        for (int i = 0; i < 2; i++) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            int r = platform_text_read(i ? &msg : out, fds[i].fd);
            if (r <= 0) {
                close(i ? pe[0] : po[0]);
                *(i ? &pe[0] : &po[0]) = -1;
                open_fds--;
                ok = r == 0;
            }
        }
    }
    if (po[0] >= 0)
        close(po[0]);
    if (pe[0] >= 0)
        close(pe[0]);
    int status = 0;
    if (pid > 0) {
        if (!ok)
            kill(pid, SIGKILL);
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
            ;
    }
    char reason[384];
    simgrid_reason(msg.buf, reason, sizeof reason);
    free(msg.buf);
    if (ok && WIFEXITED(status) && WEXITSTATUS(status) == 0 && out->len > 0)
        return 0;
    if (pid < 0)
        snprintf(err, errlen, "%s: cannot start SimGrid: %s", path, strerror(errno));
    else if (too_long)
        snprintf(err, errlen,
                 "%s: too large: SimGrid took over %d s or %d MiB to describe it (Situ takes up "
                 "to %d hosts)",
                 path, DIGEST_SECONDS_MAX, DIGEST_BYTES_MAX >> 20, PLATFORM_MAX_HOSTS);
    else if (WIFSIGNALED(status) && WTERMSIG(status) != SIGABRT) /* SimGrid's errors abort */
        snprintf(err, errlen, "%s: SimGrid crashed reading it (%s)", path,
                 strsignal(WTERMSIG(status)));
    else
        snprintf(err, errlen, "%s: %s", path, reason[0] ? reason : "SimGrid could not read it");
    free(out->buf);
    *out = (struct platform_text){0};
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

/* The cache key of a platform file: -1 with err when it cannot be read. */
static int file_key(const char *path, uint64_t *key, char *err, size_t errlen)
{
    struct platform_text file;
    if (platform_read_text(path, &file, err, errlen) < 0)
        return -1;
    int v[4] = {DIGEST_FORMAT};
    sg_version_get(&v[1], &v[2], &v[3]);
    *key = cache_fnv1a(CACHE_FNV_SEED, v, sizeof v);
    *key = cache_fnv1a(*key, file.buf ? file.buf : "", file.len);
    free(file.buf);
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
    xmlTextReaderPtr r =
        xmlReaderForFile(path, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    bool found = false;
    while (r && !found && xmlTextReaderRead(r) == 1)
        found = xmlTextReaderNodeType(r) == XML_READER_TYPE_ELEMENT &&
                !xmlStrcmp(xmlTextReaderConstLocalName(r), (const xmlChar *)"config");
    xmlFreeTextReader(r);
    return found;
}

int platform_load(const char *path, struct platform *pf, char *err, size_t errlen)
{
    struct platform_text digest;
    uint64_t key;
    memset(pf, 0, sizeof *pf);
    if (file_key(path, &key, err, errlen) < 0)
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
    if (digest_child(path, NULL, 0, false, &digest, err, errlen) < 0)
        return -1;
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
        if (rc == 0)
            cache_add_routes(pf, routes.buf, routes.len);
        free(routes.buf);
    }
    free(missing);
    return rc;
}

int platform_need_layout_routes(struct platform *pf, const struct layout *l, char *err,
                                size_t errlen)
{
    int *pairs;
    long n = model_route_pairs(l, &pairs);
    if (n < 0) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int rc = platform_need_routes(pf, pairs, n, err, errlen);
    free(pairs);
    return rc;
}

bool platform_layout_routes_missing(const struct platform *pf, const struct layout *l)
{
    int *pairs, n;
    long count = model_route_pairs(l, &pairs);
    bool missing = count < 0;
    for (long k = 0; !missing && k < count; k++)
        missing = !platform_route(pf, pairs[2 * k], pairs[2 * k + 1], &n);
    free(count < 0 ? NULL : pairs);
    return missing;
}
