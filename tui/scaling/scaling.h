/* The static scaling / rate view (after the performance spectrum): for region 20..100 at the
 * current node count and at 1, 2, 4 and 8 nodes, the model's time-to-solution against its rate,
 * particle-iterations per second. A configuration scales when its rate stays put as the problem
 * grows: a flat line. Like the crossover, the curves take ~85 model evaluations, so the loop
 * computes them on the thread pool (scaling_eval is pure) and installs them when they land. No
 * curses, no loop here. */
#ifndef SITU_TUI_SCALING_H
#define SITU_TUI_SCALING_H

#include <stdbool.h>

#include "../../engine/model/params.h"
#include "../../engine/model/profile.h"
#include "../../engine/model/platform.h"
#include "../../engine/run/runner.h"

#define SC_REGIONS    17 /* region 20, 25, ..., 100 */
#define SC_REGION_MIN 20
#define SC_REGION_MAX 100
#define SC_CURVES     5    /* the current node count first, then 1, 2, 4, 8 (repeats skipped) */
#define SC_FLAT       0.10 /* a rate that moves less than this (max/min - 1) is flat */

struct scaling_curves {
    char key[RUNNER_KEY_MAX]; /* the base they were computed for; "" before the first */
    int ncurves;
    long nodes[SC_CURVES];
    bool ok[SC_CURVES]; /* false: the node count does not fit the platform or mapping */
    double region[SC_REGIONS];
    double time[SC_CURVES][SC_REGIONS]; /* time to solution (makespan), s; NAN if unknown */
    double rate[SC_CURVES][SC_REGIONS]; /* particles x iterations / time */
    double spread[SC_CURVES];           /* max rate / min rate - 1 over the regions */
};

struct scaling {
    struct params base;            /* the configuration, region aside */
    char base_key[RUNNER_KEY_MAX]; /* its canonical key */
    struct scaling_curves c;       /* may lag behind base_key */
};

/* Moves the base to configuration p; returns 1 if it changed. */
int scaling_rebase(struct scaling *sc, const struct params *p);
bool scaling_current(const struct scaling *sc);

/* Computes the curves of base on pf into c; key is the base's key. Profiles come from source,
 * as for xover_curves_eval. */
void scaling_eval(struct scaling_curves *c, const struct params *base, const char *key,
                  const struct platform *pf, profile_source source);

/* Whether curve k is flat (it scales); false for a missing curve. */
bool scaling_flat(const struct scaling_curves *c, int k);

#endif
