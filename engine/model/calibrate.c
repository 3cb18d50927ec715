/* The fit of calibrate.h: relative linear least squares with the model as the design. */
#include "calibrate.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Two costs whose columns (relative, normalised) are this parallel cannot be told apart: their
 * correlation in the fit would be above it, and the runs then pin only their sum. */
#define CALIB_PARALLEL 0.9999
/* Above this correlation of two estimates the runs barely separate them: said, not refused. */
#define CALIB_CORRELATED 0.95
/* The model is linear in the costs when a prediction at the fitted costs matches the design's
 * to this relative precision (the max of the in-situ mapping is not, inline's sum is). */
#define CALIB_LINEAR 1e-6

const char *calib_reduce_name(enum calib_reduce r)
{
    return r == CALIB_MEDIAN ? "median" : r == CALIB_MEAN ? "mean" : "minimum";
}

int calib_cost_params(int *out, int max)
{
    int n = 0;
    for (int id = 0; id < PARAM_COUNT; id++)
        if (param_table[id].type == PARAM_REAL && !strncmp(param_table[id].unit, "s/", 2)) {
            if (n < max)
                out[n] = id;
            n++;
        }
    return n;
}

static void note(struct calib_fit *fit, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct calib_fit *fit, const char *fmt, ...)
{
    if (fit->nnotes == (int)(sizeof fit->note / sizeof fit->note[0]))
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(fit->note[fit->nnotes], sizeof fit->note[0], fmt, ap);
    va_end(ap);
    for (int i = 0; i < fit->nnotes; i++) /* a refit says it again: once is enough */
        if (!strcmp(fit->note[i], fit->note[fit->nnotes]))
            return;
    fit->nnotes++;
}

static double *cost_field(struct params *p, int id)
{
    return (double *)((char *)p + param_table[id].offset);
}

/* The value a cost takes to measure its column: its default, a magnitude the model's branches
 * see in practice (the column is per unit of cost whatever value it is measured at, when the
 * model is linear; when it is not, the fit is a linearisation there, and the check says so). */
static double probe(int id)
{
    return param_table[id].def > 0 ? param_table[id].def : 1e-6;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Groups runs by configuration (every parameter but the costs) and reduces their repeats. */
static int group_runs(const struct calib_runs *runs, const int *cost_id, int ncost,
                      enum calib_reduce reduce, struct calib_fit *fit)
{
    char(*key)[PARAMS_CANONICAL_MAX] = malloc((size_t)runs->n * sizeof *key);
    int *of = malloc((size_t)runs->n * sizeof *of);
    double *vals = malloc((size_t)runs->n * sizeof *vals);
    fit->group = calloc((size_t)runs->n, sizeof *fit->group);
    if (!key || !of || !vals || !fit->group) {
        free(key), free(of), free(vals);
        return -1;
    }
    fit->ngroups = 0;
    for (int i = 0; i < runs->n; i++) {
        struct params p = runs->run[i].p;
        for (int j = 0; j < ncost; j++)
            *cost_field(&p, cost_id[j]) = 0;
        params_canonical(&p, key[i], sizeof key[i]);
        int g = 0;
        while (g < fit->ngroups && strcmp(key[fit->group[g].first], key[i]))
            g++;
        if (g == fit->ngroups)
            fit->group[fit->ngroups++].first = i;
        of[i] = g;
    }
    for (int g = 0; g < fit->ngroups; g++) {
        struct calib_group *G = &fit->group[g];
        int n = 0;
        double sum = 0;
        G->best = G->first;
        for (int i = 0; i < runs->n; i++)
            if (of[i] == g) {
                sum += vals[n++] = runs->run[i].total;
                if (runs->run[i].total < runs->run[G->best].total)
                    G->best = i;
            }
        qsort(vals, (size_t)n, sizeof *vals, cmp_double);
        G->nrep = n;
        G->lo = vals[0];
        G->hi = vals[n - 1];
        G->measured = reduce == CALIB_MIN ? vals[0]
                      : reduce == CALIB_MEDIAN
                          ? (n % 2 ? vals[n / 2] : (vals[n / 2 - 1] + vals[n / 2]) / 2)
                          : sum / n;
    }
    free(key), free(of), free(vals);
    return 0;
}

/* Inverts the k x k matrix m (row-major) into inv by Gauss-Jordan with partial pivoting. -1 if
 * it is singular to working precision. */
static int invert(const double *m, double *inv, int k)
{
    double a[CALIB_MAX_COSTS * 2 * CALIB_MAX_COSTS];
    int w = 2 * k;
    for (int i = 0; i < k; i++)
        for (int j = 0; j < w; j++)
            a[i * w + j] = j < k ? m[i * k + j] : (j - k == i);
    for (int c = 0; c < k; c++) {
        int piv = c;
        for (int r = c + 1; r < k; r++)
            if (fabs(a[r * w + c]) > fabs(a[piv * w + c]))
                piv = r;
        if (!(fabs(a[piv * w + c]) > 1e-12))
            return -1;
        for (int j = 0; j < w; j++) {
            double t = a[c * w + j];
            a[c * w + j] = a[piv * w + j];
            a[piv * w + j] = t;
        }
        double d = a[c * w + c];
        for (int j = 0; j < w; j++)
            a[c * w + j] /= d;
        for (int r = 0; r < k; r++)
            if (r != c) {
                double f = a[r * w + c];
                for (int j = 0; j < w; j++)
                    a[r * w + j] -= f * a[c * w + j];
            }
    }
    for (int i = 0; i < k; i++)
        for (int j = 0; j < k; j++)
            inv[i * k + j] = a[i * w + k + j];
    return 0;
}

/* The model at configuration p with the costs set to value[] (NAN: left as p has it). */
static int evaluate(calib_forward forward, void *ud, const struct params *p, const int *cost_id,
                    int ncost, const double *value, double *out, char *err, size_t errlen)
{
    struct params q = *p;
    for (int j = 0; j < ncost; j++)
        if (!isnan(value[j]))
            *cost_field(&q, cost_id[j]) = value[j];
    return forward(ud, &q, out, err, errlen);
}

int calib_same_code(const struct calib_runs *first, const struct calib_runs *runs, char *err,
                    size_t errlen)
{
    for (int i = 0; first->n > 0 && i < runs->n; i++) {
        const struct calib_run *a = &first->run[0], *b = &runs->run[i];
        if (strcmp(a->code, b->code)) {
            snprintf(err, errlen, "%s:%d: runs of another code (%s) than %s:%d's (%s)", b->file,
                     b->line, b->code, a->file, a->line, a->code);
            return -1;
        }
    }
    return 0;
}

/* The design of the fitted costs: per configuration, the model with every fitted cost at 0,
 * then with each alone at its probe. The costs not fitted keep the configuration's values. */
static int design(const struct calib_runs *runs, const int *cost_id, int ncost,
                  calib_forward forward, void *ud, struct calib_fit *fit, char *err, size_t errlen)
{
    for (int g = 0; g < fit->ngroups; g++) {
        struct calib_group *G = &fit->group[g];
        const struct calib_run *run = &runs->run[G->first];
        double v[CALIB_MAX_COSTS], t;
        for (int j = 0; j < ncost; j++)
            v[j] = 0;
        char why[CALIB_ERR_MAX];
        int rc = evaluate(forward, ud, &run->p, cost_id, ncost, v, &G->base, why, sizeof why);
        for (int j = 0; rc == 0 && j < ncost; j++) {
            v[j] = probe(cost_id[j]);
            rc = evaluate(forward, ud, &run->p, cost_id, ncost, v, &t, why, sizeof why);
            G->x[j] = (t - G->base) / v[j];
            v[j] = 0;
        }
        if (rc < 0) {
            snprintf(err, errlen, "%s:%d: %s", run->file, run->line, why);
            return -1;
        }
    }
    return 0;
}

/* The relative norm of each cost's column: 0 when no configuration exercises it. */
static void exercised(struct calib_fit *fit, double *norm)
{
    for (int j = 0; j < fit->ncost; j++) {
        norm[j] = 0;
        for (int g = 0; g < fit->ngroups; g++)
            norm[j] += pow(fit->group[g].x[j] / fit->group[g].measured, 2);
        norm[j] = sqrt(norm[j]);
        fit->fitted[j] = norm[j] > 0;
        if (!fit->fitted[j])
            note(fit, "no run exercises %s (its value changes no run's time): kept at %g",
                 param_table[fit->cost_id[j]].key, fit->value[j]);
    }
}

/* Drops the second of two costs whose columns are parallel: the runs pin only their sum. */
static void separable(const struct calib_runs *runs, struct calib_fit *fit, const double *norm)
{
    int k = fit->ncost, n = fit->ngroups;
    for (int j = 0; j < k; j++)
        for (int i = 0; i < j && fit->fitted[j]; i++) {
            if (!fit->fitted[i])
                continue;
            double dot = 0;
            for (int g = 0; g < n; g++)
                dot += fit->group[g].x[i] * fit->group[g].x[j] / pow(fit->group[g].measured, 2);
            if (fabs(dot / (norm[i] * norm[j])) > CALIB_PARALLEL) {
                fit->fitted[j] = false;
                note(fit,
                     "these runs cannot separate %s from %s (they change every run's time in "
                     "the same proportion): %s fitted, %s kept at %g; add runs that vary them "
                     "apart (%s)",
                     param_table[fit->cost_id[i]].key, param_table[fit->cost_id[j]].key,
                     param_table[fit->cost_id[i]].key, param_table[fit->cost_id[j]].key,
                     fit->value[j], runs->run[0].file);
            }
        }
}

/* Relative least squares on the fitted columns, scaled to unit norm: values, uncertainties,
 * residuals and leave-one-out residuals (r / (1 - h), the hat matrix' diagonal h). */
static int solve(struct calib_fit *fit)
{
    int n = fit->ngroups, idx[CALIB_MAX_COSTS], k = 0;
    for (int j = 0; j < fit->ncost; j++)
        if (fit->fitted[j])
            idx[k++] = j;
    double *A = malloc(sizeof *A * (size_t)(n * (k ? k : 1))), *b = malloc(sizeof *b * n);
    double s[CALIB_MAX_COSTS], M[CALIB_MAX_COSTS * CALIB_MAX_COSTS];
    double Mi[CALIB_MAX_COSTS * CALIB_MAX_COSTS], theta[CALIB_MAX_COSTS] = {0};
    if (!A || !b) {
        free(A), free(b);
        return -1;
    }
    for (int g = 0; g < n; g++) {
        const struct calib_group *G = &fit->group[g];
        double fixed = G->base; /* what the costs not fitted add, at their values */
        for (int j = 0; j < fit->ncost; j++)
            fixed += fit->fitted[j] ? 0 : G->x[j] * fit->value[j];
        b[g] = (G->measured - fixed) / G->measured;
        for (int c = 0; c < k; c++)
            A[g * k + c] = G->x[idx[c]] / G->measured;
    }
    for (int c = 0; c < k; c++) {
        s[c] = 0;
        for (int g = 0; g < n; g++)
            s[c] += A[g * k + c] * A[g * k + c];
        s[c] = sqrt(s[c]);
        for (int g = 0; g < n; g++)
            A[g * k + c] /= s[c];
    }
    for (int c = 0; c < k; c++)
        for (int d = 0; d < k; d++) {
            M[c * k + d] = 0;
            for (int g = 0; g < n; g++)
                M[c * k + d] += A[g * k + c] * A[g * k + d];
        }
    int rc = k ? invert(M, Mi, k) : 0;
    for (int c = 0; rc == 0 && c < k; c++)
        for (int d = 0; d < k; d++)
            for (int g = 0; g < n; g++)
                theta[c] += Mi[c * k + d] * A[g * k + d] * b[g];
    double rss = 0;
    for (int g = 0; rc == 0 && g < n; g++) {
        double r = b[g], h = 0;
        for (int c = 0; c < k; c++) {
            r -= A[g * k + c] * theta[c];
            for (int d = 0; d < k; d++)
                h += A[g * k + c] * Mi[c * k + d] * A[g * k + d];
        }
        rss += r * r;
        fit->group[g].residual = r;
        fit->group[g].loo = h < 1 - 1e-9 ? r / (1 - h) : NAN;
    }
    fit->dof = n - k;
    double var = fit->dof > 0 ? rss / fit->dof : NAN;
    /* Separable, but barely: estimates that move together, so that the runs pin their sum
     * better than either (a badly conditioned design). */
    for (int c = 0; rc == 0 && c < k; c++)
        for (int d = 0; d < c; d++) {
            double corr = Mi[c * k + d] / sqrt(Mi[c * k + c] * Mi[d * k + d]);
            if (fabs(corr) > CALIB_CORRELATED)
                note(fit,
                     "these runs barely separate %s from %s (their estimates correlate at "
                     "%+.3f): their uncertainties are large; add runs that vary them apart",
                     param_table[fit->cost_id[idx[d]]].key, param_table[fit->cost_id[idx[c]]].key,
                     corr);
        }
    for (int c = 0; rc == 0 && c < k; c++) {
        fit->value[idx[c]] = theta[c] / s[c];
        fit->sigma[idx[c]] = sqrt(var * Mi[c * k + c]) / s[c];
    }
    free(A), free(b);
    return rc;
}

int calib_fit(const struct calib_runs *runs, const int *cost_id, int ncost, calib_forward forward,
              void *ud, const struct calib_options *o, struct calib_fit *fit, char *err,
              size_t errlen)
{
    memset(fit, 0, sizeof *fit);
    if (runs->n == 0) {
        snprintf(err, errlen, "calibrate: no runs to fit");
        return -1;
    }
    if (ncost > CALIB_MAX_COSTS)
        ncost = CALIB_MAX_COSTS;
    fit->ncost = ncost;
    for (int j = 0; j < ncost; j++) {
        fit->cost_id[j] = cost_id[j];
        fit->value[j] = *cost_field((struct params *)&runs->run[0].p, cost_id[j]);
        fit->sigma[j] = NAN;
    }
    if (calib_same_code(runs, runs, err, errlen) < 0)
        return -1;
    if (group_runs(runs, cost_id, ncost, o->reduce, fit) < 0) {
        snprintf(err, errlen, "calibrate: out of memory");
        return -1;
    }
    if (design(runs, cost_id, ncost, forward, ud, fit, err, errlen) < 0)
        return -1;
    double norm[CALIB_MAX_COSTS];
    exercised(fit, norm);
    int k = 0;
    char names[256] = "";
    for (int j = 0; j < ncost; j++)
        if (fit->fitted[j]) {
            size_t used = strlen(names);
            snprintf(names + used, sizeof names - used, "%s%s", k++ ? ", " : "",
                     param_table[cost_id[j]].key);
        }
    const struct calib_run *last = &runs->run[runs->n - 1];
    if (fit->ngroups >= k && k > 0)
        separable(runs, fit, norm);
    else {
        snprintf(err, errlen,
                 k ? "%s:%d: %d distinct configuration%s for %d costs to fit (%s): expected at "
                     "least as many configurations as costs"
                   : "%s:%d: no run exercises any cost parameter%.0d%s%.0d%s",
                 last->file, last->line, fit->ngroups, fit->ngroups == 1 ? "" : "s", k, names);
        return -1;
    }
    /* A cost cannot be below its table's least value (0, or just above): the most negative
     * one is held there and the others fitted again (an active set, as non-negative least
     * squares does), so that the preset written loads back. */
    for (;;) {
        if (solve(fit) < 0) {
            snprintf(err, errlen, "%s:%d: the runs cannot separate the costs (%s): singular design",
                     last->file, last->line, names);
            return -1;
        }
        int worst = -1;
        for (int j = 0; j < ncost; j++)
            if (fit->fitted[j] && fit->value[j] < param_table[cost_id[j]].min &&
                (worst < 0 || fit->value[j] < fit->value[worst]))
                worst = j;
        if (worst < 0)
            break;
        note(fit,
             "%s fitted below its least value (%.4g): held at %g, the others fitted again; no "
             "such cost explains these runs, or their noise hides it",
             param_table[cost_id[worst]].key, fit->value[worst], param_table[cost_id[worst]].min);
        fit->fitted[worst] = false;
        fit->value[worst] = param_table[cost_id[worst]].min;
        fit->sigma[worst] = NAN;
    }
    /* The model itself at the fitted costs: each configuration's prediction, and the check that
     * it matches the design's linear one. */
    fit->linear = true;
    fit->worst_group = 0;
    double sq = 0;
    for (int g = 0; g < fit->ngroups; g++) {
        struct calib_group *G = &fit->group[g];
        char why[CALIB_ERR_MAX];
        if (evaluate(forward, ud, &runs->run[G->first].p, cost_id, ncost, fit->value, &G->predicted,
                     why, sizeof why) < 0) {
            snprintf(err, errlen, "%s:%d: %s", runs->run[G->first].file, runs->run[G->first].line,
                     why);
            return -1;
        }
        double lin = G->base;
        for (int j = 0; j < ncost; j++)
            lin += G->x[j] * fit->value[j];
        if (fabs(lin - G->predicted) > CALIB_LINEAR * fmax(fabs(G->predicted), 1e-12))
            fit->linear = false;
        double r = (G->measured - G->predicted) / G->measured;
        G->residual = r;
        sq += r * r;
        if (fabs(r) > fabs(fit->group[fit->worst_group].residual))
            fit->worst_group = g;
    }
    fit->rms = sqrt(sq / fit->ngroups);
    fit->worst = fabs(fit->group[fit->worst_group].residual);
    fit->fits = fit->worst <= o->threshold;
    if (!fit->linear)
        note(fit, "the model is not linear in the costs for these configurations (the slower side "
                  "sets the pace, as in situ): the fit is a linearisation at the costs' defaults, "
                  "the residuals are the model's own");
    if (fit->dof == 0)
        note(fit, "as many configurations as costs: the fit passes through them, and neither "
                  "uncertainties nor leave-one-out errors can be estimated");
    return 0;
}

int calib_check(const struct calib_runs *runs, const struct calib_fit *fit, calib_forward forward,
                void *ud, const struct calib_options *o, struct calib_fit *check, char *err,
                size_t errlen)
{
    memset(check, 0, sizeof *check);
    if (runs->n == 0)
        return 0;
    if (group_runs(runs, fit->cost_id, fit->ncost, o->reduce, check) < 0) {
        snprintf(err, errlen, "calibrate: out of memory");
        return -1;
    }
    check->fits = true;
    for (int g = 0; g < check->ngroups; g++) {
        struct calib_group *G = &check->group[g];
        const struct calib_run *run = &runs->run[G->first];
        char why[CALIB_ERR_MAX];
        if (evaluate(forward, ud, &run->p, fit->cost_id, fit->ncost, fit->value, &G->predicted, why,
                     sizeof why) < 0) {
            snprintf(err, errlen, "%s:%d: %s", run->file, run->line, why);
            return -1;
        }
        G->residual = (G->measured - G->predicted) / G->measured;
        G->loo = NAN;
        if (fabs(G->residual) > check->worst) {
            check->worst = fabs(G->residual);
            check->worst_group = g;
        }
        check->rms += G->residual * G->residual;
    }
    check->rms = sqrt(check->rms / check->ngroups);
    check->fits = check->worst <= o->threshold;
    return 0;
}

void calib_apply(const struct calib_fit *fit, struct params *p)
{
    for (int j = 0; j < fit->ncost; j++) /* fitted, held at its least, or kept as it was */
        *cost_field(p, fit->cost_id[j]) = fit->value[j];
}

void calib_fit_free(struct calib_fit *fit)
{
    free(fit->group);
    fit->group = NULL;
}
