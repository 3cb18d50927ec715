/* Where Situ's caches live and how their entries are named: the results cache (cache.c) and the
 * platform digests (platform_load.c) share the directory, the hash and the mkdir. Knows nothing
 * of what is cached, so the layers below the runner can use it.
 *
 * A cache is an optimisation: a directory that cannot be written (XDG_CACHE_HOME naming a file,
 * a read-only or full home, a directory where an entry should be) is said once, in one line,
 * and then left alone; everything else goes on. Platform digests, which the simulations read
 * back from disk (a simulation child finds the digest its parent made there), then live in a
 * private temporary directory instead, removed at exit by the process that made it. */
#ifndef SITU_CACHE_DIR_H
#define SITU_CACHE_DIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The default directory: $XDG_CACHE_HOME/situ, else $HOME/.cache/situ. -1 if neither is set. */
int cache_default_dir(char *out, size_t len);

/* FNV-1a, 64 bits, continuing from h (start from CACHE_FNV_SEED): keys of cache entries. */
#define CACHE_FNV_SEED 14695981039346656037ull
uint64_t cache_fnv1a(uint64_t h, const void *data, size_t len);

/* A file's identity (device, inode, size, mtime, ctime; a struct stat): a rewrite, even of the
 * same bytes, or another file renamed in its place changes it. */
struct stat;
uint64_t cache_stat_stamp(const struct stat *st);

/* mkdir -p: 0, or -1 with errno (ENAMETOOLONG for a path over PATH_MAX). */
int cache_mkdir_p(const char *dir);

/* A write in the cache directory dir failed, `why` says how ("cannot write FILE: reason"): nothing
 * is written there again by this process (cache_dir_usable), and cache_dir_say will say so, once
 * per directory and process: "situ: cache directory DIR unusable (WHY): nothing is cached". */
void cache_dir_unusable(const char *dir, const char *why);

/* Says on stderr, once, what the cache could not keep so far. Called where it matters and no
 * other line is due: when simulations start (the runner) and when a command has succeeded
 * (main), never before a bad input's one line. */
void cache_dir_say(void);

/* Whether dir has not been found unusable by this process (nor by the one it was forked from). */
bool cache_dir_usable(const char *dir);

/* The path of `name` ("platforms/KEY.json") in the directory of the platform digests: the default
 * directory while it is usable, else a private one (mkdtemp in $TMPDIR or /tmp) made once for
 * the process and its children: a forked child inherits it, an exec'd one finds it in the
 * environment (CACHE_PRIVATE_ENV) and never removes it. -1 when there is no directory at all. */
#define CACHE_PRIVATE_ENV "SITU_CACHE_PRIVATE"
int cache_file_path(const char *name, char *out, size_t len);

/* Writes `name` there atomically (outfile.c), its directory made if missing. A failure makes the
 * directory unusable (cache_dir_unusable) and the write is tried once more where cache_file_path
 * then points, the private directory. 0, or -1 when the data is kept nowhere. Thread-safe, as is
 * cache_file_path. */
int cache_file_write(const char *name, const void *data, size_t len);

/* Removes the private directory now if this process made it (at exit it is done anyway): for
 * an exit by a signal's default action, which skips atexit. Nothing is made again afterwards. */
void cache_dir_cleanup(void);

#endif
