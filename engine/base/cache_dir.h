/* Where Situ's caches live and how their entries are named: the results cache (cache.c) and the
 * platform digests (platform_load.c) share the directory, the hash and the mkdir. Knows nothing
 * of what is cached, so the layers below the runner can use it. */
#ifndef SITU_CACHE_DIR_H
#define SITU_CACHE_DIR_H

#include <stddef.h>
#include <stdint.h>

/* The default directory: $XDG_CACHE_HOME/situ, else $HOME/.cache/situ. -1 if neither is set. */
int cache_default_dir(char *out, size_t len);

/* FNV-1a, 64 bits, continuing from h (start from CACHE_FNV_SEED): keys of cache entries. */
#define CACHE_FNV_SEED 14695981039346656037ull
uint64_t cache_fnv1a(uint64_t h, const void *data, size_t len);

/* mkdir -p: 0, or -1 with errno (ENAMETOOLONG for a path over PATH_MAX). */
int cache_mkdir_p(const char *dir);

#endif
