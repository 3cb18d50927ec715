/* Scenarios in async mode (script_async.h's protocol): the scenario is a coroutine that yields its
 * requests for simulations and is resumed once the host has fed every result; its output goes
 * to a buffer the host reads. The explorer's scenario host process drives it. */
#include <lauxlib.h>
#include <stdlib.h>
#include <string.h>

#include "script_async.h"

#include "../model/report.h"
#include "script_convert.h"
#include "script_internal.h"

int script_async_start(struct script *s, const char *path, int argc, char **argv)
{
    lua_State *L = s->L;
    if (!s->o.async || s->co) {
        snprintf(s->err, sizeof s->err, "%s: not an async interpreter", path);
        return -1;
    }
    if (script_set_args(s, path, argc, argv) < 0 || script_redirect_io(s, s->mem) < 0)
        return -1;
    if (script_load(s, path) < 0) {
        s->status = SCRIPT_FAILED;
        return -1;
    }
    lua_Debug ar;
    lua_pushvalue(L, -1);
    lua_getinfo(L, ">S", &ar);
    snprintf(s->where, sizeof s->where, "%s", script_source(&ar));
    s->co = lua_newthread(L); /* inherits the count hook and the extra space */
    lua_insert(L, -2);
    lua_xmove(L, s->co, 1);
    s->co_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    s->status = SCRIPT_READY;
    return 0;
}

bool script_async_ready(const struct script *s)
{
    return s->req.kind == SCRIPT_REQ_NONE || s->req.got == s->req.n;
}

/* The coroutine died of an error: its stack is still there, for the position and the
 * traceback (what msghandler does for script_pcall). */
static void co_error(struct script *s, int status)
{
    lua_State *co = s->co;
    if (status == LUA_ERRMEM || s->mem_hit) {
        script_set_error(s, status, NULL);
        return;
    }
    const char *msg = lua_tostring(co, -1);
    if (!msg)
        msg = lua_pushfstring(co, "(error object is a %s value)", luaL_typename(co, -1));
    char where[PATH_MAX + 16];
    if (!script_has_position(msg)) {
        script_where(co, where, sizeof where);
        msg = lua_pushfstring(co, "%s: %s", where, msg);
    }
    luaL_traceback(s->L, co, msg, 0);
    script_set_error(s, status, lua_tostring(s->L, -1));
    lua_pop(s->L, 1);
}

enum script_status script_async_resume(struct script *s)
{
    if (!s->co || s->status == SCRIPT_DONE || s->status == SCRIPT_FAILED)
        return s->status;
    if (!script_async_ready(s))
        return s->status = SCRIPT_WAITING;
    int nres = 0;
    script_clock_start(s);
    s->depth++;
    s->mem_hit = false;
    int status = lua_resume(s->co, s->L, 0, &nres);
    s->depth--;
    script_clock_stop(s);
    if (s->mem)
        fflush(s->mem);
    if (status == LUA_YIELD && s->req.kind != SCRIPT_REQ_NONE) {
        lua_pop(s->co, nres);
        return s->status = SCRIPT_WAITING;
    }
    if (status == LUA_YIELD) { /* coroutine.yield() at the top: nobody to yield to */
        lua_pop(s->co, nres);
        lua_pushliteral(s->co, "coroutine.yield outside a coroutine: the scenario's top level "
                               "cannot yield");
        script_where(s->co, s->where, sizeof s->where);
        snprintf(s->err, sizeof s->err, "%s: %s", s->where, lua_tostring(s->co, -1));
        lua_pop(s->co, 1);
        s->status = SCRIPT_FAILED;
    } else if (status == LUA_OK) {
        lua_settop(s->co, 0);
        s->status = SCRIPT_DONE;
    } else {
        co_error(s, status);
        s->status = SCRIPT_FAILED;
    }
    script_request_clear(s);
    s->mem_hit = false;
    script_clock_start(s); /* finalizers: under the limits */
    s->depth++;
    lua_gc(s->L, LUA_GCCOLLECT);
    s->depth--;
    script_clock_stop(s);
    return s->status;
}

bool script_async_can_yield(lua_State *L, const char *fn)
{
    struct script *s = script_of(L);
    if (!s->o.async)
        return false;
    if (L != s->co)
        luaL_error(L,
                   "%s: in the explorer, simulations wait in the scenario's main code only, "
                   "not inside a coroutine of its own (situ script runs it headless)",
                   fn);
    if (!lua_isyieldable(L))
        luaL_error(L,
                   "%s: cannot wait for simulations here (inside a metamethod, an iterator "
                   "or a C callback) in the explorer",
                   fn);
    return true;
}

enum script_req_kind script_async_wanted(const struct script *s, const struct params **p, int *n)
{
    if (p)
        *p = s->req.p;
    if (n)
        *n = s->req.n;
    return s->req.kind;
}

struct params *script_async_request(lua_State *L, enum script_req_kind kind, int n)
{
    struct script *s = script_of(L);
    script_request_clear(s);
    struct script_request *r = &s->req;
    r->p = calloc((size_t)n, sizeof *r->p);
    r->res = calloc((size_t)n, sizeof *r->res);
    r->err = calloc((size_t)n, sizeof *r->err);
    r->fed = calloc((size_t)n, sizeof *r->fed);
    if (!r->p || !r->res || !r->err || !r->fed) {
        script_request_clear(s);
        return NULL;
    }
    r->n = n;
    r->kind = kind;
    return r->p;
}

int script_async_feed_json(struct script *s, int i, const char *json, const char *error)
{
    struct script_request *r = &s->req;
    if (i < 0 || i >= r->n || r->fed[i])
        return -1;
    json_error_t jerr;
    char why[300];
    if (!error && !(r->res[i] = json_loads(json ? json : "", 0, &jerr))) {
        snprintf(why, sizeof why, "the simulation printed no JSON: %s", jerr.text);
        error = why;
    }
    if (error)
        r->err[i] = strdup(error);
    r->fed[i] = true;
    r->got++;
    return 0;
}

int script_async_feed(struct script *s, int i, const struct sim_result *res, const char *error)
{
    struct script_request *r = &s->req;
    if (i < 0 || i >= r->n || r->fed[i])
        return -1;
    if (!error && !(r->res[i] = report_sim_result_json(&r->p[i], res)))
        error = "out of memory";
    if (error)
        r->err[i] = strdup(error);
    r->fed[i] = true;
    r->got++;
    return 0;
}

int script_async_result(lua_State *L, int i, const char **err)
{
    struct script_request *r = &script_of(L)->req;
    if (r->res[i]) {
        script_push_json(L, r->res[i]);
        return 1;
    }
    lua_pushnil(L);
    *err = r->err[i] ? r->err[i] : "out of memory";
    return 0;
}

size_t script_take_output(struct script *s, char *dst, size_t cap)
{
    if (!s->mem || fflush(s->mem) != 0)
        return 0;
    size_t n = s->mem_size - s->mem_taken;
    n = n < cap ? n : cap;
    memcpy(dst, s->mem_buf + s->mem_taken, n);
    s->mem_taken += n;
    if (s->mem_taken == s->mem_size && s->mem_size > 0) {
        /* Everything read: start an empty buffer (the stream stays the same FILE). */
        rewind(s->mem);
        s->mem_taken = 0;
        fflush(s->mem);
        s->mem_size = 0;
    }
    return n;
}
