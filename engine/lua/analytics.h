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

#include "../model/layout.h"
#include "../base/datadir.h"
#include "../model/params.h"
#include "../model/profile.h"

#define ANALYTICS_NAME_MAX DATADIR_NAME_MAX

/* What the functions see besides every parameter: the placement and the step. */
struct analytics_ctx {
    double particles;
    long sim_cores, analytics_cores;
    int sim_nodes, analytics_nodes, nodes_used;
    long steps;         /* analyses in the run */
    long step;          /* 0-based analysis index */
    double state_bytes; /* one rank's state, from the simulation profile */
};

void analytics_ctx_init(struct analytics_ctx *c, const struct params *p, const struct layout *l,
                        long step);

/* Evaluates the analytics of p for ctx. -1 with "FILE:LINE: message" in err (a Lua error, a
 * wrong return type, a missing file). */
int analytics_eval(const struct params *p, const struct analytics_ctx *c, struct analytics_value *v,
                   char *err, size_t errlen);

/* The profile of p's analytics over the run (the built-in's formulas, or the Lua file
 * evaluated at every step, once when no function reads ctx.step), with the simulation's
 * (simulation_eval), whose particles the analytics count. Runs user Lua under the
 * limits (script.h): call it where a hang can be killed, never on a UI thread. -1 with err. */
int analytics_profile(const struct params *p, const struct layout *l, struct analytics_profile *out,
                      char *err, size_t errlen);

/* The file behind a name: a path (anything with '/' or ending in .lua) or
 * scripts/lua/analytics/NAME.lua in the data directories. -1 with a message listing the names. */
int analytics_resolve(const char *name, char *path, size_t len, char *err, size_t errlen);

/* Loads (or reloads, if the file changed) and checks the file's shape; its name into name.
 * "" is the built-in ("thermo"). -1 with err. A watcher calls this when the file changes. */
int analytics_check(const char *analytics, char *name, size_t namelen, char *err, size_t errlen);

/* Names of the shipped analytics (scripts/lua/analytics/ *.lua), sorted; returns how many. */
int analytics_list(char names[][ANALYTICS_NAME_MAX], int max);

/* Where print() in analytics files goes: stderr by default, NULL discards (the explorer). */
void analytics_set_output(FILE *out);

/* Drops every loaded interpreter (tests; the next evaluation reloads). */
void analytics_forget(void);

#endif
