/* Strategies: how a workflow moves its data, compared by the crossover, the advisor and studies.
 *
 * A strategy is MAPPING[:DTL][+cRATIO] ("insitu", "intransit:mailbox", "posthoc:file+c4"): a
 * mapping, optionally a data transport and a compression ratio; what it leaves out is the
 * configuration's. Names come from the parameter table's own choice lists (mapping, dtl) and the
 * ratio goes into its `compression` parameter, looked up by name: a mapping, a DTL or the
 * compression a build adds is a strategy with no edit here, and a build without a compression
 * parameter refuses "+c". Pure: no I/O, no globals but the parameter table. */
#ifndef SITU_STRATEGY_H
#define SITU_STRATEGY_H

#include <stdbool.h>
#include <stddef.h>

#include "params.h"

#define STRATEGY_NAME_MAX 64
#define STRATEGIES_MAX    6 /* drawn at once: six curves still read apart at 80x24 */

struct strategy {
    int mapping;        /* index into the mapping parameter's choices */
    int dtl;            /* index into the dtl parameter's choices; -1: the configuration's */
    double compression; /* ratio; 0: the configuration's */
    char name[STRATEGY_NAME_MAX]; /* as the user wrote it, normalised: "intransit:mailbox+c4" */
};

/* Parses one strategy name. -1 with a one-line message naming it (an unknown mapping or DTL, with
 * a guess; a ratio below 1; "+c" in a build without a compression parameter). */
int strategy_parse(const char *text, struct strategy *s, char *err, size_t errlen);

/* A comma-separated list ("insitu,intransit:queue,inline") into at most max strategies, none
 * named twice. Returns how many, or -1 with a one-line message. */
int strategy_parse_list(const char *list, struct strategy *v, int max, char *err, size_t errlen);

/* "insitu,intransit:queue": the names of v[0..n) joined by commas. */
void strategy_join(const struct strategy *v, int n, char *out, size_t len);

/* The configuration of strategy s on top of p: its mapping, its DTL and ratio when it gives them.
 * A hostfile is kept for mapping=hostfile only and an analytics zone for in transit only: they
 * place analytics cores that the other mappings do not have. -1 with err (PARAMS_ERR_MAX) when
 * a value is out of its parameter's range. */
int strategy_apply(const struct strategy *s, struct params *p, char *err);

/* The default strategies: every mapping of the table but hostfile (which needs the user's file),
 * each with the configuration's DTL, in the table's order (in situ, in transit first). Returns
 * how many (at most max). The caller leaves out those that do not apply to a configuration. */
int strategy_defaults(struct strategy *v, int max);

/* Who is fastest where. Over samples xs[0..n) (ascending) with y[k * n + i] the makespan of
 * strategy k of nk at xs[i] (NaN or <= 0: none; ok[k] false: left out), the lower envelope as
 * ranges: who[j] is fastest from from[j] to to[j], and to[j] == from[j + 1] is where who[j] is
 * crossed by who[j + 1]. Each crossing is narrowed by bisection in log x on the two strategies'
 * makespans through eval(ud, k, x) down to hi/lo <= 1 + tol (eval NULL: interpolated between the
 * samples). Ties within the dead band of crossover_sign keep the earlier winner. */
#define STRATEGY_RANGES_MAX 64
struct strategy_ranges {
    int n;
    int who[STRATEGY_RANGES_MAX];
    double from[STRATEGY_RANGES_MAX], to[STRATEGY_RANGES_MAX];
};
typedef double (*strategy_eval_fn)(void *ud, int k, double x);
void strategy_fastest(const double *xs, int n, const double *y, int nk, const bool *ok,
                      strategy_eval_fn eval, void *ud, double tol, struct strategy_ranges *r);

#endif
