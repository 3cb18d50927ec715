/* A simulation profile: what one rank of the simulation computes and exchanges, as plain numbers.
 * The model, fast, full and the SMPI proxy read this, never Lua: a Lua profile (--simulation,
 * engine/lua/simulation.c) is evaluated beforehand with the analytics' profile (profile.h
 * carries both), the built-in ExaMiniMD melt here. Safe from any thread. */
#ifndef SITU_SIMPROFILE_H
#define SITU_SIMPROFILE_H

#include <stdbool.h>

#include "params.h"

struct layout; /* layout.h */

struct sim_profile {
    double particles;   /* elements of the whole domain: what the analytics see as ctx.particles */
    double cost;        /* reference-core seconds for one iteration of one rank */
    double face[3];     /* bytes of one halo message across a face perpendicular to x, y, z */
    long halo_period;   /* iterations between two halo exchanges */
    double state_bytes; /* one rank's state, for the analytics (a Lua analytics' ctx.state_bytes) */
};

/* The built-in ExaMiniMD LJ melt of the paper for p on l: the one C home of the arithmetic that
 * scripts/lua/simulations/melt.lua repeats in the same order (a test checks both agree). */
void simprofile_melt(const struct params *p, const struct layout *l, struct sim_profile *out);

/* Whether a profile's numbers are usable: finite, cost and bytes >= 0, halo_period >= 1. */
bool simprofile_valid(const struct sim_profile *s);

#endif
