/* The platform digest, made by SimGrid in a child process: see platform.h for its reader. */
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

/* Loads `path` with SimGrid and prints its digest as one JSON object on stdout: the whole
 * digest, or (routes_only) just the routes of the npairs host pairs (a, b) in pairs[2 * k].
 * Once per process (SimGrid cannot be reset); SimGrid's parse errors abort the process with the
 * reason on stderr. Returns 0, or 1 if stdout failed. */
int digest_print(const char *path, const long *pairs, long npairs, bool routes_only);

/* `situ __digest PLATFORM [--routes] [--parent PID]`: the same, with pairs "A B" read from
 * stdin; dying with process PID (platform_load's child). */
int digest_main(int argc, char **argv);

#endif
