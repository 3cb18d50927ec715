/* On-node halo messages at fidelity=full. On a fat-pipe loopback a message shares nothing: it
 * takes the route's latency and its bytes at the route's bandwidth (LV08's factors), from the
 * moment both ends are there, as a rendezvous. So the engine keeps the dates instead of starting a
 * SimGrid transfer: 84% of a 32-node run's halo bytes stay on their node, and every transfer the
 * engine starts costs an activity and joins the one LMM system that the node links tie together.
 * The receiver still waits for each on-node neighbour to arrive, and ends its exchange when the
 * last message would have landed. */
#include <math.h>
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/semaphore.h>
#include <stddef.h>
#include <stdlib.h>

#include "../model/model.h"
#include "sim_internal.h"

/* Moves each group's on-node halo edges out of halo_out, pairing each with its receiver's slot. */
int sim_halo_local_init(struct engine *e)
{
    if (e->fast || !e->loopback_fatpipe)
        return 0;
    for (int k = 0; k < e->nsims; k++) {
        struct sim_group *g = &e->sims[k];
        g->lin = calloc(g->nhalo ? g->nhalo : 1, sizeof *g->lin);
        g->lout = calloc(g->nhalo ? g->nhalo : 1, sizeof *g->lout);
        g->wake = sg_sem_init(0);
        if (!g->lin || !g->lout)
            return -1;
    }
    for (int k = 0; k < e->nsims; k++) {
        struct sim_group *g = &e->sims[k];
        double bw = sim_links_bandwidth(&e->links, g->sg, g->sg) * NET_BANDWIDTH_FACTOR;
        double lat = sim_links_latency(&e->links, g->sg, g->sg) * NET_LATENCY_FACTOR;
        int kept = 0;
        for (int x = 0; x < g->nhalo; x++) {
            struct edge *out = &g->halo_out[x];
            /* A halo edge points at its receiver's halo channel, inside the receiver's group. */
            struct sim_group *to =
                (struct sim_group *)((char *)out->to - offsetof(struct sim_group, halo));
            if (to->host != g->host) {
                g->halo_out[kept++] = *out;
                continue;
            }
            struct local_in *slot = &to->lin[to->nlin++];
            slot->duration = lat;
            slot->transfer = out->bytes / bw;
            g->lout[g->nlout++] = (struct local_out){to, slot, out->real_bytes};
        }
        g->nhalo = kept;
    }
    return 0;
}

static bool local_ready(const struct sim_group *g, long exchange)
{
    for (int i = 0; i < g->nlin; i++)
        if (g->lin[i].arrived <= exchange)
            return false;
    return true;
}

/* This group starts its exchange: its on-node neighbours learn when. */
void sim_halo_local_put(struct engine *e, struct sim_group *g)
{
    long k = g->exchanges;
    double now = simgrid_get_clock();
    for (int i = 0; i < g->nlout; i++) {
        struct local_out *o = &g->lout[i];
        o->slot->at[k & 1] = now;
        o->slot->arrived = k + 1;
        sim_links_count(&e->links, g->sg, g->sg, o->bytes * g->halo_scale);
        if (o->to->waiting && local_ready(o->to, o->to->exchanges)) {
            o->to->waiting = false;
            sg_sem_release(o->to->wake);
        }
    }
}

/* Waits for every on-node neighbour to start the exchange; returns when the last of their
 * messages lands, `posted` being when this group was ready to receive. */
double sim_halo_local_wait(struct sim_group *g, double posted)
{
    long k = g->exchanges;
    if (!local_ready(g, k)) {
        g->waiting = true;
        sg_sem_acquire(g->wake);
    }
    double done = 0;
    for (int i = 0; i < g->nlin; i++)
        done = fmax(done, fmax(g->lin[i].at[k & 1], posted) +
                              (g->lin[i].duration + g->halo_scale * g->lin[i].transfer));
    return done;
}
