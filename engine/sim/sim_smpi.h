/* fidelity=smpi: the workflow as MPI processes under SMPI (smpimain, the program smpirun starts),
 * in the simulation child. Situ's own proxy (smpi/proxy.c) or the user's MPI application
 * (--smpi-app) runs its simulation ranks; libsitu_dtl (smpi/) adds the analytics and the
 * collector as further ranks, on the hosts the placement gives, and writes the same result as the
 * other levels. */
#ifndef SITU_SIM_SMPI_H
#define SITU_SIM_SMPI_H

#include <stdbool.h>
#include <stddef.h>

#include "../model/layout.h"
#include "../model/params.h"
#include "../run/sim_pool.h" /* sim_smpi_app */

/* The processes in MPI rank order, as libsitu_dtl gives them roles: the simulation ranks, the
 * analytics actors of the hosts that receive states, the collector, then one postman per node
 * with ranks (mapping=inline: the simulation ranks alone). Writes each one's host
 * (platform index) into host[] if not NULL; returns how many there are. */
long sim_smpi_placement(const struct layout *l, int *host);

/* The configuration file the run's processes read (SITU_SMPI_CONFIG): one "--key=value" per
 * line, the parameters and these of the run. */
#define SIM_SMPI_CONFIG_ENV "SITU_SMPI_CONFIG"

/* Files the run's processes write beside that configuration: the result's JSON line, and the
 * one line that says why libsitu_dtl stopped the run (situ_dtl misused, a bad configuration). */
#define SIM_SMPI_RESULT "result"
#define SIM_SMPI_REASON "reason"

/* Runs the level: smpimain with the application's arguments as they are (no shell), every
 * process of the run dying with this one and its temporary directory removed on every path
 * (sim_smpi_proc.h), killed past script_time_limit() (an application's hang). Returns the JSON
 * line (malloc'd), with the application's output as "app", or NULL with a one-line reason (a
 * crash, a deadlock, situ_dtl's own, a timeout) in err. */
char *sim_smpi_run(const struct params *p, char *err, size_t errlen);

#endif
