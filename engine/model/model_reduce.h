/* Data reduction before every DTL put (issue 28): lossy compression by a ratio and decimation
 * (every S-th element along each of the decomposition's dimensions), with their costs. An element
 * is one 8-byte value of a state, as DTLMod counts a variable's elements. Per rank and step:
 *   kept      = 1 / (compression * decimation^dims)    of the state's bytes moves
 *   put cost  = elements * decimation_cost             (decimation > 1: the full state scanned)
 *             + elements / decimation^dims * compression_cost   (compression > 1)
 *   get cost  = elements / decimation^dims * decompression_cost (compression > 1), per state
 * in reference-core seconds (each host's speed scales them, as every cost). The simulation pays
 * the put cost before its put (the model's Ing), the analytics the get cost with its analysis
 * (part of A). The analysis' own cost is the analytics' (decimation does not change it).
 * mapping=inline moves no state: reduction does not apply there (ignored, as the ratio is).
 * Pure: numbers in, numbers out. */
#ifndef SITU_MODEL_REDUCE_H
#define SITU_MODEL_REDUCE_H

#include <stdbool.h>
#include <stddef.h>

#include "params.h"
#include "profile.h"

#define REDUCE_ELEMENT_BYTES 8.0

/* Whether p reduces its states (compression or decimation above 1). */
bool reduce_on(const struct params *p);

/* The share of a state's bytes that moves: 1 / (compression * decimation^dims). */
double reduce_kept(const struct params *p, int dims);

/* v as the analytics gets it: its bytes after reduction, its cost with the decompression of
 * every state added (reference-core seconds over all the ranks' states, as v->cost). */
struct analytics_value reduce_value(const struct params *p, int dims,
                                    const struct analytics_value *v);

/* Reference-core seconds one rank spends reducing a state of `bytes` bytes before its put. */
double reduce_put_cost(const struct params *p, int dims, double bytes);

/* A decimation that leaves nothing: S above the extent of one rank's part along a dimension,
 * (particles / sim_cores)^(1/dims) elements (the melt: particles per rank^(1/3); a simulation
 * profile: its elements, over its own dimensions). -1 with one line naming the parameter. */
int reduce_check(const struct params *p, int dims, double particles, long sim_cores, char *err,
                 size_t errlen);

#endif
