/* Lua in Situ: one sandboxed interpreter per script, analytics file or lesson. Every call into
 * Lua is protected; errors come back as "FILE:LINE: message" (a traceback follows on the next
 * lines for runtime errors in scenarios). A count hook and a counting allocator stop runaway
 * code with a message that says what happened. The `situ` module for scenarios lives in
 * script_situ.c; conversions between Lua tables, parameters and JSON in script_convert.c. */
#ifndef SITU_SCRIPT_H
#define SITU_SCRIPT_H

#include <jansson.h>
#include <limits.h>
#include <lua.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "params.h"
#include "result.h"

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
    /* The explorer's mode: the scenario runs as a coroutine (script_async_*), situ.run and
     * situ.sweep yield requests instead of blocking, and print, situ.table and io.write go to a
     * buffer the host reads (script_take_output) whatever `out` says; io.read reads nothing. */
    bool async;
};

/* What a scenario in async mode waits for: n configurations to simulate. */
enum script_req_kind { SCRIPT_REQ_NONE, SCRIPT_REQ_RUN, SCRIPT_REQ_SWEEP };

struct script_request {
    enum script_req_kind kind;
    int n, got;
    struct params *p; /* n configurations */
    json_t **res;     /* n results as `situ run --json` prints them, NULL until fed */
    char **err;       /* n reasons a simulation failed, NULL until fed */
    bool *fed;
};

enum script_status { SCRIPT_READY, SCRIPT_WAITING, SCRIPT_DONE, SCRIPT_FAILED };

struct script {
    lua_State *L;
    struct script_opts o;
    size_t used;               /* bytes the allocator handed out */
    long long count;           /* instructions since the last script_budget_reset */
    int depth;                 /* protected calls in progress: limits only apply inside one */
    bool mem_hit;              /* the allocator refused a block since the last call */
    int watch;                 /* the watchdog's handle of the call in progress, or -1 */
    char where[PATH_MAX + 16]; /* "FILE:LINE" the hook last saw running, for memory errors */
    char err[SCRIPT_ERR_MAX];
    char path[PATH_MAX]; /* the file script_load read last: Lua's messages shorten it, s->err not */
    bool sim_failed;     /* a situ.* call raised a failed simulation (see failure) */
    /* The message of the last error a situ.* call raised for a failed simulation (status 3) or
     * write (status 1): the script's exit status is failure_status only if the error that ends
     * it is this one, so a failure caught by pcall does not change a later error's status. */
    char failure[512];
    int failure_status;
    bool model_only; /* lessons: goals run on every change, so no simulations from Lua */
    /* async mode */
    lua_State *co; /* the scenario's coroutine (anchored in the registry) */
    int co_ref;
    enum script_status status;
    struct script_request req;
    FILE *mem; /* the output buffer (open_memstream) */
    char *mem_buf;
    size_t mem_size, mem_taken;
};

/* A fresh interpreter with the sandbox (unless o->unsafe) and the limits. NULL if out of memory.
 */
struct script *script_new(const struct script_opts *o);
void script_free(struct script *s);

/* The script that owns L (any of its coroutines). */
struct script *script_of(lua_State *L);

/* Loads a text chunk from path and leaves the function on the stack. -1 with s->err ("FILE:LINE:
 * message" for a syntax error, "FILE: cannot open ..." otherwise). */
int script_load(struct script *s, const char *path);

/* lua_pcall with a message handler: 0, or -1 with s->err set. With traceback, s->err gets the
 * stack traceback on the lines after the message. The function and arguments are popped; on
 * success nresults values are pushed. */
int script_pcall(struct script *s, int nargs, int nresults, bool traceback);

/* The --time-limit option: replaces every interpreter's default wall-clock limit (the
 * scenarios' and the analytics'); <= 0 restores the defaults. */
void script_set_time_limit(double seconds);
/* The override, or 0 when the defaults hold. */
double script_time_limit(void);

/* Restarts the instruction budget (each analytics call gets its own; the wall clock starts
 * with each outermost call). */
void script_budget_reset(struct script *s);

/* The first line of s->err. */
void script_error_line(const struct script *s, char *out, size_t len);

/* io.write, io.stdout, io.stderr and io.output write to out (NULL: nowhere), as print does, and
 * io.read reads nothing: a script's stdout may carry results (situ run --json) or a helper's
 * protocol, and its stdin may be the explorer's terminal. The handles cannot be closed. -1 with
 * s->err. */
int script_redirect_io(struct script *s, FILE *out);

/* Sets the global `arg` as the standalone interpreter does: arg[0] the script, arg[1..] its
 * arguments. */
void script_set_args(struct script *s, const char *path, int argc, char **argv);

/* The whole file name of a function's chunk (ar from lua_getinfo "S"): short_src would cut a
 * long path to "...TAIL". */
const char *script_source(const lua_Debug *ar);

/* "FILE:LINE" of the innermost running Lua function (or "?"), for messages raised from C. */
void script_where(lua_State *L, char *out, size_t len);

/* --- scenarios in the explorer (async mode) ---
 *
 * The protocol: script_async_start loads the scenario as a coroutine; script_async_resume runs
 * it until it finishes (SCRIPT_DONE), fails (SCRIPT_FAILED, s->err as script_pcall sets it, with
 * the traceback) or asks for simulations (SCRIPT_WAITING): s->req then lists the
 * configurations. The host simulates them (in any order, in parallel) and feeds each result
 * with script_async_feed / script_async_feed_json; once all are in (script_async_ready), the
 * next script_async_resume hands them to the scenario in the shapes headless calls return, and
 * runs it to its next request or its end. Nothing here blocks, forks or touches a terminal. */

/* Loads path (syntax errors: -1 with s->err) as the coroutine, with `arg` set and require
 * looking beside the script. s must have been created with o.async. */
int script_async_start(struct script *s, const char *path, int argc, char **argv);

/* Runs the coroutine as far as it can go; with a request still missing results, returns
 * SCRIPT_WAITING without running anything. */
enum script_status script_async_resume(struct script *s);

/* Feeds result i of the current request: r (a parsed `situ run --json`) or error. -1 if there
 * is no such slot or it was fed already. */
int script_async_feed(struct script *s, int i, const struct sim_result *r, const char *error);
/* The same from the JSON a child printed (or error). */
int script_async_feed_json(struct script *s, int i, const char *json, const char *error);

/* Every result of the current request is in: script_async_resume will resume. */
bool script_async_ready(const struct script *s);

/* Copies up to cap bytes of output not taken yet into dst; returns how many (0: none). */
size_t script_take_output(struct script *s, char *dst, size_t cap);

/* Headless: whether the calling Lua code may wait for a request (async mode, inside the
 * scenario's own coroutine, not across a C boundary). Raises a Lua error naming fn if async
 * mode cannot wait here; returns false when headless. */
bool script_async_can_yield(lua_State *L, const char *fn);

/* Makes a request of kind for n configurations and returns them for the caller to fill
 * (NULL if out of memory); the caller then returns lua_yieldk(L, 0, 0, k), and k, called when
 * the host resumes, pushes the results (script_async_result) and clears the request. */
struct params *script_async_request(lua_State *L, enum script_req_kind kind, int n);

/* Pushes slot i of the fed request: the result table, or nil and the error. Returns 1 for a
 * result, 0 for an error (nil pushed and *err set to the reason). */
int script_async_result(lua_State *L, int i, const char **err);

/* Frees the request (the continuations call it once they have pushed the results). */
void script_async_clear(struct script *s);

/* The result table of a parsed simulation, as `situ run --json` prints it (the keys
 * struct sim_result carries). NULL if out of memory. */
json_t *script_result_json(const struct params *p, const struct sim_result *r);

/* --- the `situ` module (script_situ.c) --- */

/* Registers the global `situ` (and package.loaded.situ). */
void script_open_situ(struct script *s);

/* situ.advise{...} (script_advise.c). */
int script_advise(lua_State *L);

/* Simulations in parallel, forked children, `parallel` at a time; the wait is not counted
 * against the scenario's time limit. As sim_pool_run. */
struct sim_job;
int script_pool_run(struct sim_job *jobs, int n, int parallel);

/* Raises "situ.x: ..." (with the caller's FILE:LINE, as luaL_error) and records it as a failure
 * with that exit status (3: a simulation failed, 1: a file could not be written). */
int script_fail(lua_State *L, int status, const char *fmt, ...);

/* --- conversions (script_convert.c) --- */

/* Pushes p as a table: every parameter of the table, numbers as numbers, choices and paths as
 * strings. */
void script_push_params(lua_State *L, const struct params *p);

/* Reads a table of parameters at idx over the defaults (unknown keys and bad values are errors),
 * resolves the platform, validates. -1 with a one-line message. */
int script_to_params(lua_State *L, int idx, struct params *p, char *err, size_t errlen);

/* The parameter id of the key at idx; -1 with a message if it is not a parameter name. */
int script_param_key(lua_State *L, int idx, char *err, size_t errlen);

/* Sets parameter id from the Lua value at idx (numbers, or strings as on the command line). */
int script_set_param(lua_State *L, int idx, struct params *p, int id, char *err, size_t errlen);

/* Resolves the platform against the data directories and validates p. -1 with a message. */
int script_finish_params(struct params *p, char *err, size_t errlen);

/* Applies the parameters of the table at idx on top of p (no defaults, no validation). */
int script_apply_params(lua_State *L, int idx, struct params *p, char *err, size_t errlen);

/* Pushes a JSON value as Lua: objects and arrays as tables, null as nil. */
void script_push_json(lua_State *L, json_t *v);

/* Pushes the result table of the model for p (the keys of `situ model --json`). -1 with err. */
int script_push_model(lua_State *L, const struct params *p, char *err, size_t errlen);

/* --- output (script_output.c) --- */

/* situ.table and situ.csv. */
int script_table(lua_State *L);
int script_csv(lua_State *L);

/* The sandbox's rule for writing: a relative path without "..", whose directory is inside the
 * current directory (symbolic links followed); the file itself is then opened without following
 * a link (O_NOFOLLOW). 0 if allowed, -1 with a reason. */
int script_check_write(const char *path, char *err, size_t errlen);

#endif
