/* Strategies (strategy.h): names read from the parameter table, a configuration per strategy,
 * and who is fastest where. */
#include "strategy.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crossover.h"

/* The index of name (len bytes) among parameter id's choices, -1 if none. */
static int choice_of(int id, const char *name, size_t len)
{
    const char *const *c = param_table[id].choices;
    for (int k = 0; c[k]; k++)
        if (strlen(c[k]) == len && !strncmp(c[k], name, len))
            return k;
    return -1;
}

/* "strategy 'x': unknown dtl 'y'; expected one of queue, mailbox; did you mean 'z'?" */
static int unknown(const char *text, int id, const char *name, size_t len, char *err, size_t errlen)
{
    char word[STRATEGY_NAME_MAX], range[160];
    snprintf(word, sizeof word, "%.*s", (int)(len < sizeof word ? len : sizeof word - 1), name);
    params_describe_range(id, range, sizeof range);
    const char *near = params_nearest(word, param_table[id].choices, 16);
    snprintf(err, errlen, "strategy '%.64s': unknown %s '%s'; expected %s%s%s%s", text,
             param_table[id].key, word, range, near ? "; did you mean '" : "", near ? near : "",
             near ? "'?" : "");
    return -1;
}

int strategy_parse(const char *text, struct strategy *s, char *err, size_t errlen)
{
    *s = (struct strategy){.dtl = -1};
    size_t head = strcspn(text, "+"), mlen = strcspn(text, ":+");
    if (!mlen) {
        snprintf(err, errlen, "strategy '%.64s': expected MAPPING[:DTL][+cRATIO], e.g. %s", text,
                 "intransit:mailbox+c4");
        return -1;
    }
    if ((s->mapping = choice_of(P_MAPPING, text, mlen)) < 0)
        return unknown(text, P_MAPPING, text, mlen, err, errlen);
    if (mlen < head && (s->dtl = choice_of(P_DTL, text + mlen + 1, head - mlen - 1)) < 0)
        return unknown(text, P_DTL, text + mlen + 1, head - mlen - 1, err, errlen);
    if (text[head]) {
        /* The ratio goes into the table's compression parameter, whatever build has one. */
        int cid = params_find("compression");
        const char *r = text + head + 1;
        char *end = NULL;
        double ratio = *r == 'c' ? strtod(r + 1, &end) : NAN;
        if (cid < 0) {
            snprintf(err, errlen,
                     "strategy '%.64s': this build has no compression parameter for '+c' (situ "
                     "--help)",
                     text);
            return -1;
        }
        struct params scratch;
        params_defaults(&scratch);
        char perr[PARAMS_ERR_MAX];
        if (!end || end == r + 1 || *end || !(ratio >= 1) ||
            params_set_number(&scratch, cid, ratio, perr) < 0) {
            snprintf(err, errlen, "strategy '%.64s': expected +cRATIO with a ratio >= 1 (+c4)",
                     text);
            return -1;
        }
        s->compression = ratio;
    }
    int n = snprintf(s->name, sizeof s->name, "%s", param_table[P_MAPPING].choices[s->mapping]);
    if (s->dtl >= 0)
        n += snprintf(s->name + n, sizeof s->name - (size_t)n, ":%s",
                      param_table[P_DTL].choices[s->dtl]);
    if (s->compression > 0)
        snprintf(s->name + n, sizeof s->name - (size_t)n, "+c%g", s->compression);
    return 0;
}

int strategy_parse_list(const char *list, struct strategy *v, int max, char *err, size_t errlen)
{
    int n = 0;
    for (const char *k = list;; k++) {
        size_t len = strcspn(k, ",");
        char one[STRATEGY_NAME_MAX];
        if (!len || len >= sizeof one) {
            snprintf(err, errlen, "strategies '%.64s': %s", list,
                     len ? "a name is too long" : "an empty name");
            return -1;
        }
        snprintf(one, sizeof one, "%.*s", (int)len, k);
        if (n == max) {
            snprintf(err, errlen, "strategies '%.64s': more than %d", list, max);
            return -1;
        }
        if (strategy_parse(one, &v[n], err, errlen) < 0)
            return -1;
        for (int j = 0; j < n; j++)
            if (!strcmp(v[j].name, v[n].name)) {
                snprintf(err, errlen, "strategies '%.64s': %s named twice", list, v[n].name);
                return -1;
            }
        n++;
        k += len;
        if (!*k)
            return n;
    }
}

void strategy_join(const struct strategy *v, int n, char *out, size_t len)
{
    size_t used = 0;
    out[0] = 0;
    for (int k = 0; k < n && used < len; k++)
        used += (size_t)snprintf(out + used, len - used, "%s%s", k ? "," : "", v[k].name);
}

int strategy_apply(const struct strategy *s, struct params *p, char *err)
{
    if (params_set_number(p, P_MAPPING, s->mapping, err) < 0 ||
        (s->dtl >= 0 && params_set_number(p, P_DTL, s->dtl, err) < 0))
        return -1;
    if (s->compression > 0 &&
        params_set_number(p, params_find("compression"), s->compression, err) < 0)
        return -1;
    if (s->mapping != MAPPING_HOSTFILE)
        p->hostfile[0] = 0;
    if (s->mapping != MAPPING_INTRANSIT)
        p->analytics_zone[0] = 0;
    return 0;
}

int strategy_defaults(struct strategy *v, int max)
{
    int n = 0;
    const char *const *c = param_table[P_MAPPING].choices;
    for (int k = 0; c[k] && n < max; k++) {
        if (k == MAPPING_HOSTFILE)
            continue;
        v[n] = (struct strategy){.mapping = k, .dtl = -1};
        snprintf(v[n].name, sizeof v[n].name, "%s", c[k]);
        n++;
    }
    return n;
}

static bool valid(double v)
{
    return isfinite(v) && v > 0;
}

/* Where a (fastest at x0) is crossed by b (fastest at x1): bisection in log x, or interpolated. */
static double crossing(const double *xs, const double *y, int n, int a, int b, int i0, int i1,
                       strategy_eval_fn eval, void *ud, double tol)
{
    double d0 = y[a * n + i0] - y[b * n + i0], d1 = y[a * n + i1] - y[b * n + i1];
    if (!isfinite(d0) || !isfinite(d1))
        return xs[i1]; /* one of them has no makespan there: the change is at the sample */
    if (!eval)
        return crossover_interpolate(xs[i0], d0, xs[i1], d1);
    struct crossover c;
    enum crossover_state st = crossover_begin_bracket(&c, xs[i0], d0, xs[i1], d1, 1, tol);
    while (st == CROSSOVER_MORE) {
        c.a[0] = eval(ud, a, c.xs[0]);
        c.b[0] = eval(ud, b, c.xs[0]);
        st = crossover_take(&c);
    }
    double x = crossover_at(&c);
    return x < xs[i0] ? xs[i0] : x > xs[i1] ? xs[i1] : x;
}

void strategy_fastest(const double *xs, int n, const double *y, int nk, const bool *ok,
                      strategy_eval_fn eval, void *ud, double tol, struct strategy_ranges *r)
{
    r->n = 0;
    int last = -1; /* the last sample with a winner */
    for (int i = 0; i < n; i++) {
        int best = -1;
        for (int k = 0; k < nk; k++)
            if (ok[k] && valid(y[k * n + i]) && (best < 0 || y[k * n + i] < y[best * n + i]))
                best = k;
        if (best < 0)
            continue;
        int cur = r->n ? r->who[r->n - 1] : -1;
        /* A tie within the dead band is no change of winner: equal plateaus do not flicker. */
        if (cur >= 0 && cur != best && valid(y[cur * n + i]) &&
            crossover_sign(y[cur * n + i], y[best * n + i]) == 0)
            best = cur;
        if (cur < 0) {
            r->who[0] = best, r->from[0] = xs[i], r->n = 1;
        } else if (best != cur && r->n < STRATEGY_RANGES_MAX) {
            double x = crossing(xs, y, n, cur, best, last, i, eval, ud, tol);
            r->to[r->n - 1] = x;
            r->who[r->n] = best, r->from[r->n] = x, r->n++;
        }
        last = i;
        r->to[r->n - 1] = xs[i];
    }
}
