/* The per-stage comparison: the model's stages (S, Ing, R, A, W, C), the period and the makespan
 * against what SimGrid measured for the same configuration, each with its Δ, and when Situ knows
 * why they differ, a one-line reason read from the simulation's own per-step record. Pure: the
 * table view and the export read the same rows. No curses here. */
#ifndef SITU_TUI_STAGES_H
#define SITU_TUI_STAGES_H

#include <stdbool.h>

#include "../../engine/model/model.h"
#include "../../engine/model/params.h"
#include "../../engine/model/result.h"

#define STAGES_FAR 0.02 /* a Δ beyond this is flagged */

enum stage_row_id { ST_S, ST_ING, ST_R, ST_A, ST_W, ST_C, ST_PERIOD, ST_MAKESPAN, ST_ROWS };

struct stage_row {
    const char *name; /* "S", ..., "period", "makespan" */
    const char *what; /* what the stage is, in a few words */
    double model, sim;
    bool has_sim;
    double delta; /* (sim - model) / model; 0 when either is missing or the model is 0 */
    bool far;     /* |delta| > STAGES_FAR, and the difference is not tiny */
    bool tiny;    /* the difference is under 0.1% of the period: it cannot move the run */
};

struct stage_cmp {
    struct stage_row row[ST_ROWS];
    int nfar;
    char reason[200]; /* why they differ, when Situ knows; "" otherwise */
};

/* r NULL: the model's column only. */
void stages_compare(const struct params *p, const struct model_result *m,
                    const struct sim_result *r, struct stage_cmp *out);

#endif
