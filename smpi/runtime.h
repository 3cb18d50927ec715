/* What Situ's proxy (proxy.c) and the situ_dtl API (situ_dtl.c) share under SMPI: every
 * process of the run is in one address space, and this library's state (the engine of
 * engine/sim/sim_internal.h) is shared by all of them, whatever the application's privatization.
 * The first process to join builds the workflow from the configuration situ wrote. */
#ifndef SITU_SMPI_RUNTIME_H
#define SITU_SMPI_RUNTIME_H

#include <stdbool.h>

#include "../engine/sim/sim_internal.h"

enum situ_role { SITU_ROLE_SIM, SITU_ROLE_ANALYTICS, SITU_ROLE_COLLECTOR, SITU_ROLE_POSTMAN };

/* Once per process, after MPI_Init. `app`: an application's ranks compute and exchange halos
 * themselves; otherwise the proxy's do, through smpi_execute_flops and MPI point-to-point.
 * Returns the process's role; *group is its simulation group (SITU_ROLE_SIM). */
int situ_smpi_join(bool app, struct sim_group **group);

/* Plays an analytics actor, the collector, a postman or (the proxy) a simulation rank. */
void situ_smpi_play(int role);

/* When a process is done: the last one measures the run and writes the result. */
void situ_smpi_leave(void);

struct engine *situ_smpi_engine(void);

/* The reason in the run's directory (SIM_SMPI_REASON: situ's one reason line) and as
 * "situ-smpi: ..." on stderr; the whole run ends at once with status 3. */
void situ_smpi_die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

#endif
