/* The analytic model of the Sim-Situ paper, section 5.1: per-step stage times, idle time, makespan
 * and efficiency. Pure functions of a configuration, its platform and its placement; no I/O. */
#ifndef SITU_MODEL_H
#define SITU_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include "layout.h"
#include "params.h"
#include "platform.h"
#include "profile.h"

/* SimGrid's default network model (LV08) stretches latencies and shrinks bandwidths by these
 * factors; the model applies them too, so both predict the same transfer times. */
#define NET_LATENCY_FACTOR   13.01
#define NET_BANDWIDTH_FACTOR 0.97
/* SimGrid's cross-traffic (network/crosstraffic, on by default): each flow also loads its reverse
 * route with 5% of its rate (the acknowledgements), so traffic that crosses a link both ways at
 * once moves at 1/1.05 of it: pass it as the sharers of such a transfer. */
#define NET_CROSSTRAFFIC 1.05
#define MODEL_INBOUND_WARNING                                                                      \
    "the analytics receive states over several links (a torus?): the model takes them to share "   \
    "one, so it may overestimate R; check with situ run --fidelity full"
/* A platform with traces (platform.traced): SimGrid plays them, at every fidelity (measured: fast
 * and full alike follow a host's speed_file and a link's bandwidth_file); the model takes the
 * digest's values, SimGrid's before any trace plays. */
#define MODEL_TRACE_WARNING                                                                        \
    "the platform has traces (a speed_file, bandwidth_file...): its hardware changes during the "  \
    "run, which the model ignores; check with situ run"
#define MODEL_INLINE_LINKS_WARNING                                                                 \
    "the ranks' exchange reaches a node over several links (a torus?): the model takes them to "   \
    "share one, so it may overestimate A; check with situ run --fidelity full"
/* dtl=file (model_file.c) where the model's lockstep may not hold: actors that read several
 * states each, or read on the nodes that write (in situ). Measured against full fidelity: R up
 * to 48% above (4 dahu-pfs nodes in transit, ratio 3: 3 states per actor), analytics active time
 * 3.6% above in situ on fattree-pfs. */
#define MODEL_FILE_WARNING                                                                         \
    "file accesses are taken in step (all ranks write at once, all actors read at once), but "     \
    "here the ranks' and actors' accesses spread out and share the file system less: "             \
    "R and analytics active time may be upper bounds; check with situ run --fidelity full"
#define MODEL_STAGING_WARNING                                                                      \
    "dtl=staging: the ranks wait up to %.3g s per step for room on the staging servers; the "      \
    "model overlaps each wait with the rank's next step, which holds where the analytics is the "  \
    "slower side by far: its makespan may be low by up to %.0f%% here, and how the waits spread "  \
    "over the ranks' halo exchanges (their active and idle time) and, where the simulation is "    \
    "the slower side, the analytics' times are not modelled; check with --fidelity full"
/* Bytes of one metrics message (temperature, potential and kinetic energy, and a header). */
#define METRIC_BYTES 64

/* SCENARIO_INLINE: mapping=inline, where neither side waits for the other: the analysis is time
 * taken from the simulation's own cores (no idle between components). */
enum scenario { SCENARIO_IA, SCENARIO_IS, SCENARIO_BALANCED, SCENARIO_INLINE };

struct stages {
    double S;   /* stride MD iterations on one rank, halo exchanges included */
    double Ing; /* ingestion into the DTL on the simulation side: the put is fire-and-forget, so
                 * only the reduction of the state before it (model_reduce.h) costs the rank */
    double R;   /* retrieval of the states one analytics actor handles in a step */
    double A;   /* analysis of those states */
    double W;   /* metrics to the collector (a synchronisation point) */
    double C;   /* metrics back to the ranks (a synchronisation point) */
};

struct model_result {
    double particles;
    long sim_cores, ana_cores;
    int sim_nodes, ana_nodes, nodes_used;
    long steps;           /* analyses: floor(iterations / stride) */
    long tail_iterations; /* iterations after the last analysis */
    struct stages stage;  /* per step, for the critical rank and actor */
    double halo;          /* the halo-exchange part of S */
    double state_moved;   /* bytes one rank's state moves per step after reduction (mean over
                           * the steps; model_reduce.h); 0 for mapping=inline: nothing moves */
    double chunks;        /* rank states one analytics actor handles per step (critical host) */
    double sim_active, sim_idle; /* over the run, one simulation core */
    double ana_active, ana_idle; /* over the run, one analytics core */
    /* ana_active should the actors' rounds drift apart: the other end of the range where the
     * model (and fast mode) keep them in step, an upper bound. States that reach a host's shared
     * link at different dates (the ranks that send them have uneven halo cuts, or come over
     * routes of different lengths: routes_drift), for actors that take several each, let an
     * actor's transfer overlap the others' analyses:
     * fewer share the link (R - A once the rounds are fully apart, model.c: an estimate, not a
     * bound; full fidelity measured -6% to -20% where this said -17% to -23%); taking one each,
     * their round's transfers start apart (R - one halo exchange). Equal to ana_active elsewhere,
     * and where the range would be under 1%. */
    double ana_active_drifted;
    /* S is an upper bound too: a node's ranks differ in the halo bytes they send off it, and the
     * halo exchanges are at least a tenth of S, so full fidelity's ranks drift apart and share
     * the node links less (measured up to 7% less S; no estimate). */
    bool ranks_drift;
    /* The actors' drift range comes from the routes into an analytics host, not the halos
     * (ana_host.route_spread): the caution names that cause. */
    bool routes_drift;
    /* Some analytics host's actors take several states each, over routes of different lengths,
     * whether or not the halos part them too: what fast mode must not merge (engine/sim). */
    bool routes_apart;
    double makespan;     /* the best prediction: makespan_eq5 + min(S + Ing, R + A + W + C) of the
                          * last step (the pipeline's fill and drain) */
    double makespan_eq5; /* the paper's eq. 5: sum over steps of max(S + Ing, R + A + W + C) (+
                          * tail); a simulation's result has none (NAN) */
    double efficiency;   /* eq. 6 */
    /* The most links over which one analytics host receives its remote states (inline: over
     * which rank 0's host receives the other hosts' exchange). The model takes
     * them to share one (a host's link to its switch); over several (a torus node's), how many
     * carry them at once depends on the order the actors fetch them: MODEL_INBOUND_WARNING. */
    int inbound_links;
    bool traced;       /* the platform's (MODEL_TRACE_WARNING) */
    bool files_spread; /* dtl=file: MODEL_FILE_WARNING's case */
    enum scenario scenario;
    /* dtl=staging (model_staging.c): seconds the last rank to get room on its staging server
     * waits per step (a mean over the steps), and whether that back-pressure sets the pace:
     * ranks wait for room while the analytics' side, whose queue the servers' memory bounds, is
     * the longer one. The model takes each wait to overlap the rank's next step (the queue, not
     * the rank, sets the step's end): so it is where the analytics is the slower side; where
     * the simulation is, the waits may lengthen the steps (up to S + staging_wait), and the
     * ranks' waits for each other in their halo exchanges, which full fidelity counts active,
     * are not in sim_active (MODEL_STAGING_WARNING). 0 and false for the other DTLs. */
    double staging_wait;
    bool backpressure;
};

/* mapping=inline (l->inline_ranks): every stride each rank analyses its own part, then the ranks
 * exchange the analysis' pattern (model_exchange_time over the ranks' hosts, layout_inline_view):
 *   S     as for the other mappings (stride iterations, halos included)
 *   A     cost / sim_cores on a reference core at the slowest rank host's speed, + the exchange
 *   Ing = R = W = C = 0; no analytics cores
 *   makespan = sum over steps of (S + A) + tail = sim_active + ana_active
 *   sim_active: the simulation's own time (S), ana_active: the analysis' time on the same cores,
 *   both per core; sim_idle = ana_idle = 0, efficiency 1 (eq. 6: no idle between components),
 *   scenario SCENARIO_INLINE. */

/* dtl=staging (params.h), model_staging.c: staging servers in the style of DataSpaces or ADIOS2's
 * SST, one per analytics node of mapping=intransit, each holding up to staging_memory bytes of
 * states. A rank's put waits until its server has room for its state (back-pressure), then pushes
 * the state there at once (the transfer starts with the put); the host's actors read the states
 * in place, in the order they were put, and a state's memory is freed when its analysis ends.
   One step of one analytics class, the puts of the step all at date 0:
 *   Ing    the last admitted rank's wait for room (the critical rank's back-pressure)
 *   wait   the ranks' mean wait (the others wait for the late one in their next halo exchange)
 *   R, A, W  the critical host's stages: R = its last analysis' end - A's analyses (the states'
 *          transfers and the waits for them), A = its critical actor's analyses + the exchange,
 *          W = its metrics to the collector
 * (`exchange`: model_exchange_time of v, which the host that ends last does after its analyses)
 *   active the analytics' R + A per core (each actor's waits for a state put before it asked,
 *          and its analyses), as model_result's ana_active counts them
 *   chunks states the critical actor analyses
 * How each host's queue evolves: a small event loop in O(states) (model_staging.c): transfers
 * share the host's part of its busiest link equally (processor sharing, in the order put), each
 * no faster than alone; the analyses take the same time each. */
struct staging_step {
    double Ing, wait, R, A, W, active, chunks;
};

/* -1 when out of memory, or should a queue's event loop not end (its bound, model_staging.c):
 * no figure then. Empty states (v->bytes = 0) are a figure: their transfers take no time. */
int model_staging_step(const struct platform *pf, const struct layout *l,
                       const struct analytics_value *v, double memory, double exchange,
                       struct staging_step *out);

/* Evaluates the model: numbers in, numbers out, no Lua, no I/O, safe from any thread. p must be
 * valid (params_validate), l built from p and pf, prof the analytics' profile for p and l
 * (profile_builtin or analytics_profile). Steps whose analyses differ are summed: the makespan
 * is the sum of the per-step periods, and the stages are per-step means. */
void model_eval(const struct params *p, const struct platform *pf, const struct layout *l,
                const struct analytics_profile *prof, struct model_result *m);

/* The same, remembering in `memo` (its caller's, one thread's; NULL: none) what depends on the
 * layout, the platform and the halo's bytes only (the halo exchange, half of the time), and with
 * the DTL and a state's bytes too (each analytics host's retrieval, metrics message and shares):
 * a search that moves the stride or the costs over one layout computes them once. The results
 * are model_eval's, bit for bit. A memo trusts the platform's address: after freeing or reloading a
 * platform, model_memo_forget. */
struct model_memo;
struct model_memo *model_memo_new(void);
void model_memo_forget(struct model_memo *memo);
void model_memo_free(struct model_memo *memo);
void model_eval_memo(const struct params *p, const struct platform *pf, const struct layout *l,
                     const struct analytics_profile *prof, struct model_result *m,
                     struct model_memo *memo);

/* The exchange's time per step, as the model counts it in the A stage. Among the n analytics
 * hosts that receive states (k_h actors on host h; the actors of a host combine their parts in
 * shared memory first, for free), with T(b) = model_transfer_time of b bytes between two nodes:
 *   none or n < 2   0
 *   allreduce       ceil(log2 n) * T(B)                   recursive doubling between hosts
 *   allgather       T(max_h max((n-1) k_h, K - k_h) * B)  every host to every other, K = sum k_h
 *   gather          T((K - k_root) * B)                   to the metric collector's host
 * The engine simulates the same messages (sim_actors.c). */
double model_exchange_time(const struct platform *pf, const struct layout *l,
                           const struct analytics_value *v);

/* How much of its critical actor's retrieval and analysis the `actors` actors of a host spend on
 * average when `load` states reach the host in a step, each actor taking one state at a time:
 * the critical one takes ceil(load / actors), all of them `load`. Over a shared link the states
 * travel in rounds of up to `actors` at once, each as long as its states take together, so an
 * actor that skips the last round saves that round's time; over an unshared loopback (or none)
 * each state costs the same alone. Both shares are in [0, 1]; 0 with no load. */
void model_actor_shares(long load, int actors, bool shared, double *retrieval, double *analysis);

/* Time for one message of `bytes` from host a to host b over the digest's route under the
 * platform's (LV08) model, when `sharers` transfers share each shared link; NAN if the route is
 * not in pf (see model_route_pairs). */
double model_transfer_time(const struct platform *pf, int a, int b, double bytes, double sharers);

/* Concurrent flows over the digest's routes: model_net_flow adds one (and its acknowledgements'
 * 5% on the way back); model_net_time is then a message's time when it shares each shared link
 * of its route with all that link's load (the busiest one sets the pace); model_net_busiest the
 * seconds the busiest network link (not a loopback) is busy. */
struct model_net {
    const struct platform *pf;
    double *load; /* bytes per link */
};
void model_net_init(struct model_net *net, const struct platform *pf);
void model_net_flow(struct model_net *net, int a, int b, double bytes);
double model_net_time(const struct model_net *net, int a, int b, double bytes);
double model_net_busiest(const struct model_net *net);
void model_net_free(struct model_net *net);

/* The host pairs whose routes model_eval reads for layout l (both ways of every transfer, and
 * each used host's loopback), as pairs[2k], pairs[2k+1]: malloc'd into *pairs, count returned
 * (-1 when out of memory). Duplicates may appear. */
long model_route_pairs(const struct layout *l, int **pairs);

/* Files (model_file.c): each state a file striped over pf's disks, a stripe per server, sent
 * then written (read then sent) while the phase's other stripes move too. model_file_write: the
 * ranks' states of `bytes` each, all written at once (Ing with --dtl file and posthoc);
 * model_file_read: readers[h] states of `bytes` read at once by host h's readers, for the
 * slowest (one round of retrievals); model_file_latency: the longest route's latency from a
 * server to host h (LV08's factor applied). 0 without disks. */
double model_file_write(const struct platform *pf, const struct layout *l, double bytes);
double model_file_read(const struct platform *pf, const struct layout *l, const int *readers,
                       double bytes);
double model_file_latency(const struct platform *pf, int h);
/* Per step (the mean over prof's steps): every rank's state written as a file (Ing), and in
 * *read (if given) read back all at once, each rank its own (post hoc's R). */
/* mapping=posthoc: m holds the inline analysis (S, A, model_inline); each stride the ranks also
 * write their states (Ing), reduced first where p reduces them, and after the run every rank
 * reads its own back (R) and restores it (A) before analysing each step. The phases follow each
 * other on the same cores: makespan = sim_active + ana_active, no idle, efficiency 1, scenario
 * inline. f: the ranks' reference speed over their host's. */
void model_file_posthoc(const struct params *p, const struct platform *pf, const struct layout *l,
                        const struct analytics_profile *prof, double f, struct model_result *m);

const char *model_scenario_name(enum scenario s);

/* The caveat of a result that keeps the ranks and actors in step (`who`: "the model's",
 * "fidelity=fast:") when the drifted end `low` of its analytics active time `active` lies below
 * it (`paced`: the analytics sets the pace, so the makespan is an upper bound too), or its ranks
 * may drift (ranks_drift): one line in buf, or "" when neither. `routes`: the actors' drift comes
 * from the routes into their host (routes_drift), and the line names that cause. `actors_kept`
 * false: the result lets the actors drift (fast mode's states rank by rank), only each node's
 * ranks are kept in step. */
const char *model_drift_warning(const char *who, double active, double low, bool ranks, bool routes,
                                bool paced, bool actors_kept, char *buf, size_t len);

/* The model's caveats for m, in buf ("" when none): traces, several inbound links, the actors'
 * drift. */
const char *model_warning(const struct model_result *m, char *buf, size_t len);

/* Shared by the model and the engine's own accounting: the three eq. 4-6 quantities. */
double model_efficiency(double sim_side, double ana_side);
enum scenario model_scenario(double sim_side, double ana_side);

#endif
