/* situ_dtl: couples your MPI application to Situ's in-situ analytics, simulated by SMPI.
 *
 *   smpicc -o app app.c -I<situ>/smpi -L<situ> -lsitu_dtl
 *   situ run --smpi-app ./app [ARGS] --nodes 2 --mapping intransit ...
 *
 * Situ starts your ranks plus its own (analytics actors and the metric collector) under SMPI,
 * your arguments as they are, places them per the mapping, and prints the run's measurements
 * as `situ run` does.
 * Your ranks use the communicator situ_dtl_init gives instead of MPI_COMM_WORLD.
 * --iterations / --stride is the number of analysis points: every rank puts that many states.
 * The analytics' cost per state is Situ's (--analytics, --analytics-cost, --region), the
 * state's size is yours. A misuse of these calls (a put before situ_dtl_init, more or fewer
 * states than that) ends the run at once, with the reason as situ's one line. */
#ifndef SITU_DTL_H
#define SITU_DTL_H

#include <mpi.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* After MPI_Init, on every process. Returns 1 on your ranks, with *comm their communicator;
 * 0 on Situ's own, which have done their part (*comm is MPI_COMM_NULL): then call
 * MPI_Finalize and return from main. */
int situ_dtl_init(MPI_Comm *comm);

/* An analysis point: waits for the metrics of this rank's previous state (Algorithm 1), then
 * puts its state of `bytes` bytes into the DTL, fire-and-forget. With --mapping inline: the
 * calling rank analyses its part, then exchanges with the other ranks, and nothing travels. */
void situ_dtl_put(const void *state, size_t bytes);

/* Waits for the metrics of the last state put (situ_dtl_finalize does it if you do not). */
void situ_dtl_wait(void);

/* After the last put, before MPI_Finalize. */
void situ_dtl_finalize(void);

#ifdef __cplusplus
}
#endif

#endif
