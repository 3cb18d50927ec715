/* The study of strategies of `situ reproduce` (reproduce_strategies.c): a preset's
 * `sweep.strategy = NAME, ...` line (MAPPING[:DTL][+cRATIO], engine/model/strategy.h) becomes one
 * axis of the study, the strategies this build or the base cannot run being skipped and named in
 * the summary; its figure and summary say who is fastest where as the data grows. */
#ifndef SITU_CLI_REPRODUCE_STRATEGIES_H
#define SITU_CLI_REPRODUCE_STRATEGIES_H

#include "../plot/cairo_calls.h"
#include <stdio.h>

#include "../engine/model/strategy.h"
#include "study.h"

#define STRATEGY_SKIP_MAX 16

struct strategy_pick {
    int n; /* kept, in the list's order */
    struct strategy st[STRATEGIES_MAX];
    int nskip; /* skipped, each "NAME: why" */
    char skip[STRATEGY_SKIP_MAX][STRATEGY_NAME_MAX + PARAMS_ERR_MAX + 160];
};

/* The strategies of a comma-separated list that this build knows and that apply to base (the
 * model evaluates each); the others go to skip with why. Returns how many were kept. */
int reproduce_strategies_pick(const struct params *base, const char *list,
                              struct strategy_pick *pk);

/* Adds the kept strategies of list as the study's linked axis mapping:dtl[:compression], and
 * makes the study the model's. -1 with a one-line message when none applies (bad input). */
int reproduce_strategies_axis(struct study *s, const char *list, char *err, size_t errlen);

/* The figure of study s (reproduce_figures.c's table calls it) and the summary (struct figure's).
 */
void reproduce_strategies_draw(cairo_t *cr, double w, double h, const struct study *s);
void reproduce_strategies_summary(const struct study *s, FILE *out, double alert);

#endif
