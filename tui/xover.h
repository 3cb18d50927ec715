/* The in-situ vs in-transit crossover: makespan against data_scaling (1..1000, log) for both
 * mappings, and inline beside them, at the current configuration, from the model and from
 * simulations as they arrive.
 *
 * Two halves with different lives: the base (which configuration, which simulated points) moves
 * with every key and is cheap; the model curves take ~150 model evaluations, so the loop computes
 * them on libuv's thread pool from a private copy of the platform and installs them when they
 * land (xover_curves_eval is pure and thread-safe for that reason). No curses, no loop here. */
#ifndef SITU_TUI_XOVER_H
#define SITU_TUI_XOVER_H

#include <stdbool.h>

#include "../engine/model/params.h"
#include "../engine/model/profile.h"
#include "../engine/model/platform.h"
#include "../engine/run/runner.h"

#define XO_SAMPLES 46 /* model curve samples: 15 per decade, joined by straight lines */
#define XO_POINTS  7  /* simulated points: 1, 3.16, 10, ..., 1000 */
#define XO_MIN     1.0
#define XO_MAX     1000.0

/* Inline's curve is flat in data_scaling (no DTL): where the others rise past it, it wins. */
enum xo_mapping { XO_INSITU, XO_INTRANSIT, XO_INLINE, XO_MAPPINGS };
enum xo_point_state { XO_PT_NONE, XO_PT_DONE, XO_PT_FAILED };

struct xover_curves {
    char key[RUNNER_KEY_MAX]; /* the base they were computed for; "" before the first */
    bool ok[XO_MAPPINGS];
    char err[XO_MAPPINGS][PARAMS_ERR_MAX]; /* why a curve is missing */
    double xs[XO_SAMPLES];
    double model[XO_MAPPINGS][XO_SAMPLES]; /* makespan, s */
    int ncross;                            /* sign changes of insitu - intransit in range */
    double cross_x;                        /* the first one, refined by bisection */
    int faster_below; /* the mapping with the smaller makespan below cross_x (or everywhere) */
};

struct xover {
    struct params base;            /* the configuration compared, nodes >= 2 */
    char base_key[RUNNER_KEY_MAX]; /* its canonical key, mapping and data_scaling fixed */
    bool bumped;                   /* nodes raised to 2: in transit needs a node of its own */
    double px[XO_POINTS];
    double sim[XO_MAPPINGS][XO_POINTS]; /* simulated makespan when pstate is DONE */
    unsigned char pstate[XO_MAPPINGS][XO_POINTS];
    unsigned char pfid[XO_MAPPINGS][XO_POINTS]; /* the fidelity of sim (refined like the column) */
    struct xover_curves c; /* may lag behind base_key until the next computation lands */
};

/* Moves the base to configuration p. The simulated points survive a change of mapping or
 * data_scaling only (nothing else leaves them valid). Returns 1 if the base changed. */
int xover_rebase(struct xover *xo, const struct params *p);

/* Whether the curves are those of the current base. */
bool xover_current(const struct xover *xo);

/* Computes the curves of base (from xover_rebase) on platform pf into c; key is the base's key.
 * Profiles come from source: profile_source_builtin on the explorer's threads, the Lua file's
 * only in its evaluator process. Pure and thread-safe with a thread-safe source. */
void xover_curves_eval(struct xover_curves *c, const struct params *base, const char *key,
                       const struct platform *pf, profile_source source);

/* A private deep copy of a platform, for a computation on another thread. -1 if out of memory. */
int xover_platform_copy(struct platform *dst, const struct platform *src);

/* The configuration of simulated point i of mapping m. */
void xover_point_params(const struct xover *xo, int m, int i, struct params *out);

/* Whether p is one of the points of the current base: 1 with *m and *i set, 0 if not. */
int xover_match(const struct xover *xo, const struct params *p, int *m, int *i);

/* The model's makespan at data_scaling x (log interpolation between samples); -1 if no curve. */
double xover_model_at(const struct xover_curves *c, int m, double x);

#endif
