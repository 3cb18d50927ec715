/* Custom analytics: what one analysis costs and moves, as Lua functions of the configuration.
 * The parameter `analytics` selects a file (a path, or NAME for scripts/lua/analytics/NAME.lua);
 * empty is the built-in thermo of the paper. The analytic model and the SimGrid engine (in the
 * simulation child) both evaluate the same functions through analytics_eval.
 *
 * A file returns { name = "...", cost = function(ctx), bytes = function(ctx),
 * exchange = function(ctx) } (all optional but name; missing ones default to the built-in's).
 * cost is reference-core seconds for one analysis of every particle, bytes what the simulation
 * sends the analytics for one analysis in total, exchange {pattern = "none" | "allreduce" |
 * "allgather" | "gather", bytes = N} the communication among the analytics actors after each
 * analysis (N bytes contributed by each actor). docs/lua.md has the details. */
#ifndef SITU_ANALYTICS_H
#define SITU_ANALYTICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "layout.h"
#include "datadir.h"
#include "params.h"
#include "platform.h"

#define ANALYTICS_NAME_MAX DATADIR_NAME_MAX

enum analytics_pattern {
    ANALYTICS_NONE,
    ANALYTICS_ALLREDUCE,
    ANALYTICS_ALLGATHER,
    ANALYTICS_GATHER,
};

/* What the functions see besides every parameter: the placement and the step. */
struct analytics_ctx {
    double particles;
    long sim_cores, analytics_cores;
    int sim_nodes, analytics_nodes, nodes_used;
    long steps; /* analyses in the run */
    long step;  /* 0-based analysis index */
};

struct analytics_value {
    double cost;  /* reference-core seconds, one analysis of every particle */
    double bytes; /* simulation -> analytics, one analysis, in total */
    enum analytics_pattern pattern;
    double exchange_bytes; /* contributed by each analytics actor */
};

void analytics_ctx_init(struct analytics_ctx *c, const struct params *p, const struct layout *l,
                        long step);

/* Evaluates the analytics of p for ctx. -1 with "FILE:LINE: message" in err (a Lua error, a
 * wrong return type, a missing file). */
int analytics_eval(const struct params *p, const struct analytics_ctx *c, struct analytics_value *v,
                   char *err, size_t errlen);

/* Every step's values into out[steps] (the engine: a function that reads ctx.step may vary).
 * Functions that never read ctx.step are evaluated once. -1 with err. */
int analytics_eval_steps(const struct params *p, const struct layout *l, long steps,
                         struct analytics_value *out, char *err, size_t errlen);

/* The file behind a name: a path (anything with '/' or ending in .lua) or
 * scripts/lua/analytics/NAME.lua in the data directories. -1 with a message listing the names. */
int analytics_resolve(const char *name, char *path, size_t len, char *err, size_t errlen);

/* Loads (or reloads, if the file changed) and checks the file's shape; its name into name.
 * "" is the built-in ("thermo"). -1 with err. A watcher calls this when the file changes. */
int analytics_check(const char *analytics, char *name, size_t namelen, char *err, size_t errlen);

/* What identifies the analytics' current content, for caches keyed by configuration: "" for
 * the built-in, "PATH@MTIME.NSEC+SIZE" for a file (params_canonical only has the name, so an
 * edited file would otherwise hit the old results). -1 if the file cannot be found. */
int analytics_fingerprint(const char *analytics, char *out, size_t len);

/* Names of the shipped analytics (scripts/lua/analytics/ *.lua), sorted; returns how many. */
int analytics_list(char names[][ANALYTICS_NAME_MAX], int max);

const char *analytics_pattern_name(enum analytics_pattern pattern);

/* The exchange's time per step, as the model counts it in the A stage. Among the n analytics
 * hosts that receive states (k_h actors on host h; the actors of a host combine their parts in
 * shared memory first, for free), with T(b) = model_transfer_time of b bytes between two nodes:
 *   none or n < 2   0
 *   allreduce       ceil(log2 n) * T(B)                   recursive doubling between hosts
 *   allgather       T(max_h max((n-1) k_h, K - k_h) * B)  every host to every other, K = sum k_h
 *   gather          T((K - k_root) * B)                   to the metric collector's host
 * The engine simulates the same messages (sim_actors.c). */
double analytics_exchange_time(const struct platform *pf, const struct layout *l,
                               const struct analytics_value *v);

/* Where print() in analytics files goes: stderr by default, NULL discards (the explorer). */
void analytics_set_output(FILE *out);

/* Drops every loaded interpreter (tests; the next evaluation reloads). */
void analytics_forget(void);

#endif
