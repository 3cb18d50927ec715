/* The sandbox, built once: every check is a C closure that holds what it calls (Lua's own io.open,
 * io.output, load, package.searchpath) as upvalues, made before any user code runs; none looks up
 * a global, a library field or a string method when it is called. User code then gets a copy of
 * the globals as its own: replacing `type`, `error`, `string.find` or the string metatable's
 * __index changes what the script sees, never what the sandbox does.
 *
 * The rules: writes as sandbox_check_write says (opened without following a link); code (load,
 * loadfile, dofile, require) is source text only, never bytecode (one crafted byte of bytecode
 * crashes the VM), and files of code only from inside the current directory or the script's,
 * every link and ".." resolved. */
#include "sandbox.h"
#include "script_convert.h"

#include <errno.h>
#include <fcntl.h>
#include <lauxlib.h>
#include <limits.h>
#include <lua.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../base/infile.h"
#include "embedded/sandbox_lua.h" /* scripts/lua/internal/sandbox.lua, compiled in */

static const char globals_key; /* the registry's: the globals as the sandbox built them */
static const char reseed_key;  /* the registry's: sandbox.lua's reseed, for self-contained files */

int sandbox_check_write(const char *path, char *err, size_t errlen)
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
             "--unsafe lifts it",
             path, why);
    return -1;
}

/* liolib's rule for a mode ("r", "w+", "ab"...): one of r w a, maybe '+', then only 'b'. */
static bool mode_ok(const char *mode)
{
    if (!mode[0] || !strchr("rwa", mode[0]))
        return false;
    mode += mode[1] == '+' ? 2 : 1;
    return strspn(mode, "b") == strlen(mode);
}

static int close_written(lua_State *L)
{
    luaL_Stream *p = luaL_checkudata(L, 1, LUA_FILEHANDLE);
    return luaL_fileresult(L, fclose(p->f) == 0, NULL);
}

/* Opens path for writing, checked, without following a link at the end (a link a downloaded
 * bundle shipped cannot send the write elsewhere): pushes a file handle as io.open's, or nil, a
 * message and errno; a sandbox refusal is a Lua error at the caller's line. */
static int open_write(lua_State *L, const char *path, const char *mode)
{
    char err[PATH_MAX + 200];
    if (sandbox_check_write(path, err, sizeof err) < 0)
        return luaL_error(L, "%s", err);
    int flags = strchr(mode, '+') ? O_RDWR : O_WRONLY;
    if (mode[0] == 'w')
        flags |= O_CREAT | O_TRUNC;
    else if (mode[0] == 'a')
        flags |= O_CREAT | O_APPEND;
    int fd = open(path, flags | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0 && errno == ELOOP)
        return luaL_error(
            L, "'%s': the sandbox does not write through a symbolic link (--unsafe lifts it)",
            path);
    luaL_Stream *p = lua_newuserdatauv(L, sizeof *p, 0);
    p->closef = NULL; /* not open until fdopen succeeds */
    luaL_setmetatable(L, LUA_FILEHANDLE);
    p->f = fd >= 0 ? fdopen(fd, mode) : NULL;
    if (!p->f) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        lua_pushnil(L);
        lua_pushfstring(L, "%s: %s", path, strerror(e));
        lua_pushinteger(L, e);
        return 3;
    }
    p->closef = close_written;
    return 1;
}

/* io.open: a mode that writes ('w', 'a' or '+') goes to open_write, any other to Lua's io.open
 * (upvalue 1): reading is allowed anywhere. A number is a path, as io.open takes it. */
static int io_open(lua_State *L)
{
    luaL_checkstring(L, 1);
    const char *path = script_text(L, 1, "io.open: the file name");
    const char *mode = luaL_optstring(L, 2, "r");
    luaL_argcheck(L, mode_ok(mode), 2, "invalid mode");
    if (strpbrk(mode, "wa+"))
        return open_write(L, path, mode);
    lua_settop(L, 2);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushvalue(L, 1); /* the path as a string: luaL_checkstring converted a number in place */
    lua_pushstring(L, mode);
    lua_call(L, 2, LUA_MULTRET);
    return lua_gettop(L) - 2;
}

/* io.output: a file name (or number) is opened by open_write; anything else (a handle, nothing)
 * goes to Lua's io.output (upvalue 1) as it is. */
static int io_output(lua_State *L)
{
    lua_settop(L, 1);
    if (lua_isstring(L, 1)) {
        const char *path = script_text(L, 1, "io.output: the file name");
        if (open_write(L, path, "w") != 1)
            return luaL_error(L, "%s", lua_tostring(L, -2));
        lua_replace(L, 1);
    }
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, 1, 1);
    return 1;
}

/* load: Lua's (upvalue 1), its mode forced to text; an env given, even nil, is passed on. */
static int load_text(lua_State *L)
{
    bool env = lua_gettop(L) >= 4;
    if (!lua_isstring(L, 1))
        luaL_checktype(L, 1, LUA_TFUNCTION);
    luaL_optstring(L, 2, NULL);
    luaL_optstring(L, 3, NULL);
    lua_settop(L, 4);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_pushvalue(L, 1);
    lua_pushvalue(L, 2);
    lua_pushliteral(L, "t");
    if (env)
        lua_pushvalue(L, 4);
    lua_call(L, env ? 4 : 3, LUA_MULTRET);
    return lua_gettop(L) - 4;
}

static bool inside(const char *real, const char *dir)
{
    size_t n = strlen(dir);
    return n && !strncmp(real, dir, n) && (real[n] == '/' || !real[n] || n == 1);
}

/* Pushes the chunk of Lua source in file `name` (its _ENV the user's globals): LUA_OK, or another
 * status and the message. A file that resolves outside the current directory and the script's
 * (root) is a Lua error at the caller's line. What is checked is the path the script names now;
 * a link swapped between the check and the open would take someone who can already write in the
 * directory, which a script cannot (no os.rename, no links). */
static int load_code_file(lua_State *L, const char *name, const char *root)
{
    char real[PATH_MAX], cwd[PATH_MAX];
    if (!realpath(name, real)) {
        lua_pushfstring(L, "cannot open %s: %s", name, strerror(errno));
        return LUA_ERRFILE;
    }
    if (!(getcwd(cwd, sizeof cwd) && inside(real, cwd)) && !inside(real, root))
        return luaL_error(L,
                          "'%s': the sandbox loads code only from the current directory and the "
                          "script's, and this is %s (--unsafe lifts it)",
                          name, real);
    char why[INFILE_ERR_MAX];
    if (infile_check(name, "Lua file", SANDBOX_CODE_FILE_MAX, why, sizeof why) < 0) {
        lua_pushstring(L, why); /* a FIFO would block the loader's fopen, outside any hook */
        return LUA_ERRFILE;
    }
    int status = luaL_loadfilex(L, name, "t");
    const char *msg = status == LUA_ERRSYNTAX ? lua_tostring(L, -1) : NULL;
    if (msg && !strncmp(msg, "attempt to load a binary chunk", 30)) {
        lua_pop(L, 1);
        lua_pushfstring(L,
                        "%s: attempt to load a binary chunk: the sandbox loads Lua source only, "
                        "bytecode can crash it (--unsafe lifts it)",
                        name);
    }
    return status;
}

/* The file name of loadfile and dofile: standard input is no file of the sandbox's (and, in the
 * explorer's helpers, it is their protocol). */
static const char *code_file_name(lua_State *L, const char *fn)
{
    if (lua_isnoneornil(L, 1))
        luaL_error(L, "%s: the sandbox loads files only, not standard input (--unsafe lifts it)",
                   fn);
    luaL_checkstring(L, 1);
    return script_text(L, 1, fn);
}

/* loadfile(name [, mode [, env]]): upvalue 1, the script's directory. */
static int loadfile_text(lua_State *L)
{
    const char *name = code_file_name(L, "loadfile");
    luaL_optstring(L, 2, NULL);
    int env = lua_isnone(L, 3) ? 0 : 3;
    if (load_code_file(L, name, lua_touserdata(L, lua_upvalueindex(1))) != LUA_OK) {
        luaL_pushfail(L);
        lua_insert(L, -2);
        return 2;
    }
    if (env) {
        lua_pushvalue(L, env);
        if (!lua_setupvalue(L, -2, 1))
            lua_pop(L, 1);
    }
    return 1;
}

static int dofile_cont(lua_State *L, int status, lua_KContext ctx)
{
    (void)status;
    (void)ctx;
    return lua_gettop(L) - 1;
}

/* dofile(name), as Lua's: the chunk may yield (a scenario's situ.run in the explorer). */
static int dofile_text(lua_State *L)
{
    const char *name = code_file_name(L, "dofile");
    lua_settop(L, 1);
    if (load_code_file(L, name, lua_touserdata(L, lua_upvalueindex(1))) != LUA_OK)
        return lua_error(L);
    lua_callk(L, 0, LUA_MULTRET, 0, dofile_cont);
    return dofile_cont(L, 0, 0);
}

/* package.searchers[2], Lua's own replaced: the file package.path names (package is upvalue 1,
 * package.searchpath upvalue 2), then load_code_file. Returns the loader and the file name, or
 * the "no file" list; a file outside the sandbox, of bytecode or that does not compile is an
 * error at the line of the require. */
static int search_lua(lua_State *L)
{
    luaL_checkstring(L, 1);
    const char *name = script_text(L, 1, "require: the module name");
    lua_settop(L, 1);
    lua_pushvalue(L, lua_upvalueindex(2));
    lua_pushvalue(L, 1);
    lua_getfield(L, lua_upvalueindex(1), "path");
    if (!lua_isstring(L, -1))
        return luaL_error(L, "'package.path' must be a string");
    lua_call(L, 2, 2);
    if (lua_isnil(L, -2))
        return 1; /* the list of files tried */
    lua_pop(L, 1);
    const char *file = lua_tostring(L, -1);
    if (load_code_file(L, file, lua_touserdata(L, lua_upvalueindex(3))) != LUA_OK) {
        luaL_where(L, 2); /* the line of the require (level 1 is require itself) */
        return luaL_error(L, "%smodule '%s': %s", lua_tostring(L, -1), name, lua_tostring(L, -2));
    }
    lua_insert(L, -2);
    return 2;
}

/* The library tables of Situ's own chunks: copies, made before any user code runs. User code
 * keeps the originals, which it can change (string.format = ..., or through the string
 * metatable's __index, which is the original string table); Situ's chunks, which capture these
 * functions as locals and call no method on a string, never see the change. */
static void private_libraries(lua_State *L, int globals)
{
    static const char *const libs[] = {"string", "math", "table", "utf8", NULL};
    for (int i = 0; libs[i]; i++) {
        if (lua_getfield(L, globals, libs[i]) != LUA_TTABLE) {
            lua_pop(L, 1);
            continue;
        }
        lua_newtable(L);
        lua_pushnil(L);
        while (lua_next(L, -3)) {
            lua_pushvalue(L, -2);
            lua_insert(L, -2);
            lua_rawset(L, -4);
        }
        lua_setfield(L, globals, libs[i]);
        lua_pop(L, 1);
    }
}

/* User code's globals: a copy of the sandbox's (the same library tables), its own _G. The
 * sandbox's are kept for Situ's own chunks (sandbox_own_env), with their own library tables
 * (private_libraries). */
static void user_globals(lua_State *L)
{
    lua_pushglobaltable(L);
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &globals_key);
    lua_newtable(L);
    lua_pushnil(L);
    while (lua_next(L, -3)) {
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, -4);
    }
    lua_pushvalue(L, -1);
    lua_setfield(L, -2, "_G");
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    lua_pushvalue(L, -2);
    lua_setfield(L, -2, "_G");
    lua_pop(L, 1);
    lua_rawseti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS);
    private_libraries(L, lua_gettop(L));
    lua_pop(L, 1);
}

/* require(name): Lua's (upvalue 1) hands its searchers the name as C text, cut at a NUL byte
 * ("mod\0x" would load mod.lua): such a name is refused first. */
static int require_text(lua_State *L)
{
    luaL_checkstring(L, 1);
    script_text(L, 1, "require: the module name");
    lua_settop(L, 1);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, 1, LUA_MULTRET);
    return lua_gettop(L);
}

void sandbox_open(lua_State *L, const char *self_contained, const char *root)
{
    if (luaL_loadbufferx(L, (const char *)sandbox_lua, sizeof sandbox_lua - 1, "=sandbox", "t") !=
        LUA_OK)
        lua_error(L);
    lua_createtable(L, 0, 6);
    lua_getglobal(L, "io");
    lua_getfield(L, -1, "open");
    lua_pushcclosure(L, io_open, 1);
    lua_setfield(L, -3, "open");
    lua_getfield(L, -1, "output");
    lua_pushcclosure(L, io_output, 1);
    lua_setfield(L, -3, "output");
    lua_pop(L, 1);
    lua_getglobal(L, "load");
    lua_pushcclosure(L, load_text, 1);
    lua_setfield(L, -2, "load");
    lua_pushlightuserdata(L, (void *)root);
    lua_pushcclosure(L, loadfile_text, 1);
    lua_setfield(L, -2, "loadfile");
    lua_pushlightuserdata(L, (void *)root);
    lua_pushcclosure(L, dofile_text, 1);
    lua_setfield(L, -2, "dofile");
    lua_getglobal(L, "package");
    lua_getfield(L, -1, "searchpath");
    lua_pushlightuserdata(L, (void *)root);
    lua_pushcclosure(L, search_lua, 3);
    lua_setfield(L, -2, "searcher");
    lua_getglobal(L, "require");
    lua_pushcclosure(L, require_text, 1);
    lua_setfield(L, -2, "require");
    if (self_contained)
        lua_pushstring(L, self_contained);
    else
        lua_pushnil(L);
    lua_call(L, 2, 1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &reseed_key); /* nil unless self-contained */
    user_globals(L);
}

void sandbox_reseed(lua_State *L)
{
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &reseed_key) == LUA_TFUNCTION)
        lua_call(L, 0, 0);
    else
        lua_pop(L, 1);
}

void sandbox_root(const char *file, char *root)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", file);
    char *slash = strrchr(dir, '/');
    if (slash)
        slash[slash == dir] = 0; /* "/x.lua": "/" */
    else
        snprintf(dir, sizeof dir, ".");
    if (!realpath(dir, root))
        root[0] = 0;
}

void sandbox_own_env(lua_State *L)
{
    if (lua_rawgetp(L, LUA_REGISTRYINDEX, &globals_key) != LUA_TTABLE || !lua_setupvalue(L, -2, 1))
        lua_pop(L, 1);
}
