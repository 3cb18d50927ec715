/* The interpreter every Lua file of Situ runs in: a counting allocator, a count hook, the
 * sandbox, and protected calls whose errors read "FILE:LINE: message" (as lua.c's docall and
 * msghandler do, tracebacks kept). Nothing here is fatal to the process. */
#include "script.h"

#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <lauxlib.h>
#include <limits.h>
#include <lualib.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "script_internal.h"
#include "../base/infile.h"
#include "../base/watchdog.h"
#include "sandbox.h"

#define HOOK_EVERY 1000 /* instructions between two looks at the budget */

static double time_limit_override; /* --time-limit; 0: each interpreter's own default */

void script_set_time_limit(double seconds)
{
    time_limit_override = seconds > 0 ? seconds : 0;
}

double script_time_limit(void)
{
    return time_limit_override;
}

struct script *script_of(lua_State *L)
{
    return *(struct script **)lua_getextraspace(L);
}

lua_State *script_lua(struct script *s)
{
    return s->L;
}

const char *script_error(const struct script *s)
{
    return s->err;
}

int script_fail(lua_State *L, int status, const char *fmt, ...)
{
    struct script *s = script_of(L);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->failure, sizeof s->failure, fmt, ap);
    va_end(ap);
    s->failure_status = status;
    return luaL_error(L, "%s", s->failure);
}

int script_exit_status(const struct script *s, int otherwise)
{
    return s->failure[0] && strstr(s->err, s->failure) ? s->failure_status : otherwise;
}

/* Blocks are counted so that a memory bomb fails inside Lua (an ordinary, catchable error)
 * instead of taking the machine. Outside protected calls nothing is refused: an allocation
 * failure there would be a panic. */
static void *script_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    struct script *s = ud;
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        free(ptr);
        s->used -= old;
        return NULL;
    }
    if (nsize > old && s->o.max_memory && s->depth > 0 && s->used - old + nsize > s->o.max_memory) {
        s->mem_hit = true;
        return NULL;
    }
    void *p = realloc(ptr, nsize);
    if (p)
        s->used = s->used - old + nsize;
    return p;
}

const char *script_source(const lua_Debug *ar)
{
    return ar->source[0] == '@' ? ar->source + 1 : ar->short_src;
}

/* Lua's own messages (syntax errors, luaL_error) name a chunk longer than LUA_IDSIZE as
 * "...TAIL"; s->err names the whole path, so the message still says which file. */
static void expand_source(struct script *s)
{
    size_t plen = strlen(s->path);
    if (!plen || !strstr(s->err, "..."))
        return;
    char out[SCRIPT_ERR_MAX];
    size_t o = 0;
    for (const char *c = s->err; *c && o + 1 < sizeof out;) {
        size_t tail = 0;
        if (!strncmp(c, "...", 3))
            for (size_t n = plen - 1; n > 0 && !tail; n--)
                if (!strncmp(c + 3, s->path + plen - n, n) && c[3 + n] == ':')
                    tail = n;
        if (tail) {
            o += (size_t)snprintf(out + o, sizeof out - o, "%s", s->path);
            c += 3 + tail;
        } else
            out[o++] = *c++;
        if (o >= sizeof out)
            o = sizeof out - 1;
    }
    out[o] = 0;
    memcpy(s->err, out, o + 1);
}

/* The wall clock of an outermost call: the hook reads it in Lua code, the watchdog's thread
 * holds it everywhere else. The collector only runs inside such calls: a finalizer is user
 * code, and outside them any allocation of ours (a string pushed from C) could run one with
 * no deadline. */
void script_clock_start(struct script *s)
{
    /* The override as it is now, not when the interpreter was made: a simulation profile is
     * loaded before any flag is read (its parameters are flags), so --time-limit came later. */
    s->limit = time_limit_override > 0 ? time_limit_override : s->o.time_limit;
    s->watch = watchdog_arm(s->limit, s->path[0] ? s->path : s->where);
    lua_gc(s->L, LUA_GCRESTART);
}

void script_clock_stop(struct script *s)
{
    lua_gc(s->L, LUA_GCSTOP);
    watchdog_disarm(s->watch);
    s->watch = -1;
}

static void script_hook(lua_State *L, lua_Debug *ar)
{
    struct script *s = script_of(L);
    s->count += HOOK_EVERY;
    if (lua_getinfo(L, "Sl", ar) && ar->currentline > 0)
        snprintf(s->where, sizeof s->where, "%s:%d", script_source(ar), ar->currentline);
    if (watchdog_expired(s->watch)) {
        lua_sethook(L, script_hook, LUA_MASKCOUNT, 1); /* as below: no escape through pcall */
        lua_pushfstring(L,
                        "%s: stopped after %f s, the time limit: an endless loop? "
                        "(--time-limit raises it)",
                        s->where[0] ? s->where : "?", (lua_Number)s->limit);
        lua_error(L);
    }
    if (s->o.max_instructions && s->count > s->o.max_instructions) {
        /* From now on at every instruction: a script that catches the error with pcall is
         * stopped at its next instruction outside the pcall, and so on up to the top. */
        lua_sethook(L, script_hook, LUA_MASKCOUNT, 1);
        lua_pushfstring(L, "%s: stopped after %I instructions, the limit: an endless loop?%s",
                        s->where[0] ? s->where : "?", (lua_Integer)s->o.max_instructions,
                        s->o.cli_limits ? " (--max-instructions raises it)" : "");
        lua_error(L);
    }
}

void script_where(lua_State *L, char *out, size_t len)
{
    lua_Debug ar;
    for (int level = 0; lua_getstack(L, level, &ar); level++) {
        if (lua_getinfo(L, "Sl", &ar) && ar.currentline > 0) {
            snprintf(out, len, "%s:%d", script_source(&ar), ar.currentline);
            return;
        }
    }
    snprintf(out, len, "?");
}

/* "file.lua:12: ..." already says where; anything else gets the position of the innermost Lua
 * function prepended. */
bool script_has_position(const char *msg)
{
    /* "file.lua: message": a whole-file message from Situ's own checks */
    const char *colon = strstr(msg, ": ");
    if (colon && colon - msg > 4 && !strncmp(colon - 4, ".lua", 4) &&
        !memchr(msg, ' ', colon - msg) && !memchr(msg, '\n', colon - msg))
        return true;
    for (const char *c = msg; *c && *c != '\n'; c++) {
        if (*c != ':' || !isdigit((unsigned char)c[1]))
            continue;
        const char *d = c + 1;
        while (isdigit((unsigned char)*d))
            d++;
        if (*d == ':')
            return true;
    }
    return false;
}

static int msghandler(lua_State *L)
{
    const char *msg = lua_tostring(L, 1);
    if (!msg) {
        if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING)
            msg = lua_tostring(L, -1);
        else
            msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    }
    if (!script_has_position(msg)) {
        char where[PATH_MAX + 16];
        script_where(L, where, sizeof where);
        msg = lua_pushfstring(L, "%s: %s", where, msg);
    }
    if (lua_toboolean(L, lua_upvalueindex(1)))
        luaL_traceback(L, L, msg, 1);
    else
        lua_pushstring(L, msg);
    return 1;
}

/* s->err from a failed call: Lua calls no message handler for memory errors, so the hook's
 * last position stands in. */
void script_set_error(struct script *s, int status, const char *msg)
{
    if (status == LUA_ERRMEM || s->mem_hit)
        snprintf(s->err, sizeof s->err, "%s: out of memory: over the limit of %zu MiB%s",
                 s->where[0] ? s->where : "?", s->o.max_memory >> 20,
                 s->o.cli_limits ? " (--max-memory raises it)" : "");
    else
        snprintf(s->err, sizeof s->err, "%s", msg ? msg : "unknown error");
    expand_source(s);
}

/* sandbox_reseed in a protected call. */
static int reseed(lua_State *L)
{
    sandbox_reseed(L);
    return 0;
}

int script_pcall(struct script *s, int nargs, int nresults, bool traceback)
{
    lua_State *L = s->L;
    int base = lua_gettop(L) - nargs;
    lua_pushboolean(L, traceback);
    lua_pushcclosure(L, msghandler, 1);
    lua_insert(L, base);
    if (s->depth == 0) {
        /* Until the hook sees a line, a memory error is placed at the called function. */
        lua_Debug ar;
        lua_pushvalue(L, base + 1);
        lua_getinfo(L, ">S", &ar);
        if (ar.source[0] == '@' && ar.linedefined > 0)
            snprintf(s->where, sizeof s->where, "%s:%d", script_source(&ar), ar.linedefined);
        else
            snprintf(s->where, sizeof s->where, "%s", ar.source[0] == '@' ? ar.source + 1 : "?");
    }
    bool outermost = s->depth == 0;
    if (outermost)
        script_clock_start(s);
    s->depth++;
    s->mem_hit = false;
    int status = LUA_OK;
    /* A self-contained file's math.random gives the same numbers at every evaluation, in every
     * process (docs/lua.md): each outermost call starts from the one seed, so what a function
     * returns depends on its ctx, not on how many evaluations came before (the model's, then a
     * simulation child's). */
    if (outermost && s->o.self_contained) {
        lua_pushcfunction(L, reseed);
        if ((status = lua_pcall(L, 0, 0, 0)) != LUA_OK) { /* out of memory: the call is not made */
            lua_replace(L, base + 1);
            lua_settop(L, base + 1);
        }
    }
    if (status == LUA_OK)
        status = lua_pcall(L, nargs, nresults, base);
    lua_remove(L, base);
    if (status != LUA_OK) {
        script_set_error(s, status, lua_tostring(L, -1));
        lua_pop(L, 1);
        s->mem_hit = false;
        lua_gc(L, LUA_GCCOLLECT); /* finalizers run here: still under the limits */
    }
    s->depth--;
    if (outermost)
        script_clock_stop(s);
    return status == LUA_OK ? 0 : -1;
}

void script_budget_reset(struct script *s)
{
    s->count = 0;
    lua_sethook(s->L, script_hook, LUA_MASKCOUNT, HOOK_EVERY);
}

void script_error_line(const struct script *s, char *out, size_t len)
{
    const char *nl = strchr(s->err, '\n');
    size_t n = nl ? (size_t)(nl - s->err) : strlen(s->err);
    snprintf(out, len, "%.*s", (int)n, s->err);
}

int script_load(struct script *s, const char *path)
{
    /* Lua's loader opens with fopen: a FIFO would block it (for ever, outside any hook), a
     * directory fails only at its first read, /dev/zero is read to the memory limit. */
    if (infile_check(path, "Lua file", SANDBOX_CODE_FILE_MAX, s->err, sizeof s->err) < 0)
        return -1;
    snprintf(s->path, sizeof s->path, "%s", path);
    if (!s->root[0]) /* the first file loaded is the one run: code loads beside it */
        sandbox_root(path, s->root);
    s->depth++;
    int status = luaL_loadfilex(s->L, path, "t"); /* never bytecode: it can crash the VM */
    s->depth--;
    if (status == LUA_OK)
        return 0;
    snprintf(s->err, sizeof s->err, "%s",
             lua_tostring(s->L, -1) ? lua_tostring(s->L, -1) : "cannot load");
    expand_source(s);
    lua_pop(s->L, 1);
    return -1;
}

int script_load_chunk(struct script *s, const char *code, size_t len, const char *name)
{
    s->depth++;
    int status = luaL_loadbufferx(s->L, code, len, name, "t");
    s->depth--;
    if (status == LUA_OK) {
        sandbox_own_env(s->L); /* a script's replaced globals do not reach Situ's own checks */
        return 0;
    }
    snprintf(s->err, sizeof s->err, "%s",
             lua_tostring(s->L, -1) ? lua_tostring(s->L, -1) : "cannot load");
    lua_pop(s->L, 1);
    return -1;
}

/* A file handle on the output stream that scripts cannot close (io.write, io.stdout). */
static int noclose(lua_State *L)
{
    luaL_Stream *p = luaL_checkudata(L, 1, LUA_FILEHANDLE);
    p->closef = noclose;
    luaL_pushfail(L);
    lua_pushliteral(L, "cannot close the script's output");
    return 2;
}

static int devnull_close(lua_State *L)
{
    luaL_Stream *p = luaL_checkudata(L, 1, LUA_FILEHANDLE);
    return luaL_fileresult(L, fclose(p->f) == 0, NULL);
}

static int redirect_io(lua_State *L)
{
    FILE *f = lua_touserdata(L, 1);
    luaL_Stream *out = lua_newuserdatauv(L, sizeof *out, 0);
    out->closef = NULL; /* closed until it opens */
    luaL_setmetatable(L, LUA_FILEHANDLE);
    out->f = f ? f : fopen("/dev/null", "w");
    if (!out->f)
        return luaL_error(L, "cannot open /dev/null");
    out->closef = f ? noclose : devnull_close;
    luaL_Stream *in = lua_newuserdatauv(L, sizeof *in, 0);
    in->closef = NULL; /* closed until it opens */
    luaL_setmetatable(L, LUA_FILEHANDLE);
    in->f = fopen("/dev/null", "r");
    if (!in->f)
        return luaL_error(L, "cannot open /dev/null");
    in->closef = devnull_close;
    lua_getglobal(L, "io");
    lua_pushvalue(L, -3);
    lua_setfield(L, -2, "stdout");
    lua_pushvalue(L, -3);
    lua_setfield(L, -2, "stderr");
    lua_pushvalue(L, -2);
    lua_setfield(L, -2, "stdin");
    lua_getfield(L, -1, "output");
    lua_pushvalue(L, -4);
    lua_call(L, 1, 0);
    lua_getfield(L, -1, "input");
    lua_pushvalue(L, -3);
    lua_call(L, 1, 0);
    return 0;
}

int script_redirect_io(struct script *s, FILE *out)
{
    s->o.out = out;
    lua_pushcfunction(s->L, redirect_io);
    lua_pushlightuserdata(s->L, out);
    return script_pcall(s, 1, 0, false);
}

static int l_print(lua_State *L)
{
    struct script *s = script_of(L);
    int n = lua_gettop(L);
    for (int i = 1; i <= n; i++) {
        size_t len;
        const char *text = luaL_tolstring(L, i, &len);
        if (s->o.out) {
            if (i > 1)
                fputc('\t', s->o.out);
            fwrite(text, 1, len, s->o.out);
        }
        lua_pop(L, 1);
    }
    if (s->o.out) {
        fputc('\n', s->o.out);
        fflush(s->o.out);
    }
    return 0;
}

static int open_state(lua_State *L)
{
    struct script *s = script_of(L);
    luaL_openlibs(L);
    lua_pushcfunction(L, l_print);
    lua_setglobal(L, "print");
    if (!s->o.unsafe)
        sandbox_open(L,
                     s->o.self_contained ? (s->o.what ? s->o.what : "a self-contained file") : NULL,
                     s->root);
    return 0;
}

struct script *script_new(const struct script_opts *o)
{
    struct script *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->o = *o;
    s->co_ref = LUA_NOREF;
    s->watch = -1;
    if (o->async) {
        s->mem = open_memstream(&s->mem_buf, &s->mem_size);
        if (!s->mem) {
            free(s);
            return NULL;
        }
        s->o.out = s->mem;
    }
    s->L = lua_newstate(script_alloc, s);
    if (!s->L) {
        free(s);
        return NULL;
    }
    *(struct script **)lua_getextraspace(s->L) = s;
    lua_sethook(s->L, script_hook, LUA_MASKCOUNT, HOOK_EVERY);
    lua_pushcfunction(s->L, open_state);
    if (script_pcall(s, 0, 0, false) < 0) {
        script_free(s);
        return NULL;
    }
    return s;
}

void script_free(struct script *s)
{
    if (!s)
        return;
    script_request_clear(s);
    if (s->L) {
        /* Finalizers run at close: under the memory limit and the wall clock too (the count
         * hook is off inside finalizers, so only the watchdog stops an endless one). */
        script_clock_start(s);
        s->depth++;
        lua_close(s->L);
        s->L = NULL;
        s->depth--;
        watchdog_disarm(s->watch); /* not script_clock_stop: the state is gone */
        s->watch = -1;
    }
    if (s->mem)
        fclose(s->mem);
    free(s->mem_buf);
    free(s);
}

void script_request_clear(struct script *s)
{
    struct script_request *r = &s->req;
    for (int i = 0; i < r->n; i++) {
        if (r->res)
            json_decref(r->res[i]);
        if (r->err)
            free(r->err[i]);
    }
    free(r->p);
    free(r->res);
    free(r->err);
    free(r->fed);
    memset(r, 0, sizeof *r);
}

/* Lets `require "x"` find modules beside the script. */
static int add_script_dir(lua_State *L)
{
    const char *path = lua_tostring(L, 1);
    const char *slash = strrchr(path, '/');
    lua_getglobal(L, "package");
    if (slash)
        lua_pushlstring(L, path, (size_t)(slash - path));
    else
        lua_pushliteral(L, ".");
    lua_getfield(L, -2, "path");
    lua_pushfstring(L, "%s/?.lua;%s", lua_tostring(L, -2), lua_tostring(L, -1));
    lua_setfield(L, -4, "path");
    return 0;
}

int script_set_args(struct script *s, const char *path, int argc, char **argv)
{
    lua_State *L = s->L;
    lua_createtable(L, argc, 1);
    lua_pushstring(L, path);
    lua_rawseti(L, -2, 0);
    for (int i = 0; i < argc; i++) {
        lua_pushstring(L, argv[i]);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setglobal(L, "arg");
    lua_pushcfunction(L, add_script_dir);
    lua_pushstring(L, path);
    return script_pcall(s, 1, 0, false);
}
