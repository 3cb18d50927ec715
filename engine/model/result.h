/* One measured result as `situ run --json` prints it (the model's keys, from report_result_json,
 * plus what only a simulation knows), parsed back into a struct. The runner reads children's
 * output through this, so a malformed line is rejected here with a reason a user can act on. */
#ifndef SITU_RESULT_H
#define SITU_RESULT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "model.h"

#define RESULT_ERR_MAX 256

struct result_link {
    char name[64];
    char place[12];     /* in the topology ("node", "spine", "global", "uplink"...); "" if unsaid */
    double bytes;       /* bytes carried over the run */
    double utilisation; /* in [0, 1] */
};

struct sim_result {
    /* The keys shared with the model. Fields the JSON does not carry (tail_iterations, chunks)
     * stay 0; optional shared keys that are absent stay 0 too. */
    struct model_result m;
    double wall_seconds; /* host time the simulation took; -1 when absent */
    long activities;     /* SimGrid activities executed; -1 when absent */
    char fidelity[16];   /* "fast" / "full"; "" when absent */
    /* Step sampling (fidelity full, --sampling auto): the steps SimGrid simulated (the rest were
     * extrapolated) and the error estimate; -1 and 0 when the JSON has no "sampling". */
    long steps_simulated;
    double sampling_error;
    char warning[640]; /* where the platform breaks an assumption (model or fast mode); "" */
    /* Per step, seconds for one core of each component; all four have nsteps entries (0: absent).
     * They point into one allocation owned by the struct. */
    long nsteps;
    double *step_sim_active, *step_sim_idle, *step_ana_active, *step_ana_idle;
    int nlinks;
    struct result_link *links;
};

/* Parses one JSON object (surrounding whitespace allowed, nothing else). On error returns -1 and
 * writes a one-line reason into err ("not JSON: ... at line 1 column 5", "key 'makespan' is
 * missing", ...); r is then empty (safe to result_free). */
int result_parse(const char *text, size_t len, struct sim_result *r, char *err, size_t errlen);

/* The two halves of result_parse, for a caller that keeps the JSON too (one parse per result):
 * the text as a JSON value (NULL with the reason), then that value checked against the schema
 * and read into r (-1 with the reason; r is then empty). */
json_t *result_load(const char *text, size_t len, char *err, size_t errlen);
int result_from_json(json_t *o, struct sim_result *r, char *err, size_t errlen);

/* Deep copy; -1 on allocation failure (dst empty). */
int result_copy(struct sim_result *dst, const struct sim_result *src);

/* Frees what r owns and empties it. */
void result_free(struct sim_result *r);

/* The engine behind r's numbers, as the explorer names it: "fast", "full", "full sampled" (some
 * steps extrapolated), "smpi"; "SimGrid" when the JSON does not say. */
const char *result_engine(const struct sim_result *r);

/* How faithful r is: its fidelity's index in the parameter table (fast 0, full 1, smpi 2), -1
 * when the JSON does not say. A more faithful result of a configuration supersedes a less
 * faithful one, never the reverse. */
int result_fidelity(const struct sim_result *r);

/* Mean of a per-step array, or -1 if there are no steps. */
double result_step_mean(const struct sim_result *r, const double *steps);

#endif
