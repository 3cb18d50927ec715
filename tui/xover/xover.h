/* The crossover of strategies: makespan against data_scaling (1..1000, log) for each strategy
 * compared (engine/model/strategy.h: in situ, in transit, inline and whatever mappings the table
 * has, unless the user lists others), at the current configuration, from the model and from
 * simulations as they arrive; who is fastest in each range and where the next one takes over.
 *
 * Two halves with different lives: the base (which configuration, which simulated points) moves
 * with every key and is cheap; the model curves take ~150 model evaluations, so the loop computes
 * them on libuv's thread pool from a private copy of the platform and installs them when they
 * land (xover_curves_eval is pure and thread-safe for that reason). No curses, no loop here. */
#ifndef SITU_TUI_XOVER_H
#define SITU_TUI_XOVER_H

#include <stdbool.h>

#include "../../engine/model/params.h"
#include "../../engine/model/profile.h"
#include "../../engine/model/platform.h"
#include "../../engine/model/strategy.h"
#include "../../engine/run/runner.h"

#define XO_SAMPLES 46 /* model curve samples: 15 per decade, joined by straight lines */
#define XO_POINTS  7  /* simulated points: 1, 3.16, 10, ..., 1000 */
#define XO_MIN     1.0
#define XO_MAX     1000.0

#define XO_STRATEGIES STRATEGIES_MAX
/* Indices in the default list (strategy_defaults: the table's mappings in order, but hostfile).
 * Inline's curve is flat in data_scaling (no DTL): where the others rise past it, it wins. */
enum xo_mapping { XO_INSITU, XO_INTRANSIT, XO_INLINE };
enum xo_point_state { XO_PT_NONE, XO_PT_DONE, XO_PT_FAILED };

struct xover_curves {
    char key[RUNNER_KEY_MAX]; /* the base they were computed for; "" before the first */
    int n;                    /* strategies, as the key lists them */
    char name[XO_STRATEGIES][STRATEGY_NAME_MAX];
    bool ok[XO_STRATEGIES];
    char err[XO_STRATEGIES][PARAMS_ERR_MAX]; /* why a curve is missing */
    double xs[XO_SAMPLES];
    double model[XO_STRATEGIES][XO_SAMPLES]; /* makespan, s */
    struct strategy_ranges fastest; /* who is fastest where, crossings refined by bisection */
    int ncross;                     /* changes of the fastest in range: fastest.n - 1 */
    double cross_x;                 /* the first one */
    int faster_below;               /* the strategy fastest below cross_x (or everywhere) */
};

struct xover {
    struct params base;            /* the configuration compared, nodes >= 2 */
    char base_key[RUNNER_KEY_MAX]; /* its canonical key, mapping and data_scaling fixed, and the
                                      strategies after a '|' */
    bool bumped;                   /* nodes raised to 2: in transit needs a node of its own */
    bool chosen;                   /* the user's strategies (xover_choose), not the defaults */
    int nchosen;
    struct strategy chosen_st[XO_STRATEGIES];
    int n; /* the strategies compared: the chosen ones, or the defaults that apply */
    struct strategy st[XO_STRATEGIES];
    double px[XO_POINTS];
    double sim[XO_STRATEGIES][XO_POINTS]; /* simulated makespan when pstate is DONE */
    unsigned char pstate[XO_STRATEGIES][XO_POINTS];
    unsigned char pfid[XO_STRATEGIES][XO_POINTS]; /* the fidelity of sim (refined as the column) */
    struct xover_curves c; /* may lag behind base_key until the next computation lands */
};

/* The strategies to compare: a list ("insitu,intransit:queue,inline", strategy.h), or NULL or ""
 * for the defaults. -1 with a one-line message (nothing changed). The caller rebases. */
int xover_choose(struct xover *xo, const char *list, char *err, size_t errlen);

/* Moves the base to configuration p. The simulated points survive a change of mapping or
 * data_scaling only (nothing else leaves them valid). The defaults keep only the strategies that
 * apply to p: valid, and laid out on pf when pf is given. Returns 1 if the base changed. */
int xover_rebase(struct xover *xo, const struct params *p, const struct platform *pf);

/* Whether the curves are those of the current base. */
bool xover_current(const struct xover *xo);

/* Computes the curves of base (from xover_rebase) on platform pf into c; key is the base's key.
 * Profiles come from source: profile_source_builtin on the explorer's threads, the Lua file's
 * only in its evaluator process. Pure and thread-safe with a thread-safe source. */
void xover_curves_eval(struct xover_curves *c, const struct params *base, const char *key,
                       const struct platform *pf, profile_source source);

/* A private deep copy of a platform, for a computation on another thread. -1 if out of memory. */
int xover_platform_copy(struct platform *dst, const struct platform *src);

/* The configuration of simulated point i of strategy m. */
void xover_point_params(const struct xover *xo, int m, int i, struct params *out);

/* Records a simulation of p (makespan, or failed) at fidelity fid on every point of the current
 * base that p is: two strategies may name one configuration. p carries the base's fidelity and
 * sampling (a refinement answers for the base's point); a point already DONE at a higher
 * fidelity keeps its answer. Returns how many points took it. */
int xover_take(struct xover *xo, const struct params *p, bool done, double makespan, int fid);

/* The model's makespan at data_scaling x (log interpolation between samples); -1 if no curve. */
double xover_model_at(const struct xover_curves *c, int m, double x);

#endif
