/* An analytics profile: what each step's analysis costs and moves, as plain numbers. The model
 * and the engine read profiles, never Lua: a Lua analytics file is evaluated beforehand
 * (analytics_profile, in a process that can be killed), the built-in thermo here. Safe from
 * any thread. */
#ifndef SITU_PROFILE_H
#define SITU_PROFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "layout.h"
#include "params.h"
#include "simprofile.h"

enum analytics_pattern {
    ANALYTICS_NONE,
    ANALYTICS_ALLREDUCE,
    ANALYTICS_ALLGATHER,
    ANALYTICS_GATHER,
};

struct analytics_value {
    double cost;  /* reference-core seconds, one analysis of every particle */
    double bytes; /* simulation -> analytics, one analysis, in total */
    enum analytics_pattern pattern;
    double exchange_bytes; /* contributed by each analytics actor */
};

/* Steps that share one value: the model sums over classes, weighted by their counts. */
struct analytics_class {
    struct analytics_value v;
    long count;
};

struct analytics_profile {
    long steps;   /* analyses in the run; the counts add up to it (at least 1 class) */
    int nclasses; /* distinct values, in the order of their first step */
    struct analytics_class *classes;
    long *step_class; /* [steps]: each step's class; NULL when every step has class 0 */
    /* The simulation's side of the configuration, evaluated with the analytics' (whose
     * particles are its particles): every holder of a profile has both. */
    struct sim_profile sim;
};

/* One analysis by the built-in thermo of the paper over `particles` particles: the one C home of
 * the arithmetic scripts/lua/analytics/thermo.lua repeats, in the same order (tests/lua/run.py
 * checks that both give the same numbers). */
struct analytics_value profile_thermo(const struct params *p, double particles);

/* The built-in thermo of the paper for p (analytics == "") over the built-in melt (simulation
 * == "") on l: one class. -1 if out of memory. */
int profile_builtin(const struct params *p, const struct layout *l, struct analytics_profile *out);

/* An empty profile of `steps` steps; profile_add_step appends each step's value in order,
 * merging equal values into one class. -1 if out of memory. */
int profile_init(struct analytics_profile *prof, long steps);
int profile_add_step(struct analytics_profile *prof, long step, const struct analytics_value *v);

/* Step i's value. */
const struct analytics_value *profile_step(const struct analytics_profile *prof, long i);

int profile_copy(struct analytics_profile *dst, const struct analytics_profile *src);
void profile_free(struct analytics_profile *prof);

/* Where a model's caller gets the profile of a configuration: profile_source_builtin, or
 * analytics_profile where user Lua may run (a headless command, the explorer's evaluator
 * process). -1 with err. */
typedef int (*profile_source)(const struct params *p, const struct layout *l,
                              struct analytics_profile *out, char *err, size_t errlen);

/* The built-ins' profile; refuses a Lua file, analytics or simulation (a thread that must never
 * run user code). */
int profile_source_builtin(const struct params *p, const struct layout *l,
                           struct analytics_profile *out, char *err, size_t errlen);

/* dtl=staging's bad input: a staging server's memory (staging_memory) below one rank's state of
 * the profile's largest step, which no put could ever fit. -1 with a one-line message naming
 * staging_memory; 0 otherwise, and for every other DTL. */
int profile_staging_check(const struct params *p, const struct layout *l,
                          const struct analytics_profile *prof, char *err, size_t errlen);

const char *analytics_pattern_name(enum analytics_pattern pattern);
/* The pattern named s, or -1. */
int analytics_pattern_find(const char *s);

#endif
