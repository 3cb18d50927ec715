/* Scenarios in the explorer (async mode, struct script_opts' async): the protocol between a
 * scenario and the host that simulates for it.
 *
 * script_async_start loads the scenario as a coroutine; script_async_resume runs it until it
 * finishes (SCRIPT_DONE), fails (SCRIPT_FAILED, the error as script_pcall sets it, with the
 * traceback) or asks for simulations (SCRIPT_WAITING): script_async_wanted then lists the
 * configurations. The host simulates them (in any order, in parallel) and feeds each result
 * with script_async_feed / script_async_feed_json; once all are in (script_async_ready), the
 * next script_async_resume hands them to the scenario in the shapes headless calls return, and
 * runs it to its next request or its end. Nothing here blocks, forks or touches a terminal. */
#ifndef SITU_SCRIPT_ASYNC_H
#define SITU_SCRIPT_ASYNC_H

#include <stdbool.h>
#include <stddef.h>

#include "script.h"

struct params;
struct sim_result;

/* Loads path (syntax errors: -1 with the error) as the coroutine, with `arg` set and require
 * looking beside the script. s must have been created with o.async. */
int script_async_start(struct script *s, const char *path, int argc, char **argv);

/* Runs the coroutine as far as it can go; with a request still missing results, returns
 * SCRIPT_WAITING without running anything. */
enum script_status script_async_resume(struct script *s);

/* What the scenario waits for: the kind of its request (SCRIPT_REQ_NONE: nothing), with its *n
 * configurations in *p (either may be NULL). */
enum script_req_kind script_async_wanted(const struct script *s, const struct params **p, int *n);

/* Feeds result i of the current request: r (a parsed `situ run --json`) or error. -1 if there
 * is no such slot or it was fed already. */
int script_async_feed(struct script *s, int i, const struct sim_result *r, const char *error);
/* The same from the JSON a child printed (or error). */
int script_async_feed_json(struct script *s, int i, const char *json, const char *error);

/* Every result of the current request is in: script_async_resume will resume. */
bool script_async_ready(const struct script *s);

/* Copies up to cap bytes of output not taken yet into dst; returns how many (0: none). */
size_t script_take_output(struct script *s, char *dst, size_t cap);

/* --- for the situ.* functions that wait (script_situ.c, script_advise.c) --- */

/* Whether the calling Lua code may wait for a request (async mode, inside the scenario's own
 * coroutine, not across a C boundary). Raises a Lua error naming fn if async mode cannot wait
 * here; returns false when headless. */
bool script_async_can_yield(struct lua_State *L, const char *fn);

/* Makes a request of kind for n configurations and returns them for the caller to fill
 * (NULL if out of memory); the caller then returns lua_yieldk(L, 0, 0, k), and k, called when
 * the host resumes, pushes the results (script_async_result) and frees the request
 * (script_request_clear, script_internal.h). */
struct params *script_async_request(struct lua_State *L, enum script_req_kind kind, int n);

/* Pushes slot i of the fed request: the result table, or nil and the error. Returns 1 for a
 * result, 0 for an error (nil pushed and *err set to the reason). */
int script_async_result(struct lua_State *L, int i, const char **err);

#endif
