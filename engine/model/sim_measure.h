/* What one simulation measures (sim_run fills it, report_sim_json renders it): the model's
 * numbers as measured, per-step times, bytes per link and the conservation counts. Types only, so
 * that the rendering (report.c) and the link counter (sim_links.c) need not include the engine
 * (sim.h), which includes them. */
#ifndef SITU_SIM_MEASURE_H
#define SITU_SIM_MEASURE_H

#include "model.h"

struct sim_link {
    char name[96];
    char place[12];     /* in the topology: the digest's platform_link.place ("node", "spine"...) */
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
    /* Step sampling (--sampling auto): the steps SimGrid simulated (steps when all were), and
     * the estimated relative error of the extrapolated totals (0 when none was). */
    long steps_simulated;
    double sampling_error;
    double *sim_active, *sim_idle; /* [steps], one simulation core */
    double *ana_active, *ana_idle; /* [steps], one analytics core */
    int nlinks;
    struct sim_link *links;
    /* Where the platform breaks an assumption of this fidelity (or ""): printed with the result. */
    char warning[640];
    /* Conservation checks, for tests: every state put is retrieved once, every rank gets every
     * metric, and the analytics ran steps times. */
    long puts, gets, metrics_delivered, analyses;
};

#endif
