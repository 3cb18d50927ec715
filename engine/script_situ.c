/* The `situ` module of scenarios: parameters, the model, simulations (one, or many in parallel
 * forked children), the in-situ/in-transit crossover, and the analytics' own numbers. Every
 * function raises a Lua error ("script.lua:LINE: situ.run: ...") on bad input, so a scenario
 * stops where it went wrong; a failed simulation inside a sweep is a result with `error` set. */
#include <lauxlib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analytics.h"
#include "model.h"
#include "report.h"
#include "script.h"
#include "sim.h"

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

static void push_json_text(lua_State *L, const char *text, const char *fn)
{
    json_error_t jerr;
    json_t *j = json_loads(text, 0, &jerr);
    if (!j)
        luaL_error(L, "%s: the simulation printed no JSON: %s", fn, jerr.text);
    script_push_json(L, j);
    json_decref(j);
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
    if (script_of(L)->model_only)
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
        script_async_clear(s);
        s->sim_failed = true;
        return luaL_error(L, "situ.run: %s", msg);
    }
    script_async_clear(s);
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
    if (model_run(&p, &m, err, sizeof err) < 0)
        return luaL_error(L, "situ.run: %s", err);
    if (script_async_can_yield(L, "situ.run")) {
        struct params *req = script_async_request(L, SCRIPT_REQ_RUN, 1);
        if (!req)
            return luaL_error(L, "situ.run: out of memory");
        *req = p;
        return lua_yieldk(L, 0, 0, run_cont); /* the explorer simulates, then run_cont */
    }
    char *out = NULL;
    if (sim_run_isolated(&p, true, &out, err, sizeof err) < 0) {
        script_of(L)->sim_failed = true;
        return luaL_error(L, "situ.run: %s", err);
    }
    lua_pushstring(L, out);
    free(out);
    push_json_text(L, lua_tostring(L, -1), "situ.run");
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
    if (layout_build(&p, &pf, &l, err, sizeof err) < 0) {
        platform_free(&pf);
        return luaL_error(L, "situ.analytics: %s", err);
    }
    struct analytics_ctx c;
    struct analytics_value v;
    analytics_ctx_init(&c, &p, &l, (long)luaL_optinteger(L, 2, 0));
    int rc = analytics_eval(&p, &c, &v, err, sizeof err);
    double xtime = rc == 0 ? analytics_exchange_time(&pf, &l, &v) : 0;
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
    script_async_clear(s);
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

    lua_pushnil(L);
    while (lua_next(L, 1)) {
        lua_pop(L, 1);
        if (lua_type(L, -1) == LUA_TSTRING &&
            (!strcmp(lua_tostring(L, -1), "base") || !strcmp(lua_tostring(L, -1), "model") ||
             !strcmp(lua_tostring(L, -1), "jobs")))
            continue;
        if (script_param_key(L, -1, err, sizeof err) < 0)
            return luaL_error(L, "situ.sweep: %s (or base, model, jobs)", err);
    }
    struct axis axes[PARAM_COUNT];
    int naxes = 0;
    long total = 1;
    for (int id = 0; id < PARAM_COUNT; id++) {
        lua_getfield(L, 1, param_table[id].key);
        if (lua_isnil(L, -1)) {
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
        if (script_finish_params(p, err, sizeof err) < 0 || model_run(p, &m, err, sizeof err) < 0)
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
        sim_pool_run(jobsv, (int)total, jobs < total ? jobs : (int)total, NULL, NULL) < 0) {
        free(jobsv);
        return luaL_error(L, "situ.sweep: cannot start simulations");
    }
    lua_createtable(L, (int)total, 0);
    for (long i = 0; i < total; i++) {
        struct sim_job *j = &jobsv[i];
        json_t *parsed;
        if (model_only) {
            if (script_push_model(L, &j->p, err, sizeof err) < 0)
                push_failed(L, err, &j->p);
        } else if (j->rc == 0 && (parsed = json_loads(j->output, 0, NULL))) {
            script_push_json(L, parsed);
            json_decref(parsed);
        } else {
            push_failed(L, j->rc ? j->err : "the simulation printed no JSON", &j->p);
        }
        lua_rawseti(L, -2, i + 1);
    }
    for (long i = 0; i < total; i++)
        free(jobsv[i].output);
    free(jobsv);
    return 1;
bad:
    for (long i = 0; i < total; i++)
        free(jobsv[i].output);
    free(jobsv);
    return luaL_error(L, "situ.sweep: %s", err);
}

/* --- the crossover --- */

struct xo {
    struct params base;
    bool by_run;
    int jobs, evals;
    char err[1024];
};

/* Makespans in-situ and in-transit at each data scaling of xs; diff = insitu - intransit. */
static int xo_eval(struct xo *x, const double *xs, int n, double *diff)
{
    struct sim_job *jv = calloc(2 * (size_t)n, sizeof *jv);
    if (!jv) {
        snprintf(x->err, sizeof x->err, "out of memory");
        return -1;
    }
    double *ms = calloc(2 * (size_t)n, sizeof *ms);
    int rc = ms ? 0 : -1;
    for (int i = 0; rc == 0 && i < 2 * n; i++) {
        struct params *p = &jv[i].p;
        *p = x->base;
        p->mapping = i % 2 ? MAPPING_INTRANSIT : MAPPING_INSITU;
        p->data_scaling = xs[i / 2];
        struct model_result m;
        rc = model_run(p, &m, x->err, sizeof x->err);
        ms[i] = m.makespan;
    }
    if (rc == 0 && x->by_run) {
        sim_pool_run(jv, 2 * n, x->jobs, NULL, NULL);
        for (int i = 0; rc == 0 && i < 2 * n; i++) {
            json_t *j = jv[i].rc == 0 ? json_loads(jv[i].output, 0, NULL) : NULL;
            if (!j) {
                snprintf(x->err, sizeof x->err, "%s", jv[i].rc ? jv[i].err : "no result");
                rc = -1;
                continue;
            }
            ms[i] = json_number_value(json_object_get(j, "makespan"));
            json_decref(j);
        }
    }
    for (int i = 0; rc == 0 && i < n; i++)
        diff[i] = ms[2 * i] - ms[2 * i + 1];
    x->evals += 2 * n;
    for (int i = 0; i < 2 * n; i++)
        free(jv[i].output);
    free(jv);
    free(ms);
    return rc;
}

/* Sign with a relative dead band, so equal plateaus are not crossings. */
static int sign_of(double d, double scale)
{
    double tol = 1e-9 * scale;
    return d > tol ? 1 : d < -tol ? -1 : 0;
}

static int l_crossover(lua_State *L)
{
    luaL_checktype(L, 1, LUA_TTABLE);
    struct xo x = {.evals = 0};
    lua_getfield(L, 1, "base");
    get_params(L, lua_gettop(L), &x.base, "situ.crossover");
    lua_getfield(L, 1, "from");
    double from = luaL_optnumber(L, -1, 1);
    lua_getfield(L, 1, "to");
    double to = luaL_optnumber(L, -1, 1000);
    lua_getfield(L, 1, "by");
    const char *by = luaL_optstring(L, -1, "model");
    lua_getfield(L, 1, "tolerance");
    x.by_run = !strcmp(by, "run");
    double tol = luaL_optnumber(L, -1, x.by_run ? 0.05 : 1e-3);
    lua_getfield(L, 1, "jobs");
    x.jobs = (int)luaL_optinteger(L, -1, cores());
    if (!x.by_run && strcmp(by, "model"))
        return luaL_error(L, "situ.crossover: by must be \"model\" or \"run\", not \"%s\"", by);
    if (x.by_run)
        no_simulations(L, "situ.crossover by \"run\"");
    if (x.by_run && script_of(L)->o.async)
        return luaL_error(L, "situ.crossover: by = \"run\" runs headless only (situ script); in "
                             "the explorer use by = \"model\", or a situ.sweep over "
                             "data_scaling and mapping");
    if (!(from > 0) || !(to > from) || !(tol > 0) || x.jobs < 1)
        return luaL_error(L, "situ.crossover: expected 0 < from < to, tolerance > 0, jobs >= 1");

    /* A coarse log-spaced scan finds the first sign change; refinement narrows it down. */
    enum { SCAN_MODEL = 33, SCAN_RUN = 5 };
    int n = x.by_run ? SCAN_RUN : SCAN_MODEL;
    double xs[SCAN_MODEL], d[SCAN_MODEL];
    for (int i = 0; i < n; i++)
        xs[i] = from * pow(to / from, (double)i / (n - 1));
    if (xo_eval(&x, xs, n, d) < 0)
        return luaL_error(L, "situ.crossover: %s", x.err);
    int at = -1;
    for (int i = 0; i + 1 < n && at < 0; i++) {
        double scale = fabs(d[i]) + fabs(d[i + 1]);
        if (sign_of(d[i], scale) * sign_of(d[i + 1], scale) < 0)
            at = i;
    }
    if (at < 0) {
        lua_pushnil(L);
        return 1;
    }
    double lo = xs[at], hi = xs[at + 1], dlo = d[at], dhi = d[at + 1];
    int per_round = x.by_run ? (x.jobs / 2 > 1 ? x.jobs / 2 : 1) : 1;
    per_round = per_round > 16 ? 16 : per_round;
    while (hi / lo > 1 + tol) {
        double ys[16], e[16];
        for (int k = 0; k < per_round; k++)
            ys[k] = lo * pow(hi / lo, (double)(k + 1) / (per_round + 1));
        if (xo_eval(&x, ys, per_round, e) < 0)
            return luaL_error(L, "situ.crossover: %s", x.err);
        double nlo = lo, nhi = hi, ndlo = dlo, ndhi = dhi;
        double prev = lo, dprev = dlo;
        for (int k = 0; k <= per_round; k++) {
            double cur = k < per_round ? ys[k] : hi, dcur = k < per_round ? e[k] : dhi;
            if ((dprev < 0) != (dcur < 0)) {
                nlo = prev, ndlo = dprev, nhi = cur, ndhi = dcur;
                break;
            }
            prev = cur, dprev = dcur;
        }
        lo = nlo, hi = nhi, dlo = ndlo, dhi = ndhi;
    }
    /* Where the difference crosses zero, interpolated in log(data scaling). */
    double t = dlo != dhi ? dlo / (dlo - dhi) : 0.5;
    lua_pushnumber(L, lo * pow(hi / lo, t));
    lua_createtable(L, 0, 4);
    lua_pushnumber(L, lo);
    lua_setfield(L, -2, "low");
    lua_pushnumber(L, hi);
    lua_setfield(L, -2, "high");
    lua_pushstring(L, x.by_run ? "run" : "model");
    lua_setfield(L, -2, "by");
    lua_pushinteger(L, x.evals);
    lua_setfield(L, -2, "evaluations");
    lua_pushstring(L, dlo > 0 ? "intransit" : "insitu");
    lua_setfield(L, -2, "below");
    lua_pushstring(L, dlo > 0 ? "insitu" : "intransit");
    lua_setfield(L, -2, "above");
    return 2;
}

void script_open_situ(struct script *s)
{
    static const luaL_Reg fns[] = {
        {"params", l_params},    {"model", l_model},         {"run", l_run},
        {"sweep", l_sweep},      {"crossover", l_crossover}, {"analytics", l_analytics},
        {"table", script_table}, {"csv", script_csv},        {NULL, NULL},
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
