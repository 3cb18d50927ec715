#include "xover.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../engine/model/crossover.h"
#include "../../engine/model/layout.h"
#include "../../engine/model/model.h"

static double sample_x(int i, int n)
{
    return XO_MIN * pow(XO_MAX / XO_MIN, (double)i / (n - 1));
}

/* The part of a configuration the curves depend on: everything but mapping and data_scaling (the
 * DTL and the compression are the configuration's unless a strategy names them). */
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

int xover_choose(struct xover *xo, const char *list, char *err, size_t errlen)
{
    struct strategy v[XO_STRATEGIES];
    int n = list && *list ? strategy_parse_list(list, v, XO_STRATEGIES, err, errlen) : 0;
    if (n < 0)
        return -1;
    xo->chosen = n > 0;
    xo->nchosen = n;
    memcpy(xo->chosen_st, v, (size_t)n * sizeof v[0]);
    xo->base_key[0] = 0; /* the next rebase starts afresh */
    return 0;
}

/* Whether a default strategy applies to base: a valid configuration, laid out on pf if given. */
static bool applies(const struct params *base, const struct strategy *st, const struct platform *pf)
{
    struct params q = *base;
    char err[PARAMS_ERR_MAX];
    if (strategy_apply(st, &q, err) < 0 || params_validate(&q, err) < 0)
        return false;
    if (!pf || pf->hosts <= 0)
        return true;
    struct layout l;
    if (layout_build(&q, pf, &l, err, sizeof err) < 0)
        return false;
    layout_free(&l);
    return true;
}

int xover_rebase(struct xover *xo, const struct params *p, const struct platform *pf)
{
    struct params base;
    bool bumped;
    base_of(p, &base, &bumped);
    if (xo->chosen) {
        xo->n = xo->nchosen;
        memcpy(xo->st, xo->chosen_st, sizeof xo->st);
    } else {
        struct strategy d[XO_STRATEGIES];
        int nd = strategy_defaults(d, XO_STRATEGIES);
        xo->n = 0;
        for (int k = 0; k < nd; k++)
            if (applies(&base, &d[k], pf))
                xo->st[xo->n++] = d[k];
    }
    /* The key names the strategies: the curves' computation (perhaps in another process) reads
     * them back from it, and a new list is a new base. */
    char key[RUNNER_KEY_MAX], names[XO_STRATEGIES * (STRATEGY_NAME_MAX + 1)];
    params_canonical(&base, key, sizeof key);
    strategy_join(xo->st, xo->n, names, sizeof names);
    size_t used = strlen(key);
    snprintf(key + used, sizeof key - used, "|%s", names);
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

/* The model's makespan of strategy k at x, for the bisection of a crossing. */
struct eval_ctx {
    const struct params *q;
    const struct layout *l;
    const struct platform *pf;
    profile_source source;
};

static double eval_at(void *ud, int k, double x)
{
    const struct eval_ctx *e = ud;
    return makespan_at(&e->q[k], e->pf, &e->l[k], x, e->source);
}

void xover_curves_eval(struct xover_curves *c, const struct params *base, const char *key,
                       const struct platform *pf, profile_source source)
{
    snprintf(c->key, sizeof c->key, "%s", key);
    for (int i = 0; i < XO_SAMPLES; i++)
        c->xs[i] = sample_x(i, XO_SAMPLES);

    /* The strategies, from the key (xover_rebase wrote them there). */
    struct strategy st[XO_STRATEGIES];
    const char *bar = strrchr(key, '|');
    char err[PARAMS_ERR_MAX];
    c->n = bar && bar[1] ? strategy_parse_list(bar + 1, st, XO_STRATEGIES, err, sizeof err) : 0;
    if (c->n < 0)
        c->n = 0;
    struct params q[XO_STRATEGIES];
    struct layout l[XO_STRATEGIES];
    for (int m = 0; m < c->n; m++) {
        snprintf(c->name[m], sizeof c->name[m], "%s", st[m].name);
        q[m] = *base;
        c->ok[m] = false;
        c->err[m][0] = 0;
        if (strategy_apply(&st[m], &q[m], c->err[m]) < 0 || params_validate(&q[m], c->err[m]) < 0 ||
            layout_build(&q[m], pf, &l[m], c->err[m], sizeof c->err[m]) < 0)
            continue;
        c->ok[m] = true;
        for (int i = 0; i < XO_SAMPLES; i++)
            c->model[m][i] = makespan_at(&q[m], pf, &l[m], c->xs[i], source);
    }

    /* Who is fastest where; each change narrowed down to a millionth of x, one pair a round. */
    struct eval_ctx e = {q, l, pf, source};
    strategy_fastest(c->xs, XO_SAMPLES, &c->model[0][0], c->n, c->ok, eval_at, &e, 1e-6,
                     &c->fastest);
    c->ncross = c->fastest.n > 1 ? c->fastest.n - 1 : 0;
    c->cross_x = c->ncross ? c->fastest.to[0] : 0;
    c->faster_below = c->fastest.n ? c->fastest.who[0] : 0;
    for (int m = 0; m < c->n; m++)
        if (c->ok[m])
            layout_free(&l[m]);
}

void xover_point_params(const struct xover *xo, int m, int i, struct params *out)
{
    char err[PARAMS_ERR_MAX];
    *out = xo->base;
    strategy_apply(&xo->st[m], out, err); /* checked when the list was parsed */
    out->data_scaling = xo->px[i];
}

int xover_take(struct xover *xo, const struct params *p, bool done, double makespan, int fid)
{
    int i = 0;
    while (i < XO_POINTS && !(fabs(p->data_scaling - xo->px[i]) <= 1e-12 * xo->px[i]))
        i++;
    if (i == XO_POINTS)
        return 0;
    char key[PARAMS_CANONICAL_MAX], want[PARAMS_CANONICAL_MAX];
    params_canonical(p, key, sizeof key);
    int took = 0;
    for (int m = 0; m < xo->n; m++) {
        struct params q;
        xover_point_params(xo, m, i, &q);
        params_canonical(&q, want, sizeof want);
        /* A less faithful answer (or a failed refinement) never hides a more faithful one. */
        if (strcmp(key, want) ||
            (xo->pstate[m][i] == XO_PT_DONE && (!done || fid < xo->pfid[m][i])))
            continue;
        xo->pstate[m][i] = done ? XO_PT_DONE : XO_PT_FAILED;
        xo->sim[m][i] = done ? makespan : 0;
        xo->pfid[m][i] = (unsigned char)fid;
        took++;
    }
    return took;
}

double xover_model_at(const struct xover_curves *c, int m, double x)
{
    if (m < 0 || m >= c->n || !c->ok[m] || !c->key[0])
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
