/* Results on disk, keyed by configuration: a repeated or interrupted study only simulates what is
 * missing. An entry is one file holding the configuration's canonical text and the result's JSON
 * line; the key also covers the contents of the files the result depends on (platform, hostfile,
 * Lua analytics) and the Situ version, so editing any of them invalidates the entry. */
#ifndef SITU_CACHE_H
#define SITU_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "../base/cache_dir.h" /* the directory callers pass */
#include "../model/params.h"

/* The cached JSON line for p (malloc'd into *json), 0 on a hit, -1 on a miss. A corrupt entry
 * (unreadable, wrong configuration, not JSON) counts as a miss and is removed. */
int cache_get(const char *dir, const struct params *p, char **json);

/* Stores a result atomically (temp file + rename); creates dir if needed. 0 or -1. */
int cache_put(const char *dir, const struct params *p, const char *json);

#endif
