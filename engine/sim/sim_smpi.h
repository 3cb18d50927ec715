/* fidelity=smpi: the workflow as MPI processes under smpirun, in the simulation child. Situ's own
 * proxy (smpi/proxy.c) or the user's MPI application (--smpi-app) runs its simulation ranks;
 * libsitu_dtl (smpi/) adds the analytics and the collector as further ranks, on the hosts the
 * placement gives, and writes the same result as the other levels. */
#ifndef SITU_SIM_SMPI_H
#define SITU_SIM_SMPI_H

#include <stdbool.h>
#include <stddef.h>

#include "../model/layout.h"
#include "../model/params.h"

/* The MPI application to run (argv[0] its path, NULL-terminated); argc 0: Situ's proxy. */
struct sim_smpi_app {
    int argc;
    char **argv;
};
extern struct sim_smpi_app sim_smpi_app;

/* The processes in MPI rank order, as libsitu_dtl gives them roles: the simulation ranks, the
 * analytics actors of the hosts that receive states, the collector, then one postman per node
 * with ranks. Writes each one's host
 * (platform index) into host[] if not NULL; returns how many there are. */
long sim_smpi_placement(const struct layout *l, int *host);

/* The configuration file smpirun's processes read (SITU_SMPI_CONFIG): one "--key=value" per
 * line, the parameters and these of the run. */
#define SIM_SMPI_CONFIG_ENV "SITU_SMPI_CONFIG"

/* Runs the level: smpirun in this process's group, dying with this process, killed past
 * script_time_limit() (an application's hang). Returns the rendered result (JSON line or table,
 * malloc'd), or NULL with a one-line reason (a crash, a deadlock, a timeout) in err. */
char *sim_smpi_run(const struct params *p, char *err, size_t errlen);

#endif
