/* The sandbox of user Lua (engine/lua/sandbox.c, scripts/lua/internal/sandbox.lua): built once in
 * a fresh state, before any user code runs, by the one function every interpreter of Situ goes
 * through (script_new), so scripts, analytics files, lessons, the explorer's evaluators and its
 * scenario host all get the same one. */
#ifndef SITU_SANDBOX_H
#define SITU_SANDBOX_H

#include <stdbool.h>
#include <stddef.h>

struct lua_State;

/* The largest Lua file Situ loads (a script, an analytics, a lesson, what they load): none is
 * near it, and a device or a huge file is refused before Lua reads it (infile.h). */
#define SANDBOX_CODE_FILE_MAX (16 << 20)

/* Sandboxes the state (the standard libraries open, nothing else run yet): the checked io.open,
 * io.output, load, loadfile, dofile and require searcher (C closures holding the originals), the
 * denials of sandbox.lua, and then a fresh table of globals for user code, so that nothing a
 * script replaces reaches the sandbox's own functions. `root` is the script's directory (filled in
 * later by whoever loads the script, sandbox_root; "" until then): code loads from there or from
 * the current directory only. self_contained (NULL: not): what the file is, for the messages ("an
 * analytics file"); its dofile, loadfile, require, file reads and clock are refused and its
 * math.random seeded (sandbox_reseed). Raises a Lua error if it cannot (out of memory): call it in
 * a protected call. */
void sandbox_open(struct lua_State *L, const char *self_contained, const char *root);

/* Seeds a self-contained file's math.random as at the sandbox's start (no-op for others), so that
 * every evaluation draws the same numbers. Calls Lua: in a protected call. */
void sandbox_reseed(struct lua_State *L);

/* The directory of the file being run, every link resolved, into root (PATH_MAX bytes); "" if it
 * does not resolve (then only the current directory holds code). */
void sandbox_root(const char *file, char *root);

/* Gives the function on the top of the stack, a chunk of Situ's own Lua (its checks of analytics
 * and lesson files), the sandbox's globals as they were built instead of the user's copy. No-op
 * without a sandbox. */
void sandbox_own_env(struct lua_State *L);

/* The sandbox's rule for writing: a relative path without "..", whose directory is inside the
 * current directory (symbolic links followed); the file itself is then opened without following
 * a link (O_NOFOLLOW). 0 if allowed, -1 with a reason. */
int sandbox_check_write(const char *path, char *err, size_t errlen);

#endif
