/* Setting the workflow up (its actors and channels: sim_build.c), running SimGrid once, and
 * turning the per-actor measurements into the same result the analytic model gives. */
#include "sim.h"

#include <math.h>
#include <simgrid/actor.h>
#include <simgrid/barrier.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <xbt/log.h>

#include "../model/digest.h"
#include "../model/model_reduce.h"
#include "../model/report.h"
#include "sim_internal.h"

XBT_LOG_EXTERNAL_DEFAULT_CATEGORY(situ_sim); /* sim_log.c */

static bool steps_array_ok(double **a, long steps)
{
    return (*a = calloc(steps ? steps : 1, sizeof **a)) != NULL;
}

static int alloc_group_arrays(struct engine *e)
{
    for (int k = 0; k < e->nsims; k++) {
        struct sim_group *g = &e->sims[k];
        if (!steps_array_ok(&g->active, e->steps) || !steps_array_ok(&g->idle, e->steps) ||
            !steps_array_ok(&g->halo_time, e->steps) || !steps_array_ok(&g->analysis, e->steps))
            return -1;
    }
    for (int k = 0; k < e->nanas; k++) {
        struct ana_group *a = &e->anas[k];
        if (!steps_array_ok(&a->active, e->steps) || !steps_array_ok(&a->idle, e->steps) ||
            !steps_array_ok(&a->R, e->steps) || !steps_array_ok(&a->A, e->steps) ||
            !steps_array_ok(&a->X, e->steps))
            return -1;
    }
    return 0;
}

/* Each step's simulation, where a profile reads ctx.step: the halo edges are built for the
 * largest faces (e->sim.face) and each step scales them, so a step's faces must be one multiple
 * of those (a refinement that grows every face alike). -1 with err. */
static int steps_setup(struct engine *e, const struct analytics_profile *prof, char *err,
                       size_t errlen)
{
    if (!profile_sim_varies(prof) || e->steps == 0)
        return 0;
    if (!ZALLOC(e->step_sim, e->steps) || !ZALLOC(e->halo_scale, e->steps)) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (long i = 0; i < e->steps; i++)
        e->step_sim[i] = *profile_step_sim(prof, i);
    return profile_halo_scales(prof, e->p.simulation, e->sim.face, e->halo_scale, err, errlen);
}

/* The first analytics host whose states come in over several of its links (a torus node's six),
 * or -1. Merged, each node's states would use them all at once; the ranks' states use them as
 * their rounds of retrievals do. */
static int states_over_several_links(const struct engine *e)
{
    const struct layout *l = &e->l;
    for (int h = 0; h < l->hosts; h++) {
        int first = -1, n, ways = 0;
        for (long r = 0; r < l->sim_cores && ways < 2; r++) {
            if (l->dtl_host[r] != h || l->rank_host[r] == h)
                continue;
            const int *route = platform_route(&e->pf, l->rank_host[r], h, &n);
            int last = route && n ? route[n - 1] : -1;
            if (last != first)
                ways++, first = first < 0 ? last : first;
        }
        if (ways > 1)
            return h;
    }
    return -1;
}

/* Fast mode merges each node's states into one message only where that changes neither the
 * links they take nor their dates: else its states travel rank by rank (engine.dtl_per_rank),
 * and the actors' drift that the routes cause is simulated: the model's range for it goes (the
 * one for the halos' uneven cut stays: a node's ranks are still kept in step). Files and staging
 * servers keep their own rules (sim_file.c, sim_staging.c). */
static void choose_dtl_per_rank(struct engine *e, const struct model_result *m)
{
    e->dtl_per_rank = e->p.dtl == DTL_MAILBOX && !e->files && !e->l.inline_ranks &&
                      (m->routes_apart || states_over_several_links(e) >= 0);
    if (e->dtl_per_rank && e->routes_drift)
        e->drift_share = 1;
    if (e->dtl_per_rank)
        e->routes_drift = false;
}

/* Merged messages over several links use them all at once, where the ranks' rounds use one at a
 * time: said in warning where fast mode merges them anyway (files, staging servers, a queue). */
static void fast_caution(const struct engine *e, char *warning, size_t len)
{
    int h = e->fast && !e->dtl_per_rank ? states_over_several_links(e) : -1;
    if (h >= 0)
        snprintf(warning, len,
                 "fidelity=fast: states reach %s over several links, which fast mode uses at "
                 "once and the ranks do not; its makespan may be far off (use --fidelity full)",
                 e->pf.host[h].name);
}

/* What each step's analysis costs and moves, from the analytics (a Lua file is evaluated here,
 * in the simulation child). */
static int analytics_setup(struct engine *e, char *err, size_t errlen)
{
    long n = e->steps ? e->steps : 1;
    if (!ZALLOC(e->av, n) || !ZALLOC(e->chunk_flops, n) || !ZALLOC(e->chunk_bytes, n) ||
        !ZALLOC(e->put_flops, n)) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    struct analytics_profile prof;
    if (analytics_profile(&e->p, &e->l, &prof, err, errlen) < 0)
        return -1;
    for (long i = 0; i < e->steps; i++)
        e->av[i] = *profile_step(&prof, i);
    e->sim = prof.sim;
    if (steps_setup(e, &prof, err, errlen) < 0) {
        profile_free(&prof);
        return -1;
    }
    /* Fast mode keeps the actors in step, as the model does: where the model sees them drift
     * apart, fast's analytics active time is an upper bound by the same share. The model reads
     * routes that a platform of over DIGEST_EAGER_HOSTS hosts may lack here: then no range. */
    e->drift_share = 1;
    e->ranks_drift = e->routes_drift = e->drift_paced = false;
    if (e->fast && !platform_layout_routes_missing(&e->pf, &e->l)) {
        struct model_result m;
        model_eval(&e->p, &e->pf, &e->l, &prof, &m);
        if (m.ana_active > 0 && m.ana_active_drifted < m.ana_active)
            e->drift_share = m.ana_active_drifted / m.ana_active;
        e->ranks_drift = m.ranks_drift;
        e->routes_drift = m.routes_drift;
        e->drift_paced = m.scenario == SCENARIO_IS;
        choose_dtl_per_rank(e, &m);
    }
    profile_free(&prof);
    int dims = layout_shape().dims;
    for (long i = 0; i < e->steps; i++) {
        /* Reduction (model_reduce.h): fewer bytes move, the ranks pay for reducing them before
         * the put, the analytics for restoring them. Inline moves no state: none. Post hoc's
         * files hold reduced states: its ranks reduce before writing, restore after reading. */
        struct analytics_value v = e->av[i];
        if (!e->l.inline_ranks || e->p.mapping == MAPPING_POSTHOC) {
            v = reduce_value(&e->p, dims, &e->av[i]);
            e->put_flops[i] =
                reduce_put_cost(&e->p, dims, e->av[i].bytes / e->l.sim_cores) * REFERENCE_SPEED;
        }
        e->chunk_flops[i] = v.cost / e->l.sim_cores * REFERENCE_SPEED;
        e->chunk_bytes[i] = v.bytes / e->l.sim_cores;
    }
    return 0;
}

static int setup(struct engine *e, char *err, size_t errlen)
{
    const struct params *p = &e->p;
    if (!ZALLOC(e->hosts, e->pf.hosts)) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (int h = 0; h < e->pf.hosts; h++) {
        char name[160];
        platform_host_name(&e->pf, h, name, sizeof name);
        e->hosts[h] = sg_host_by_name(name);
        if (!e->hosts[h] && (e->l.sim_per_host[h] || e->l.ana_per_host[h])) {
            snprintf(err, errlen, "%s: SimGrid knows no host '%s'", p->platform, name);
            return -1;
        }
    }
    e->fast = p->fidelity == FIDELITY_FAST; /* smpi: the proxy's ranks are full's actors */
    e->instant = p->dtl == DTL_QUEUE;
    e->files = p->mapping == MAPPING_POSTHOC || (p->dtl == DTL_FILE && !e->l.inline_ranks);
    if (e->files && sim_file_init(e) < 0) {
        snprintf(err, errlen, "%s: SimGrid knows no disk of the platform's storage hosts",
                 p->platform);
        return -1;
    }
    if (p->mapping == MAPPING_POSTHOC)
        e->posthoc_bar = sg_barrier_init((unsigned)(e->fast ? e->l.sim_nodes : e->l.sim_cores));
    e->steps = p->iterations / p->stride;
    if (analytics_setup(e, err, errlen) < 0)
        return -1;
    if (e->fast && p->dtl == DTL_STAGING && !sim_staging_fast(e)) { /* sim_internal.h */
        e->fast = false;
        e->staging_as_full = true;
        e->drift_share = 1;
        e->ranks_drift = e->routes_drift = e->drift_paced = false;
    }
    e->flops_per_iteration = e->sim.cost * REFERENCE_SPEED;
    sim_links_init(&e->links);
    {
        /* Whether concurrent on-node messages share the loopback decides how fast mode merges. */
        sg_host_t h = e->hosts[e->l.rank_host[0]];
        xbt_dynar_t route = xbt_dynar_new(sizeof(sg_link_t), NULL);
        sg_host_get_route(h, h, route);
        sg_link_t lb = NULL;
        if (xbt_dynar_length(route) == 1)
            xbt_dynar_get_cpy(route, 0, &lb);
        e->loopback_fatpipe = lb && !sg_link_is_shared(lb);
        xbt_dynar_free(&route);
    }
    e->collector_done = e->l.inline_ranks; /* inline runs no collector */
    if (sim_build_workflow(e) < 0 || alloc_group_arrays(e) < 0 || sim_putters_init(e) < 0 ||
        sim_staging_init(e) < 0 || sim_sampling_init(e) < 0) {
        snprintf(err, errlen, "out of memory building the workflow");
        return -1;
    }
    channel_init(&e->collector, "collector", e->hosts[e->l.collector_host], e->instant, false);
    e->metrics_mutex = sg_mutex_init();
    e->metrics_ready = sg_cond_init();
    XBT_VERB(
        "%s fidelity: %d rank actors for %ld ranks, %d analytics actors, %d postmen, %ld steps "
        "of %ld iterations, %s DTL",
        param_table[P_FIDELITY].choices[p->fidelity], e->nsims, (long)e->l.sim_cores, e->nanas,
        e->npostmen, e->steps, p->stride, param_table[P_DTL].choices[p->dtl]);
    return 0;
}

bool sim_analytics_runs(const struct engine *e, int k)
{
    return e->anas[k].pieces && e->l.dtl_load[e->anas[k].host];
}

static void spawn_actors(struct engine *e)
{
    char name[64];
    for (int k = 0; k < e->nsims; k++) {
        snprintf(name, sizeof name, "rank-%d", k);
        sg_actor_t a = sg_actor_init(name, e->sims[k].sg);
        sg_actor_set_data(a, &e->sims[k]);
        sg_actor_start(a, sim_rank_actor, 0, NULL);
    }
    sim_putters_spawn(e);
    e->analytics_running = 0;
    for (int k = 0; k < e->nanas; k++) {
        if (!sim_analytics_runs(e, k))
            continue; /* no state is ever routed here: these cores stay idle */
        e->analytics_running++;
        snprintf(name, sizeof name, "analytics-%d", k);
        sg_actor_t a = sg_actor_init(name, e->anas[k].sg);
        sg_actor_set_data(a, &e->anas[k]);
        sg_actor_start(a, sim_analytics_actor, 0, NULL);
    }
    if (e->l.inline_ranks) /* no metrics travel: the ranks hold them (model.h) */
        return;
    sg_actor_start(sg_actor_init("collector", e->hosts[e->l.collector_host]), sim_collector_actor,
                   0, NULL);
    for (int k = 0; k < e->npostmen; k++) {
        snprintf(name, sizeof name, "postman-%d", k);
        sg_actor_t a = sg_actor_init(name, e->hosts[e->l.collector_host]);
        sg_actor_set_data(a, &e->postmen[k]);
        sg_actor_start(a, sim_postman_actor, 0, NULL);
    }
}

/* Means over the ranks (or actors) each group stands for. */
static void summarise(struct engine *e, struct sim_measure *out)
{
    struct model_result *m = &out->m;
    const struct layout *l = &e->l;
    long S = e->steps;
    sim_sampling_extrapolate(e);
    out->steps_simulated = e->run_steps;
    out->sampling_error = e->samp.error;
    m->particles = e->sim.particles;
    m->sim_cores = l->sim_cores;
    m->ana_cores = l->ana_cores;
    m->sim_nodes = l->sim_nodes;
    m->ana_nodes = l->ana_nodes;
    m->nodes_used = l->nodes_used;
    m->steps = S;
    m->tail_iterations = e->p.iterations - S * e->p.stride;
    double halo = 0, tail = 0;
    for (int k = 0; k < e->nsims; k++) {
        const struct sim_group *g = &e->sims[k];
        double w = (double)g->ranks / l->sim_cores;
        for (long i = 0; i < S; i++) {
            out->sim_active[i] += w * g->active[i];
            out->sim_idle[i] += w * g->idle[i];
            halo += w * g->halo_time[i];
        }
        tail += w * g->tail_active;
    }
    double worst = -1;
    for (int k = 0; k < e->nanas; k++) {
        const struct ana_group *a = &e->anas[k];
        double w = (double)a->actors / l->ana_cores, R = 0, A = 0, X = 0;
        for (long i = 0; i < S; i++) {
            double analysis = a->A[i] - a->X[i];
            out->ana_active[i] +=
                w * (a->share_R * a->R[i] + a->share_A * analysis) + a->X[i] / l->ana_cores;
            out->ana_idle[i] += w * a->idle[i];
            R += a->R[i];
            A += a->A[i];
            X += a->X[i];
        }
        if (S && R + A > worst) { /* the critical actor sets the pace */
            worst = R + A;
            m->stage.R = R / S;
            m->stage.A = A / S;
            /* dtl=staging: R spans the servers' queue, from the step's first put to its last
             * analysis' end, less the analyses (the model's, model.h) */
            double span = 0;
            for (long i = 0; e->servers && i < S; i++)
                span += fmax(0, e->staging_last[i] - e->staging_first[i] - (A - X) / S) / S;
            if (e->servers)
                m->stage.R = span;
        }
    }
    for (int k = 0; l->inline_ranks && k < e->nsims; k++) /* the analysis, on the ranks' cores */
        for (long i = 0; i < S; i++)
            out->ana_active[i] += (double)e->sims[k].ranks / l->sim_cores * e->sims[k].analysis[i];
    for (long i = 0; i < S; i++) {
        m->sim_active += out->sim_active[i];
        m->sim_idle += out->sim_idle[i];
        m->ana_active += out->ana_active[i];
        m->ana_idle += out->ana_idle[i];
    }
    m->makespan = simgrid_get_clock() + e->samp.skipped_time;
    m->makespan_eq5 = NAN; /* measured: no formula */
    /* Idle until the end of the run counts for the analytics, as in Fig. 8's bars. */
    m->ana_idle = fmax(0, m->makespan - m->ana_active);
    m->ana_active_drifted = m->ana_active * e->drift_share;
    m->halo = S ? halo / S : 0;
    /* Fire-and-forget puts cost the rank nothing; reducing the state before them does, and a file
     * is written before the rank goes on (and before its analysis can start). */
    double reduce = 0, moved = 0;
    for (int k = 0; k < e->nsims; k++)
        reduce += (double)e->sims[k].ranks / l->sim_cores * e->sims[k].reduce_time;
    double written = S ? e->ing_sum / ((double)l->sim_cores * S) : 0;
    m->stage.Ing = written + (e->run_steps ? reduce / e->run_steps : 0); /* inline: none */
    m->stage.S = S ? m->sim_active / S - m->stage.Ing : 0;
    m->sim_active += tail;
    for (long i = 0; i < S && (!l->inline_ranks || e->p.mapping == MAPPING_POSTHOC); i++)
        moved += e->chunk_bytes[i] / S;
    m->state_moved = moved;
    /* dtl=staging: the last rank's wait for room */
    for (long i = 0; e->servers && i < S; i++)
        m->staging_wait += e->staging_max[i] / S;
    m->stage.W = e->w_count ? e->w_sum / e->w_count : 0;
    m->stage.C = e->c_count ? e->c_sum / e->c_count : 0;
    double sim_side = m->stage.S + m->stage.Ing;
    double ana_side = written + m->stage.R + m->stage.A + m->stage.W + m->stage.C;
    m->efficiency = model_efficiency(sim_side, ana_side);
    m->scenario = model_scenario(sim_side, ana_side);
    /* model.h's back-pressure, measured: the ranks waited for room, and idled (for room, or for
     * the metrics that the servers' queue delayed) over 1% of their active time. */
    m->backpressure = m->staging_wait > 0 && m->sim_idle > 0.01 * m->sim_active;
    if (l->inline_ranks) { /* model.h's definitions */
        m->ana_idle = 0;
        m->stage.R = S ? e->read_sum / ((double)l->sim_cores * S) : 0; /* posthoc's files */
        m->stage.A = S ? m->ana_active / S - m->stage.R : 0;
        m->chunks = 1;
        m->efficiency = 1;
        m->scenario = SCENARIO_INLINE;
    }
    out->activities = e->execs + e->sleeps + channel_activities + e->io;
    out->puts = e->puts;
    out->gets = e->gets;
    out->metrics_delivered = e->metrics_delivered;
    out->analyses = e->analyses;
    out->nlinks = sim_links_report(&e->links, &e->pf, m->makespan, &out->links);
}

int sim_load(struct engine *e, const struct params *p, char *err, size_t errlen)
{
    e->p = *p;
    if (params_validate(p, err) < 0 || platform_load(p->platform, &e->pf, err, errlen) < 0)
        return -1;
    return layout_build(p, &e->pf, &e->l, err, errlen);
}

int sim_setup(struct engine *e, struct sim_measure *out, char *err, size_t errlen)
{
    sim_log_setup(); /* here, after SimGrid's start in both callers: sim_run, smpi's runtime */
    sim_engine = e;
    if (setup(e, err, errlen) < 0)
        return -1;
    out->steps = e->steps;
    out->fidelity = e->p.fidelity;
    fast_caution(e, out->warning, sizeof out->warning); /* a broken assumption matters most */
    if (e->staging_as_full)
        snprintf(out->warning, sizeof out->warning, "%s",
                 "fidelity=fast: the staging servers fill up (back-pressure), which fast mode "
                 "simulates rank by rank, as --fidelity full does");
    if (!steps_array_ok(&out->sim_active, e->steps) || !steps_array_ok(&out->sim_idle, e->steps) ||
        !steps_array_ok(&out->ana_active, e->steps) || !steps_array_ok(&out->ana_idle, e->steps)) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    return 0;
}

int sim_finish(struct engine *e, struct sim_measure *out, char *err, size_t errlen)
{
    for (int k = 0; k < e->nsims; k++) {
        if (!e->sims[k].done) {
            snprintf(err, errlen, "simulation deadlocked: rank group %d never finished", k);
            return -1;
        }
    }
    if (!e->collector_done) {
        snprintf(err, errlen, "simulation deadlocked: the metric collector never stopped");
        return -1;
    }
    summarise(e, out);
    if (!out->warning[0])
        model_drift_warning("fidelity=fast:", out->m.ana_active, out->m.ana_active_drifted,
                            e->ranks_drift, e->routes_drift, e->drift_paced, !e->dtl_per_rank,
                            out->warning, sizeof out->warning);
    bool several = false; /* files read several to an actor: fast reads them at once */
    for (int k = 0; e->fast && e->files && k < e->nanas; k++)
        several = several || e->anas[k].chunks > 1;
    if (!out->warning[0] && several)
        snprintf(out->warning, sizeof out->warning, "fidelity=fast: %s", MODEL_FILE_WARNING);
    XBT_VERB("ended at %.6f s of simulated time: %ld analyses", simgrid_get_clock(), e->analyses);
    return 0;
}

int sim_run(const struct params *p, struct sim_measure *out, char *err, size_t errlen)
{
    static struct engine engine;
    struct engine *e = &engine;
    struct timespec w0, w1;
    clock_gettime(CLOCK_MONOTONIC, &w0);
    memset(out, 0, sizeof *out);
    if (sim_load(e, p, err, errlen) < 0)
        return -1;

    int argc = 4;
    char *argv[] = {"situ", "--log=" SIMGRID_LOG_QUIET, "--cfg=contexts/stack-size:64",
                    SIM_NETWORK_OPTIM, NULL};
    xbt_log_control_set(SIMGRID_LOG_QUIET);
    simgrid_init(&argc, argv);
    simgrid_load_platform(p->platform);
    if (sim_setup(e, out, err, errlen) < 0)
        return -1;
    spawn_actors(e);
    simgrid_run();
    if (sim_finish(e, out, err, errlen) < 0)
        return -1;
    clock_gettime(CLOCK_MONOTONIC, &w1);
    out->wall_seconds = (w1.tv_sec - w0.tv_sec) + (w1.tv_nsec - w0.tv_nsec) * 1e-9;
    /* The process ends right after: the engine's memory goes with it. */
    return 0;
}

void sim_result_free(struct sim_measure *r)
{
    free(r->sim_active);
    free(r->sim_idle);
    free(r->ana_active);
    free(r->ana_idle);
    free(r->links);
    memset(r, 0, sizeof *r);
}
