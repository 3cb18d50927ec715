#include "advise.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/datadir.h"
#include "layout.h"
#include "platform.h"

const char *const advise_objective_names[ADVISE_OBJECTIVES] = {"efficiency", "makespan",
                                                               "core-hours", "balance"};

int advise_objective_find(const char *s)
{
    for (int o = 0; o < ADVISE_OBJECTIVES; o++) {
        const char *a = advise_objective_names[o], *b = s;
        while (*a && (*a == *b || (*a == '-' && *b == '_')))
            a++, b++;
        if (!*a && !*b)
            return o;
    }
    return -1;
}

bool advise_maximise(enum advise_objective o)
{
    return o == ADVISE_EFFICIENCY || o == ADVISE_BALANCE;
}

void advise_metrics_finish(struct advise_metrics *a)
{
    a->core_hours = (double)a->nodes * (double)a->cores_per_node * a->makespan / 3600;
    double us = a->makespan > 0 ? a->sim_active / a->makespan : 0;
    double ua = a->makespan > 0 ? a->ana_active / a->makespan : 0;
    double cores = (double)(a->sim_cores + a->ana_cores);
    double busy = cores > 0 ? (a->sim_cores * us + a->ana_cores * ua) / cores : 0;
    double hi = fmax(us, ua);
    a->balance = hi > 0 ? busy * fmin(us, ua) / hi : 0;
    if (a->ana_cores == 0) /* inline: both on the same cores, one after the other */
        a->balance = fmin(1, us + ua);
}

void advise_metrics_from_model(const struct params *p, const struct model_result *m,
                               struct advise_metrics *a)
{
    *a = (struct advise_metrics){.makespan = m->makespan,
                                 .efficiency = m->efficiency,
                                 .sim_active = m->sim_active,
                                 .ana_active = m->ana_active,
                                 .sim_cores = m->sim_cores,
                                 .ana_cores = m->ana_cores,
                                 .nodes = p->nodes,
                                 .cores_per_node = p->cores_per_node};
    advise_metrics_finish(a);
}

double advise_value(const struct advise_metrics *a, enum advise_objective o)
{
    switch (o) {
    case ADVISE_EFFICIENCY:
        return a->efficiency;
    case ADVISE_MAKESPAN:
        return a->makespan;
    case ADVISE_CORE_HOURS:
        return a->core_hours;
    default:
        return a->balance;
    }
}

bool advise_feasible(const struct advise_limits *lim, const struct advise_metrics *a)
{
    return (lim->max_makespan <= 0 || a->makespan <= lim->max_makespan) &&
           (lim->max_nodes <= 0 || a->nodes <= lim->max_nodes) &&
           (lim->min_efficiency <= 0 || a->efficiency >= lim->min_efficiency);
}

/* ---- the model of many configurations ---- */

#define MODELS_PLATFORMS 16

struct advise_models {
    profile_source src;
    int n;
    struct {
        char given[PARAMS_PATH_MAX];    /* the path as a configuration names it */
        char resolved[PARAMS_PATH_MAX]; /* where it was found */
        struct platform pf;
        int rc; /* 0 loaded, -1: err */
        char err[256];
    } pf[MODELS_PLATFORMS];
    int next;                /* the slot a new platform replaces when all are taken */
    struct model_memo *memo; /* the last layout's halo exchange (model.h); NULL: none */
};

struct advise_models *advise_models_new(profile_source src)
{
    struct advise_models *c = calloc(1, sizeof *c);
    if (c) {
        c->src = src;
        c->memo = model_memo_new(); /* none: every layout computed anew, the same results */
    }
    return c;
}

void advise_models_free(struct advise_models *c)
{
    if (!c)
        return;
    for (int k = 0; k < c->n; k++)
        if (c->pf[k].rc == 0)
            platform_free(&c->pf[k].pf);
    model_memo_free(c->memo);
    free(c);
}

static int model_on(const struct platform *pf, profile_source src, const struct params *p,
                    struct model_result *m, struct model_memo *memo, char *err, size_t errlen);

/* The platform a configuration names: loaded the first time, from memory after. */
static int models_platform(struct advise_models *c, struct params *p, struct platform **pf,
                           char *err, size_t errlen)
{
    int k = 0;
    while (k < c->n && strcmp(c->pf[k].given, p->platform))
        k++;
    if (k == c->n) {
        if (c->n < MODELS_PLATFORMS)
            k = c->n++;
        else if (k = c->next, c->next = (c->next + 1) % MODELS_PLATFORMS, c->pf[k].rc == 0)
            platform_free(&c->pf[k].pf);
        model_memo_forget(c->memo); /* a platform may take a freed one's address */
        snprintf(c->pf[k].given, sizeof c->pf[k].given, "%s", p->platform);
        if (datadir_resolve(p->platform, c->pf[k].resolved, sizeof c->pf[k].resolved) < 0)
            snprintf(c->pf[k].resolved, sizeof c->pf[k].resolved, "%s", p->platform);
        c->pf[k].rc =
            platform_load(c->pf[k].resolved, &c->pf[k].pf, c->pf[k].err, sizeof c->pf[k].err);
    }
    if (strcmp(p->platform, c->pf[k].resolved)) /* (a printf per candidate showed) */
        snprintf(p->platform, sizeof p->platform, "%s", c->pf[k].resolved);
    if (c->pf[k].rc < 0) {
        snprintf(err, errlen, "%s", c->pf[k].err);
        return -1;
    }
    *pf = &c->pf[k].pf;
    return 0;
}

int advise_model(struct advise_models *c, struct params *p, struct model_result *m, char *err,
                 size_t errlen)
{
    struct platform *pf;
    if (models_platform(c, p, &pf, err, errlen) < 0)
        return -1;
    return model_on(pf, c->src, p, m, c->memo, err, errlen);
}

int advise_model_on(const struct platform *pf, profile_source src, const struct params *p,
                    struct model_result *m, char *err, size_t errlen)
{
    return model_on(pf, src, p, m, NULL, err, errlen);
}

static int model_on(const struct platform *pf, profile_source src, const struct params *p,
                    struct model_result *m, struct model_memo *memo, char *err, size_t errlen)
{
    char perr[PARAMS_ERR_MAX];
    if (params_validate(p, perr) < 0) {
        snprintf(err, errlen, "%s", perr);
        return -1;
    }
    struct layout l;
    if (layout_build(p, pf, &l, err, errlen) < 0)
        return -1;
    struct analytics_profile prof;
    int rc = src(p, &l, &prof, err, errlen);
    if (rc == 0) {
        model_eval_memo(p, pf, &l, &prof, m, memo);
        profile_free(&prof);
        /* Finite inputs can still overflow (a cost of 1e308): no result to rank. */
        if (!isfinite(m->makespan) || !isfinite(m->efficiency) || !(m->makespan > 0)) {
            snprintf(err, errlen, "the model overflows (makespan %g s)", m->makespan);
            rc = -1;
        }
    }
    layout_free(&l);
    return rc;
}

/* ---- ranking and the front ---- */

struct keyed {
    double v;
    long i;
};

static int by_value(const void *a, const void *b)
{
    const struct keyed *x = a, *y = b;
    if (x->v != y->v)
        return x->v < y->v ? -1 : 1;
    return (x->i > y->i) - (x->i < y->i);
}

int advise_order(long *idx, long n, const double *values, bool maximise)
{
    struct keyed *k = malloc(sizeof *k * (size_t)(n ? n : 1));
    if (!k)
        return -1;
    for (long j = 0; j < n; j++)
        k[j] = (struct keyed){maximise ? -values[idx[j]] : values[idx[j]], idx[j]};
    qsort(k, (size_t)n, sizeof *k, by_value);
    for (long j = 0; j < n; j++)
        idx[j] = k[j].i;
    free(k);
    return 0;
}

struct two {
    double makespan, core_hours;
    long i;
};

static int by_makespan(const void *a, const void *b)
{
    const struct two *x = a, *y = b;
    if (x->makespan != y->makespan)
        return x->makespan < y->makespan ? -1 : 1;
    if (x->core_hours != y->core_hours)
        return x->core_hours < y->core_hours ? -1 : 1;
    return (x->i > y->i) - (x->i < y->i);
}

long advise_pareto(struct advise_cand *c, long n, long *front)
{
    long m = 0;
    struct two *t = malloc(sizeof *t * (size_t)(n ? n : 1));
    if (!t)
        return -1;
    for (long i = 0; i < n; i++) {
        c[i].pareto = false;
        if (c[i].feasible && !c[i].repeat)
            t[m++] = (struct two){c[i].model.makespan, c[i].model.core_hours, i};
    }
    qsort(t, (size_t)m, sizeof *t, by_makespan);
    /* By makespan: a point is on the front when it uses fewer core-hours than every faster
     * point, or ties the last point of the front on both. */
    long nf = 0;
    for (long k = 0; k < m; k++) {
        bool on = nf == 0 || t[k].core_hours < c[front[nf - 1]].model.core_hours ||
                  (t[k].core_hours == c[front[nf - 1]].model.core_hours &&
                   t[k].makespan == c[front[nf - 1]].model.makespan);
        if (on) {
            c[t[k].i].pareto = true;
            front[nf++] = t[k].i;
        }
    }
    free(t);
    return nf;
}

/* ---- the search ---- */

void advise_init(struct advise *a)
{
    memset(a, 0, sizeof *a);
    params_defaults(&a->base);
    a->objective = ADVISE_EFFICIENCY;
}

void advise_free(struct advise *a)
{
    grid_free(&a->grid);
    free(a->cands);
    free(a->ranked);
    free(a->front);
    a->cands = NULL;
    a->ranked = a->front = NULL;
    a->n = a->nranked = a->nfront = 0;
}

int advise_params(const struct advise *a, long i, struct params *p, char *err)
{
    *p = a->base;
    if (grid_apply(&a->grid, i, p, err) < 0)
        return -1;
    char resolved[PARAMS_PATH_MAX];
    if (datadir_resolve(p->platform, resolved, sizeof resolved) == 0)
        snprintf(p->platform, sizeof p->platform, "%s", resolved);
    return 0;
}

int advise_run(struct advise *a, profile_source src, char *err, size_t errlen)
{
    long n = grid_size(&a->grid, ADVISE_MAX_POINTS);
    if (n < 0) {
        snprintf(err, errlen, "more than %ld candidates", ADVISE_MAX_POINTS);
        return -1;
    }
    free(a->cands);
    free(a->ranked);
    free(a->front);
    a->n = n;
    a->cands = calloc((size_t)n, sizeof *a->cands);
    a->ranked = calloc((size_t)n, sizeof *a->ranked);
    a->front = calloc((size_t)n, sizeof *a->front);
    double *values = calloc((size_t)n, sizeof *values);
    struct advise_models *models = advise_models_new(src);
    int rc = -1;
    if (!a->cands || !a->ranked || !a->front || !values || !models) {
        snprintf(err, errlen, "out of memory for %ld candidates", n);
        goto done;
    }
    a->nranked = a->invalid = 0;
    a->invalid_why[0] = 0;
    char perr[512];
    int ratio_axis = -1; /* the axis that moves the ratio alone, if any */
    for (int k = 0; k < a->grid.naxes; k++)
        if (a->grid.axes[k].nids == 1 && a->grid.axes[k].ids[0] == P_RATIO)
            ratio_axis = k;
    for (long i = 0; i < n; i++) {
        struct params p = a->base;
        struct model_result m;
        struct advise_cand *c = &a->cands[i];
        c->rank = -1;
        if (grid_apply(&a->grid, i, &p, perr) < 0) {
            snprintf(err, errlen, "%s", perr);
            goto done;
        }
        if (advise_model(models, &p, &m, perr, sizeof perr) < 0) {
            if (a->invalid++ == 0) {
                char cfg[256];
                grid_describe(&a->grid, &p, cfg, sizeof cfg);
                snprintf(a->invalid_why, sizeof a->invalid_why, "%s%s%s", cfg, cfg[0] ? ": " : "",
                         perr);
            }
            continue;
        }
        c->valid = true;
        advise_metrics_from_model(&p, &m, &c->model);
        c->feasible = advise_feasible(&a->limits, &c->model);
        values[i] = advise_value(&c->model, a->objective);
        /* inline ignores the ratio: its first row stands for the others */
        c->repeat =
            p.mapping == MAPPING_INLINE && ratio_axis >= 0 && grid_row(&a->grid, i, ratio_axis) > 0;
        if (c->feasible && !c->repeat)
            a->ranked[a->nranked++] = i;
    }
    if (a->invalid == n) {
        snprintf(err, errlen, "%s", a->invalid_why);
        goto done;
    }
    if (advise_order(a->ranked, a->nranked, values, advise_maximise(a->objective)) < 0 ||
        (a->nfront = advise_pareto(a->cands, n, a->front)) < 0) {
        snprintf(err, errlen, "out of memory for %ld candidates", n);
        goto done;
    }
    for (long k = 0; k < a->nranked; k++)
        a->cands[a->ranked[k]].rank = k;
    rc = 0;
done:
    free(values);
    advise_models_free(models);
    return rc;
}
