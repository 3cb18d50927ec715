/* Stand-ins for the simulation pool, so that fuzz_sweep links cli/study.c without SimGrid: the
 * fuzzer only adds axes and expands them with the model; it never runs a simulation. */
#include <stdlib.h>

#include "../../engine/sim.h"

volatile sig_atomic_t sim_pool_stop;

int sim_pool_run(struct sim_job *jobs, int n, int parallel, double time_limit,
                 void (*progress)(void *ud, struct sim_job *job, int done, int total), void *ud)
{
    (void)jobs, (void)n, (void)parallel, (void)time_limit, (void)progress, (void)ud;
    abort(); /* never reached from fuzz_sweep */
}

void sim_jobs_clear(struct sim_job *jobs, int n)
{
    (void)jobs, (void)n;
}
