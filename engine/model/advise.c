#include "advise.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

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

/* ---- ranking and the front ---- */

/* Arrays of a search's size (a candidate each): a page the kernel gives costs as much as a few
 * candidates' model, so that a search's arrays took a third of it in 4 KiB pages; where the
 * system gives huge pages on request, they are asked for. Freed with free(). */
#define HUGE_PAGE (2u << 20)
static void *big_alloc(size_t bytes)
{
#ifdef MADV_HUGEPAGE
    if (bytes >= 2 * HUGE_PAGE) {
        size_t whole = (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
        void *m = aligned_alloc(HUGE_PAGE, whole);
        if (m)
            madvise(m, whole, MADV_HUGEPAGE); /* advice: nothing lost where it is not taken */
        return m;
    }
#endif
    return malloc(bytes ? bytes : 1);
}

static void *big_calloc(size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        return NULL;
    void *m = big_alloc(n * size);
    return m ? memset(m, 0, n * size) : NULL;
}

struct keyed {
    double v;
    long i;
};

static inline bool keyed_before(const struct keyed *x, const struct keyed *y)
{
    return x->v != y->v ? x->v < y->v : x->i < y->i;
}

struct two {
    double makespan, core_hours;
    long i;
};

static inline bool two_before(const struct two *x, const struct two *y)
{
    if (x->makespan != y->makespan)
        return x->makespan < y->makespan;
    if (x->core_hours != y->core_hours)
        return x->core_hours < y->core_hours;
    return x->i < y->i;
}

/* A merge sort with its comparison inlined: qsort's calls to a comparator were a tenth of a
 * search. The orders are total (the index breaks ties; no NaN is ranked), so that any sort gives
 * qsort's order. tmp: n more elements. */
#define MERGE_SORT(name, type, before)                                                             \
    static void name(type *a, type *tmp, long n)                                                   \
    {                                                                                              \
        for (long lo = 0; lo < n; lo += 16) { /* runs of 16, by insertion */                       \
            long hi = lo + 16 < n ? lo + 16 : n;                                                   \
            for (long j = lo + 1; j < hi; j++) {                                                   \
                type x = a[j];                                                                     \
                long k = j;                                                                        \
                for (; k > lo && before(&x, &a[k - 1]); k--)                                       \
                    a[k] = a[k - 1];                                                               \
                a[k] = x;                                                                          \
            }                                                                                      \
        }                                                                                          \
        type *from = a, *to = tmp;                                                                 \
        for (long w = 16; w < n; w *= 2) {                                                         \
            for (long lo = 0; lo < n; lo += 2 * w) {                                               \
                long mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;          \
                long i = lo, j = mid, k = lo;                                                      \
                while (i < mid && j < hi)                                                          \
                    to[k++] = before(&from[j], &from[i]) ? from[j++] : from[i++];                  \
                while (i < mid)                                                                    \
                    to[k++] = from[i++];                                                           \
                while (j < hi)                                                                     \
                    to[k++] = from[j++];                                                           \
            }                                                                                      \
            type *t = from;                                                                        \
            from = to, to = t;                                                                     \
        }                                                                                          \
        if (from != a)                                                                             \
            memcpy(a, from, sizeof *a *(size_t)n);                                                 \
    }
MERGE_SORT(sort_keyed, struct keyed, keyed_before)
MERGE_SORT(sort_two, struct two, two_before)
#undef MERGE_SORT

/* advise_order's, on k[0..n) (values already negated where maximise); tmp: n more. */
static void order_keyed(long *idx, struct keyed *k, struct keyed *tmp, long n)
{
    sort_keyed(k, tmp, n);
    for (long j = 0; j < n; j++)
        idx[j] = k[j].i;
}

int advise_order(long *idx, long n, const double *values, bool maximise)
{
    struct keyed *k = big_alloc(2 * sizeof *k * (size_t)n);
    if (!k)
        return -1;
    for (long j = 0; j < n; j++)
        k[j] = (struct keyed){maximise ? -values[idx[j]] : values[idx[j]], idx[j]};
    order_keyed(idx, k, k + n, n);
    free(k);
    return 0;
}

/* The fastest makespan of each count of cores (nodes x cores_per_node): core-hours grow with the
 * makespan at one count (advise_metrics_finish), so that a slower candidate of a count is
 * dominated by a faster one and never on the front (which pareto_in then sorts without it). A
 * small open-addressed table of `mask` + 1 slots (a power of two, twice the candidates up to
 * PARETO_COUNTS: its pages are a small search's cost); false when the counts outnumber half of
 * it (no such filter). */
#define PARETO_COUNTS 4096
struct fastest {
    long cores; /* 0: an empty slot */
    double makespan;
};

static struct fastest *fastest_of(struct fastest *tab, size_t mask, long cores)
{
    size_t at = (size_t)cores * 0x9E3779B97F4A7C15ull >> 20 & mask;
    while (tab[at].cores && tab[at].cores != cores)
        at = (at + 1) & mask;
    return &tab[at];
}

static bool fastest_fill(const struct advise_cand *c, long n, struct fastest *tab, size_t mask)
{
    size_t used = 0;
    for (long i = 0; i < n; i++) {
        if (!c[i].feasible || c[i].repeat)
            continue;
        long cores = c[i].model.nodes * c[i].model.cores_per_node;
        struct fastest *f = fastest_of(tab, mask, cores);
        if (!f->cores) {
            if (++used > (mask + 1) / 2)
                return false;
            *f = (struct fastest){cores, c[i].model.makespan};
        } else if (c[i].model.makespan < f->makespan)
            f->makespan = c[i].model.makespan;
    }
    return true;
}

/* advise_pareto's, with t: 2n scratch elements. */
static long pareto_in(struct advise_cand *c, long n, long *front, struct two *t)
{
    long m = 0;
    size_t slots = 16;
    while (slots < PARETO_COUNTS && slots < 2 * (size_t)n)
        slots *= 2;
    struct fastest *tab = calloc(slots, sizeof *tab);
    bool filter = tab && fastest_fill(c, n, tab, slots - 1);
    for (long i = 0; i < n; i++) {
        c[i].pareto = false;
        if (c[i].feasible && !c[i].repeat &&
            (!filter || c[i].model.makespan ==
                            fastest_of(tab, slots - 1, c[i].model.nodes * c[i].model.cores_per_node)
                                ->makespan))
            t[m++] = (struct two){c[i].model.makespan, c[i].model.core_hours, i};
    }
    free(tab);
    sort_two(t, t + m, m);
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
    return nf;
}

long advise_pareto(struct advise_cand *c, long n, long *front)
{
    struct two *t = big_alloc(2 * sizeof *t * (size_t)n);
    if (!t)
        return -1;
    long nf = pareto_in(c, n, front, t);
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
    a->cands = big_calloc((size_t)n, sizeof *a->cands);
    a->ranked = big_calloc((size_t)n, sizeof *a->ranked);
    a->front = calloc((size_t)n, sizeof *a->front); /* (its pages are touched as the front is) */
    /* The ranking's keys, then the front's: one scratch, a sort's two halves. */
    size_t half =
        sizeof(struct two) > sizeof(struct keyed) ? sizeof(struct two) : sizeof(struct keyed);
    void *scratch = big_alloc(2 * half * (size_t)n);
    struct keyed *keys = scratch;
    struct advise_models *models = advise_models_new(src);
    int rc = -1;
    if (!a->cands || !a->ranked || !a->front || !scratch || !models) {
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
    bool maximise = advise_maximise(a->objective);
    /* p holds the last point's axis values: the next one sets those that change (a copy of the
     * base and every axis parsed again per candidate were a tenth of a search). */
    struct params p = a->base;
    for (long i = 0; i < n; i++) {
        struct model_result m;
        struct advise_cand *c = &a->cands[i];
        c->rank = -1;
        if (grid_apply_from(&a->grid, i, i - 1, &p, perr) < 0) {
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
        /* inline ignores the ratio: its first row stands for the others */
        c->repeat =
            p.mapping == MAPPING_INLINE && ratio_axis >= 0 && grid_row(&a->grid, i, ratio_axis) > 0;
        if (c->feasible && !c->repeat) {
            double v = advise_value(&c->model, a->objective);
            keys[a->nranked] = (struct keyed){maximise ? -v : v, i};
            a->ranked[a->nranked++] = i;
        }
    }
    if (a->invalid == n) {
        snprintf(err, errlen, "%s", a->invalid_why);
        goto done;
    }
    order_keyed(a->ranked, keys, keys + a->nranked, a->nranked);
    a->nfront = pareto_in(a->cands, n, a->front, scratch);
    for (long k = 0; k < a->nranked; k++)
        a->cands[a->ranked[k]].rank = k;
    rc = 0;
done:
    free(scratch);
    advise_models_free(models);
    return rc;
}
