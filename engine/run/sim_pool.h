/* The blocking way to run simulations, for single-threaded callers that wait (`situ run`, `situ
 * sweep`, `situ advise --verify`, Lua): the runner (runner.h) on a loop of its own. Each
 * simulation is one child, the simulation helper exec'd as `situ-sim __simulate` (the front end
 * links no SimGrid: datadir_helper finds the helper). While children run, TERM, INT and HUP kill
 * and reap their groups before the caller goes. No SimGrid here. */
#ifndef SITU_SIM_POOL_H
#define SITU_SIM_POOL_H

#include <jansson.h>
#include <signal.h>

#include "../model/params.h"

/* The MPI application a simulation at fidelity smpi runs (`situ run --smpi-app APP [ARG ...]`;
 * argv[0] its path, NULL-terminated); argc 0: Situ's proxy. Set by the command line, passed on
 * to the helper by the pool, read there by engine/sim/sim_smpi.c. */
struct sim_smpi_app {
    int argc;
    char **argv;
};
extern struct sim_smpi_app sim_smpi_app;

/* Of the application's output, what its result keeps ("app": "output"); more is cut, and the
 * result says so ("output_truncated", "output_bytes"). */
#define SIM_SMPI_OUTPUT_MAX (64 << 10)

/* Many simulations, `parallel` children at a time. Each job gets its JSON line in output
 * (malloc'd) and parsed in json (owned), or a one-line reason in err; rc is 0 or -3. The wait does
 * not count against a Lua deadline (watchdog_pause): only the Lua's own time does. time_limit:
 * seconds per child before it is killed, 0 for none. `progress` (optional) is called with each
 * job as it ends. The helper gets what a child must know besides the parameters: the Lua time
 * limit (script_time_limit), the link alert (report_link_alert) and sim_smpi_app. Returns the
 * number of failed jobs, -1 if the pool itself could not run (err of the first job says why),
 * -2 if a signal stopped it (sim_pool_stop): the jobs that did not finish then failed,
 * "interrupted". */
struct sim_job {
    struct params p;
    char *output;
    json_t *json;
    char err[512];
    int rc;
};
int sim_pool_run(struct sim_job *jobs, int n, int parallel, double time_limit,
                 void (*progress)(void *ud, struct sim_job *job, int done, int total), void *ud);
/* Frees what each job holds (output, json); the array is the caller's. */
void sim_jobs_clear(struct sim_job *jobs, int n);

/* Set (from a signal handler) to stop sim_pool_run: it kills and reaps its children, marks the
 * jobs that did not finish as failed ("interrupted") and returns. */
extern volatile sig_atomic_t sim_pool_stop;

#endif
