/* situ.advise{...}: the design-space advisor (engine/model/advise.h) for scenarios and lessons. The
 * axes are the sweep's (a list, or a string in `situ sweep`'s syntax, linked keys such as
 * "stride:compute_scaling"); the best `verify` candidates are simulated as situ.sweep does it:
 * forked children headless, the explorer's runner inside the explorer. */
#include <lauxlib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../model/advise.h"
#include "../lua/analytics.h"
#include "../lua/script_async.h"
#include "../lua/script_convert.h"
#include "../lua/script_internal.h"
#include "script_situ.h"
#include "../run/sim_pool.h"

#define ADVISE_TOP 100 /* candidates returned unless top = N says otherwise */

static const char *const options[] = {"base",         "objective", "verify",         "top", "jobs",
                                      "max_makespan", "max_nodes", "min_efficiency", NULL};

static bool is_option(const char *k)
{
    for (int i = 0; options[i]; i++)
        if (!strcmp(k, options[i]))
            return true;
    return false;
}

/* An axis's list in the sweep's syntax, built in C (a luaL_Buffer wants the stack to itself). */
struct text {
    char s[1 << 18];
    size_t n;
};

static void add_text(lua_State *L, struct text *t, const char *v, const char *key)
{
    size_t len = strlen(v);
    if (t->n + len + 1 >= sizeof t->s)
        luaL_error(L, "situ.advise: %s: too many values", key);
    memcpy(t->s + t->n, v, len + 1);
    t->n += len;
}

/* One value at idx as the sweep writes it: a number, a string, or (linked keys) a list of them
 * joined by ':'. */
static void value_text(lua_State *L, int idx, struct text *t, const char *key)
{
    char v[256];
    if (lua_type(L, idx) == LUA_TNUMBER) {
        snprintf(v, sizeof v, "%.17g", lua_tonumber(L, idx));
        add_text(L, t, v, key);
    } else if (lua_type(L, idx) == LUA_TSTRING) {
        add_text(L, t, script_text(L, idx, key), key);
    } else if (lua_istable(L, idx)) {
        int n = (int)luaL_len(L, idx);
        for (int i = 1; i <= n; i++) {
            lua_rawgeti(L, idx, i);
            if (lua_type(L, -1) != LUA_TNUMBER && lua_type(L, -1) != LUA_TSTRING)
                luaL_error(L, "situ.advise: %s: expected numbers or strings", key);
            if (i > 1)
                add_text(L, t, ":", key);
            value_text(L, lua_gettop(L), t, key);
            lua_pop(L, 1);
        }
    } else {
        luaL_error(L, "situ.advise: %s: expected a list of values or a string", key);
    }
}

/* The axis key at -2 with its values at -1, into the grid: a list of values, or one string in
 * the sweep's syntax ("1..8", "20:1,200:10"). */
static void add_axis(lua_State *L, struct grid *g)
{
    static _Thread_local struct text t;
    const char *key = script_text(L, -2, "situ.advise: a key");
    int vals = lua_gettop(L);
    t.n = 0;
    t.s[0] = 0;
    if (lua_istable(L, vals)) {
        int n = (int)luaL_len(L, vals);
        for (int i = 1; i <= n; i++) {
            lua_rawgeti(L, vals, i);
            if (lua_type(L, -1) == LUA_TSTRING && strchr(lua_tostring(L, -1), ','))
                luaL_error(L, "situ.advise: %s: '%s' holds a comma", key, lua_tostring(L, -1));
            if (i > 1)
                add_text(L, &t, ",", key);
            value_text(L, lua_gettop(L), &t, key);
            lua_pop(L, 1);
        }
    } else {
        value_text(L, vals, &t, key);
    }
    char err[768];
    if (grid_add_axis(g, key, t.s, err, sizeof err) < 0)
        luaL_error(L, "situ.advise: %s", err);
}

static double opt_number(lua_State *L, const char *key, double def)
{
    lua_getfield(L, 1, key);
    double v = lua_isnil(L, -1) ? def : luaL_checknumber(L, -1);
    lua_pop(L, 1);
    return v;
}

static void push_metrics(lua_State *L, const struct advise_metrics *m, enum advise_objective o)
{
    lua_createtable(L, 0, 5);
    const struct {
        const char *k;
        double v;
    } f[] = {{"objective", advise_value(m, o)},
             {"makespan", m->makespan},
             {"efficiency", m->efficiency},
             {"core_hours", m->core_hours},
             {"balance", m->balance}};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
        lua_pushnumber(L, f[i].v);
        lua_setfield(L, -2, f[i].k);
    }
}

static void push_candidate(lua_State *L, const struct advise *a, long i)
{
    struct params p;
    char err[PARAMS_ERR_MAX];
    advise_params(a, i, &p, err); /* evaluated by the search: valid */
    lua_createtable(L, 0, 5);
    lua_pushinteger(L, a->cands[i].rank + 1);
    lua_setfield(L, -2, "rank");
    script_push_params(L, &p);
    lua_setfield(L, -2, "config");
    push_metrics(L, &a->cands[i].model, a->objective);
    lua_setfield(L, -2, "model");
    lua_pushboolean(L, a->cands[i].pareto);
    lua_setfield(L, -2, "pareto");
}

static double field(lua_State *L, int t, const char *k)
{
    lua_getfield(L, t, k);
    double v = lua_tonumber(L, -1);
    lua_pop(L, 1);
    return v;
}

/* Slot i's simulation (a result table or nil, pushed by the caller at -1) into candidate i of
 * the answer at `res`; its SimGrid value in *value (NAN when it failed). */
static void put_simgrid(lua_State *L, int res, int i, const char *why, const struct params *p,
                        enum advise_objective o, double *value)
{
    int r = lua_gettop(L);
    lua_rawgeti(L, res, i + 1);
    *value = NAN;
    if (lua_istable(L, r)) {
        struct advise_metrics m = {.makespan = field(L, r, "makespan"),
                                   .efficiency = field(L, r, "efficiency"),
                                   .sim_active = field(L, r, "sim_active"),
                                   .ana_active = field(L, r, "analytics_active"),
                                   .sim_cores = (long)field(L, r, "sim_cores"),
                                   .ana_cores = (long)field(L, r, "analytics_cores"),
                                   .nodes = p->nodes,
                                   .cores_per_node = p->cores_per_node};
        advise_metrics_finish(&m);
        push_metrics(L, &m, o);
        *value = advise_value(&m, o);
    } else {
        lua_createtable(L, 0, 1);
        lua_pushstring(L, why ? why : "the simulation printed no JSON");
        lua_setfield(L, -2, "error");
    }
    lua_setfield(L, -2, "simgrid");
    lua_settop(L, r - 1);
}

/* SimGrid's own order of the checked candidates, as simgrid_rank. */
static void rank_simgrid(lua_State *L, int res, int k, const double *value, bool maximise)
{
    long idx[k > 0 ? k : 1];
    int ok = 0;
    for (int i = 0; i < k; i++)
        if (!isnan(value[i]))
            idx[ok++] = i;
    if (advise_order(idx, ok, value, maximise) < 0)
        luaL_error(L, "situ.advise: out of memory");
    for (int j = 0; j < ok; j++) {
        lua_rawgeti(L, res, idx[j] + 1);
        lua_pushinteger(L, j + 1);
        lua_setfield(L, -2, "simgrid_rank");
        lua_pop(L, 1);
    }
}

/* The explorer resumed situ.advise with the simulations of its best candidates. */
static int advise_cont(lua_State *L, int status, lua_KContext ctx)
{
    (void)status;
    struct script *s = script_of(L);
    int res = lua_gettop(L);
    enum advise_objective o = (enum advise_objective)ctx;
    int k = s->req.n;
    double *value = calloc(k ? k : 1, sizeof *value);
    if (!value)
        return luaL_error(L, "situ.advise: out of memory");
    for (int i = 0; i < k; i++) {
        const char *why = NULL;
        script_async_result(L, i, &why);
        put_simgrid(L, res, i, why, &s->req.p[i], o, &value[i]);
    }
    script_request_clear(s);
    rank_simgrid(L, res, k, value, advise_maximise(o));
    free(value);
    return 1;
}

int script_advise(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    static _Thread_local struct advise a; /* its grid is large: not on the stack */
    advise_free(&a);
    advise_init(&a);
    char err[1024];
    lua_getfield(L, 1, "base");
    if (!lua_isnil(L, -1) && script_to_params(L, lua_gettop(L), &a.base, err, sizeof err) < 0)
        return luaL_error(L, "situ.advise: base: %s", err);
    lua_pop(L, 1);
    lua_getfield(L, 1, "objective");
    if (!lua_isnil(L, -1)) {
        luaL_checkstring(L, -1);
        int o = advise_objective_find(script_text(L, -1, "situ.advise: objective"));
        if (o < 0)
            return luaL_error(L,
                              "situ.advise: objective: '%s' is not known; expected efficiency, "
                              "makespan, core-hours or balance",
                              lua_tostring(L, -1));
        a.objective = o;
    }
    lua_pop(L, 1);
    double verify = opt_number(L, "verify", 0), top = opt_number(L, "top", ADVISE_TOP);
    double jobs = opt_number(L, "jobs", 0);
    a.limits.max_makespan = opt_number(L, "max_makespan", 0);
    a.limits.max_nodes = (long)opt_number(L, "max_nodes", 0);
    a.limits.min_efficiency = opt_number(L, "min_efficiency", 0);
    if (!(verify >= 0 && verify <= 1000 && verify == floor(verify)))
        return luaL_error(L, "situ.advise: verify: expected an integer in [0, 1000]");
    if (!(top >= 1 && top == floor(top)) || !(jobs >= 0 && jobs == floor(jobs)))
        return luaL_error(L, "situ.advise: top and jobs: expected integers >= 1");
    if (a.limits.max_makespan < 0 || a.limits.max_nodes < 0 || a.limits.min_efficiency > 1)
        return luaL_error(L, "situ.advise: max_makespan, max_nodes >= 0, min_efficiency <= 1");
    if (verify > 0 && script_of(L)->o.model_only)
        return luaL_error(L, "situ.advise with verify: lessons use the model only (their goals "
                             "run on every change)");

    /* Axes in the parameter table's order (a Lua table has none): the same question gives the
     * same ranking, ties included. */
    for (int id = 0; id < PARAM_COUNT; id++) {
        lua_pushnil(L);
        while (lua_next(L, 1)) {
            lua_pushvalue(L, -2);
            const char *k =
                lua_type(L, -1) == LUA_TSTRING ? script_text(L, -1, "situ.advise: a key") : NULL;
            lua_pop(L, 1);
            if (!k) {
                return luaL_error(L, "situ.advise: keys must be parameter names");
            }
            if (is_option(k)) {
                lua_pop(L, 1);
                continue;
            }
            int fid = params_find_n(k, strcspn(k, ":"));
            if (fid < 0) {
                char first[128]; /* luaL_error knows no "%.*s" */
                snprintf(first, sizeof first, "%.*s", (int)strcspn(k, ":"), k);
                return luaL_error(L, "situ.advise: unknown parameter '%s' (or %s)", first,
                                  "base, objective, verify, top, jobs, max_makespan, max_nodes, "
                                  "min_efficiency");
            }
            if (fid == id)
                add_axis(L, &a.grid);
            lua_pop(L, 1);
        }
    }
    if (advise_run(&a, analytics_profile, err, sizeof err) < 0)
        return luaL_error(L, "situ.advise: %s", err);

    long shown = a.nranked < (long)top ? a.nranked : (long)top;
    int k = (int)(verify < a.nranked ? verify : a.nranked);
    k = k < shown ? k : (int)shown;
    lua_createtable(L, (int)shown, 6);
    int res = lua_gettop(L);
    for (long j = 0; j < shown; j++) {
        push_candidate(L, &a, a.ranked[j]);
        lua_rawseti(L, res, j + 1);
    }
    lua_createtable(L, (int)a.nfront, 0);
    for (long j = 0; j < a.nfront; j++) {
        push_candidate(L, &a, a.front[j]);
        lua_rawseti(L, -2, j + 1);
    }
    lua_setfield(L, res, "front");
    lua_pushinteger(L, a.nranked);
    lua_setfield(L, res, "n");
    lua_pushinteger(L, a.n);
    lua_setfield(L, res, "candidates");
    lua_pushinteger(L, a.invalid);
    lua_setfield(L, res, "invalid");
    lua_pushstring(L, advise_objective_names[a.objective]);
    lua_setfield(L, res, "objective");
    if (k == 0)
        return 1;

    struct sim_job *jobsv = calloc(k, sizeof *jobsv);
    if (!jobsv)
        return luaL_error(L, "situ.advise: out of memory");
    for (int i = 0; i < k; i++)
        advise_params(&a, a.ranked[i], &jobsv[i].p, err);
    if (script_async_can_yield(L, "situ.advise")) {
        struct params *ps = script_async_request(L, SCRIPT_REQ_SWEEP, k);
        for (int i = 0; ps && i < k; i++)
            ps[i] = jobsv[i].p;
        free(jobsv);
        if (!ps)
            return luaL_error(L, "situ.advise: out of memory");
        return lua_yieldk(L, 0, (lua_KContext)a.objective, advise_cont);
    }
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int parallel = jobs > 0 ? (int)jobs : cores > 0 ? (int)cores : 1;
    if (sim_pool_run(jobsv, k, parallel, 0, NULL, NULL) < 0) {
        sim_jobs_clear(jobsv, k);
        free(jobsv);
        return luaL_error(L, "situ.advise: cannot start simulations");
    }
    double value[k];
    for (int i = 0; i < k; i++) {
        if (jobsv[i].rc == 0) /* parsed once, by the child wrapper */
            script_push_json(L, jobsv[i].json);
        else
            lua_pushnil(L);
        put_simgrid(L, res, i, jobsv[i].rc ? jobsv[i].err : NULL, &jobsv[i].p, a.objective,
                    &value[i]);
    }
    sim_jobs_clear(jobsv, k);
    free(jobsv);
    rank_simgrid(L, res, k, value, advise_maximise(a.objective));
    return 1;
}
