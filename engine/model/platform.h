/* What the analytic model needs to know of a SimGrid platform, as SimGrid itself reads it: a
 * child process loads the file with SimGrid's parser and prints a digest (engine/model/digest.c) of
 * its hosts, links, zones and routes, which is cached on disk by the file's contents and the
 * SimGrid version. Model and simulation so agree on the hardware, and nothing here re-implements
 * SimGrid's checks: what SimGrid refuses, its own one-line reason says why. */
#ifndef SITU_PLATFORM_H
#define SITU_PLATFORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Speed of a "reference core" in flop/s: sim_cost and analytics_cost are seconds on such a core. */
#define REFERENCE_SPEED 1e9

#define PLATFORM_MAX_HOSTS 65536      /* in all the clusters of a platform */
#define PLATFORM_MAX_BYTES (64 << 20) /* of a platform file */

struct platform_host {
    char *name;
    double speed; /* flop/s of one core */
    int cores;
};

/* Where a link sits in its topology: "node" (a host to its switch or router), "loopback",
 * "spine" (fat-tree upper levels), "torus", "group" (dragonfly links inside a group), "global"
 * (dragonfly links between groups), "backbone" (a cluster's), "uplink" (the file's own links,
 * between zones). */
struct platform_link {
    char *name;
    double bw, lat; /* B/s, s */
    bool shared;    /* false: a FATPIPE, each flow gets the whole bandwidth */
    char place[12];
};

/* A SimGrid <disk> of a host (the first of each host with disks): a server of the file system
 * that --dtl file and --mapping posthoc write to and read from (model_file.c, sim_file.c). */
struct platform_disk {
    int host;
    double read_bw, write_bw; /* B/s */
};

struct platform_zone {
    char *name;
    int nhosts;
    int *hosts; /* indices, ascending */
};

struct platform_route {
    int a, b;  /* hosts; a < 0: free slot */
    int n;     /* links */
    int first; /* index of the first in platform.route_links */
};

struct platform {
    char path[4096];
    uint64_t key; /* of the file's contents, the digest format and the SimGrid version */
    int hosts;    /* in name order, numbers compared as numbers (dahu-2 before dahu-10) */
    struct platform_host *host;
    int nlinks;
    struct platform_link *link;
    int nzones;
    struct platform_zone *zone;
    /* The routes known so far: open addressing on (a, b). */
    struct platform_route *route;
    int nroutes, route_cap;
    int *route_links;
    long nroute_links, route_links_cap;
    /* The file names a trace (a profile of a host's speed or state, of a link's bandwidth,
     * latency or state, or a <trace>): the hardware changes during the run, which SimGrid plays
     * and the analytic model does not (MODEL_TRACE_WARNING). */
    bool traced;
    /* The hosts with a disk, in host order: the file system's servers (none: no file system). */
    int ndisks;
    struct platform_disk *disk;
};

/* A file a platform names (platform_files.c): path is where SimGrid finds it (relative names in
 * the current directory first, then in the platform's), name as the platform writes it, attr the
 * attribute ("speed_file", a <trace>'s "file"...), owner its element and id ("host node-1"). */
struct platform_file {
    const char *path, *name, *attr, *owner;
};
typedef int (*platform_file_fn)(const struct platform_file *f, void *ud);
/* Calls fn for each file the platform names, in document order, until fn returns non-zero
 * (returned); *traced (if given) says whether the platform has any trace, a file or inline. A
 * file that is not XML names nothing here: SimGrid's reason comes with the digest. -1 if
 * libxml2 cannot be loaded (platform_xml.h). */
int platform_each_file(const char *platform, platform_file_fn fn, void *ud, bool *traced);
/* -1 with "PLATFORM: host node-1's speed_file 'x.trace' cannot be read (PATH: reason)" when a
 * file the platform names cannot be read; *traced as platform_each_file's. */
int platform_files_check(const char *platform, bool *traced, char *err, size_t errlen);

/* Loads the digest of a platform file: from the cache, or made by a SimGrid child (and cached).
 * On error returns -1 with one line naming the file and SimGrid's own reason in err. */
int platform_load(const char *path, struct platform *pf, char *err, size_t errlen);
/* The program platform_load execs as `PROGRAM __digest PLATFORM` (by default the simulation
 * helper, datadir_helper): for a process that is not situ (SMPI's processes under smpimain). Set
 * before any load, from one thread. NULL: the helper again. */
void platform_set_digest_program(const char *path);
void platform_free(struct platform *pf);
/* Whether platform_load would find the file's digest in the cache (and so not start SimGrid). */
bool platform_cached(const char *path);
/* A deep copy, for another thread. -1 when out of memory (dst is then empty). */
int platform_copy(struct platform *dst, const struct platform *src);

/* Reads a digest (JSON, as sim_digest_print writes it) into pf: the fuzzed part. -1 with err. */
int platform_parse_digest(const char *json, size_t len, struct platform *pf, char *err,
                          size_t errlen);

/* A file read whole (at most PLATFORM_MAX_BYTES, a regular file): -1 with "PATH: reason". */
struct platform_text {
    char *buf; /* NUL-terminated; NULL when empty */
    size_t len, cap;
};
int platform_read_text(const char *path, struct platform_text *t, char *err, size_t errlen);
/* Reads what fd has into t (grown as needed): 1 read more, 0 at EOF, -1 on error. */
int platform_text_read(struct platform_text *t, int fd);
/* A digest file (a cache entry, a test's fixture) into pf: -1 with err. */
int platform_read_digest(const char *path, struct platform *pf, char *err, size_t errlen);

/* Adds the routes of a digest (its "routes" array) to pf: -1 with err. */
int platform_add_routes(struct platform *pf, const char *json, size_t len, char *err,
                        size_t errlen);

/* Makes sure the routes of the npairs pairs (pairs[2k], pairs[2k+1]) are known, asking a
 * SimGrid child for the missing ones (and caching them). -1 with err. */
int platform_need_routes(struct platform *pf, const int *pairs, long npairs, char *err,
                         size_t errlen);

/* platform_need_routes for every pair the model reads for layout l (model_route_pairs). */
struct layout;
int platform_need_layout_routes(struct platform *pf, const struct layout *l, char *err,
                                size_t errlen);

/* Whether pf lacks a route the model reads for layout l (platform_need_layout_routes would then
 * start SimGrid). */
bool platform_layout_routes_missing(const struct platform *pf, const struct layout *l);

/* The links of the route from a to b (*n of them), or NULL when the route is not known. */
const int *platform_route(const struct platform *pf, int a, int b, int *n);

/* Whether pf knows the route from every host to every host (itself included), each of at least
 * one link between two hosts: then platform_need_layout_routes has nothing to ask and nothing
 * to refuse, whatever the layout (a digest of at most DIGEST_EAGER_HOSTS hosts, whose routes
 * all join). Looks at every pair: once per platform. */
bool platform_routes_whole(const struct platform *pf);

/* The host's name, "" out of range. */
void platform_host_name(const struct platform *pf, int i, char *buf, size_t len);
/* Index of a host by name (or by its name up to the first '.'), -1 if there is none. */
int platform_host_index(const struct platform *pf, const char *name);
/* The zone (or cluster) called name, or NULL. */
const struct platform_zone *platform_zone(const struct platform *pf, const char *name);
/* The link called name, -1 if none. */
int platform_link_index(const struct platform *pf, const char *name);

/* One line for a header: "64 hosts x 32 cores, 1 Gf/s, 10 Gb/s" (ranges when they differ). */
void platform_summary(const struct platform *pf, char *buf, size_t len);

#endif
