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

/* Steps that share one value, the analysis' and the simulation's iterations before it: the
 * model sums over classes, weighted by their counts. */
struct analytics_class {
    struct analytics_value v;
    struct sim_profile sim; /* the step's stride iterations (a profile that reads ctx.step) */
    long count;
};

struct analytics_profile {
    long steps;   /* analyses in the run; the counts add up to it (at least 1 class) */
    int nclasses; /* distinct values, in the order of their first step */
    struct analytics_class *classes;
    long *step_class; /* [steps]: each step's class; NULL when every step has class 0 */
    /* The simulation's side of the configuration at step 0, evaluated with the analytics' (whose
     * particles are its particles): every holder of a profile has both. Each class has its
     * own (profile_step_sim), which differs from this one only when a simulation profile reads
     * ctx.step. */
    struct sim_profile sim;
};

/* One analysis by the built-in thermo of the paper over `particles` particles: the one C home of
 * the arithmetic scripts/lua/analytics/thermo.lua repeats, in the same order (tests/lua/run.py
 * checks that both give the same numbers). */
struct analytics_value profile_thermo(const struct params *p, double particles);

/* The built-in thermo of the paper for p (analytics == "") over the built-in melt (simulation
 * == "") on l: one class. -1 if out of memory. */
int profile_builtin(const struct params *p, const struct layout *l, struct analytics_profile *out);

/* An empty profile of `steps` steps; profile_add_step appends each step's values in order (the
 * analysis', the simulation's), merging steps whose both values are equal into one class. The
 * first step's simulation is also prof->sim. -1 if out of memory. */
int profile_init(struct analytics_profile *prof, long steps);
int profile_add_step(struct analytics_profile *prof, long step, const struct analytics_value *v,
                     const struct sim_profile *sim);

/* Step i's class, analysis value and simulation (i out of [0, steps): the last step's, else
 * class 0: the tail's iterations follow the last step). */
long profile_step_class(const struct analytics_profile *prof, long i);
const struct analytics_value *profile_step(const struct analytics_profile *prof, long i);
const struct sim_profile *profile_step_sim(const struct analytics_profile *prof, long i);

/* Whether the simulation's side differs between classes (a profile read ctx.step). */
bool profile_sim_varies(const struct analytics_profile *prof);

/* The SimGrid engines build one set of halo messages, for the largest step's faces (into ref),
 * and scale it per step (into scale[steps], if not NULL): each step's faces must be one multiple
 * of ref. Checked wherever a profile is made (analytics_profile), so that the model refuses what
 * the engines cannot run. -1 with err naming the first step that is not (`who`: the profile). */
int profile_halo_scales(const struct analytics_profile *prof, const char *who, double ref[3],
                        double *scale, char *err, size_t errlen);

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
