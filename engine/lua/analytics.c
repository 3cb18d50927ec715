/* Custom analytics in Lua: loading, checking and evaluating cost/bytes/exchange, and the
 * exchange's time for the model. Each file gets its own sandboxed interpreter, kept while the
 * file does not change (the model evaluates it on every slider move). */
#include "analytics.h"

#include <lauxlib.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../base/datadir.h"
#include "../model/model.h"
#include "../model/model_reduce.h"
#include "script.h"
#include "simulation.h"
#include "script_convert.h"
#include "embedded/analytics_spec_lua.h" /* scripts/lua/internal/analytics_spec.lua, compiled in */

#define CACHE_SLOTS 8

enum { FN_COST, FN_BYTES, FN_EXCHANGE, FN_COUNT };
static const char *const fn_names[FN_COUNT] = {"cost", "bytes", "exchange"};

struct loaded {
    char path[PATH_MAX];
    struct stat st; /* the file as it was loaded: a change reloads it */
    struct script *s;
    int spec_ref; /* the checked table, defaults filled in */
    char name[ANALYTICS_NAME_MAX];
    char pos[FN_COUNT][PATH_MAX + 16]; /* "FILE:LINE" of each function, for bad return values */
    unsigned long tick;                /* last use, for eviction */
    bool step_used;                    /* some function read ctx.step */
};

_Static_assert(sizeof((struct loaded *)0)->pos[0] > sizeof((struct loaded *)0)->path,
               "a function's position holds its file's path");

static struct loaded cache[CACHE_SLOTS];
static unsigned long ticks;
static FILE *print_out;
static bool print_out_set;
static struct loaded *current; /* the entry being evaluated, for ctx's __index */
static long current_step;

void analytics_set_output(FILE *out)
{
    print_out = out;
    print_out_set = true;
    analytics_forget(); /* reloaded with their io pointed at out */
}

static void drop(struct loaded *a)
{
    script_free(a->s);
    memset(a, 0, sizeof *a);
}

void analytics_forget(void)
{
    for (int i = 0; i < CACHE_SLOTS; i++)
        drop(&cache[i]);
}

void analytics_ctx_init(struct analytics_ctx *c, const struct params *p, const struct layout *l,
                        long step)
{
    c->particles = layout_particles(p);
    c->sim_cores = l->sim_cores;
    /* mapping=inline: the ranks are the cores (and their nodes the nodes) that analyse. */
    c->analytics_cores = l->inline_ranks ? l->sim_cores : l->ana_cores;
    c->sim_nodes = l->sim_nodes;
    c->analytics_nodes = l->inline_ranks ? l->sim_nodes : l->ana_nodes;
    c->nodes_used = l->nodes_used;
    c->steps = p->iterations / p->stride;
    c->step = step;
    c->state_bytes = c->particles / l->sim_cores * p->data_size * p->data_scaling;
}

int analytics_list(char names[][ANALYTICS_NAME_MAX], int max)
{
    return datadir_list("scripts/lua/analytics", ".lua", names, max);
}

int analytics_resolve(const char *name, char *path, size_t len, char *err, size_t errlen)
{
    return datadir_resolve_lua("analytics", "scripts/lua/analytics", name, path, len, err, errlen);
}

/* "FILE:LINE" where the function was defined, or "FILE" for a default or a constant. */
static void function_position(struct loaded *a, int fn)
{
    lua_State *L = script_lua(a->s);
    lua_Debug ar;
    lua_pushvalue(L, -1);
    lua_getinfo(L, ">S", &ar);
    if (ar.source[0] == '@' && !strcmp(ar.source + 1, a->path))
        snprintf(a->pos[fn], sizeof a->pos[fn], "%s:%d", script_source(&ar), ar.linedefined);
    else /* memcpy: path fits, and GCC's -Wrestrict misreads snprintf between two members */
        memcpy(a->pos[fn], a->path, strlen(a->path) + 1);
}

static int load(struct loaded *a, const char *path, const struct stat *st, char *err, size_t errlen)
{
    struct script_opts o = {.unsafe = false,
                            .out = print_out_set ? print_out : stderr,
                            .max_instructions = ANALYTICS_MAX_INSTRUCTIONS,
                            .max_memory = ANALYTICS_MAX_MEMORY,
                            .time_limit = ANALYTICS_TIME_LIMIT, /* or --time-limit's */
                            .self_contained = true,
                            .what = "an analytics file"};
    memset(a, 0, sizeof *a);
    snprintf(a->path, sizeof a->path, "%s", path);
    a->st = *st;
    if (!(a->s = script_new(&o))) {
        snprintf(err, errlen, "%s: out of memory starting Lua", path);
        return -1;
    }
    lua_State *L = script_lua(a->s);
    /* io.write too goes where print goes: stdout carries results (situ run --json, the
     * explorer's evaluator's replies). */
    if (script_redirect_io(a->s, o.out) < 0 || script_load(a->s, path) < 0 ||
        script_pcall(a->s, 0, 1, false) < 0)
        goto fail;
    if (script_load_chunk(a->s, (const char *)analytics_spec_lua, sizeof analytics_spec_lua - 1,
                          "=analytics") < 0)
        goto fail;
    lua_insert(L, -2);
    lua_pushstring(L, path);
    if (script_pcall(a->s, 2, 1, false) < 0)
        goto fail;
    script_raw_field(L, -1, "name");
    if (script_has_nul(L, -1)) { /* a name is what a file is known by: never cut */
        snprintf(err, errlen, "%s: name: holds a NUL byte", path);
        drop(a);
        return -1;
    }
    snprintf(a->name, sizeof a->name, "%s", lua_tostring(L, -1));
    lua_pop(L, 1);
    for (int fn = 0; fn < FN_COUNT; fn++) {
        script_raw_field(L, -1, fn_names[fn]);
        function_position(a, fn);
        lua_pop(L, 1);
    }
    a->spec_ref = luaL_ref(L, LUA_REGISTRYINDEX);
    return 0;
fail:
    script_error_line(a->s, err, errlen);
    drop(a);
    return -1;
}

static bool same_file(const struct stat *a, const struct stat *b)
{
    return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
           a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

/* The loaded entry for a name, (re)loading it when the file is new or changed. */
static struct loaded *get(const char *name, char *err, size_t errlen)
{
    char path[PATH_MAX];
    struct stat st;
    if (analytics_resolve(name, path, sizeof path, err, errlen) < 0)
        return NULL;
    if (stat(path, &st) < 0) {
        snprintf(err, errlen, "%s: cannot read", path);
        return NULL;
    }
    struct loaded *slot = &cache[0];
    for (int i = 0; i < CACHE_SLOTS; i++) {
        struct loaded *a = &cache[i];
        if (a->s && !strcmp(a->path, path)) {
            if (same_file(&a->st, &st)) {
                a->tick = ++ticks;
                return a;
            }
            slot = a;
            break;
        }
        if (!a->s || a->tick < slot->tick)
            slot = a;
    }
    drop(slot);
    if (load(slot, path, &st, err, errlen) < 0)
        return NULL;
    slot->tick = ++ticks;
    return slot;
}

int analytics_check(const char *analytics, char *name, size_t namelen, char *err, size_t errlen)
{
    if (!analytics[0]) {
        snprintf(name, namelen, "thermo");
        return 0;
    }
    struct loaded *a = get(analytics, err, errlen);
    if (!a)
        return -1;
    snprintf(name, namelen, "%s", a->name);
    return 0;
}

static int ctx_index(lua_State *L)
{
    const char *key = lua_tostring(L, 2);
    if (key && !strcmp(key, "step")) {
        if (current)
            current->step_used = true;
        lua_pushinteger(L, current_step);
        return 1;
    }
    return luaL_error(
        L,
        "ctx.%s: no such field (ctx has particles, state_bytes, sim_cores, "
        "sim_nodes, analytics_cores, analytics_nodes, nodes_used, steps, step and every "
        "parameter: situ --help)",
        key ? key : luaL_typename(L, 2));
}

/* ctx: every parameter of the table, then the placement. `step` is served by __index so that
 * functions that never read it are evaluated once for the whole run. */
static void push_ctx(lua_State *L, const struct params *p, const struct analytics_ctx *c)
{
    script_push_params(L, p);
    lua_pushnumber(L, c->particles);
    lua_setfield(L, -2, "particles");
    lua_pushnumber(L, c->state_bytes);
    lua_setfield(L, -2, "state_bytes");
    const char *ikeys[] = {"sim_cores",       "analytics_cores", "sim_nodes",
                           "analytics_nodes", "nodes_used",      "steps"};
    long ivals[] = {c->sim_cores,       c->analytics_cores, c->sim_nodes,
                    c->analytics_nodes, c->nodes_used,      c->steps};
    for (int i = 0; i < 6; i++) {
        lua_pushinteger(L, ivals[i]);
        lua_setfield(L, -2, ikeys[i]);
    }
    lua_createtable(L, 0, 1);
    lua_pushcfunction(L, ctx_index);
    lua_setfield(L, -2, "__index");
    lua_setmetatable(L, -2);
}

/* A finite number >= 0 at the top of the stack into *out. */
static int take_number(struct loaded *a, int fn, const char *what, double *out, char *err,
                       size_t errlen)
{
    lua_State *L = script_lua(a->s);
    double x = lua_tonumber(L, -1);
    if (lua_type(L, -1) != LUA_TNUMBER || !isfinite(x) || x < 0) {
        char got[80];
        script_describe(L, -1, got, sizeof got);
        snprintf(err, errlen, "%s: %s returned %s; expected a finite number >= 0 (%s)", a->pos[fn],
                 fn == FN_EXCHANGE ? "exchange(ctx).bytes" : fn_names[fn], got, what);
        lua_pop(L, 1);
        return -1;
    }
    *out = x;
    lua_pop(L, 1);
    return 0;
}

static int call(struct loaded *a, int fn, const struct params *p, const struct analytics_ctx *c,
                char *err, size_t errlen)
{
    lua_State *L = script_lua(a->s);
    lua_rawgeti(L, LUA_REGISTRYINDEX, a->spec_ref);
    script_raw_field(L, -1, fn_names[fn]);
    lua_remove(L, -2);
    push_ctx(L, p, c);
    script_budget_reset(a->s);
    if (script_pcall(a->s, 1, 1, false) < 0) {
        script_error_line(a->s, err, errlen);
        return -1;
    }
    return 0;
}

static int exchange_value(struct loaded *a, struct analytics_value *v, char *err, size_t errlen)
{
    lua_State *L = script_lua(a->s);
    int t = lua_gettop(L);
    if (lua_isnil(L, t)) {
        lua_pop(L, 1);
        return 0;
    }
    if (!lua_istable(L, t)) {
        char got[80];
        script_describe(L, t, got, sizeof got);
        snprintf(err, errlen,
                 "%s: exchange returned %s; expected {pattern = \"none\"|\"allreduce\"|"
                 "\"allgather\"|\"gather\", bytes = N}",
                 a->pos[FN_EXCHANGE], got);
        lua_pop(L, 1);
        return -1;
    }
    lua_pushnil(L);
    while (lua_next(L, t)) {
        const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
        if (!k || (strcmp(k, "pattern") && strcmp(k, "bytes"))) {
            snprintf(err, errlen, "%s: exchange returned an unknown field '%s' (pattern, bytes)",
                     a->pos[FN_EXCHANGE], k ? k : luaL_typename(L, -2));
            lua_settop(L, t - 1);
            return -1;
        }
        lua_pop(L, 1);
    }
    script_raw_field(L, t, "pattern");
    const char *pat = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    int found = analytics_pattern_find(pat);
    if (found < 0) {
        char got[80];
        script_describe(L, -1, got, sizeof got);
        snprintf(err, errlen,
                 "%s: exchange(ctx).pattern is %s; expected \"none\", \"allreduce\", "
                 "\"allgather\" or \"gather\"",
                 a->pos[FN_EXCHANGE], got);
        lua_settop(L, t - 1);
        return -1;
    }
    lua_pop(L, 1);
    v->pattern = (enum analytics_pattern)found;
    script_raw_field(L, t, "bytes");
    if (lua_isnil(L, -1) && found == ANALYTICS_NONE)
        lua_pop(L, 1);
    else if (take_number(a, FN_EXCHANGE, "bytes each analytics actor contributes",
                         &v->exchange_bytes, err, errlen) < 0) {
        lua_settop(L, t - 1);
        return -1;
    }
    lua_settop(L, t - 1);
    return 0;
}

/* One evaluation by the loaded file a. */
static int eval_loaded(struct loaded *a, const struct params *p, const struct analytics_ctx *c,
                       struct analytics_value *v, char *err, size_t errlen)
{
    memset(v, 0, sizeof *v);
    current = a;
    current_step = c->step;
    int rc = -1;
    if (call(a, FN_COST, p, c, err, errlen) < 0 ||
        take_number(a, FN_COST, "reference-core seconds for one analysis of every particle",
                    &v->cost, err, errlen) < 0)
        goto done;
    if (call(a, FN_BYTES, p, c, err, errlen) < 0 ||
        take_number(a, FN_BYTES, "bytes sent to the analytics for one analysis", &v->bytes, err,
                    errlen) < 0)
        goto done;
    if (call(a, FN_EXCHANGE, p, c, err, errlen) < 0 || exchange_value(a, v, err, errlen) < 0)
        goto done;
    rc = 0;
done:
    current = NULL;
    return rc;
}

int analytics_eval(const struct params *p, const struct analytics_ctx *c, struct analytics_value *v,
                   char *err, size_t errlen)
{
    memset(v, 0, sizeof *v);
    if (!p->analytics[0]) {
        *v = profile_thermo(p, c->particles);
        return 0;
    }
    struct loaded *a = get(p->analytics, err, errlen);
    return a ? eval_loaded(a, p, c, v, err, errlen) : -1;
}

/* Step `step`'s simulation into *sim, when the profile reads ctx.step; *changed: it differs from
 * what *sim held. */
static int sim_at(const struct params *p, const struct layout *l, long step, bool sim_steps,
                  struct sim_profile *sim, bool *changed, char *err, size_t errlen)
{
    *changed = false;
    if (!sim_steps || step == 0)
        return 0;
    struct sim_profile next;
    bool used;
    if (simulation_eval_step(p, l, step, &next, &used, err, errlen) < 0)
        return -1;
    *changed = memcmp(&next, sim, sizeof next) != 0;
    *sim = next;
    return 0;
}
static int profile_eval(const struct params *p, const struct layout *l,
                        struct analytics_profile *out, char *err, size_t errlen);

int analytics_profile(const struct params *p, const struct layout *l, struct analytics_profile *out,
                      char *err, size_t errlen)
{
    if (profile_eval(p, l, out, err, errlen) < 0)
        return -1;
    if (profile_staging_check(p, l, out, err, errlen) == 0)
        return 0;
    profile_free(out);
    return -1;
}

static int profile_eval(const struct params *p, const struct layout *l,
                        struct analytics_profile *out, char *err, size_t errlen)
{
    profile_init(out, p->iterations / p->stride);
    struct sim_profile sim;
    bool sim_steps; /* the simulation profile reads ctx.step: each step is evaluated */
    if (simulation_eval_step(p, l, 0, &sim, &sim_steps, err, errlen) < 0 ||
        reduce_check(p, layout_shape().dims, sim.particles, l->sim_cores, err, errlen) < 0)
        return -1;
    struct loaded *a = NULL;
    if (p->analytics[0] && !(a = get(p->analytics, err, errlen)))
        return -1;
    struct analytics_ctx c;
    analytics_ctx_init(&c, p, l, 0);
    struct analytics_value v;
    bool changed = true;
    if (a)
        a->step_used = false;
    /* Every step from this one load: a file saved meanwhile never mixes into the profile. The
     * analytics are evaluated again where they read ctx.step or the simulation's side changed
     * (their ctx.particles and ctx.state_bytes are its). */
    for (; c.step < (out->steps ? out->steps : 1); c.step++) {
        if (sim_at(p, l, c.step, sim_steps, &sim, &changed, err, errlen) < 0)
            goto fail;
        c.particles = sim.particles;
        c.state_bytes = sim.state_bytes;
        if (!a)
            v = profile_thermo(p, sim.particles);
        else if ((c.step == 0 || changed || a->step_used) &&
                 eval_loaded(a, p, &c, &v, err, errlen) < 0)
            goto fail;
        if (profile_add_step(out, c.step, &v, &sim) < 0)
            goto oom;
        if (c.step == 0 && !sim_steps && !(a && a->step_used)) {
            out->classes[0].count = out->steps; /* no function read ctx.step: all alike */
            return 0;
        }
    }
    if (!out->steps)
        out->classes[0].count = 0;
    double ref[3];
    if (sim_steps && profile_halo_scales(out, p->simulation, ref, NULL, err, errlen) < 0)
        goto fail;
    return 0;
oom:
    snprintf(err, errlen, "%s: out of memory for the analytics' profile",
             p->analytics[0] ? p->analytics : "situ");
fail:
    profile_free(out);
    return -1;
}
