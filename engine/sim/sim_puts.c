/* How the ranks' states go out into the DTL (Algorithm 1's put): a group's states as one message
 * per channel (a rank at full fidelity, a node at fast), or, at fast fidelity where that would
 * change their links or dates (engine.dtl_per_rank), rank by rank through putters.
 *
 * Putters: a node's ranks compute and exchange halos as one group, but each rank has a putter, a
 * small actor that takes the rank's metrics copy and puts its state, as a rank of full fidelity
 * does at its analysis point. The putters of a group wait at one barrier until the group has
 * computed the step, so they ask for their copies at its date; each puts its state the moment its
 * own copy lands, and SimGrid wakes them in the order it wakes full fidelity's ranks: the states
 * reach the analytics hosts' mailboxes in full fidelity's order, which decides over which links
 * and at which dates each round of retrievals comes (a torus's several links, a dragonfly's routes
 * of different lengths). */
#include <math.h>
#include <simgrid/actor.h>
#include <simgrid/barrier.h>
#include <simgrid/engine.h>
#include <stdio.h>
#include <stdlib.h>

#include "sim_internal.h"

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
    sim_rank_put_states(g, i, 0, g->ranks, state_bytes);
}

void sim_rank_put_states(struct sim_group *g, long i, int first, int n, double state_bytes)
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

int sim_putters_init(struct engine *e)
{
    for (int k = 0; e->dtl_per_rank && k < e->nsims; k++) {
        struct sim_group *g = &e->sims[k];
        if (!ZALLOC(g->putters, g->ranks))
            return -1;
        for (int r = 0; r < g->ranks; r++) {
            struct putter *p = &g->putters[r];
            char name[64];
            snprintf(name, sizeof name, "back@%d.%d", k, r);
            channel_init(&p->back, name, g->sg, e->instant, true);
            p->g = g;
            p->index = r;
        }
        g->putters_bar = sg_barrier_init((unsigned)g->ranks + 1);
    }
    return 0;
}

void sim_putters_spawn(struct engine *e)
{
    for (int k = 0; e->dtl_per_rank && k < e->nsims; k++) {
        for (int r = 0; r < e->sims[k].ranks; r++) {
            char name[64];
            snprintf(name, sizeof name, "putter-%d.%d", k, r);
            sg_actor_t a = sg_actor_init(name, e->sims[k].sg);
            sg_actor_set_data(a, &e->sims[k].putters[r]);
            sg_actor_start(a, sim_putter_actor, 0, NULL);
        }
    }
}

/* The group's job for its putters: started, then waited for (the barrier's second pass). */
void sim_putters_step(struct sim_group *g, long i, bool collect, bool put)
{
    g->job = (struct putters_job){i, collect, put, 0};
    sg_barrier_wait(g->putters_bar); /* go */
    sg_barrier_wait(g->putters_bar); /* all done */
    if (collect)                     /* the ranks' mean wait for their copies */
        g->idle[i] += g->job.waited / g->ranks;
}

void sim_putters_stop(struct sim_group *g)
{
    g->job = (struct putters_job){-1, false, false, 0};
    sg_barrier_wait(g->putters_bar);
}

void sim_putter_actor(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    struct engine *e = sim_engine;
    struct putter *p = sg_actor_self_get_data();
    struct sim_group *g = p->g;
    for (;;) {
        sg_barrier_wait(g->putters_bar);
        const struct putters_job *job = &g->job;
        if (job->step < 0)
            break;
        if (job->collect) {
            double asked = simgrid_get_clock();
            struct message *m = channel_get(&p->back);
            double now = simgrid_get_clock();
            /* A copy that waited for the rank to ask only costs from the asking on. */
            e->c_sum += now - fmax(m->sent, asked);
            e->c_count++;
            e->metrics_delivered++;
            g->job.waited += now - asked;
            free(m);
        }
        if (job->put)
            sim_rank_put_states(g, job->step, p->index, 1, e->chunk_bytes[job->step]);
        sg_barrier_wait(g->putters_bar);
    }
    channel_flush();
}
