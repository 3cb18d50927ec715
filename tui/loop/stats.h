/* Key-to-frame latency samples and their percentiles, for `situ --stats`. */
#ifndef SITU_TUI_STATS_H
#define SITU_TUI_STATS_H

#include <stddef.h>

struct stats {
    double *ms;
    size_t n, cap;
};

void stats_add(struct stats *st, double ms);

/* The p-th percentile (0..100, nearest rank) of the samples; -1 if there are none. */
double stats_percentile(const struct stats *st, double p);

void stats_free(struct stats *st);

#endif
