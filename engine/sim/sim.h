/* The SimGrid engine: the in-situ workflow of the Sim-Situ paper (sections 3, 4.2, 4.3) as
 * SimGrid actors. SimGrid's engine is a process-wide singleton that cannot be reset, so sim_run()
 * may be called once per process: each runs in a child (see sim_child_main, runner.h). */
#ifndef SITU_SIM_H
#define SITU_SIM_H

#include <jansson.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "../model/model.h"
#include "../model/params.h"
#include "../model/sim_measure.h"

/* SimGrid 3.32's default lazy update of the network (network/optim:Lazy) lets flows take more than
 * a link holds when hosts send to several receivers at once and each receiver's link is the
 * bottleneck: 3 hosts sending 21 MB to each of two others, every flow should take 53 ms (a third
 * of a 10 Gb/s link); the flows to one receiver end in 27 ms, at twice its link. Fast mode's node
 * messages do that every step (in transit, 6 nodes to 2 analytics nodes: analytics active 30%
 * short), and full fidelity's ranks too, less often (11% short there). The bug is in the latency
 * phase (with no latency the lazy update is right). The full update solves the same max-min
 * system at every change, exactly: the same results where the lazy one was right, for the same
 * CPU time at fast fidelity and up to 800 iterations at full, 20-30% more at paper scale (32
 * nodes, 8000 iterations, full). Every simulation uses it: the engine's and smpirun's. */
#define SIM_NETWORK_OPTIM "--cfg=network/optim:Full"

/* The simulation's own log: sim*.c log to the XBT category situ_sim and its children
 * (situ_sim_actors, situ_sim_dtl, situ_sim_links), quiet by default (SIMGRID_LOG_QUIET).
 * SIM_LOG_ENV holds XBT log settings applied after the quiet default; SIM_LOG_FILE_ENV names
 * the file situ_sim's lines are appended to, since a simulation child's stderr is reduced to its
 * reason line. In the engine's simulation and in smpirun's, e.g.
 *   SITU_SIM_LOG=situ_sim.thresh:debug SITU_SIM_LOG_FILE=sim.log situ run --fidelity full
 * docs/HACKING.md lists the categories and levels. */
#define SIM_LOG_ENV      "SITU_SIM_LOG"
#define SIM_LOG_FILE_ENV "SITU_SIM_LOG_FILE"

/* Runs one simulation in this process. Once per process. -1 with err on failure. */
int sim_run(const struct params *p, struct sim_measure *out, char *err, size_t errlen);

/* A simulation child's whole life (`situ-sim __simulate`, which engine/run/sim_pool.h and the
 * runner start): one
 * simulation of p, its JSON line on stdout, exit 0; or the reason on stderr, exit 3. Does not
 * return. SITU_TEST_FAULT=KIND[:KEY=VALUE][:once=FILE] makes it misbehave first (see the file). */
_Noreturn void sim_child_main(const struct params *p);

void sim_result_free(struct sim_measure *r);

#endif
