#include "xover.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/model/crossover.h"
#include "../engine/model/layout.h"
#include "../engine/model/model.h"

static const int mapping_of[XO_MAPPINGS] = {MAPPING_INSITU, MAPPING_INTRANSIT, MAPPING_INLINE};

/* The configuration of mapping m: inline has no analytics cores, so the others' analytics zone is
 * not its. */
static void with_mapping(struct params *q, int m)
{
    q->mapping = mapping_of[m];
    if (m == XO_INLINE)
        q->analytics_zone[0] = 0;
}

static double sample_x(int i, int n)
{
    return XO_MIN * pow(XO_MAX / XO_MIN, (double)i / (n - 1));
}

/* The part of a configuration the curves depend on: everything but mapping and data_scaling. */
static void base_of(const struct params *p, struct params *b, bool *bumped)
{
    *b = *p;
    *bumped = b->nodes < 2;
    if (*bumped)
        b->nodes = 2;
    b->mapping = MAPPING_INSITU;
    b->data_scaling = 1;
    b->hostfile[0] = 0;
}

static double makespan_at(const struct params *q, const struct platform *pf, const struct layout *l,
                          double x, profile_source source)
{
    struct params at = *q;
    at.data_scaling = x;
    struct analytics_profile prof;
    char err[PARAMS_ERR_MAX];
    double makespan = NAN;
    if (source(&at, l, &prof, err, sizeof err) == 0) {
        struct model_result m;
        model_eval(&at, pf, l, &prof, &m);
        makespan = m.makespan;
    }
    profile_free(&prof);
    return makespan;
}

int xover_rebase(struct xover *xo, const struct params *p)
{
    struct params base;
    bool bumped;
    base_of(p, &base, &bumped);
    char key[RUNNER_KEY_MAX];
    params_canonical(&base, key, sizeof key);
    int changed = strcmp(key, xo->base_key) != 0;
    if (changed) {
        memset(xo->pstate, 0, sizeof xo->pstate);
        memset(xo->pfid, 0, sizeof xo->pfid);
        snprintf(xo->base_key, sizeof xo->base_key, "%s", key);
    }
    xo->base = base;
    xo->bumped = bumped;
    for (int i = 0; i < XO_POINTS; i++)
        xo->px[i] = sample_x(i, XO_POINTS);
    return changed;
}

bool xover_current(const struct xover *xo)
{
    return !strcmp(xo->c.key, xo->base_key);
}

int xover_platform_copy(struct platform *dst, const struct platform *src)
{
    return platform_copy(dst, src);
}

void xover_curves_eval(struct xover_curves *c, const struct params *base, const char *key,
                       const struct platform *pf, profile_source source)
{
    snprintf(c->key, sizeof c->key, "%s", key);
    for (int i = 0; i < XO_SAMPLES; i++)
        c->xs[i] = sample_x(i, XO_SAMPLES);

    struct params q[XO_MAPPINGS];
    struct layout l[XO_MAPPINGS];
    for (int m = 0; m < XO_MAPPINGS; m++) {
        q[m] = *base;
        with_mapping(&q[m], m);
        c->ok[m] = false;
        c->err[m][0] = 0;
        if (params_validate(&q[m], c->err[m]) < 0 ||
            layout_build(&q[m], pf, &l[m], c->err[m], sizeof c->err[m]) < 0)
            continue;
        c->ok[m] = true;
        for (int i = 0; i < XO_SAMPLES; i++)
            c->model[m][i] = makespan_at(&q[m], pf, &l[m], c->xs[i], source);
    }

    c->ncross = 0;
    c->cross_x = 0;
    c->faster_below = XO_INSITU;
    if (c->ok[0] && c->ok[1]) {
        int from, first_sign;
        int at = crossover_first_change(c->model[0], c->model[1], XO_SAMPLES, &from, &c->ncross,
                                        &first_sign);
        if (at >= 0) {
            /* Narrow the samples' bracket down to a millionth of x, one model pair a round. */
            struct crossover xc;
            enum crossover_state st =
                crossover_begin_bracket(&xc, c->xs[from], c->model[0][from] - c->model[1][from],
                                        c->xs[at], c->model[0][at] - c->model[1][at], 1, 1e-6);
            while (st == CROSSOVER_MORE) {
                xc.a[0] = makespan_at(&q[0], pf, &l[0], xc.xs[0], source);
                xc.b[0] = makespan_at(&q[1], pf, &l[1], xc.xs[0], source);
                st = crossover_take(&xc);
            }
            c->cross_x = crossover_at(&xc);
        }
        /* Positive sign: in situ is slower, so in transit is the faster one. */
        c->faster_below = first_sign > 0 ? XO_INTRANSIT : XO_INSITU;
    }
    for (int m = 0; m < XO_MAPPINGS; m++)
        if (c->ok[m])
            layout_free(&l[m]);
}

void xover_point_params(const struct xover *xo, int m, int i, struct params *out)
{
    *out = xo->base;
    with_mapping(out, m);
    out->data_scaling = xo->px[i];
}

int xover_match(const struct xover *xo, const struct params *p, int *m, int *i)
{
    struct params base;
    bool bumped;
    base_of(p, &base, &bumped);
    if (bumped || p->mapping == MAPPING_HOSTFILE)
        return 0;
    char key[RUNNER_KEY_MAX];
    params_canonical(&base, key, sizeof key);
    if (strcmp(key, xo->base_key))
        return 0;
    for (int k = 0; k < XO_POINTS; k++) {
        if (fabs(p->data_scaling - xo->px[k]) <= 1e-12 * xo->px[k]) {
            *m = p->mapping == MAPPING_INSITU      ? XO_INSITU
                 : p->mapping == MAPPING_INTRANSIT ? XO_INTRANSIT
                                                   : XO_INLINE;
            *i = k;
            return 1;
        }
    }
    return 0;
}

double xover_model_at(const struct xover_curves *c, int m, double x)
{
    if (!c->ok[m] || !c->key[0])
        return -1;
    double pos = log(x / XO_MIN) / log(XO_MAX / XO_MIN) * (XO_SAMPLES - 1);
    if (pos <= 0)
        return c->model[m][0];
    if (pos >= XO_SAMPLES - 1)
        return c->model[m][XO_SAMPLES - 1];
    int i = (int)pos;
    double f = pos - i, a = c->model[m][i], b = c->model[m][i + 1];
    return a > 0 && b > 0 ? exp(log(a) * (1 - f) + log(b) * f) : a * (1 - f) + b * f;
}
