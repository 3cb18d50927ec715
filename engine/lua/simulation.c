/* Simulation profiles in Lua (simulation.h): one file per process, loaded at start-up, its
 * declarations put in the parameter table, its functions evaluated with the analytics'. */
#include "simulation.h"

#include <lauxlib.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "script.h"
#include "script_convert.h"
#include "embedded/simulation_spec_lua.h" /* scripts/lua/internal/simulation_spec.lua */

enum { FN_PARTICLES, FN_COST, FN_HALO, FN_HALO_PERIOD, FN_STATE, FN_COUNT };
static const char *const fn_names[FN_COUNT] = {"particles", "cost", "halo", "halo_period", "state"};
static const char *const fn_what[FN_COUNT] = {
    "elements of the whole domain, the analytics' ctx.particles",
    "reference-core seconds for one iteration of one rank", "bytes of one halo message",
    "iterations between two halo exchanges", "bytes of one rank's state for the analytics"};

static struct {
    char name[PARAMS_PATH_MAX]; /* as given to simulation_activate */
    char path[PATH_MAX];        /* the file, resolved and real */
    struct stat st;
    struct script *s;
    int spec_ref;
    int nparams;   /* declared */
    unsigned uses; /* the built-in melt's parameters it reads: 1 << (id - P_REGION) */
    char pos[FN_COUNT][PATH_MAX + 16];
} act;

/* The built-in melt's own parameters: a profile's ctx has those it names in `uses` only. */
static bool melt_param(int id)
{
    return id == P_REGION || id == P_SIM_COST || id == P_HALO_PERIOD;
}

bool simulation_uses(int id)
{
    return !act.name[0] || !melt_param(id) || (act.uses >> (id - P_REGION) & 1u);
}

_Static_assert(sizeof act.pos[0] > sizeof act.path, "a function's position holds its path");

const char *simulation_active(void)
{
    return act.name;
}

int simulation_list(char names[][SIMULATION_NAME_MAX], int max)
{
    return datadir_list("scripts/lua/simulations", ".lua", names, max);
}

int simulation_resolve(const char *name, char *path, size_t len, char *err, size_t errlen)
{
    return datadir_resolve_lua("simulation", "scripts/lua/simulations", name, path, len, err,
                               errlen);
}

/* The real path of the file behind name. */
static int real_file(const char *name, char *out, char *err, size_t errlen)
{
    char path[PATH_MAX];
    if (simulation_resolve(name, path, sizeof path, err, errlen) < 0)
        return -1;
    if (!realpath(path, out)) {
        snprintf(err, errlen, "simulation: %s: cannot read", path);
        return -1;
    }
    return 0;
}

static void drop(void)
{
    script_free(act.s);
    act.s = NULL;
}

void simulation_forget(void)
{
    drop();
    memset(&act, 0, sizeof act);
    params_declare_reset();
    layout_set_shape((struct sim_shape){3, true});
}

/* "FILE:LINE" where the function at the top of the stack was defined, or "FILE". */
static void function_position(lua_State *L, int fn)
{
    lua_Debug ar;
    lua_pushvalue(L, -1);
    lua_getinfo(L, ">S", &ar);
    if (ar.source[0] == '@' && !strcmp(ar.source + 1, act.path))
        snprintf(act.pos[fn], sizeof act.pos[fn], "%s:%d", script_source(&ar), ar.linedefined);
    else
        memcpy(act.pos[fn], act.path, strlen(act.path) + 1);
}

/* Loads act.path and checks its shape; the checked table at the top of the stack. */
static int load(char *err, size_t errlen)
{
    struct script_opts o = {.unsafe = false,
                            .out = stderr,
                            .max_instructions = ANALYTICS_MAX_INSTRUCTIONS,
                            .max_memory = ANALYTICS_MAX_MEMORY,
                            .time_limit = ANALYTICS_TIME_LIMIT, /* or --time-limit's */
                            .self_contained = true,
                            .what = "a simulation profile file"};
    drop();
    if (stat(act.path, &act.st) < 0 || !(act.s = script_new(&o))) {
        snprintf(err, errlen, "%s: cannot read", act.path);
        return -1;
    }
    lua_State *L = script_lua(act.s);
    /* print and io.write go to stderr: stdout carries results (situ run --json). */
    if (script_redirect_io(act.s, o.out) < 0 || script_load(act.s, act.path) < 0 ||
        script_pcall(act.s, 0, 1, false) < 0 ||
        script_load_chunk(act.s, (const char *)simulation_spec_lua, sizeof simulation_spec_lua - 1,
                          "=simulation") < 0)
        goto fail;
    lua_insert(L, -2);
    lua_pushstring(L, act.path);
    if (script_pcall(act.s, 2, 1, false) < 0)
        goto fail;
    for (int fn = 0; fn < FN_COUNT; fn++) {
        script_raw_field(L, -1, fn_names[fn]);
        function_position(L, fn);
        lua_pop(L, 1);
    }
    return 0;
fail:
    script_error_line(act.s, err, errlen);
    drop();
    return -1;
}

/* The checked table's declarations into the table and the shape (a first load), or checked
 * against them (a reload: the table cannot change once threads run). */
static int declare(lua_State *L, bool first, char *err, size_t errlen)
{
    script_raw_field(L, -1, "params");
    int n = (int)lua_rawlen(L, -1);
    if (!first && n != act.nparams) {
        snprintf(err, errlen, "%s: its parameters changed; start situ again to use them", act.path);
        lua_pop(L, 1);
        return -1;
    }
    for (int i = 1; i <= n; i++) {
        lua_rawgeti(L, -1, i);
        script_raw_field(L, -1, "name");
        script_raw_field(L, -2, "unit");
        script_raw_field(L, -3, "help");
        const char *key = lua_tostring(L, -3);
        struct param_desc d = {
            .key = key, .unit = lua_tostring(L, -2), .help = lua_tostring(L, -1)};
        lua_pop(L, 3);
        const char *nums[] = {"default", "min", "max"};
        double *dst[] = {&d.def, &d.min, &d.max};
        for (int k = 0; k < 3; k++) {
            script_raw_field(L, -1, nums[k]);
            *dst[k] = lua_tonumber(L, -1);
            lua_pop(L, 1);
        }
        script_raw_field(L, -1, "log");
        d.scale = lua_toboolean(L, -1) ? SCALE_LOG : SCALE_LINEAR;
        lua_pop(L, 1);
        char perr[PARAMS_ERR_MAX];
        int rc = 0;
        if (first)
            rc = params_declare(&d, perr, sizeof perr);
        else if (params_find(d.key) != P_EXTRA0 + i - 1)
            rc = -1, snprintf(perr, sizeof perr, "parameter '%s' changed", d.key);
        lua_pop(L, 1);
        if (rc < 0) {
            snprintf(err, errlen, "%s: params[%d]: %s%s", act.path, i, perr,
                     first ? "" : "; start situ again to use it");
            lua_pop(L, 1);
            return -1;
        }
    }
    lua_pop(L, 1);
    act.nparams = n;
    unsigned uses = 0;
    script_raw_field(L, -1, "uses"); /* checked names (simulation_spec.lua) */
    for (int i = 1; lua_rawgeti(L, -1, i) == LUA_TSTRING; i++) {
        uses |= 1u << (params_find(lua_tostring(L, -1)) - P_REGION);
        lua_pop(L, 1);
    }
    lua_pop(L, 2);
    if (!first && uses != act.uses) {
        snprintf(err, errlen, "%s: its uses changed; start situ again to use them", act.path);
        return -1;
    }
    act.uses = uses;
    script_raw_field(L, -1, "dims");
    script_raw_field(L, -2, "periodic");
    struct sim_shape shape = {(int)lua_tointeger(L, -2), lua_toboolean(L, -1)};
    lua_pop(L, 2);
    struct sim_shape now = layout_shape();
    if (!first && (now.dims != shape.dims || now.periodic != shape.periodic)) {
        snprintf(err, errlen, "%s: its decomposition changed; start situ again to use it",
                 act.path);
        return -1;
    }
    layout_set_shape(shape);
    return 0;
}

int simulation_activate(const char *name, char *err, size_t errlen)
{
    char path[PATH_MAX];
    if (!name[0] && !act.name[0])
        return 0;
    if (name[0] && real_file(name, path, err, errlen) < 0)
        return -1;
    if (act.name[0] && name[0] && !strcmp(path, act.path))
        return 0;
    if (act.name[0] || params_extra_count) {
        snprintf(err, errlen, "simulation: '%s' after '%s': one simulation profile per run of situ",
                 name, act.name);
        return -1;
    }
    snprintf(act.name, sizeof act.name, "%s", name);
    memcpy(act.path, path, sizeof act.path);
    if (load(err, errlen) < 0 || declare(script_lua(act.s), true, err, errlen) < 0) {
        simulation_forget();
        return -1;
    }
    lua_State *L = script_lua(act.s);
    act.spec_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    return 0;
}

int simulation_activate_argv(int argc, char **argv, char *err, size_t errlen)
{
    const char *name = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--")) /* what follows is not situ's (an SMPI application's) */
            break;
        if (!strncmp(argv[i], "--simulation=", 13))
            name = argv[i] + 13;
        else if (!strcmp(argv[i], "--simulation") && i + 1 < argc)
            name = argv[++i];
    }
    return name ? simulation_activate(name, err, errlen) : 0;
}

/* The active file, reloaded when it changed on disk (its declarations the same). */
static int current(const struct params *p, char *err, size_t errlen)
{
    char path[PATH_MAX];
    if (real_file(p->simulation, path, err, errlen) < 0)
        return -1;
    if (!act.name[0] || strcmp(path, act.path)) {
        snprintf(err, errlen,
                 "simulation: '%s' is not the profile situ started with (%s%s%s): give "
                 "--simulation %s on the command line",
                 p->simulation, act.name[0] ? "'" : "", act.name[0] ? act.name : "none",
                 act.name[0] ? "'" : "", p->simulation);
        return -1;
    }
    struct stat st;
    if (act.s && stat(act.path, &st) == 0 && st.st_mtim.tv_sec == act.st.st_mtim.tv_sec &&
        st.st_mtim.tv_nsec == act.st.st_mtim.tv_nsec && st.st_size == act.st.st_size &&
        st.st_ino == act.st.st_ino)
        return 0;
    if (load(err, errlen) < 0 || declare(script_lua(act.s), false, err, errlen) < 0) {
        drop();
        return -1;
    }
    act.spec_ref = luaL_ref(script_lua(act.s), LUA_REGISTRYINDEX);
    return 0;
}

/* The analysis step being evaluated (ctx.step), and whether a function read it. */
static long eval_step;
static bool step_used;

static int ctx_index(lua_State *L)
{
    const char *key = lua_tostring(L, 2);
    int id = key ? params_find(key) : -1;
    if (id >= 0 && melt_param(id))
        return luaL_error(L,
                          "ctx.%s: a parameter of the built-in melt: name it in the "
                          "profile's uses = {...} to read it",
                          param_table[id].key);
    if (key && !strcmp(key, "step")) { /* served here, so that who never reads it runs once */
        step_used = true;
        lua_pushinteger(L, eval_step);
        return 1;
    }
    return luaL_error(L,
                      "ctx.%s: no such field (ctx has sim_cores, sim_nodes, px, py, pz, steps, "
                      "step and every parameter: situ --simulation FILE --help)",
                      key ? key : luaL_typename(L, 2));
}

static void push_ctx(lua_State *L, const struct params *p, const struct layout *l)
{
    script_push_params(L, p);
    for (int id = 0; id < PARAM_COUNT; id++)
        if (!simulation_uses(id)) { /* not the profile's: reading it is an error (ctx_index) */
            lua_pushnil(L);
            lua_setfield(L, -2, param_table[id].key);
        }
    const char *keys[] = {"sim_cores", "sim_nodes", "px", "py", "pz", "steps"};
    long vals[] = {l->sim_cores, l->sim_nodes, l->px, l->py, l->pz, p->iterations / p->stride};
    for (int i = 0; i < 6; i++) {
        lua_pushinteger(L, vals[i]);
        lua_setfield(L, -2, keys[i]);
    }
    lua_createtable(L, 0, 1);
    lua_pushcfunction(L, ctx_index);
    lua_setfield(L, -2, "__index");
    lua_setmetatable(L, -2);
}

/* A finite number >= 0 at idx into *out; the message names what and where. */
static int take_number(lua_State *L, int idx, int fn, const char *field, double *out, char *err,
                       size_t errlen)
{
    double x = lua_tonumber(L, idx);
    bool ok = lua_type(L, idx) == LUA_TNUMBER && isfinite(x) && x >= 0;
    if (fn == FN_HALO_PERIOD)
        ok = ok && x >= 1 && x == floor(x) && x <= 1e9;
    if (!ok) {
        char got[80];
        script_describe(L, idx, got, sizeof got);
        char at[48] = "";
        if (step_used)
            snprintf(at, sizeof at, " at ctx.step = %ld", eval_step);
        snprintf(err, errlen, "%s: %s%s returned %s%s; expected %s (%s)", act.pos[fn], fn_names[fn],
                 field, got, at, fn == FN_HALO_PERIOD ? "an integer >= 1" : "a finite number >= 0",
                 fn_what[fn]);
        return -1;
    }
    *out = x;
    return 0;
}

static int halo_value(lua_State *L, struct sim_profile *out, char *err, size_t errlen)
{
    int t = lua_gettop(L);
    if (!lua_istable(L, t)) {
        char got[80];
        script_describe(L, t, got, sizeof got);
        snprintf(err, errlen, "%s: halo returned %s; expected {x = B, y = B, z = B}",
                 act.pos[FN_HALO], got);
        return -1;
    }
    lua_pushnil(L);
    while (lua_next(L, t)) {
        const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
        if (!k || strlen(k) != 1 || k[0] < 'x' || k[0] > 'z') {
            snprintf(err, errlen, "%s: halo returned an unknown field '%s' (x, y, z)",
                     act.pos[FN_HALO], k ? k : luaL_typename(L, -2));
            return -1;
        }
        lua_pop(L, 1);
    }
    static const char *const axes[] = {".x", ".y", ".z"};
    for (int d = 0; d < 3; d++) {
        script_raw_field(L, t, axes[d] + 1);
        out->face[d] = 0;
        if (!lua_isnil(L, -1) && take_number(L, -1, FN_HALO, axes[d], &out->face[d], err, errlen))
            return -1;
        lua_pop(L, 1);
    }
    return 0;
}

int simulation_eval(const struct params *p, const struct layout *l, struct sim_profile *out,
                    char *err, size_t errlen)
{
    bool used;
    return simulation_eval_step(p, l, 0, out, &used, err, errlen);
}

int simulation_eval_step(const struct params *p, const struct layout *l, long step,
                         struct sim_profile *out, bool *used, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    *used = step_used = false;
    eval_step = step;
    if (!p->simulation[0] && !act.name[0]) {
        simprofile_melt(p, l, out);
        return 0;
    }
    if (!p->simulation[0]) {
        snprintf(err, errlen,
                 "simulation: the built-in melt in a situ started with --simulation %s: start "
                 "situ again without it",
                 act.name);
        return -1;
    }
    if (current(p, err, errlen) < 0)
        return -1;
    lua_State *L = script_lua(act.s);
    double *dst[FN_COUNT] = {&out->particles, &out->cost, NULL, NULL, &out->state_bytes};
    double period = 1;
    dst[FN_HALO_PERIOD] = &period;
    for (int fn = 0; fn < FN_COUNT; fn++) {
        int top = lua_gettop(L);
        lua_rawgeti(L, LUA_REGISTRYINDEX, act.spec_ref);
        script_raw_field(L, -1, fn_names[fn]);
        lua_remove(L, -2);
        push_ctx(L, p, l);
        script_budget_reset(act.s);
        int rc = script_pcall(act.s, 1, 1, false);
        if (rc < 0) {
            script_error_line(act.s, err, errlen);
            size_t n = strlen(err);
            if (step_used && n < errlen)
                snprintf(err + n, errlen - n, " (at ctx.step = %ld)", eval_step);
        } else if (fn == FN_HALO)
            rc = halo_value(L, out, err, errlen);
        else
            rc = take_number(L, -1, fn, "", dst[fn], err, errlen);
        lua_settop(L, top);
        if (rc < 0)
            return -1;
    }
    out->halo_period = (long)period;
    *used = step_used;
    return 0;
}
