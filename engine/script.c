/* The interpreter every Lua file of Situ runs in: a counting allocator, a count hook, the
 * sandbox, and protected calls whose errors read "FILE:LINE: message" (as lua.c's docall and
 * msghandler do, tracebacks kept). Nothing here is fatal to the process. */
#include "script.h"

#include <ctype.h>
#include <errno.h>
#include <lauxlib.h>
#include <limits.h>
#include <lualib.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HOOK_EVERY 1000 /* instructions between two looks at the budget */

struct script *script_of(lua_State *L)
{
    return *(struct script **)lua_getextraspace(L);
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

static void script_hook(lua_State *L, lua_Debug *ar)
{
    struct script *s = script_of(L);
    s->count += HOOK_EVERY;
    if (lua_getinfo(L, "Sl", ar) && ar->currentline > 0)
        snprintf(s->where, sizeof s->where, "%s:%d", ar->short_src, ar->currentline);
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
            snprintf(out, len, "%s:%d", ar.short_src, ar.currentline);
            return;
        }
    }
    snprintf(out, len, "?");
}

/* "file.lua:12: ..." already says where; anything else gets the position of the innermost Lua
 * function prepended. */
static bool has_position(const char *msg)
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
    if (!has_position(msg)) {
        char where[256];
        script_where(L, where, sizeof where);
        msg = lua_pushfstring(L, "%s: %s", where, msg);
    }
    if (lua_toboolean(L, lua_upvalueindex(1)))
        luaL_traceback(L, L, msg, 1);
    else
        lua_pushstring(L, msg);
    return 1;
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
            snprintf(s->where, sizeof s->where, "%s:%d", ar.short_src, ar.linedefined);
        else
            snprintf(s->where, sizeof s->where, "%s", ar.source[0] == '@' ? ar.short_src : "?");
    }
    s->depth++;
    s->mem_hit = false;
    int status = lua_pcall(L, nargs, nresults, base);
    s->depth--;
    lua_remove(L, base);
    if (status == LUA_OK)
        return 0;
    /* Lua calls no message handler for memory errors: the hook's last position stands in. */
    if (status == LUA_ERRMEM || s->mem_hit)
        snprintf(s->err, sizeof s->err, "%s: out of memory: over the limit of %zu MiB%s",
                 s->where[0] ? s->where : "?", s->o.max_memory >> 20,
                 s->o.cli_limits ? " (--max-memory raises it)" : "");
    else
        snprintf(s->err, sizeof s->err, "%s",
                 lua_tostring(L, -1) ? lua_tostring(L, -1) : "unknown error");
    lua_pop(L, 1);
    s->mem_hit = false;
    lua_gc(L, LUA_GCCOLLECT);
    return -1;
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
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(s->err, sizeof s->err, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    fclose(f);
    s->depth++;
    int status = luaL_loadfilex(s->L, path, "t"); /* never bytecode: it can crash the VM */
    s->depth--;
    if (status == LUA_OK)
        return 0;
    snprintf(s->err, sizeof s->err, "%s",
             lua_tostring(s->L, -1) ? lua_tostring(s->L, -1) : "cannot load");
    lua_pop(s->L, 1);
    return -1;
}

int script_check_write(const char *path, char *err, size_t errlen)
{
    const char *why = NULL;
    if (!path[0])
        why = "an empty path";
    else if (path[0] == '/' || path[0] == '~')
        why = "not a relative path";
    for (const char *c = path; !why && *c; c++)
        if (c[0] == '.' && c[1] == '.' && (c == path || c[-1] == '/') && (!c[2] || c[2] == '/'))
            why = "'..' leaves the current directory";
    if (!why) {
        /* A symbolic link inside the current directory may still point out of it. */
        char dir[PATH_MAX], real_dir[PATH_MAX], cwd[PATH_MAX];
        snprintf(dir, sizeof dir, "%s", path);
        char *slash = strrchr(dir, '/');
        if (slash)
            *slash = 0;
        else
            snprintf(dir, sizeof dir, ".");
        if (getcwd(cwd, sizeof cwd) && realpath(dir, real_dir)) {
            size_t n = strlen(cwd);
            if (strncmp(real_dir, cwd, n) || (real_dir[n] && real_dir[n] != '/' && n > 1))
                why = "it leads out of the current directory";
        }
    }
    if (!why)
        return 0;
    snprintf(err, errlen,
             "'%s': the sandbox only writes inside the current directory (%s); "
             "situ script --unsafe lifts it",
             path, why);
    return -1;
}

/* true, or false and the reason: the Lua side raises it at the caller's line. */
static int l_check_write(lua_State *L)
{
    char err[PATH_MAX + 200];
    bool ok = script_check_write(luaL_checkstring(L, 1), err, sizeof err) == 0;
    lua_pushboolean(L, ok);
    lua_pushstring(L, ok ? "" : err);
    return 2;
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

/* The sandbox, written in Lua: what would let a script run programs, load native code, touch
 * the debug machinery or write outside the current directory is replaced by a function that
 * says so. Reading files stays allowed. */
static const char sandbox_lua[] =
    "local check = ...\n"
    "local function check_write(path)\n"
    "  if type(path) ~= 'string' then return end\n"
    "  local ok, why = check(path)\n"
    "  if not ok then error(why, 3) end\n"
    "end\n"
    "local function denied(name)\n"
    "  return function() error(name .. ' is not available in the sandbox '\n"
    "    .. '(situ script --unsafe lifts it)', 2) end\n"
    "end\n"
    "for _, f in ipairs{'execute', 'exit', 'remove', 'rename', 'tmpname', 'getenv',\n"
    "                   'setlocale'} do\n"
    "  os[f] = denied('os.' .. f)\n"
    "end\n"
    "io.popen = denied('io.popen')\n"
    "io.tmpfile = denied('io.tmpfile')\n"
    "package.loadlib = denied('package.loadlib')\n"
    "package.cpath = ''\n"
    "local searchers = package.searchers\n"
    "local function no_c_module(name)\n"
    "  return '\\n\\tno C modules in the sandbox (situ script --unsafe lifts it)'\n"
    "end\n"
    "searchers[3], searchers[4] = no_c_module, nil\n"
    "debug, package.loaded.debug = nil, nil\n"
    "local open, output, rawload, rawloadfile = io.open, io.output, load, loadfile\n"
    "function io.open(path, mode)\n"
    "  if mode ~= nil and type(mode) ~= 'string' then\n"
    "    error(\"bad argument #2 to 'open' (string expected)\", 2)\n"
    "  end\n"
    "  if mode and mode:find('[wa+]') then check_write(path) end\n"
    "  return open(path, mode)\n"
    "end\n"
    "function io.output(file)\n"
    "  if type(file) == 'string' then check_write(file) end\n"
    "  return output(file)\n"
    "end\n"
    "function load(chunk, name, mode, env)\n"
    "  if env == nil then return rawload(chunk, name, 't') end\n"
    "  return rawload(chunk, name, 't', env)\n"
    "end\n"
    "function loadfile(name, mode, env)\n"
    "  if env == nil then return rawloadfile(name, 't') end\n"
    "  return rawloadfile(name, 't', env)\n"
    "end\n"
    "function dofile(name)\n"
    "  local f = assert(loadfile(name))\n"
    "  return f()\n"
    "end\n"
    "string.dump = denied('string.dump')\n";

static int open_state(lua_State *L)
{
    struct script *s = script_of(L);
    luaL_openlibs(L);
    lua_pushcfunction(L, l_print);
    lua_setglobal(L, "print");
    if (s->o.unsafe)
        return 0;
    if (luaL_loadbuffer(L, sandbox_lua, sizeof sandbox_lua - 1, "=sandbox") != LUA_OK)
        return lua_error(L);
    lua_pushcfunction(L, l_check_write);
    lua_call(L, 1, 0);
    return 0;
}

struct script *script_new(const struct script_opts *o)
{
    struct script *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->o = *o;
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
    if (s->L)
        lua_close(s->L);
    free(s);
}

void script_set_args(struct script *s, const char *path, int argc, char **argv)
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
}
