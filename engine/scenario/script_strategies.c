/* situ.crossover of more than two strategies (script_situ.c reads the call, script_strategies.c
 * answers): who is fastest where, by the model. */
#include <lauxlib.h>
#include <math.h>
#include <stdlib.h>

#include "../lua/evaluate.h"
#include "../model/model.h"
#include "../model/strategy.h"
#include "script_situ.h"

struct xo_many {
    struct params ps[STRATEGIES_MAX];
    int evals;
    bool failed;
    char err[PARAMS_ERR_MAX + 64];
};

static double xo_many_eval(void *ud, int k, double x)
{
    struct xo_many *e = ud;
    struct params q = e->ps[k];
    q.data_scaling = x;
    struct model_result m;
    e->evals++;
    if (evaluate_model(&q, &m, e->err, sizeof e->err) < 0) {
        e->failed = true;
        return NAN;
    }
    return m.makespan;
}

int script_crossover_many(lua_State *L, const struct params *base, const struct strategy *st,
                          int nst, double from, double to, double tol)
{
    struct xo_many *e = calloc(1, sizeof *e);
    enum { N = 33 }; /* the scan of situ.crossover by model */
    double xs[N], y[STRATEGIES_MAX * N];
    bool ok[STRATEGIES_MAX];
    if (!e)
        return luaL_error(L, "situ.crossover: out of memory");
    for (int k = 0; k < nst && !e->failed; k++) {
        e->ps[k] = *base;
        ok[k] = true;
        if (strategy_apply(&st[k], &e->ps[k], e->err) < 0)
            e->failed = true;
        for (int i = 0; i < N && !e->failed; i++)
            y[k * N + i] = xo_many_eval(e, k, xs[i] = from * pow(to / from, (double)i / (N - 1)));
    }
    struct strategy_ranges r;
    if (!e->failed)
        strategy_fastest(xs, N, y, nst, ok, xo_many_eval, e, tol, &r);
    if (e->failed) {
        lua_pushfstring(L, "situ.crossover: %s", e->err);
        free(e);
        return lua_error(L);
    }
    if (r.n > 1)
        lua_pushnumber(L, r.to[0]);
    else
        lua_pushnil(L);
    lua_createtable(L, 0, 3);
    lua_createtable(L, r.n, 0);
    for (int j = 0; j < r.n; j++) {
        lua_createtable(L, 0, 3);
        lua_pushstring(L, st[r.who[j]].name);
        lua_setfield(L, -2, "strategy");
        lua_pushnumber(L, r.from[j]);
        lua_setfield(L, -2, "from");
        lua_pushnumber(L, r.to[j]);
        lua_setfield(L, -2, "to");
        lua_rawseti(L, -2, j + 1);
    }
    lua_setfield(L, -2, "ranges");
    lua_pushstring(L, "model");
    lua_setfield(L, -2, "by");
    lua_pushinteger(L, e->evals);
    lua_setfield(L, -2, "evaluations");
    free(e);
    return 2;
}
