/* Finds Situ's data (platforms/, presets/, scripts/lua/) in the source tree or where `make
 * install` put it, so relative names like "platforms/dahu.xml" work from any directory. */
#ifndef SITU_DATADIR_H
#define SITU_DATADIR_H

#include <stddef.h>

/* If `path` names an existing file as given, copies it; otherwise, for a relative path, tries the
 * directory of the running binary, then SITU_DATADIR. Returns 0 if found, -1 (out = path) if not.
 */
int datadir_resolve(const char *path, char *out, size_t len);

/* This binary's path, from /proc/self/exe: the one place it is read (data next to the binary,
 * the runner's simulation children, emitted commands). "situ" and -1 if the kernel cannot tell. */
int datadir_self(char *out, size_t len);

/* The simulation helper, the one program that links SimGrid (helper/situ_sim.c): every
 * simulation and every platform digest runs in it. Found beside this binary (the source tree, and
 * the helper itself), else in SITU_DATADIR where `make install` puts it; never on PATH or in the
 * working directory. -1 with a one-line reason in err. */
#define DATADIR_HELPER "situ-sim"
int datadir_helper(char *out, size_t len, char *err, size_t errlen);

#define DATADIR_NAME_MAX 64

/* Names of the files ending in `suffix` in the first data directory that has `sub` (presets,
 * analytics, lessons), without the suffix, sorted. Returns how many exist; writes at most max. */
int datadir_list(const char *sub, const char *suffix, char names[][DATADIR_NAME_MAX], int max);

/* The Lua file behind a name of kind `kind` ("analytics", "simulation"): a path (anything with
 * '/' or ending in .lua) as datadir_resolve finds it, or SUB/NAME.lua in the data directories.
 * -1 with "KIND: ..." in err: no such file, or no such name and the names installed in sub. */
int datadir_resolve_lua(const char *kind, const char *sub, const char *name, char *path, size_t len,
                        char *err, size_t errlen);

/* The first data directory that has `sub` (e.g. "presets"), into out. -1 if none. */
int datadir_find(const char *sub, char *out, size_t len);

#endif
