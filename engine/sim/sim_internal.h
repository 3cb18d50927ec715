/* The engine's shared state: groups of simulation ranks and analytics actors, their channels and
 * their measurements. A group stands for ranks (or actors) that behave alike: at fidelity=full
 * every group is one rank or one actor; at fidelity=fast a group is all the ranks (or actors) of
 * one node, and its messages carry the traffic of all of them. Engine-internal. */
#ifndef SITU_SIM_INTERNAL_H
#define SITU_SIM_INTERNAL_H

#include <simgrid/forward.h>
#include <stdbool.h>

#include "../lua/analytics.h"
#include "../model/layout.h"
#include "../model/params.h"
#include "../model/platform.h"
#include "sim_dtl.h"
#include "sim_links.h"

/* One message this group sends: `bytes` simulated, standing for `real_bytes` of traffic. */
struct edge {
    struct channel *to;
    double bytes, real_bytes;
    int count; /* states (ranks) the message carries */
};

/* An on-node halo message at fidelity=full (sim_halo.c): alone on the unshared loopback, it takes
 * a fixed time, so no SimGrid transfer stands for it. The receiver keeps one per sender. */
struct local_in {
    long arrived;    /* exchanges the sender has started */
    double at[2];    /* when it started them, by exchange parity (it is at most one ahead) */
    double duration; /* the latency; the bytes' part is transfer, scaled as the step's faces */
    double transfer;
};

struct local_out {
    struct sim_group *to;
    struct local_in *slot;
    double bytes;
};

/* engine.dtl_per_rank (sim_puts.c): what a group's putters do once it reaches a step's analysis
 * point: take their ranks' metrics copies, put their states (step -1: end). */
struct putters_job {
    long step;
    bool collect, put;
    double waited; /* the ranks' waits for their copies, summed */
};

struct putter {
    struct sim_group *g;
    int index;           /* among its group's ranks */
    struct channel back; /* its rank's metrics copies */
};

struct sim_group {
    int host;
    sg_host_t sg;
    int ranks;
    struct channel halo, back;
    struct edge *halo_out;
    int nhalo;
    double halo_latency; /* the slowest route's latency, for merged exchanges at fidelity=fast */
    double halo_scale;   /* the current step's faces over the edges' (engine.step_sim) */
    struct local_in *lin;
    struct local_out *lout;
    int nlin, nlout;
    long exchanges; /* halo exchanges started */
    bool waiting;   /* blocked until its on-node neighbours have started exchange `exchanges` */
    sg_sem_t wake;
    struct edge *states; /* one step's puts into the DTL */
    int nstates;
    struct edge *poisons; /* sent once, at the end: one per analytics actor of a host */
    int npoisons;
    double *active, *idle, *halo_time; /* [steps] */
    double *analysis; /* [steps] mapping=inline: the rank's analysis, its exchange included */
    int xidx;         /* mapping=inline: its host's index among the exchanging hosts, or -1 */
    double tail_active;
    double reduce_time;     /* over the steps run: reducing states before their puts (Ing) */
    struct putter *putters; /* engine.dtl_per_rank: one per rank, and their barrier */
    sg_bar_t putters_bar;
    struct putters_job job;
    bool done;
};

struct ana_group {
    int host;
    sg_host_t sg;
    int actors;
    struct channel *in; /* the host's DTL channel */
    int pieces;         /* messages one retrieval takes: full 1, fast one per sending node */
    int states;         /* rank states those messages carry */
    int chunks; /* states one actor analyses per retrieval: full 1, fast ceil(load/actors) */
    double extra_latency; /* fast: latencies of the (chunks - 1) retrievals merged away */
    /* The mean share of R and of the analysis in A that the actors spend (model_actor_shares):
     * full 1; fast below 1 when some actors take fewer states than the critical one. */
    double share_R, share_A;
    int xidx;                      /* index among the exchanging hosts, -1 if none */
    double *active, *idle, *R, *A; /* [steps] */
    double *X; /* [steps] the exchange, part of A: one actor of the host does it */
    /* dtl=staging: server bytes of the states it took, freed once analysed */
    double held;
};

/* Step sampling's state (sim_sampling.c): the per-step measures so far, and the decision. */
struct sim_sampling {
    bool on;        /* the run may be cut short: --sampling auto, fidelity=full, enough steps */
    long first;     /* the first step from which the analytics' inputs stay the same */
    long cycle;     /* steps after which the halo pattern repeats */
    long decided;   /* the step at whose end the measures were found stationary, or -1 */
    long window;    /* the test's window then, in steps */
    double *series; /* [steps][measures] */
    double *end;    /* [steps] when each step's metrics were all in */
    double **snap;  /* each link's bytes at the end of the last steps (a ring) */
    int *snap_n;
    double period, error, skipped_time;
};

/* Sends the metric copies to the ranks of one node (sim_postman_actor). */
struct postman {
    int *groups, ngroups;
};

struct engine {
    struct params p;
    struct platform pf;
    struct layout l;
    bool fast;
    double drift_share; /* fast: the model's drifted share of analytics active time (model.h) */
    bool ranks_drift;   /* fast: the model's ranks_drift (model.h) */
    bool routes_drift;  /* fast: the model's routes_drift (model.h) */
    bool drift_paced; /* fast: the model's analytics sets the pace (IS): the makespan drifts too */
    /* fast: each node's ranks stay one group, but their states travel one by one, each put by
     * its rank's putter as the rank's metrics copy lands (sim_puts.c), and each analytics actor
     * takes them one at a time, as at full fidelity. Chosen where merged messages would take
     * other links or other dates than the ranks' do: states reaching a host over several of its
     * links, or over routes of different lengths (sim.c). */
    bool dtl_per_rank;
    bool instant; /* dtl=queue */
    /* files (sim_file.c): dtl=file or mapping=posthoc; the file system's servers, their disks */
    bool files;
    int nfs;
    sg_host_t *fs_host;
    sg_disk_t *fs_disk;
    sg_bar_t posthoc_bar;     /* mapping=posthoc: every rank group ends the simulation here */
    double ing_sum, read_sum; /* seconds writing (reading) files, summed over the ranks */
    long io;                  /* stripes moved: a transfer and a disk access each */
    long steps;
    long run_steps; /* steps simulated: steps, or fewer once sampling stops the run */
    struct sim_sampling samp;
    double flops_per_iteration; /* one rank */
    struct sim_profile sim;     /* the simulation's numbers (simprofile.h) */
    /* [steps] each step's, where a simulation profile reads ctx.step (else NULL: every step is
     * sim). The halo edges are then built for the largest faces (sim.face), and each step
     * scales them by halo_scale[step]: its faces must be a multiple of those. */
    struct sim_profile *step_sim;
    double *halo_scale;
    /* [steps] one rank's state analysed / sent, from the analytics' cost and bytes of each step
     * (state edges count states; a put multiplies them by the step's chunk_bytes). */
    double *chunk_flops, *chunk_bytes;
    /* [steps] flops one rank spends reducing its state before its put (model_reduce.h) */
    double *put_flops;
    struct analytics_value *av; /* [steps] */
    /* The analytics' exchange among hosts (analytics.h): nx hosts, one channel per host and
     * round (xrounds = ceil(log2 nx) for allreduce), states analysed so far in the step. */
    struct channel *xchg;
    int nx, xrounds, xroot;
    int *xhost, *xdone;
    /* [pf.hosts] mapping=inline at full fidelity: where the host's ranks wait for the last of
     * them to end their host's part of the exchange (NULL where one group stands for them) */
    sg_bar_t *xbar;
    sg_host_t *hosts; /* [pf.hosts] */
    bool loopback_fatpipe;

    struct sim_group *sims;
    int nsims;
    struct ana_group *anas;
    int nanas;
    struct channel *state_channels; /* all analytics-side channels */
    int nstate_channels;
    struct channel collector;
    /* The metrics of each step, published by the collector for the postmen to send. */
    long metrics_out; /* steps published */
    struct postman *postmen;
    int npostmen;
    sg_mutex_t metrics_mutex;
    sg_cond_t metrics_ready;
    int analytics_running;
    bool collector_done;

    /* How a rank computes and swaps its halos: NULL is SimGrid's C API (actors, mailboxes); the
     * SMPI proxy (smpi/proxy.c) sets smpi_execute_flops and MPI point-to-point. */
    void (*execute)(double flops);
    void (*halo)(struct engine *e, struct sim_group *g, long exchanges);

    /* dtl=staging (sim_staging.c): one server per analytics host ([pf.hosts]), each step's
     * longest wait for room, its first put and its last analysis' end (the model's R spans them);
     * staging_as_full: fast mode's servers fill up, so it simulates them rank by rank, as full
     * does. */
    struct staging_server *servers;
    double *staging_max;                  /* [steps] */
    double *staging_first, *staging_last; /* [steps] the step's first put, last analysis' end */
    bool staging_as_full;

    struct sim_links links;
    long execs, sleeps;
    long puts, gets, metrics_delivered, analyses;
    double w_sum, c_sum;
    long w_count, c_count;
};

extern struct engine *sim_engine;

struct sim_measure;

/* The steps of sim_run, for the SMPI proxy, whose ranks play the actors on a platform smpirun
 * loaded: sim_load reads the platform and places the workflow (before SimGrid starts);
 * sim_setup builds the groups and channels on the loaded platform (makes e the sim_engine);
 * sim_finish checks that every actor ended and measures the run. -1 with err on failure. */
int sim_load(struct engine *e, const struct params *p, char *err, size_t errlen);
int sim_setup(struct engine *e, struct sim_measure *out, char *err, size_t errlen);
/* Whether analytics group k receives states (the others' cores stay idle: no actor runs). */
bool sim_analytics_runs(const struct engine *e, int k);
int sim_finish(struct engine *e, struct sim_measure *out, char *err, size_t errlen);

/* Step sampling (sim_sampling.c): init after the workflow is built (-1 when out of memory);
 * step at the end of each step j, from the collector (may lower run_steps); extrapolate once
 * the run has ended, before the measures are summed: fills the skipped steps. */
int sim_sampling_init(struct engine *e);
void sim_sampling_step(struct engine *e, long j);
void sim_sampling_extrapolate(struct engine *e);

/* Files (sim_file.c): init finds the servers' disks (-1 if one is missing); write and read move
 * one file of `bytes` between a host and the servers, striped, and return when it is done. */
int sim_file_init(struct engine *e);
void sim_file_write(struct engine *e, sg_host_t from, double bytes);
void sim_file_read(struct engine *e, sg_host_t to, double bytes);

/* Applies SIM_LOG_ENV and SIM_LOG_FILE_ENV (sim.h), once SimGrid has started (sim_log.c). */
void sim_log_setup(void);

/* calloc of n elements for ptr (at least one, so that n = 0 is no failure); NULL on failure. */
#define ZALLOC(ptr, n) ((ptr) = calloc((n) ? (n) : 1, sizeof *(ptr)))

/* Builds the workflow's actors' records and channels (sim_build.c): rank groups, postmen, halo
 * neighbours, the DTL and the analytics' exchange. -1 when out of memory. */
int sim_build_workflow(struct engine *e);

/* On-node halo messages at fidelity=full (sim_halo.c). */
int sim_halo_local_init(struct engine *e);
void sim_halo_local_put(struct engine *e, struct sim_group *g);
double sim_halo_local_wait(struct sim_group *g, double posted);

/* dtl=staging (sim_staging.c). sim_staging_fast: whether fast mode can keep its groups (every
 * server holds a step's states: no put ever waits); else the engine runs as full. init: after
 * sim_build_workflow, a server per analytics host on its channel (-1 out of memory). reserve:
 * a rank's put of `bytes` into channel c waits for room (its wait counted idle in step i);
 * release: an analytics group frees what it held once it analysed step's states; receive: an
 * analytics actor makes its host's channel eager, so that each put's transfer starts at once (a
 * push). */
bool sim_staging_fast(const struct engine *e);
int sim_staging_init(struct engine *e);
void sim_staging_reserve(struct engine *e, struct sim_group *g, long i, struct channel *c,
                         double bytes);
void sim_staging_release(struct engine *e, struct ana_group *a, long step);
void sim_staging_receive(struct ana_group *a);

/* engine.dtl_per_rank (sim_puts.c): init gives each rank of every group its putter (-1 out of
 * memory), spawn starts them; a group's step has its putters take their copies (collect) and put
 * their states of step i (put), and returns once all have; stop ends them. */
int sim_putters_init(struct engine *e);
void sim_putters_spawn(struct engine *e);
void sim_putters_step(struct sim_group *g, long i, bool collect, bool put);
void sim_putters_stop(struct sim_group *g);
void sim_putter_actor(int argc, char **argv);

/* Actor bodies (sim_actors.c). Each reads its group from sg_actor_self_get_data(). */
void sim_rank_actor(int argc, char **argv);
void sim_analytics_actor(int argc, char **argv);
void sim_collector_actor(int argc, char **argv);
void sim_postman_actor(int argc, char **argv);

/* A rank's parts of Algorithm 1, for the rank actor and for an MPI application's ranks
 * (smpi/situ_dtl.c): waiting for the metrics copy of the last step (the wait counts as idle in
 * step i), putting its state of step i (`state_bytes` per state, fire-and-forget), and at the
 * end the poisoned values. */
void sim_rank_collect(struct sim_group *g, long i);
/* Reducing the state of step i before its put (model_reduce.h): `flops` of compute, active in
 * step i and counted as the step's Ing. Nothing when flops is 0. */
void sim_rank_reduce(struct sim_group *g, long i, double flops);
void sim_rank_put_state(struct sim_group *g, long i, double state_bytes);
/* The states of step i of the group's ranks first..first+n-1 (in rank order, as its edges count
 * them): one message per edge standing for them all, or one per rank at engine.dtl_per_rank. */
void sim_rank_put_states(struct sim_group *g, long i, int first, int n, double state_bytes);
void sim_rank_poison(struct sim_group *g);
/* mapping=inline (model.h), in place of the collect and the put: the rank analyses its own state
 * of step i on its own core, then the ranks exchange the step's pattern. A host's ranks combine
 * their parts first (they meet: the last to come does the host's part of the exchange with the
 * other hosts, while the others wait for it), as the analytics actors of a host do. */
void sim_rank_analyse_inline(struct sim_group *g, long i);

#endif
