#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void stats_add(struct stats *st, double ms)
{
    if (st->n == st->cap) {
        size_t cap = st->cap ? st->cap * 2 : 256;
        double *grown = realloc(st->ms, cap * sizeof *grown);
        if (!grown)
            return; /* a lost sample is better than a crash on the way out */
        st->ms = grown;
        st->cap = cap;
    }
    st->ms[st->n++] = ms;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double stats_percentile(const struct stats *st, double p)
{
    if (st->n == 0)
        return -1;
    double *sorted = malloc(st->n * sizeof *sorted);
    if (!sorted)
        return -1;
    memcpy(sorted, st->ms, st->n * sizeof *sorted);
    qsort(sorted, st->n, sizeof *sorted, by_value);
    size_t rank = (size_t)ceil(p / 100 * (double)st->n);
    double v = sorted[rank > 0 ? rank - 1 : 0];
    free(sorted);
    return v;
}

void stats_free(struct stats *st)
{
    free(st->ms);
    memset(st, 0, sizeof *st);
}
