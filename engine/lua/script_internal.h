/* The interpreter's fields, private to engine/lua/script*.c: what script.c shares with the async
 * protocol (script_async.c) and the `situ` module's files. Everything else sees an opaque
 * struct script (script.h). */
#ifndef SITU_SCRIPT_INTERNAL_H
#define SITU_SCRIPT_INTERNAL_H

#include <jansson.h>
#include <limits.h>
#include <lua.h>
#include <stdbool.h>
#include <stdio.h>

#include "script.h"

struct params;

/* What a scenario in async mode waits for: n configurations to simulate. */
struct script_request {
    enum script_req_kind kind;
    int n, got;
    struct params *p; /* n configurations */
    json_t **res;     /* n results as `situ run --json` prints them, NULL until fed */
    char **err;       /* n reasons a simulation failed, NULL until fed */
    bool *fed;
};

struct script {
    lua_State *L;
    struct script_opts o;
    size_t used;               /* bytes the allocator handed out */
    long long count;           /* instructions since the last script_budget_reset */
    int depth;                 /* protected calls in progress: limits only apply inside one */
    bool mem_hit;              /* the allocator refused a block since the last call */
    int watch;                 /* the watchdog's handle of the call in progress, or -1 */
    double limit;              /* its wall-clock seconds: --time-limit's, else o.time_limit */
    char where[PATH_MAX + 16]; /* "FILE:LINE" the hook last saw running, for memory errors */
    char err[SCRIPT_ERR_MAX];
    char path[PATH_MAX]; /* the file script_load read last: Lua's messages shorten it, s->err not */
    char root[PATH_MAX]; /* the directory of the first file script_load read (sandbox_root) */
    /* The message of the last error a situ.* call raised for a failed simulation (status 3) or
     * write (status 1): the script's exit status is failure_status only if the error that ends
     * it is this one, so a failure caught by pcall does not change a later error's status. */
    char failure[512];
    int failure_status;
    /* async mode */
    lua_State *co; /* the scenario's coroutine (anchored in the registry) */
    int co_ref;
    enum script_status status;
    struct script_request req;
    FILE *mem; /* the output buffer (open_memstream) */
    char *mem_buf;
    size_t mem_size, mem_taken;
};

/* The wall clock (watchdog.h) and the collector around an outermost call: user code, finalizers
 * included, runs only between the two. */
void script_clock_start(struct script *s);
void script_clock_stop(struct script *s);

/* Whether a message already says where ("file.lua:12: ..."). */
bool script_has_position(const char *msg);

/* s->err from a failed call (memory errors get the hook's last position). */
void script_set_error(struct script *s, int status, const char *msg);

/* Frees the async request (script_free, and each new request). */
void script_request_clear(struct script *s);

#endif
