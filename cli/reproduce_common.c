/* What the figures of `situ reproduce` share (reproduce_figures.h): reading a study's results
 * and saying what drew them. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "reproduce_figures.h"

double figure_num(json_t *r, const char *key)
{
    json_t *v = json_object_get(r, key);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

/* The result of the configuration whose axis values match; NULL if absent or failed. */
json_t *figure_find(const struct study *s, const int *ids, const double *values, int n)
{
    for (int i = 0; i < s->n; i++) {
        bool same = s->results[i] != NULL;
        for (int k = 0; k < n && same; k++)
            same = fabs(params_get_number(&s->configs[i], ids[k]) - values[k]) <=
                   1e-9 * fmax(1, fabs(values[k]));
        if (same)
            return s->results[i];
    }
    return NULL;
}

/* Distinct values of a parameter across the study, ascending. */
int figure_distinct(const struct study *s, int id, double *out, int max)
{
    int n = 0;
    for (int i = 0; i < s->n; i++) {
        double v = params_get_number(&s->configs[i], id);
        bool seen = false;
        for (int k = 0; k < n && !seen; k++)
            seen = out[k] == v;
        if (!seen && n < max)
            out[n++] = v;
    }
    for (int a = 1; a < n; a++)
        for (int b = a; b > 0 && out[b - 1] > out[b]; b--) {
            double t = out[b];
            out[b] = out[b - 1];
            out[b - 1] = t;
        }
    return n;
}

/* What drew the figure and at which sizes, for its subtitle: "SimGrid (fast fidelity), 1.37 M
 * particles, 8000 iterations, analytics overhead" and what the caller adds. */
void figure_drawn_by(const struct study *s, const char *more, char *out, size_t len)
{
    char fidelity[32], analytics[PARAMS_PATH_MAX];
    params_format(&s->base, P_FIDELITY, fidelity, sizeof fidelity);
    const char *slash = strrchr(s->base.analytics, '/');
    snprintf(analytics, sizeof analytics, "%s",
             s->base.analytics[0] ? (slash ? slash + 1 : s->base.analytics) : "thermo");
    double lo = INFINITY, hi = 0; /* the particles of the runs: a study may vary them */
    for (int i = 0; i < s->n; i++)
        if (s->results[i])
            lo = fmin(lo, figure_num(s->results[i], "particles")),
            hi = fmax(hi, figure_num(s->results[i], "particles"));
    char particles[64];
    if (hi > lo)
        snprintf(particles, sizeof particles, "%.3g to %.3g M particles", lo / 1e6, hi / 1e6);
    else
        snprintf(particles, sizeof particles, "%.3g M particles", hi / 1e6);
    snprintf(out, len,
             "Every point a SimGrid simulation (%s fidelity): %s, %ld iterations, "
             "analytics %.64s%s%.200s",
             fidelity, particles, s->base.iterations, analytics, more[0] ? "; " : "", more);
}
