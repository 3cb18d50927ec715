/* The SimGrid engine: the in-situ workflow of the Sim-Situ paper (sections 3, 4.2, 4.3) as
 * SimGrid actors. SimGrid's engine is a process-wide singleton that cannot be reset, so sim_run()
 * may be called once per process: `situ run` forks a child for it (see sim_run_isolated). */
#ifndef SITU_SIM_H
#define SITU_SIM_H

#include <jansson.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "model.h"
#include "params.h"

struct sim_link {
    char name[96];
    double bytes;       /* counted from the routes of every transfer the engine started */
    double bandwidth;   /* B/s, nominal */
    double utilisation; /* bytes / (bandwidth * makespan) */
};

struct sim_measure {
    struct model_result m; /* measured: same fields as the model's prediction */
    double wall_seconds;
    long activities; /* SimGrid activities simulated: executions, communications, sleeps */
    int fidelity;
    long steps;
    double *sim_active, *sim_idle; /* [steps], one simulation core */
    double *ana_active, *ana_idle; /* [steps], one analytics core */
    int nlinks;
    struct sim_link *links;
    /* Conservation checks, for tests: every state put is retrieved once, every rank gets every
     * metric, and the analytics ran steps times. */
    long puts, gets, metrics_delivered, analyses;
};

/* Runs one simulation in this process. Once per process. -1 with err on failure. */
int sim_run(const struct params *p, struct sim_measure *out, char *err, size_t errlen);

/* Runs sim_run in a forked child, which renders its result (JSON line or table) into *output
 * (malloc'd, for the caller to print). Returns 0, or -3 when the simulation failed, crashed or
 * deadlocked, with a one-line reason in err. Nothing is produced unless the run succeeded. */
int sim_run_isolated(const struct params *p, bool json, char **output, char *err, size_t errlen);

/* Many simulations, `parallel` forked children at a time (fork without exec: SimGrid's static
 * initialisation, ~80 ms, is paid once). Each job gets its JSON line in output or a reason in
 * err; rc is 0 or -3. `progress` (optional) is called with each job as it ends. Returns the number
 * of failed jobs, or -1 if the pool itself could not run. */
struct sim_job {
    struct params p;
    double time_limit; /* seconds of wall time before the child is killed; 0: none */
    char *output;
    char err[512];
    int rc;
};
int sim_pool_run(struct sim_job *jobs, int n, int parallel,
                 void (*progress)(void *ud, struct sim_job *job, int done, int total), void *ud);

/* Set (from a signal handler) to stop sim_pool_run: it kills and reaps its children, marks the
 * jobs that did not finish as failed ("interrupted") and returns. */
extern volatile sig_atomic_t sim_pool_stop;

/* Links whose mean utilisation is above this are flagged ("alert" in JSON, ALERT in tables), as
 * INAM's threshold notifications do. A rendering option, not a parameter (--alert U). */
#define SIM_ALERT_DEFAULT      0.75
#define SIM_ALERT_DEFAULT_TEXT SIM_STRINGIFY(SIM_ALERT_DEFAULT) /* for help texts */
#define SIM_STRINGIFY(x)       SIM_STRINGIFY_(x)
#define SIM_STRINGIFY_(x)      #x
extern double sim_link_alert;

/* Reads an --alert value: a utilisation in (0, 1]. -1 with a one-line reason in err. */
int sim_alert_parse(const char *text, double *out, char *err, size_t errlen);

json_t *sim_result_json(const struct params *p, const struct sim_measure *r);
void sim_result_free(struct sim_measure *r);

#endif
