/* The design-space advisor's search: every point of a grid (engine/model/grid.h) through the model,
 * scored by an objective, filtered by constraints, ranked, and its Pareto front of makespan
 * against core-hours. `situ advise`, situ.advise and the explorer's advisor view share it. Pure
 * but for the platform files it loads (once per path) and the analytics' profile source; safe
 * from any thread with profile_source_builtin.
 *
 * The objectives:
 *   efficiency  eta, the paper's eq. 6 (higher is better)
 *   makespan    seconds (lower)
 *   core-hours  nodes * cores_per_node * makespan / 3600 (lower)
 *   balance     the paper's sweet spot (Fig. 8), where both components' active times are high and
 *               close (higher). With u_s = sim_active / makespan and u_a = analytics_active /
 *               makespan (the share of the run each component's cores compute):
 *                 busy  = (sim_cores * u_s + analytics_cores * u_a) / (sim_cores + analytics_cores)
 *                 close = min(u_s, u_a) / max(u_s, u_a)
 *                 balance = busy * close
 *               close alone is about eta; busy weighs the idle time by the cores that idle, so
 *               thirty simulation cores waiting for one analytics core (R = 31 when the analytics
 *               is the slower side) scores below two analytics cores waiting for thirty
 *               simulation cores (R = 15), even where eta prefers the first. Inline (no
 *               analytics cores: the analysis on the ranks' own cores, after their S) has no
 *               idle to weigh: balance = u_s + u_a, 1 but for a rank that ends early, as its
 *               eta is 1. */
#ifndef SITU_ADVISE_H
#define SITU_ADVISE_H

#include <stdbool.h>
#include <stddef.h>

#include "advise_models.h"
#include "grid.h"
#include "model.h"
#include "params.h"
#include "platform.h"
#include "profile.h"

enum advise_objective {
    ADVISE_EFFICIENCY,
    ADVISE_MAKESPAN,
    ADVISE_CORE_HOURS,
    ADVISE_BALANCE,
    ADVISE_OBJECTIVES
};

/* "efficiency", "makespan", "core-hours", "balance". */
extern const char *const advise_objective_names[ADVISE_OBJECTIVES];

/* The objective named s ('_' for '-' too), or -1. */
int advise_objective_find(const char *s);

/* Whether higher values of the objective are better. */
bool advise_maximise(enum advise_objective o);

/* What the objectives and constraints read, from the model or from a simulation's result. */
struct advise_metrics {
    double makespan, efficiency;
    double sim_active, ana_active; /* seconds over the run, one core of each component */
    long sim_cores, ana_cores;
    long nodes, cores_per_node;
    double core_hours, balance; /* advise_metrics_finish */
};

/* Computes core_hours and balance from the rest. */
void advise_metrics_finish(struct advise_metrics *a);

void advise_metrics_from_model(const struct params *p, const struct model_result *m,
                               struct advise_metrics *a);

double advise_value(const struct advise_metrics *a, enum advise_objective o);

/* Constraints; a zero or negative field is no constraint. */
struct advise_limits {
    double max_makespan; /* seconds */
    long max_nodes;
    double min_efficiency;
};

bool advise_feasible(const struct advise_limits *lim, const struct advise_metrics *a);

/* One grid point. valid: the model could evaluate it (else it is in no ranking). repeat: an inline
 * point that differs from an earlier one by its ratio alone, which inline ignores: the same
 * configuration, kept for the maps but in no ranking and not on the front. */
struct advise_cand {
    struct advise_metrics model;
    bool valid, feasible, pareto, repeat;
    long rank; /* 0 for the best feasible candidate; -1 if not feasible */
};

struct advise {
    /* the question */
    struct params base;
    struct grid grid;
    enum advise_objective objective;
    struct advise_limits limits;
    /* the answer (advise_run) */
    long n;                    /* grid points */
    struct advise_cand *cands; /* [n], in grid order */
    long *ranked;              /* [nranked]: feasible candidates, best first (ties: grid order) */
    long nranked;
    long *front; /* [nfront]: the Pareto front, by makespan (then core-hours) */
    long nfront;
    long invalid;           /* points the model could not evaluate */
    char invalid_why[1024]; /* the first one's reason, with its configuration */
};

#define ADVISE_MAX_POINTS 10000000L

void advise_init(struct advise *a);
void advise_free(struct advise *a);

/* Evaluates, ranks and finds the front. -1 with err on bad input: an axis value out of its
 * parameter's range, too many points, or no point the model can evaluate. */
int advise_run(struct advise *a, profile_source src, char *err, size_t errlen);

/* The configuration of grid point i (platform path resolved). -1 with err as grid_apply. */
int advise_params(const struct advise *a, long i, struct params *p, char *err);

/* Sorts idx[0..n) by values[idx[k]], best first (highest when maximise); ties keep the smaller
 * index first, so that the order is the grid's, as a sweep lists it. -1 if out of memory. */
int advise_order(long *idx, long n, const double *values, bool maximise);

/* Marks and lists the Pareto front of makespan against core-hours (both lower is better) among
 * the feasible candidates: those no other feasible candidate is at least as good as on both
 * and better on one. Equal points are all on it (repeats are not). Returns the front's size. */
long advise_pareto(struct advise_cand *c, long n, long *front);

#endif
