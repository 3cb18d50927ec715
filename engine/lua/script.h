/* Lua in Situ: one sandboxed interpreter per script, analytics file or lesson, behind an opaque
 * struct script: create it, load a file or chunk, call into it under its limits, close it. Every
 * call into Lua is protected; errors come back as "FILE:LINE: message" (a traceback follows on
 * the next lines for runtime errors in scenarios). A count hook, a counting allocator and the
 * watchdog's wall clock stop runaway code with a message that says what happened.
 *
 * The rest of the Lua side has headers of its own: the `situ` module (script_situ.h), tables <->
 * parameters and JSON (script_convert.h), the explorer's protocol for scenarios
 * (script_async.h). The interpreter's fields are private to engine/lua/script*.c
 * (script_internal.h). lua.h is not included: callers that only run scripts need not see Lua's API.
 */
#ifndef SITU_SCRIPT_H
#define SITU_SCRIPT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct lua_State;
struct lua_Debug;

#define SCRIPT_ERR_MAX (PATH_MAX + 4096) /* a whole path, then the message and traceback */

/* Defaults: a scenario may run for a while, a cost function may not. */
#define SCRIPT_MAX_INSTRUCTIONS    1000000000LL /* per scenario run */
#define SCRIPT_MAX_MEMORY          (256u << 20)
#define ANALYTICS_MAX_INSTRUCTIONS 100000000LL /* per analytics or goal call */
#define ANALYTICS_MAX_MEMORY       (64u << 20)
/* Wall-clock seconds of one call into Lua (a scenario: between two waits for simulations). */
#define SCRIPT_TIME_LIMIT    60.0
#define ANALYTICS_TIME_LIMIT 10.0 /* an analytics evaluation, a lesson's goal check */

struct script_opts {
    bool unsafe;                /* the whole standard library: os.execute, io.popen, debug... */
    FILE *out;                  /* where print() and situ.table() write; NULL: discarded */
    long long max_instructions; /* 0: no limit */
    size_t max_memory;          /* bytes; 0: no limit */
    double time_limit;          /* wall-clock seconds of one call (watchdog.h); 0: no limit */
    bool cli_limits;            /* the limits come from situ script's options: say which */
    /* dofile, loadfile and require are refused (analytics files): a result cached by the
     * file's content cannot go stale through another file. */
    bool self_contained;
    const char *what; /* what such a file is, for the sandbox's refusals: "an analytics file" */
    /* The explorer's mode: the scenario runs as a coroutine (script_async.h), situ.run and
     * situ.sweep yield requests instead of blocking, and print, situ.table and io.write go to a
     * buffer the host reads (script_take_output) whatever `out` says; io.read reads nothing. */
    bool async;
    bool model_only; /* lessons: goals run on every change, so no simulations from Lua */
};

/* A scenario's state in async mode, and what it waits for (script_async.h). */
enum script_status { SCRIPT_READY, SCRIPT_WAITING, SCRIPT_DONE, SCRIPT_FAILED };
enum script_req_kind { SCRIPT_REQ_NONE, SCRIPT_REQ_RUN, SCRIPT_REQ_SWEEP };

struct script;

/* A fresh interpreter with the sandbox (unless o->unsafe) and the limits. NULL if out of memory.
 */
struct script *script_new(const struct script_opts *o);
void script_free(struct script *s);

/* The interpreter's Lua state, for the C code that pushes and reads values. */
struct lua_State *script_lua(struct script *s);

/* The script that owns L (any of its coroutines). */
struct script *script_of(struct lua_State *L);

/* Loads a text chunk from path and leaves the function on the stack. -1 with the error ("FILE:
 * LINE: message" for a syntax error, "FILE: cannot open ..." otherwise). */
int script_load(struct script *s, const char *path);

/* Loads a text chunk held in memory (a .lua file compiled in) under chunk name `name` ("=x":
 * messages say "x:LINE:"), and leaves the function on the stack. -1 with the error. */
int script_load_chunk(struct script *s, const char *code, size_t len, const char *name);

/* lua_pcall with a message handler: 0, or -1 with the error set. With traceback, the error has
 * the stack traceback on the lines after the message. The function and arguments are popped; on
 * success nresults values are pushed. */
int script_pcall(struct script *s, int nargs, int nresults, bool traceback);

/* The last error: "FILE:LINE: message", then the traceback if one was asked for. */
const char *script_error(const struct script *s);

/* The first line of the last error. */
void script_error_line(const struct script *s, char *out, size_t len);

/* The exit status the last error calls for: the status of script_fail if the error that ended
 * the script is the one script_fail raised (3: a simulation failed, 1: a write failed), so that
 * a failure caught by pcall does not change a later error's status; `otherwise` if not. */
int script_exit_status(const struct script *s, int otherwise);

/* The --time-limit option: replaces every interpreter's default wall-clock limit (the
 * scenarios', the analytics', the simulation profiles', the lessons'), from the next call into
 * Lua on, interpreters made before included; <= 0 restores the defaults. */
void script_set_time_limit(double seconds);
/* The override, or 0 when the defaults hold. */
double script_time_limit(void);

/* Restarts the instruction budget (each analytics call gets its own; the wall clock starts
 * with each outermost call). */
void script_budget_reset(struct script *s);

/* print, io.write, io.stdout, io.stderr and io.output write to out (NULL: nowhere), and io.read
 * reads nothing: a script's stdout may carry results (situ run --json) or a helper's protocol,
 * and its stdin may be the explorer's terminal. The handles cannot be closed. -1 with the error
 * (print has moved; io keeps its old target). */
int script_redirect_io(struct script *s, FILE *out);

/* Sets the global `arg` as the standalone interpreter does: arg[0] the script, arg[1..] its
 * arguments; and lets `require "x"` find modules beside the script. -1 with the error. */
int script_set_args(struct script *s, const char *path, int argc, char **argv);

/* The whole file name of a function's chunk (ar from lua_getinfo "S"): short_src would cut a
 * long path to "...TAIL". */
const char *script_source(const struct lua_Debug *ar);

/* "FILE:LINE" of the innermost running Lua function (or "?"), for messages raised from C. */
void script_where(struct lua_State *L, char *out, size_t len);

/* Raises "situ.x: ..." (with the caller's FILE:LINE, as luaL_error) and records it as a failure
 * with that exit status (3: a simulation failed, 1: a file could not be written). */
int script_fail(struct lua_State *L, int status, const char *fmt, ...);

#endif
