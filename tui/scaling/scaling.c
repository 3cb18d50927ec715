#include "scaling.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../engine/model/layout.h"
#include "../../engine/model/model.h"

int scaling_rebase(struct scaling *sc, const struct params *p)
{
    struct params base = *p;
    base.region = SC_REGION_MIN; /* the curves span every region: it is not part of the key */
    char key[RUNNER_KEY_MAX];
    params_canonical(&base, key, sizeof key);
    int changed = strcmp(key, sc->base_key) != 0;
    if (changed)
        snprintf(sc->base_key, sizeof sc->base_key, "%s", key);
    sc->base = *p;
    return changed;
}

bool scaling_current(const struct scaling *sc)
{
    return sc->c.key[0] && !strcmp(sc->c.key, sc->base_key);
}

static double eval_at(const struct params *base, long nodes, long region, const struct platform *pf,
                      profile_source source)
{
    struct params q = *base;
    q.nodes = nodes;
    q.region = region;
    char err[PARAMS_ERR_MAX + 256];
    if (params_validate(&q, err) < 0)
        return NAN;
    struct layout l;
    if (layout_build(&q, pf, &l, err, sizeof err) < 0)
        return NAN;
    struct analytics_profile prof;
    struct model_result m = {.makespan = NAN};
    if (source(&q, &l, &prof, err, sizeof err) == 0)
        model_eval(&q, pf, &l, &prof, &m);
    profile_free(&prof);
    layout_free(&l);
    return m.makespan > 0 ? m.makespan : NAN;
}

void scaling_eval(struct scaling_curves *c, const struct params *base, const char *key,
                  const struct platform *pf, profile_source source)
{
    memset(c, 0, sizeof *c);
    snprintf(c->key, sizeof c->key, "%s", key);
    long counts[SC_CURVES] = {base->nodes, 1, 2, 4, 8};
    for (int k = 0; k < SC_CURVES; k++) {
        bool seen = false;
        for (int j = 0; j < c->ncurves; j++)
            seen = seen || c->nodes[j] == counts[k];
        if (!seen)
            c->nodes[c->ncurves++] = counts[k];
    }
    for (int i = 0; i < SC_REGIONS; i++)
        c->region[i] = SC_REGION_MIN + i * (SC_REGION_MAX - SC_REGION_MIN) / (SC_REGIONS - 1);
    for (int k = 0; k < c->ncurves; k++) {
        double lo = INFINITY, hi = 0;
        int good = 0;
        for (int i = 0; i < SC_REGIONS; i++) {
            double r = c->region[i], t = eval_at(base, c->nodes[k], (long)r, pf, source);
            /* Work done: particles (4 per FCC cell) times MD iterations. */
            double work = 4.0 * r * r * r * (double)base->iterations;
            c->time[k][i] = t;
            c->rate[k][i] = isfinite(t) ? work / t : NAN;
            if (isfinite(t)) {
                good++;
                lo = fmin(lo, c->rate[k][i]);
                hi = fmax(hi, c->rate[k][i]);
            }
        }
        c->ok[k] = good >= 2;
        c->spread[k] = c->ok[k] && lo > 0 ? hi / lo - 1 : NAN;
    }
}

bool scaling_flat(const struct scaling_curves *c, int k)
{
    return k >= 0 && k < c->ncurves && c->ok[k] && c->spread[k] < SC_FLAT;
}
