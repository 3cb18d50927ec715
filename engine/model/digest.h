/* The platform digest's format and limits: made by SimGrid in the simulation helper
 * (engine/sim/sim_digest.h), read by platform.h's platform_load. */
#ifndef SITU_DIGEST_H
#define SITU_DIGEST_H

#include <stdbool.h>

/* SimGrid's log setting in every process that starts SimGrid (the digest's, the simulation's,
 * smpirun): errors only. Its warnings and progress lines would reach the user's terminal or the
 * reason line of a failed child; Situ says itself what matters. sim.h's SIM_LOG_ENV adds to it. */
#define SIMGRID_LOG_QUIET "root.thresh:error"

/* Bumped when the digest's JSON changes: older cache entries are then ignored. */
#define DIGEST_FORMAT 2 /* 2: "disks" */
/* Platforms with at most this many hosts get every route in their digest (64 hosts: 4,096
 * routes, about 100 kB); larger ones only the host pairs that a layout asks for. */
#define DIGEST_EAGER_HOSTS 128

/* A platform whose digest takes longer or more to make is refused as too large. */
#define DIGEST_SECONDS_MAX 15
#define DIGEST_BYTES_MAX   (256 << 20)

#endif
