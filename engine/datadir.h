/* Finds Situ's data (platforms/, presets/, scripts/lua/) in the source tree or where `make
 * install` put it, so relative names like "platforms/dahu.xml" work from any directory. */
#ifndef SITU_DATADIR_H
#define SITU_DATADIR_H

#include <stddef.h>

/* If `path` names an existing file as given, copies it; otherwise, for a relative path, tries the
 * directory of the running binary, then SITU_DATADIR. Returns 0 if found, -1 (out = path) if not.
 */
int datadir_resolve(const char *path, char *out, size_t len);

/* The first data directory that has `sub` (e.g. "presets"), into out. -1 if none. */
int datadir_find(const char *sub, char *out, size_t len);

#endif
