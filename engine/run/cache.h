/* Results on disk, keyed by configuration: a repeated or interrupted study only simulates what is
 * missing. An entry is one file holding the configuration's canonical text and the result's JSON
 * line; the key also covers the contents of the files the result depends on and the Situ
 * version, so editing any of them invalidates the entry.
 *
 * A cache that cannot lie: what those files hold is taken before the run starts (struct
 * cache_inputs, carried with the run) and the result is stored under it only if they still hold
 * it when the run ends. A file edited during a run keeps that run's result out of every cache,
 * and says so once. */
#ifndef SITU_CACHE_H
#define SITU_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../base/cache_dir.h" /* the directory callers pass */
#include "../model/params.h"

/* The input files of a configuration: every parameter that names a file (param_table's
 * PARAM_PATH that is not a name: the platform, the hostfile, the analytics, and whatever file
 * parameter the table gains), at the path the run opens, then every file the platform names
 * (platform_each_file: traces). Past CACHE_INPUTS_MAX files, the rest share the last slot. */
#define CACHE_INPUTS_MAX 16
struct cache_input {
    int id;         /* the parameter (P_PLATFORM for the files it names) */
    uint64_t hash;  /* FNV-1a of the content ("missing" when it cannot be read): in the key */
    uint64_t stamp; /* device, inode, size, mtime, ctime: a rewrite, even of the same bytes */
};
struct cache_inputs {
    int n;     /* slots used */
    int files; /* files read, n or more */
    struct cache_input in[CACHE_INPUTS_MAX];
};

/* Reads every input file of p now. */
void cache_inputs_take(const struct params *p, struct cache_inputs *in);

/* Whether a and b name the same input files (every file-valued parameter alike). */
bool cache_inputs_same_paths(const struct params *a, const struct params *b);

/* The inputs' contents as one number: part of every key (the runner's memory, the disk). */
uint64_t cache_inputs_digest(const struct cache_inputs *in);

/* 0 if every input file is as `in` found it; else -1, after saying once per file and process on
 * stderr "situ: FILE changed during the run: result not cached" (FILE into changed if given). */
int cache_inputs_same(const struct params *p, const struct cache_inputs *in, char *changed,
                      size_t len);

/* The cached JSON line for p with inputs `in` (malloc'd into *json), 0 on a hit, -1 on a miss. A
 * corrupt entry (unreadable, wrong configuration, not JSON) counts as a miss and is removed. */
int cache_get(const char *dir, const struct params *p, const struct cache_inputs *in, char **json);

/* Stores a result atomically (temp file + rename) under p and the inputs `in` took before its
 * run, if they still hold (cache_inputs_same). 0 stored; CACHE_CHANGED, not stored (an input
 * changed: said, its path in changed); -1, the directory cannot be written (said once, and
 * nothing more is written there by this process). */
#define CACHE_CHANGED 1
int cache_put(const char *dir, const struct params *p, const struct cache_inputs *in,
              const char *json, char *changed, size_t len);

#endif
