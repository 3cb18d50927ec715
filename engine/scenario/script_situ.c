/* The `situ` module of scenarios: parameters, the model, simulations (one, or many in parallel
 * forked children), the in-situ/in-transit crossover, and the analytics' own numbers. Every
 * function raises a Lua error ("script.lua:LINE: situ.run: ...") on bad input, so a scenario
 * stops where it went wrong; a failed simulation inside a sweep is a result with `error` set. */
#include <lauxlib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lua/evaluate.h"
#include "../lua/analytics.h"
#include "../model/crossover.h"
#include "../model/strategy.h"
#include "../model/model.h"
#include "../model/report.h"
#include "../lua/script_async.h"
#include "../lua/script_convert.h"
#include "../lua/script_internal.h"
#include "script_situ.h"
#include "../run/sim_pool.h"

#define SWEEP_MAX 20000 /* configurations in one sweep */

#ifndef SITU_VERSION
#define SITU_VERSION "0.1.0"
#endif

static int cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

/* The configuration at idx (nil: the defaults), or a Lua error naming fn. */
static void get_params(lua_State *L, int idx, struct params *p, const char *fn)
{
    char err[PARAMS_ERR_MAX + 128];
    if (lua_isnoneornil(L, idx)) {
        if (lua_gettop(L) < idx)
            lua_settop(L, idx);
        lua_newtable(L);
        lua_replace(L, idx);
    }
    if (script_to_params(L, idx, p, err, sizeof err) < 0)
        luaL_error(L, "%s: %s", fn, err);
}

int script_push_model(lua_State *L, const struct params *p, char *err, size_t errlen)
{
    struct model_result m;
    if (evaluate_model(p, &m, err, errlen) < 0)
        return -1;
    json_t *j = report_result_json(p, &m);
    if (!j) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    script_push_json(L, j);
    json_decref(j);
    return 0;
}

static int l_params(lua_State *L)
{
    struct params p;
    get_params(L, 1, &p, "situ.params");
    char name[ANALYTICS_NAME_MAX], err[1024];
    if (analytics_check(p.analytics, name, sizeof name, err, sizeof err) < 0)
        return luaL_error(L, "situ.params: %s", err);
    script_push_params(L, &p);
    return 1;
}

static int l_model(lua_State *L)
{
    struct params p;
    char err[1024];
    get_params(L, 1, &p, "situ.model");
    if (script_push_model(L, &p, err, sizeof err) < 0)
        return luaL_error(L, "situ.model: %s", err);
    return 1;
}

static void no_simulations(lua_State *L, const char *what)
{
    if (script_of(L)->o.model_only)
        luaL_error(L, "%s: lessons use the model only (their goals run on every change)", what);
}

/* A result that failed: {error = why, config = its parameters}, as in a headless sweep. */
static void push_failed(lua_State *L, const char *why, const struct params *p)
{
    lua_createtable(L, 0, 2);
    lua_pushstring(L, why);
    lua_setfield(L, -2, "error");
    script_push_params(L, p);
    lua_setfield(L, -2, "config");
}

/* The explorer resumed situ.run with its result. */
static int run_cont(lua_State *L, int status, lua_KContext ctx)
{
    (void)status;
    (void)ctx;
    struct script *s = script_of(L);
    const char *why;
    if (!script_async_result(L, 0, &why)) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s", why);
        script_request_clear(s);
        return script_fail(L, 3, "situ.run: %s", msg);
    }
    script_request_clear(s);
    return 1;
}

static int l_run(lua_State *L)
{
    struct params p;
    struct model_result m;
    char err[1024];
    no_simulations(L, "situ.run");
    get_params(L, 1, &p, "situ.run");
    /* Bad input is found by the model's own checks before anything is forked. */
    if (evaluate_model(&p, &m, err, sizeof err) < 0)
        return luaL_error(L, "situ.run: %s", err);
    if (script_async_can_yield(L, "situ.run")) {
        struct params *req = script_async_request(L, SCRIPT_REQ_RUN, 1);
        if (!req)
            return luaL_error(L, "situ.run: out of memory");
        *req = p;
        return lua_yieldk(L, 0, 0, run_cont); /* the explorer simulates, then run_cont */
    }
    struct sim_job job = {.p = p};
    int rc = sim_pool_run(&job, 1, 1, 0, NULL, NULL);
    if (rc != 0) {
        snprintf(err, sizeof err, "%s", rc == -1 ? "cannot start the simulation" : job.err);
        sim_jobs_clear(&job, 1);
        return script_fail(L, 3, "situ.run: %s", err);
    }
    script_push_json(L, job.json);
    sim_jobs_clear(&job, 1);
    return 1;
}

static int l_analytics(lua_State *L)
{
    struct params p;
    get_params(L, 1, &p, "situ.analytics");
    struct platform pf;
    struct layout l;
    char err[1024], name[ANALYTICS_NAME_MAX];
    if (platform_load(p.platform, &pf, err, sizeof err) < 0)
        return luaL_error(L, "situ.analytics: %s", err);
    if (layout_build(&p, &pf, &l, err, sizeof err) < 0 ||
        platform_need_layout_routes(&pf, &l, err, sizeof err) < 0) {
        layout_free(&l);
        platform_free(&pf);
        return luaL_error(L, "situ.analytics: %s", err);
    }
    struct analytics_ctx c;
    struct analytics_value v;
    analytics_ctx_init(&c, &p, &l, (long)luaL_optinteger(L, 2, 0));
    int rc = analytics_eval(&p, &c, &v, err, sizeof err);
    double xtime = rc == 0 ? model_exchange_time(&pf, &l, &v) : 0;
    layout_free(&l);
    platform_free(&pf);
    if (rc < 0 || analytics_check(p.analytics, name, sizeof name, err, sizeof err) < 0)
        return luaL_error(L, "situ.analytics: %s", err);
    lua_createtable(L, 0, 6);
    lua_pushstring(L, name);
    lua_setfield(L, -2, "name");
    lua_pushnumber(L, v.cost);
    lua_setfield(L, -2, "cost");
    lua_pushnumber(L, v.bytes);
    lua_setfield(L, -2, "bytes");
    lua_createtable(L, 0, 2);
    lua_pushstring(L, analytics_pattern_name(v.pattern));
    lua_setfield(L, -2, "pattern");
    lua_pushnumber(L, v.exchange_bytes);
    lua_setfield(L, -2, "bytes");
    lua_setfield(L, -2, "exchange");
    lua_pushnumber(L, xtime);
    lua_setfield(L, -2, "exchange_time");
    return 1;
}

/* --- sweeps --- */

struct axis {
    int id;
    int n;
    int idx; /* stack index of the values table */
};

/* The explorer resumed situ.sweep with its results: the list, failures as {error, config}. */
static int sweep_cont(lua_State *L, int status, lua_KContext ctx)
{
    (void)status;
    (void)ctx;
    struct script *s = script_of(L);
    int n = s->req.n;
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        const char *why;
        if (!script_async_result(L, i, &why)) {
            lua_pop(L, 1);
            push_failed(L, why, &s->req.p[i]);
        }
        lua_rawseti(L, -2, i + 1);
    }
    script_request_clear(s);
    return 1;
}

/* The cartesian product of the axes over base, in parameter-table order, the last axis
 * varying fastest (nested loops read top to bottom). */
static int l_sweep(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    char err[1024];
    struct params base;
    lua_getfield(L, 1, "base");
    get_params(L, lua_gettop(L), &base, "situ.sweep");
    lua_getfield(L, 1, "model");
    bool model_only = lua_toboolean(L, -1);
    lua_getfield(L, 1, "jobs");
    int jobs = lua_isnil(L, -1) ? cores() : (int)luaL_checkinteger(L, -1);
    lua_pop(L, 2);
    if (jobs < 1)
        return luaL_error(L, "situ.sweep: jobs must be at least 1");
    if (!model_only)
        no_simulations(L, "situ.sweep without model = true");

    /* Each axis's list by parameter id (a key in either spelling), so that the axes come in
     * the table's order whatever the Lua table's. */
    lua_createtable(L, PARAM_COUNT, 0);
    int by_id = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, 1)) {
        if (lua_type(L, -2) == LUA_TSTRING && !script_has_nul(L, -2) &&
            (!strcmp(lua_tostring(L, -2), "base") || !strcmp(lua_tostring(L, -2), "model") ||
             !strcmp(lua_tostring(L, -2), "jobs"))) {
            lua_pop(L, 1);
            continue;
        }
        int id = script_param_key(L, -2, err, sizeof err);
        if (id < 0)
            return luaL_error(L, "situ.sweep: %s (or base, model, jobs)", err);
        if (lua_rawgeti(L, by_id, id + 1) != LUA_TNIL)
            return luaL_error(L, "situ.sweep: %s: given twice", param_table[id].key);
        lua_pop(L, 1);
        lua_rawseti(L, by_id, id + 1);
    }
    struct axis axes[PARAM_COUNT];
    int naxes = 0;
    long total = 1;
    for (int id = 0; id < PARAM_COUNT; id++) {
        if (lua_rawgeti(L, by_id, id + 1) == LUA_TNIL) {
            lua_pop(L, 1);
            continue;
        }
        if (!lua_istable(L, -1)) { /* one value: an axis of one */
            lua_createtable(L, 1, 0);
            lua_insert(L, -2);
            lua_rawseti(L, -2, 1);
        }
        int n = (int)luaL_len(L, -1);
        if (n < 1)
            return luaL_error(L, "situ.sweep: %s: expected a list of values", param_table[id].key);
        axes[naxes++] = (struct axis){id, n, lua_gettop(L)};
        total *= n;
        if (total > SWEEP_MAX)
            return luaL_error(L, "situ.sweep: more than %d configurations", SWEEP_MAX);
    }

    struct sim_job *jobsv = calloc(total, sizeof *jobsv);
    if (!jobsv)
        return luaL_error(L, "situ.sweep: out of memory");
    for (long i = 0; i < total; i++) {
        struct params *p = &jobsv[i].p;
        *p = base;
        long rest = i;
        for (int a = naxes - 1; a >= 0; a--) {
            lua_rawgeti(L, axes[a].idx, rest % axes[a].n + 1);
            rest /= axes[a].n;
            int rc = script_set_param(L, -1, p, axes[a].id, err, sizeof err);
            lua_pop(L, 1);
            if (rc < 0)
                goto bad;
        }
        struct model_result m;
        if (script_finish_params(p, err, sizeof err) < 0 ||
            evaluate_model(p, &m, err, sizeof err) < 0)
            goto bad;
    }
    if (!model_only && script_async_can_yield(L, "situ.sweep")) {
        struct params *ps = script_async_request(L, SCRIPT_REQ_SWEEP, (int)total);
        for (long i = 0; ps && i < total; i++)
            ps[i] = jobsv[i].p;
        free(jobsv);
        if (!ps)
            return luaL_error(L, "situ.sweep: out of memory");
        return lua_yieldk(L, 0, 0, sweep_cont); /* the explorer simulates, then sweep_cont */
    }
    if (!model_only &&
        sim_pool_run(jobsv, (int)total, jobs < total ? jobs : (int)total, 0, NULL, NULL) < 0) {
        free(jobsv);
        return luaL_error(L, "situ.sweep: cannot start simulations");
    }
    lua_createtable(L, (int)total, 0);
    for (long i = 0; i < total; i++) {
        struct sim_job *j = &jobsv[i];
        if (model_only) {
            if (script_push_model(L, &j->p, err, sizeof err) < 0)
                push_failed(L, err, &j->p);
        } else if (j->rc == 0) {
            script_push_json(L, j->json);
        } else {
            push_failed(L, j->err, &j->p);
        }
        lua_rawseti(L, -2, i + 1);
    }
    sim_jobs_clear(jobsv, (int)total);
    free(jobsv);
    return 1;
bad:
    free(jobsv);
    return luaL_error(L, "situ.sweep: %s", err);
}

/* --- the crossover --- */

/* The search is engine/model/crossover.c's. Headless (and by model) each round is evaluated on the
 * spot; in the explorer a round by run is one sweep request, and the search goes on in the
 * continuation, its state in a userdata on the coroutine's stack. */
enum { XO_SCAN_MODEL = 33, XO_SCAN_RUN = 5, XO_ROUND_MAX = 16, XO_STATE = 2 };

struct xo {
    struct params base;
    struct strategy st[STRATEGIES_MAX]; /* compared; two: a (c.a) and b (c.b) */
    int nst;                            /* insitu and intransit unless told */
    bool by_run;
    int jobs;
    struct crossover c;
    char err[1024];
};

/* The round's 2n configurations (the two strategies at each point) and their models, which also
 * check them. ms gets the models' makespans. A mapping without analytics cores to place drops the
 * base's hostfile and analytics zone (strategy_apply). */
static int xo_configs(struct xo *x, struct params *ps, double *ms)
{
    for (int i = 0; i < 2 * x->c.n; i++) {
        ps[i] = x->base;
        char perr[PARAMS_ERR_MAX];
        if (strategy_apply(&x->st[i % 2], &ps[i], perr) < 0) {
            snprintf(x->err, sizeof x->err, "%s", perr);
            return -1;
        }
        ps[i].data_scaling = x->c.xs[i / 2];
        struct model_result m;
        if (evaluate_model(&ps[i], &m, x->err, sizeof x->err) < 0)
            return -1;
        ms[i] = m.makespan;
    }
    return 0;
}

static void xo_store(struct xo *x, const double *ms)
{
    for (int i = 0; i < x->c.n; i++)
        x->c.a[i] = ms[2 * i], x->c.b[i] = ms[2 * i + 1];
}

/* Evaluates the round on the spot: the model, or simulations in parallel children. */
static int xo_eval_here(struct xo *x)
{
    double ms[2 * CROSSOVER_POINTS_MAX];
    int n = 2 * x->c.n;
    struct params *ps = calloc((size_t)n, sizeof *ps);
    struct sim_job *jv = calloc((size_t)n, sizeof *jv);
    int rc = ps && jv ? xo_configs(x, ps, ms) : -1;
    if (!ps || !jv)
        snprintf(x->err, sizeof x->err, "out of memory");
    if (rc == 0 && x->by_run) {
        for (int i = 0; i < n; i++)
            jv[i].p = ps[i];
        sim_pool_run(jv, n, x->jobs, 0, NULL, NULL);
        for (int i = 0; rc == 0 && i < n; i++) {
            if (jv[i].rc != 0) {
                snprintf(x->err, sizeof x->err, "%s", jv[i].err);
                rc = -1;
                continue;
            }
            ms[i] = json_number_value(json_object_get(jv[i].json, "makespan"));
        }
    }
    if (rc == 0)
        xo_store(x, ms);
    if (jv)
        sim_jobs_clear(jv, n);
    free(jv);
    free(ps);
    return rc;
}

static int xo_push_answer(lua_State *L, const struct xo *x)
{
    bool insitu_below = crossover_insitu_faster_below(&x->c); /* the first strategy's */
    const char *name[2] = {x->st[0].name, x->st[1].name};
    lua_pushnumber(L, crossover_at(&x->c));
    lua_createtable(L, 0, 6);
    lua_pushnumber(L, x->c.lo);
    lua_setfield(L, -2, "low");
    lua_pushnumber(L, x->c.hi);
    lua_setfield(L, -2, "high");
    lua_pushstring(L, x->by_run ? "run" : "model");
    lua_setfield(L, -2, "by");
    lua_pushinteger(L, 2 * x->c.evals);
    lua_setfield(L, -2, "evaluations");
    lua_pushstring(L, name[!insitu_below]);
    lua_setfield(L, -2, "below");
    lua_pushstring(L, name[insitu_below]);
    lua_setfield(L, -2, "above");
    return 2;
}

/* After an evaluated round: 1 or 2 results pushed when the search is over (nil: no crossing),
 * or 0 with the next round's points in x->c.xs. */
static int xo_advance(lua_State *L, struct xo *x)
{
    switch (crossover_take(&x->c)) {
    case CROSSOVER_NONE:
        lua_pushnil(L);
        return 1;
    case CROSSOVER_FOUND:
        return xo_push_answer(L, x);
    case CROSSOVER_MORE:
        break;
    }
    return 0;
}

static int xo_cont(lua_State *L, int status, lua_KContext ctx);

/* Evaluates the round in x->xs and goes on to the answer: each round here, or in the explorer
 * by run as a sweep request the explorer simulates before resuming xo_cont. */
static int xo_rounds(lua_State *L, struct xo *x)
{
    for (;;) {
        if (x->by_run && script_async_can_yield(L, "situ.crossover")) {
            double ms[2 * CROSSOVER_POINTS_MAX];
            struct params *ps = script_async_request(L, SCRIPT_REQ_SWEEP, 2 * x->c.n);
            if (!ps)
                return luaL_error(L, "situ.crossover: out of memory");
            if (xo_configs(x, ps, ms) < 0)
                return luaL_error(L, "situ.crossover: %s", x->err);
            return lua_yieldk(L, 0, 0, xo_cont);
        }
        if (xo_eval_here(x) < 0)
            return luaL_error(L, "situ.crossover: %s", x->err);
        int nres = xo_advance(L, x);
        if (nres)
            return nres;
    }
}

/* The explorer resumed the crossover with a round's simulations. */
static int xo_cont(lua_State *L, int status, lua_KContext ctx)
{
    (void)status;
    (void)ctx;
    struct script *s = script_of(L);
    struct xo *x = lua_touserdata(L, XO_STATE);
    double ms[2 * CROSSOVER_POINTS_MAX];
    for (int i = 0; i < s->req.n; i++) {
        json_t *mk = s->req.res[i] ? json_object_get(s->req.res[i], "makespan") : NULL;
        if (!json_is_number(mk)) {
            snprintf(x->err, sizeof x->err, "%s",
                     s->req.err[i] ? s->req.err[i] : "a simulation printed no makespan");
            script_request_clear(s);
            return script_fail(L, 3, "situ.crossover: %s", x->err);
        }
        ms[i] = json_number_value(mk);
    }
    script_request_clear(s);
    xo_store(x, ms);
    int nres = xo_advance(L, x);
    return nres ? nres : xo_rounds(L, x);
}

/* The strategies compared: strategies = {"insitu", "intransit:queue", ...} (strategy.h, two to
 * STRATEGIES_MAX), or mappings = {"insitu", "inline"} (two mapping names, as before strategies);
 * default in situ and in transit. */
static void xo_strategies(lua_State *L, struct xo *x)
{
    char err[PARAMS_ERR_MAX + 64];
    lua_getfield(L, 1, "strategies");
    lua_getfield(L, 1, "mappings");
    bool by_mapping = lua_isnil(L, -2);
    int t = by_mapping ? lua_gettop(L) : lua_gettop(L) - 1;
    if (!by_mapping && !lua_isnil(L, -1))
        luaL_error(L, "situ.crossover: give strategies or mappings, not both");
    if (lua_isnil(L, t)) {
        x->nst = strategy_parse_list("insitu,intransit", x->st, 2, err, sizeof err);
        lua_pop(L, 2);
        return;
    }
    int max = by_mapping ? 2 : STRATEGIES_MAX;
    lua_Integer n = lua_istable(L, t) ? luaL_len(L, t) : 0;
    if (by_mapping && n != 2)
        luaL_error(L, "situ.crossover: mappings must be two distinct names of the mapping choices");
    if (n < 2 || n > max)
        luaL_error(L, "situ.crossover: strategies must be a list of 2 to %d names", max);
    x->nst = (int)n;
    for (int k = 0; k < x->nst; k++) {
        lua_rawgeti(L, t, k + 1);
        const char *name = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "";
        /* mappings: a mapping's name only (no ':' or '+'), as it always was. */
        bool plain = !by_mapping || !name[strcspn(name, ":+")];
        if (!plain || strategy_parse(name, &x->st[k], err, sizeof err) < 0)
            luaL_error(L, "situ.crossover: %s",
                       by_mapping ? "mappings must be two distinct names of the mapping choices"
                                  : err);
        for (int j = 0; j < k; j++)
            if (!strcmp(x->st[j].name, x->st[k].name))
                luaL_error(L, "situ.crossover: %s named twice", x->st[k].name);
        lua_pop(L, 1);
    }
    lua_pop(L, 2);
}

static int l_crossover(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    lua_settop(L, 1);
    struct xo *x = lua_newuserdatauv(L, sizeof *x, 0); /* XO_STATE: kept across yields */
    memset(x, 0, sizeof *x);
    lua_getfield(L, 1, "base");
    get_params(L, lua_gettop(L), &x->base, "situ.crossover");
    lua_getfield(L, 1, "from");
    double from = luaL_optnumber(L, -1, 1);
    lua_getfield(L, 1, "to");
    double to = luaL_optnumber(L, -1, 1000);
    lua_getfield(L, 1, "by");
    luaL_optstring(L, -1, "model");
    const char *by = lua_isnil(L, -1) ? "model" : script_text(L, -1, "situ.crossover: by");
    lua_getfield(L, 1, "tolerance");
    x->by_run = !strcmp(by, "run");
    double tol = luaL_optnumber(L, -1, x->by_run ? 0.05 : 1e-3);
    lua_getfield(L, 1, "jobs");
    x->jobs = (int)luaL_optinteger(L, -1, cores());
    xo_strategies(L, x);
    if (!x->by_run && strcmp(by, "model"))
        return luaL_error(L, "situ.crossover: by must be \"model\" or \"run\", not \"%s\"", by);
    if (x->nst > 2 && x->by_run)
        return luaL_error(L, "situ.crossover: by \"run\" compares two strategies, not %d", x->nst);
    lua_settop(L, XO_STATE);
    if (x->by_run)
        no_simulations(L, "situ.crossover by \"run\"");
    if (!(from > 0) || !(to > from) || !(tol > 0) || x->jobs < 1)
        return luaL_error(L, "situ.crossover: expected 0 < from < to, tolerance > 0, jobs >= 1");
    if (x->nst > 2)
        return script_crossover_many(L, &x->base, x->st, x->nst, from, to, tol);
    int per_round = x->by_run ? (x->jobs / 2 > 1 ? x->jobs / 2 : 1) : 1;
    crossover_begin(&x->c, from, to, x->by_run ? XO_SCAN_RUN : XO_SCAN_MODEL,
                    per_round > XO_ROUND_MAX ? XO_ROUND_MAX : per_round, tol);
    return xo_rounds(L, x);
}

void script_open_situ(struct script *s)
{
    static const luaL_Reg fns[] = {
        {"params", l_params},
        {"model", l_model},
        {"run", l_run},
        {"sweep", l_sweep},
        {"crossover", l_crossover},
        {"analytics", l_analytics},
        {"advise", script_advise},
        {"table", script_table},
        {"csv", script_csv},
        {NULL, NULL},
    };
    lua_State *L = s->L;
    luaL_newlib(L, fns);
    lua_pushstring(L, SITU_VERSION);
    lua_setfield(L, -2, "version");
    lua_pushvalue(L, -1);
    lua_setglobal(L, "situ");
    luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
    lua_insert(L, -2);
    lua_setfield(L, -2, "situ");
    lua_pop(L, 1);
}
