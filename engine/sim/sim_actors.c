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

/* Metrics of step i come back as copies, one per rank this group stands for; the ranks' wait
 * counts as idle in step i. */
static void collect_metrics(struct sim_group *g, long i)
{
    struct engine *e = sim_engine;
    int got = 0;
    double asked = simgrid_get_clock();
    while (got < g->ranks) {
        struct message *m = channel_get(&g->back);
        got += m->count;
        /* A copy that waited for the rank to ask only costs from the asking on (rendezvous). */
        e->c_sum += (simgrid_get_clock() - fmax(m->sent, asked)) * m->count;
        e->c_count += m->count;
        e->metrics_delivered += m->count;
        free(m);
    }
    g->idle[i] += simgrid_get_clock() - asked;
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
        if (e->dtl_per_rank) /* each rank's putter: its copy, then its state */
            sim_putters_step(g, i, i > 0, true);
        else {
            if (i > 0)
                sim_rank_collect(g, i);
            sim_rank_put_state(g, i, e->chunk_bytes[i]);
        }
        if (i + 1 == e->run_steps && e->run_steps < e->steps)
            t += (e->steps - e->run_steps) * T; /* sampled (sim_sampling.c): on to the tail */
    }
    if (e->steps > 0 && !e->l.inline_ranks && e->dtl_per_rank) {
        sim_putters_step(g, e->run_steps - 1, true, false);
        sim_putters_stop(g);
    } else if (e->steps > 0 && !e->l.inline_ranks)
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
    collect_metrics(g, i);
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
            for (int r = 0; e->dtl_per_rank && r < g->ranks; r++) /* to each rank's putter */
                channel_put(&g->putters[r].back, message_new(MSG_METRIC, (int)step, 1),
                            METRIC_BYTES, METRIC_BYTES, &e->links);
            if (!e->dtl_per_rank)
                channel_put(&g->back, message_new(MSG_METRIC, (int)step, g->ranks), METRIC_BYTES,
                            (double)METRIC_BYTES * g->ranks, &e->links);
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
