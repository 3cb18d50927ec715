/* The platform digest's producer, in the simulation helper (`situ-sim __digest`): SimGrid's own
 * parse of a platform file, printed as the JSON that platform_load (engine/model/platform.h)
 * reads. */
#ifndef SITU_SIM_DIGEST_H
#define SITU_SIM_DIGEST_H

#include <stdbool.h>

#include "../model/digest.h"

/* Loads `path` with SimGrid and prints its digest as one JSON object on stdout: the whole
 * digest, or (routes_only) just the routes of the npairs host pairs (a, b) in pairs[2 * k].
 * Once per process (SimGrid cannot be reset); SimGrid's parse errors abort the process with the
 * reason on stderr. Returns 0, or 1 if stdout failed. */
int sim_digest_print(const char *path, const long *pairs, long npairs, bool routes_only);

/* `situ-sim __digest PLATFORM [--routes] [--parent PID]`: the same, with pairs "A B" read from
 * stdin; dying with process PID (platform_load's child). */
int sim_digest_main(int argc, char **argv);

#endif
