/* A grid of configurations: axes of values over a base configuration, in the sweep's syntax.
 * `situ sweep`, `situ reproduce`, `situ advise` and situ.advise read their axes here, so that a
 * list means the same everywhere. Pure: no I/O, no model. */
#ifndef SITU_GRID_H
#define SITU_GRID_H

#include <stddef.h>

#include "params.h"

#define GRID_MAX_VALUES 4096
#define GRID_MAX_LINKED 4

/* One axis moves one parameter, or several together ("stride:compute_scaling" = "20:1,200:10"). */
struct grid_axis {
    int ids[GRID_MAX_LINKED];
    int nids;
    int n;
    char **values; /* n * nids strings, row by row */
};

struct grid {
    struct grid_axis axes[PARAM_MAX];
    int naxes;
};

/* Adds the axis of `keys` ("ratio" or "stride:compute_scaling", '-' or '_'); a list is
 * comma-separated values and ranges A..B, A..B+STEP, A..BxFACTOR. -1 with a one-line message
 * (nothing added). */
int grid_add_axis(struct grid *g, const char *keys, const char *list, char *err, size_t errlen);

void grid_free(struct grid *g);

/* Points in the product, or -1 when there are more than max. */
long grid_size(const struct grid *g, long max);

/* Sets the axis values of point n (the last axis varies fastest) into p. -1 with err
 * (PARAMS_ERR_MAX) when a value is out of its parameter's range. */
int grid_apply(const struct grid *g, long n, struct params *p, char *err);

/* The same on a p that holds point prev (grid_apply's, or this one's): only the axes whose row
 * differs are set again (a search's last axis, most often), which gives grid_apply's p, since
 * each value sets its own parameter only. prev < 0: every axis. */
int grid_apply_from(const struct grid *g, long n, long prev, struct params *p, char *err);

/* The row of axis k that point n takes. */
int grid_row(const struct grid *g, long n, int k);

/* "ratio=3 nodes=2": the axis values of p, for messages and tables. */
void grid_describe(const struct grid *g, const struct params *p, char *out, size_t len);

/* "stride:compute_scaling" / "20:1": an axis's name and the value of row r, as typed. */
void grid_axis_name(const struct grid_axis *ax, char *out, size_t len);
void grid_axis_value(const struct grid_axis *ax, int r, char *out, size_t len);

#endif
