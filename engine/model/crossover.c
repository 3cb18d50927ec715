/* The crossover search (crossover.h): a scan for the first change of sign, then rounds that
 * narrow its bracket. */
#include "crossover.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>

int crossover_sign(double a, double b)
{
    double d = a - b, tol = 1e-9 * fmax(fabs(a), fabs(b));
    return d > tol ? 1 : d < -tol ? -1 : 0;
}

int crossover_first_change(const double *a, const double *b, int n, int *from, int *count,
                           int *first_sign)
{
    int first = -1, last = 0, last_at = -1, changes = 0, sign0 = 0;
    for (int i = 0; i < n; i++) {
        int s = crossover_sign(a[i], b[i]);
        if (!s)
            continue;
        if (!sign0)
            sign0 = s;
        if (last && s != last && changes++ == 0) {
            first = i;
            if (from)
                *from = last_at;
        }
        last = s;
        last_at = i;
    }
    if (count)
        *count = changes;
    if (first_sign)
        *first_sign = sign0;
    return first;
}

double crossover_interpolate(double x0, double d0, double x1, double d1)
{
    double t = d0 != d1 ? d0 / (d0 - d1) : 0.5;
    return x0 * pow(x1 / x0, t);
}

void crossover_format(double x, char *out, size_t len)
{
    if (!(x > 0) || !isfinite(x)) {
        snprintf(out, len, "%g", x);
        return;
    }
    int mag = (int)floor(log10(x)), decimals = CROSSOVER_DIGITS - 1 - mag;
    double unit = pow(10, -decimals), r = round(x / unit) * unit;
    if (r >= pow(10, mag + 1)) /* 9.96 rounds up to 10: one decimal fewer */
        decimals--;
    snprintf(out, len, "%.*f", decimals > 0 ? decimals : 0, r);
}

void crossover_format_bound(double x, bool axis_end, char *out, size_t len)
{
    if (axis_end)
        snprintf(out, len, "%g", x);
    else
        crossover_format(x, out, len);
}

static int clamp_points(int n)
{
    return n < 1 ? 1 : n > CROSSOVER_POINTS_MAX ? CROSSOVER_POINTS_MAX : n;
}

void crossover_begin(struct crossover *c, double from, double to, int scan, int per_round,
                     double tol)
{
    *c = (struct crossover){.per_round = clamp_points(per_round), .tol = tol};
    c->n = clamp_points(scan < 2 ? 2 : scan);
    for (int i = 0; i < c->n; i++)
        c->xs[i] = from * pow(to / from, (double)i / (c->n - 1));
}

/* The next round: per_round points spread evenly in log x strictly inside the bracket. */
static enum crossover_state next_round(struct crossover *c)
{
    if (c->hi / c->lo <= 1 + c->tol)
        return CROSSOVER_FOUND;
    c->n = c->per_round;
    for (int k = 0; k < c->n; k++)
        c->xs[k] = c->lo * pow(c->hi / c->lo, (double)(k + 1) / (c->n + 1));
    return CROSSOVER_MORE;
}

enum crossover_state crossover_begin_bracket(struct crossover *c, double lo, double dlo, double hi,
                                             double dhi, int per_round, double tol)
{
    *c = (struct crossover){.per_round = clamp_points(per_round), .tol = tol, .refining = true};
    c->lo = lo, c->dlo = dlo, c->hi = hi, c->dhi = dhi;
    return next_round(c);
}

enum crossover_state crossover_take(struct crossover *c)
{
    c->evals += c->n;
    if (!c->refining) {
        int from, at = crossover_first_change(c->a, c->b, c->n, &from, NULL, NULL);
        if (at < 0)
            return CROSSOVER_NONE;
        c->lo = c->xs[from], c->dlo = c->a[from] - c->b[from];
        c->hi = c->xs[at], c->dhi = c->a[at] - c->b[at];
        c->refining = true;
        return next_round(c);
    }
    /* The bracket's low end keeps its sign: the first point of the other sign (or the high end)
     * closes the new bracket, and the last point of the low end's sign opens it. A point where
     * a and b are equal (within the dead band) is the crossing itself: the bracket closes on it,
     * or the same point would be asked for again and again. */
    int low = c->dlo > 0 ? 1 : -1; /* never 0: the scan (or the caller) saw a sign there */
    if (++c->rounds > CROSSOVER_ROUNDS_MAX)
        return CROSSOVER_FOUND; /* floating point can stall a bracket short of tol: stop */
    for (int k = 0; k < c->n; k++) {
        int s = crossover_sign(c->a[k], c->b[k]);
        double d = c->a[k] - c->b[k];
        if (!s) {
            c->lo = c->hi = c->xs[k], c->dhi = d;
            break;
        }
        if (s == low) {
            c->lo = c->xs[k], c->dlo = d;
        } else {
            c->hi = c->xs[k], c->dhi = d;
            break;
        }
    }
    return next_round(c);
}

double crossover_at(const struct crossover *c)
{
    return crossover_interpolate(c->lo, c->dlo, c->hi, c->dhi);
}

bool crossover_insitu_faster_below(const struct crossover *c)
{
    return c->dlo < 0;
}
