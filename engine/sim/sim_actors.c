/* The three kinds of actors of the Sim-Situ workflow: simulation ranks, analytics actors
 * (Algorithm 1) and the metric collector (Algorithm 2). Idle and active time is measured here,
 * per actor, because SimGrid 3.32's host-load plugin gets idle time wrong. */
#include <math.h>
#include <simgrid/actor.h>
#include <simgrid/barrier.h>
#include <simgrid/cond.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/mutex.h>
#include <stdlib.h>
#include <xbt/log.h>

#include "../model/model.h"
#include "sim_internal.h"

XBT_LOG_NEW_DEFAULT_SUBCATEGORY(situ_sim_actors, situ_sim,
                                "the ranks', analytics' and collector's actors: each step");

struct engine *sim_engine;

static struct message *message_new(int kind, int step, int count)
{
    struct message *m = malloc(sizeof *m);
    if (!m)
        abort();
    m->kind = kind;
    m->step = step;
    m->count = count;
    m->sent = simgrid_get_clock();
    m->held = 0;
    return m;
}

static void execute(double flops)
{
    if (flops <= 0)
        return;
    if (sim_engine->execute)
        sim_engine->execute(flops);
    else
        sg_actor_execute(flops);
    sim_engine->execs++;
}

/* One halo exchange standing for `exchanges` consecutive ones: the bytes of all of them in one
 * message per neighbour, and the latencies of the ones merged away as a sleep. */
static void halo_exchange(struct sim_group *g, long exchanges)
{
    struct engine *e = sim_engine;
    if (e->halo) {
        e->halo(e, g, exchanges);
        return;
    }
    for (int k = 0; k < g->nhalo; k++) {
        struct edge *x = &g->halo_out[k];
        channel_put(x->to, message_new(MSG_HALO, 0, 1), x->bytes * exchanges * g->halo_scale,
                    x->real_bytes * exchanges * g->halo_scale, &e->links);
    }
    sim_halo_local_put(e, g);
    double posted = simgrid_get_clock();
    struct message *in[g->nhalo ? g->nhalo : 1];
    sg_comm_t comms[g->nhalo ? g->nhalo : 1];
    channel_get_n_start(&g->halo, g->nhalo, in, comms);
    double local_done = sim_halo_local_wait(g, posted);
    channel_get_n_wait(&g->halo, g->nhalo, in, comms);
    g->exchanges++;
    for (int k = 0; k < g->nhalo; k++)
        free(in[k]);
    if (local_done > simgrid_get_clock()) {
        sg_actor_sleep_until(local_done);
        e->sleeps++;
    }
    if (exchanges > 1 && g->halo_latency > 0) {
        sg_actor_sleep_for((exchanges - 1) * g->halo_latency);
        e->sleeps++;
    }
}

/* A step's metric copies as they land on a group's ranks: each rank's wait, and at
 * engine.dtl_per_rank its state's put as soon as its copy is in. */
struct landing {
    struct sim_group *g;
    double asked, waited; /* waited: the ranks' waits, summed */
    long put_step;        /* the step whose states go out as the copies land, or -1 */
    int landed;           /* ranks whose copy is in */
};

static void put_rank_states(struct sim_group *g, long i, int first, int n, double state_bytes);

static void metric_landed(struct message *m, void *data)
{
    struct engine *e = sim_engine;
    struct landing *l = data;
    double now = simgrid_get_clock();
    /* A copy that waited for the rank to ask only costs from the asking on (rendezvous). */
    e->c_sum += (now - fmax(m->sent, l->asked)) * m->count;
    e->c_count += m->count;
    e->metrics_delivered += m->count;
    l->waited += (now - l->asked) * m->count;
    if (l->put_step >= 0)
        put_rank_states(l->g, l->put_step, l->landed, m->count, e->chunk_bytes[l->put_step]);
    l->landed += m->count;
    free(m);
}

/* Metrics of step i come back as copies, one per rank this group stands for (one message for
 * them all, but one each at engine.dtl_per_rank); `put` sends each rank's state as its copy
 * lands. The ranks' mean wait counts as idle in step i. */
static void collect_metrics(struct sim_group *g, long i, bool put)
{
    struct engine *e = sim_engine;
    struct landing l = {g, simgrid_get_clock(), 0, put ? i : -1, 0};
    channel_get_each(&g->back, e->dtl_per_rank ? g->ranks : 1, metric_landed, &l);
    g->idle[i] += l.waited / g->ranks;
}

static long halos_in(long from, long to, long period)
{
    return to / period - from / period; /* multiples of period in (from, to] */
}

static void exchange(struct engine *e, int me, int host, long step);

void sim_rank_analyse_inline(struct sim_group *g, long i)
{
    struct engine *e = sim_engine;
    double t0 = simgrid_get_clock();
    execute(e->chunk_flops[i]);
    if (e->av[i].pattern != ANALYTICS_NONE && g->xidx >= 0) {
        sg_bar_t bar = e->xbar ? e->xbar[g->host] : NULL;
        int *came = &e->xdone[g->xidx]; /* the host's ranks in so far */
        bool last = (*came += g->ranks) >= e->l.sim_per_host[g->host];
        if (last) {
            *came = 0;
            exchange(e, g->xidx, g->host, i);
        }
        if (bar) /* the others wait for it; it ends the wait */
            sg_barrier_wait(bar);
    }
    g->analysis[i] += simgrid_get_clock() - t0;
    e->analyses += g->ranks;
    XBT_DEBUG("step %ld analysed inline: %d ranks in %.6f s", i, g->ranks, g->analysis[i]);
}

void sim_rank_actor(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    struct engine *e = sim_engine;
    struct sim_group *g = sg_actor_self_get_data();
    long N = e->p.iterations, T = e->p.stride;
    long t = 0;
    while (t < N) {
        /* The step's simulation (a profile that reads ctx.step); the tail's is the last step's. */
        long step = t / T, at = step < e->steps ? step : e->steps - 1;
        const struct sim_profile *sim = e->step_sim && at >= 0 ? &e->step_sim[at] : &e->sim;
        long H = sim->halo_period;
        g->halo_scale = e->step_sim && at >= 0 ? e->halo_scale[at] : 1;
        /* Compute is merged up to the next synchronisation point: the next analysis, and at
         * fidelity=full also the next halo exchange. */
        long next = (t / T + 1) * T;
        if (next > N)
            next = N;
        if (!e->fast && (t / H + 1) * H < next)
            next = (t / H + 1) * H;
        bool tail = step >= e->steps; /* iterations after the last analysis */
        double t0 = simgrid_get_clock();
        execute((next - t) * (e->step_sim ? sim->cost * REFERENCE_SPEED : e->flops_per_iteration));
        double t1 = simgrid_get_clock();
        long exchanges = halos_in(t, next, H);
        if (exchanges)
            halo_exchange(g, exchanges);
        double t2 = simgrid_get_clock();
        if (tail)
            g->tail_active += t2 - t0;
        else {
            g->active[step] += t2 - t0;
            g->halo_time[step] += t2 - t1;
        }
        t = next;
        if (t % T || t / T > e->steps)
            continue;
        /* An analysis point: C_{i-1} -> Ing_i, then the state goes out fire-and-forget. */
        long i = t / T - 1;
        if (e->p.mapping == MAPPING_POSTHOC) { /* the state to a file; analysed after the run */
            sim_rank_reduce(g, i, e->put_flops[i]);
            sim_rank_put_state(g, i, e->chunk_bytes[i]);
            continue;
        }
        if (e->l.inline_ranks) {
            sim_rank_analyse_inline(g, i);
            continue;
        }
        XBT_DEBUG("step %ld: state out (%d ranks)", i, g->ranks);
        sim_rank_reduce(g, i, e->put_flops[i]);
        if (i > 0 && e->dtl_per_rank)
            collect_metrics(g, i, true);
        else {
            if (i > 0)
                sim_rank_collect(g, i);
            sim_rank_put_state(g, i, e->chunk_bytes[i]);
        }
        if (i + 1 == e->run_steps && e->run_steps < e->steps)
            t += (e->steps - e->run_steps) * T; /* sampled (sim_sampling.c): on to the tail */
    }
    if (e->steps > 0 && !e->l.inline_ranks)
        sim_rank_collect(g, e->run_steps - 1);
    if (e->p.mapping == MAPPING_POSTHOC) {
        /* Post hoc: once every rank has ended the simulation, each reads its states back from
         * the files, a step at a time, and analyses them as inline does. */
        sg_barrier_wait(e->posthoc_bar);
        for (long i = 0; i < e->steps; i++) {
            double t0 = simgrid_get_clock();
            sim_file_read(e, g->sg, g->ranks * e->chunk_bytes[i]);
            double read = simgrid_get_clock() - t0;
            g->analysis[i] += read;
            e->read_sum += read * g->ranks;
            sim_rank_analyse_inline(g, i);
        }
    }
    sim_rank_poison(g); /* inline: nobody to poison, the halos to flush */
}

void sim_rank_reduce(struct sim_group *g, long i, double flops)
{
    if (flops <= 0)
        return;
    /* Before the metrics of the last step: the state is ready, the wait for them overlaps. */
    double t0 = simgrid_get_clock();
    execute(flops);
    double t = simgrid_get_clock() - t0;
    g->active[i] += t;
    g->reduce_time += t;
}

void sim_rank_collect(struct sim_group *g, long i)
{
    collect_metrics(g, i, false);
}

/* One message of `count` states into edge x's channel. */
static void put_edge(struct engine *e, struct sim_group *g, long i, struct edge *x, int count,
                     double bytes, double real_bytes)
{
    double held = x->to->server ? real_bytes : 0;
    if (held > 0) /* dtl=staging: room on the server first (back-pressure) */
        sim_staging_reserve(e, g, i, x->to, held);
    struct message *m = message_new(MSG_STATE, (int)i, count);
    m->held = held;
    channel_put(x->to, m, bytes, real_bytes, &e->links);
    e->puts += count;
}

void sim_rank_put_state(struct sim_group *g, long i, double state_bytes)
{
    struct engine *e = sim_engine;
    if (e->files) { /* the file first, written to the servers; then its notice */
        double t0 = simgrid_get_clock();
        sim_file_write(e, g->sg, g->ranks * state_bytes);
        double ing = simgrid_get_clock() - t0;
        g->active[i] += ing;
        e->ing_sum += ing * g->ranks;
        if (e->p.mapping == MAPPING_POSTHOC)
            return;
    }
    /* The ranks that put at one date do so in rank order, a node's states one after the other (at
     * full fidelity each rank is an actor, woken in that order): one group's puts at a time. */
    if (e->dtl_per_rank)
        sg_mutex_lock(e->put_mutex);
    put_rank_states(g, i, 0, g->ranks, state_bytes);
    if (e->dtl_per_rank)
        sg_mutex_unlock(e->put_mutex);
}

/* The states of the group's ranks first..first+n-1 (in rank order, as the edges count them): one
 * message per edge standing for them all, or one per rank at engine.dtl_per_rank. */
static void put_rank_states(struct sim_group *g, long i, int first, int n, double state_bytes)
{
    struct engine *e = sim_engine;
    for (int k = 0, at = 0; k < g->nstates && n > 0; at += g->states[k++].count) {
        struct edge *x = &g->states[k];
        int from = first > at ? first : at,
            to = first + n < at + x->count ? first + n : at + x->count;
        if (from >= to)
            continue;
        if (!e->dtl_per_rank) { /* the edge's message, for every rank it counts */
            put_edge(e, g, i, x, x->count, x->bytes * state_bytes, x->real_bytes * state_bytes);
            continue;
        }
        for (int r = from; r < to; r++)
            put_edge(e, g, i, x, 1, state_bytes, state_bytes);
    }
}

void sim_rank_poison(struct sim_group *g)
{
    /* Algorithm 1's end: every analytics actor gets a poisoned value. */
    for (int k = 0; k < g->npoisons; k++)
        for (int n = 0; n < g->poisons[k].count; n++)
            channel_put(g->poisons[k].to, message_new(MSG_POISON, 0, 0), 0, 0, NULL);
    channel_flush();
    g->done = true;
}

/* Takes one retrieval's messages at once, as the actors would fetch them; false on the poisoned
 * values. The wait before the data was there counts as idle, the rest as retrieval. */
static bool retrieve(struct ana_group *a, int *step)
{
    struct engine *e = sim_engine;
    struct message *in[a->pieces];
    double t0 = simgrid_get_clock();
    channel_get_n(a->in, a->pieces, in);
    bool poisoned = in[0]->kind == MSG_POISON;
    double ready = t0;
    for (int k = 0; k < a->pieces; k++) {
        ready = fmax(ready, in[k]->sent);
        e->gets += in[k]->count;
        a->held += in[k]->held;
    }
    *step = in[0]->step;
    for (int k = 0; k < a->pieces; k++)
        free(in[k]);
    if (poisoned)
        return false;
    if (e->files) /* the notices came: the files, from the servers */
        sim_file_read(e, a->sg, a->states * e->chunk_bytes[*step]);
    if (a->extra_latency > 0) {
        sg_actor_sleep_for(a->extra_latency);
        e->sleeps++;
    }
    double t1 = simgrid_get_clock();
    a->idle[*step] += ready - t0;
    a->R[*step] += t1 - ready;
    return true;
}

/* Whether this analysis completes its host's share of the step: the actor that finishes last
 * does the host's part of the exchange, before its metrics go out. */
static bool host_step_done(struct engine *e, struct ana_group *a)
{
    if (a->xidx < 0)
        return false;
    int *done = &e->xdone[a->xidx];
    *done += a->states;
    if (*done < e->l.dtl_load[a->host])
        return false;
    *done = 0;
    return true;
}

static void xput(struct engine *e, int to, int round, double bytes)
{
    channel_put(&e->xchg[to * e->xrounds + round], message_new(MSG_METRIC, 0, 0), bytes, bytes,
                &e->links);
}

static void xget(struct engine *e, int me, int round, int n)
{
    struct message *in[n > 0 ? n : 1];
    channel_get_n(&e->xchg[me * e->xrounds + round], n, in);
    for (int k = 0; k < n; k++)
        free(in[k]);
}

/* One host's part of the step's exchange, message for message as analytics.h counts it: `me` is
 * the host's index among the exchanging hosts (the analytics' or, inline, the ranks'). */
static void exchange(struct engine *e, int me, int host, long step)
{
    const struct analytics_value *v = &e->av[step];
    int n = e->nx;
    if (v->pattern == ANALYTICS_NONE || n < 2)
        return;
    int parts = e->l.inline_ranks ? e->l.sim_per_host[host] : e->l.ana_per_host[host];
    double host_bytes = v->exchange_bytes * parts;
    if (v->pattern == ANALYTICS_ALLGATHER) {
        for (int x = 0; x < n; x++)
            if (x != me)
                xput(e, x, 0, host_bytes);
        xget(e, me, 0, n - 1);
    } else if (v->pattern == ANALYTICS_GATHER) {
        if (me != e->xroot)
            xput(e, e->xroot, 0, host_bytes);
        else
            xget(e, me, 0, n - 1);
    } else { /* allreduce: recursive doubling; the actors' parts are combined on the host */
        for (int r = 0; (1 << r) < n; r++) {
            int partner = me ^ (1 << r);
            if (partner >= n)
                continue;
            xput(e, partner, r, v->exchange_bytes);
            xget(e, me, r, 1);
        }
    }
}

void sim_analytics_actor(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    struct engine *e = sim_engine;
    struct ana_group *a = sg_actor_self_get_data();
    int step;
    sim_staging_receive(a);
    while (retrieve(a, &step)) {
        double t0 = simgrid_get_clock();
        execute(a->chunks * e->chunk_flops[step]);
        sim_staging_release(e, a, step); /* analysed in place: its memory is free */
        if (host_step_done(e, a)) {
            double x0 = simgrid_get_clock();
            exchange(e, a->xidx, a->host, step);
            a->X[step] += simgrid_get_clock() - x0;
        }
        a->A[step] += simgrid_get_clock() - t0;
        XBT_DEBUG("step %d analysed: %d states in %.6f s", step, a->states, a->A[step]);
        e->analyses += a->states;
        channel_put(&e->collector, message_new(MSG_METRIC, step, a->states), METRIC_BYTES,
                    (double)METRIC_BYTES * a->states, &e->links);
    }
    /* The last analytics actor running stops the collector. */
    if (--e->analytics_running == 0)
        channel_put(&e->collector, message_new(MSG_POISON, 0, 0), 0, 0, NULL);
    channel_flush();
}

/* The collector's copies of a step's metrics leave its host for the ranks of one node: one
 * postman per node sends them, so that no actor holds every rank's copy in flight (SimGrid 3.32
 * scans an actor's whole list of activities whenever one of them ends). */
void sim_postman_actor(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    struct engine *e = sim_engine;
    const struct postman *p = sg_actor_self_get_data();
    for (long step = 0; step < e->run_steps; step++) {
        if (e->metrics_out <= step) { /* actors take turns: the check under the lock is the one */
            sg_mutex_lock(e->metrics_mutex);
            while (e->metrics_out <= step)
                sg_cond_wait(e->metrics_ready, e->metrics_mutex);
            sg_mutex_unlock(e->metrics_mutex);
        }
        for (int k = 0; k < p->ngroups; k++) {
            struct sim_group *g = &e->sims[p->groups[k]];
            int copies = e->dtl_per_rank ? g->ranks : 1, count = g->ranks / copies;
            for (int n = 0; n < copies; n++)
                channel_put(&g->back, message_new(MSG_METRIC, (int)step, count), METRIC_BYTES,
                            (double)METRIC_BYTES * count, &e->links);
        }
        channel_flush(); /* until the ranks have them: they take them in order */
    }
}

void sim_collector_actor(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    struct engine *e = sim_engine;
    if (!e->instant) /* eager: metrics flow in whenever they are sent */
        sg_mailbox_set_receiver(sg_mailbox_get_name(e->collector.mailbox));
    for (;;) {
        long collected = 0;
        while (collected < e->l.sim_cores) {
            struct message *m = channel_get(&e->collector);
            if (m->kind == MSG_POISON) {
                free(m);
                e->collector_done = true;
                return;
            }
            collected += m->count;
            e->w_sum += (simgrid_get_clock() - m->sent) * m->count;
            e->w_count += m->count;
            free(m);
        }
        /* A step's metrics all come before the next step's: the ranks fetch them first. The
         * postmen send the copies. */
        XBT_DEBUG("step %ld: every rank's metric is in", e->metrics_out);
        sg_mutex_lock(e->metrics_mutex);
        e->metrics_out++;
        sim_sampling_step(e, e->metrics_out - 1);
        sg_cond_notify_all(e->metrics_ready);
        sg_mutex_unlock(e->metrics_mutex);
    }
}
