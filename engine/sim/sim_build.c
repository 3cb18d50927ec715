/* The workflow's actors and channels, built from the placement (layout.h) before SimGrid runs:
 * the simulation's rank groups (one per rank at full fidelity, one per node at fast), the postmen
 * that carry metrics back, the halo neighbours, the DTL's channels and the analytics' exchange. */
#include <math.h>
#include <simgrid/barrier.h>
#include <simgrid/host.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../model/model.h"
#include "sim_internal.h"

struct engine *sim_engine; /* the one the actors read: set by sim_setup */

/* Simulation groups: one per rank (full) or one per node (fast). */
static int build_sim_groups(struct engine *e, int *group_of_rank)
{
    const struct layout *l = &e->l;
    e->nsims = e->fast ? l->sim_nodes : (int)l->sim_cores;
    if (!ZALLOC(e->sims, e->nsims))
        return -1;
    int k = -1, last_host = -1;
    for (long r = 0; r < l->sim_cores; r++) {
        int h = l->rank_host[r];
        if (!e->fast || h != last_host) {
            k++;
            struct sim_group *g = &e->sims[k];
            g->host = h;
            g->sg = e->hosts[h];
            char name[64];
            snprintf(name, sizeof name, "halo@%d", k);
            channel_init(&g->halo, name, g->sg, false, true); /* MPI traffic: always a mailbox */
            snprintf(name, sizeof name, "back@%d", k);
            channel_init(&g->back, name, g->sg, e->instant, true);
            last_host = h;
        }
        e->sims[k].ranks++;
        e->sims[k].xidx = -1;
        group_of_rank[r] = k;
    }
    return 0;
}

/* One postman per node with ranks, for the metric copies of its groups. */
static int build_postmen(struct engine *e)
{
    int *of_host = malloc(sizeof(int) * e->pf.hosts);
    if (!of_host || !ZALLOC(e->postmen, e->l.sim_nodes)) {
        free(of_host);
        return -1;
    }
    for (int h = 0; h < e->pf.hosts; h++)
        of_host[h] = -1;
    for (int k = 0; k < e->nsims; k++) {
        int h = e->sims[k].host;
        if (of_host[h] < 0)
            of_host[h] = e->npostmen++;
        struct postman *p = &e->postmen[of_host[h]];
        if (!p->groups && !ZALLOC(p->groups, e->l.sim_per_host[h])) {
            free(of_host);
            return -1;
        }
        p->groups[p->ngroups++] = k;
    }
    free(of_host);
    return 0;
}

/* Halo edges: per neighbour rank (full) or per neighbour node plus one loopback message (fast). */
static int build_halo(struct engine *e, const int *group_of_rank)
{
    static const int dirs[6][3] = {{1, 0, 0},  {-1, 0, 0}, {0, 1, 0},
                                   {0, -1, 0}, {0, 0, 1},  {0, 0, -1}};
    const struct layout *l = &e->l;
    const double *face = e->sim.face;
    double *to_group = calloc(e->nsims, sizeof(double));
    double *real = calloc(e->nsims, sizeof(double));
    if (!to_group || !real)
        goto fail;
    long r = 0;
    for (int k = 0; k < e->nsims; k++) {
        struct sim_group *g = &e->sims[k];
        size_t nout = e->fast ? (size_t)e->nsims : 6;
        if (!ZALLOC(g->halo_out, nout))
            goto fail;
        for (int i = 0; i < e->nsims; i++)
            to_group[i] = real[i] = 0;
        for (; r < l->sim_cores && group_of_rank[r] == k; r++) {
            for (int d = 0; d < 6; d++) {
                long nb = layout_neighbour(l, r, dirs[d][0], dirs[d][1], dirs[d][2]);
                if (nb == r)
                    continue;
                int to = group_of_rank[nb];
                double bytes = face[d / 2];
                if (!e->fast) {
                    g->halo_out[g->nhalo++] = (struct edge){&e->sims[to].halo, bytes, bytes, 1};
                    continue;
                }
                real[to] += bytes;
                /* Concurrent messages on an unshared loopback cost as much as the largest. */
                if (to == k && e->loopback_fatpipe)
                    to_group[to] = fmax(to_group[to], bytes);
                else
                    to_group[to] += bytes;
            }
        }
        for (int to = 0; e->fast && to < e->nsims; to++)
            if (real[to] > 0)
                g->halo_out[g->nhalo++] =
                    (struct edge){&e->sims[to].halo, to_group[to], real[to], 1};
        for (int x = 0; x < g->nhalo; x++) {
            sg_host_t dst = g->halo_out[x].to->owner;
            g->halo_latency = fmax(g->halo_latency,
                                   sim_links_latency(&e->links, g->sg, dst) * NET_LATENCY_FACTOR);
        }
    }
    free(to_group);
    free(real);
    return 0;
fail:
    free(to_group);
    free(real);
    return -1;
}

/* Whether every state routed to host h comes from h itself over an unshared loopback: then no
 * transfer to h shares anything, and each takes a fixed time. */
static bool dtl_local(const struct engine *e, int h)
{
    const struct layout *l = &e->l;
    for (long r = 0; r < l->sim_cores; r++)
        if (l->dtl_host[r] == h && !(l->rank_host[r] == h && e->loopback_fatpipe))
            return false;
    return true;
}

/* The DTL: one channel per analytics host. Full (and fast at engine.dtl_per_rank): each rank
 * puts its state, each actor takes one at a time (Algorithm 1). Fast: each node puts one message
 * with all its states for the host, and one actor group takes a step's messages at once,
 * standing for `actors` actors that each analyse ceil(load / actors) states one after the
 * other. */
static int build_dtl(struct engine *e, const int *group_of_rank)
{
    const struct layout *l = &e->l;
    bool merged = e->fast && !e->dtl_per_rank;
    e->nanas = 0;
    e->nstate_channels = 0;
    for (int h = 0; h < l->hosts; h++) {
        e->nanas += l->ana_per_host[h] ? (merged ? 1 : l->ana_per_host[h]) : 0;
        e->nstate_channels += l->ana_per_host[h] > 0;
    }
    if (!ZALLOC(e->anas, e->nanas) || !ZALLOC(e->state_channels, e->nstate_channels))
        return -1;
    for (int k = 0; k < e->nsims; k++) {
        struct sim_group *g = &e->sims[k];
        if (!ZALLOC(g->states, e->nstate_channels) || !ZALLOC(g->poisons, e->nstate_channels))
            return -1;
    }
    int ch = 0, ak = 0;
    for (int h = 0; h < l->hosts; h++) {
        int actors = l->ana_per_host[h], load = l->dtl_load[h];
        if (!actors)
            continue;
        struct channel *in = &e->state_channels[ch++];
        char name[64];
        snprintf(name, sizeof name, "state@%d", h);
        /* dtl=file: the states travel as files (sim_file.c); the channel carries their notices,
         * at no cost. */
        channel_init(in, name, e->hosts[h], e->instant || e->files, true);
        if (!merged && !e->instant && !e->files && dtl_local(e, h))
            channel_set_local(
                in, sim_links_latency(&e->links, e->hosts[h], e->hosts[h]) * NET_LATENCY_FACTOR,
                sim_links_bandwidth(&e->links, e->hosts[h], e->hosts[h]) * NET_BANDWIDTH_FACTOR);
        int per_actor = (load + actors - 1) / actors, pieces = 0, first_group = -1;
        double latency = 0;
        for (long r = 0; r < l->sim_cores; r++) {
            if (l->dtl_host[r] != h)
                continue;
            int k = group_of_rank[r];
            struct sim_group *g = &e->sims[k];
            struct edge *x = g->nstates ? &g->states[g->nstates - 1] : NULL;
            if (!x || x->to != in) {
                x = &g->states[g->nstates++];
                *x = (struct edge){in, 0, 0, 0};
                pieces++;
            }
            /* An actor's retrievals come from near and far senders alike (a fat-tree's leaf,
             * another leaf): the merged ones cost the states' mean route latency. */
            latency += sim_links_latency(&e->links, g->sg, in->owner) / load;
            if (first_group < 0)
                first_group = k;
            x->count++;
            x->real_bytes += 1; /* in states: the step's chunk_bytes multiplies them */
            /* An actor's states from its own node come one after the other over the unshared
             * loopback; remote ones share the links with every other state in flight. */
            bool local = g->host == h && e->loopback_fatpipe;
            x->bytes = local && merged ? per_actor : x->real_bytes;
        }
        int groups = merged ? 1 : actors;
        double share_R = 1, share_A = 1;
        if (merged) /* the group's timings are its critical actor's */
            model_actor_shares(load, actors, e->files || (!e->instant && !dtl_local(e, h)),
                               &share_R, &share_A);
        for (int n = 0; n < groups; n++) {
            struct ana_group *a = &e->anas[ak++];
            a->host = h;
            a->sg = e->hosts[h];
            a->in = in;
            a->actors = merged ? actors : 1;
            a->pieces = merged ? pieces : 1;
            a->states = merged ? load : 1;
            a->chunks = merged ? per_actor : 1;
            a->extra_latency =
                merged && !e->instant ? (per_actor - 1) * latency * NET_LATENCY_FACTOR : 0;
            if (merged && e->files) /* one read stands for per_actor: their latencies */
                a->extra_latency = (per_actor - 1) * model_file_latency(&e->pf, h);
            a->share_R = share_R;
            a->share_A = share_A;
            a->xidx = -1;
        }
        /* The first group routed here poisons every analytics actor of the host at the end: one
         * poisoned value for each message a retrieval takes. */
        if (first_group >= 0) {
            struct sim_group *g = &e->sims[first_group];
            g->poisons[g->npoisons++] = (struct edge){in, 0, 0, groups * (merged ? pieces : 1)};
        }
    }
    return 0;
}

/* The analytics' exchange: among the hosts whose actors receive states, one mailbox per host
 * and round. Only built when some step exchanges. */
static int build_exchange(struct engine *e)
{
    const struct layout *l = &e->l;
    bool any = false;
    for (long i = 0; i < e->steps; i++)
        any = any || e->av[i].pattern != ANALYTICS_NONE;
    if (!any)
        return 0;
    int *index = malloc(sizeof(int) * l->hosts);
    if (!index || !ZALLOC(e->xhost, l->hosts) || !ZALLOC(e->xdone, l->hosts) ||
        (l->inline_ranks && !ZALLOC(e->xbar, l->hosts))) {
        free(index);
        return -1;
    }
    for (int h = 0; h < l->hosts; h++) {
        /* inline: the ranks' hosts exchange (layout_inline_view) */
        index[h] = l->inline_ranks                        ? (l->sim_per_host[h] ? e->nx : -1)
                   : l->ana_per_host[h] && l->dtl_load[h] ? e->nx
                                                          : -1;
        if (l->inline_ranks && !e->fast && l->sim_per_host[h] > 1)
            e->xbar[h] = sg_barrier_init((unsigned)l->sim_per_host[h]);
        if (index[h] >= 0)
            e->xhost[e->nx++] = h;
    }
    e->xroot = index[l->collector_host] >= 0 ? index[l->collector_host] : 0;
    for (e->xrounds = 1; (1 << e->xrounds) < e->nx;)
        e->xrounds++;
    size_t nchannels = (size_t)e->nx * e->xrounds;
    if (!ZALLOC(e->xchg, nchannels)) {
        free(index);
        return -1;
    }
    for (int x = 0; x < e->nx; x++) {
        for (int r = 0; r < e->xrounds; r++) {
            char name[64];
            snprintf(name, sizeof name, "xchg@%d.%d", e->xhost[x], r);
            channel_init(&e->xchg[x * e->xrounds + r], name, e->hosts[e->xhost[x]], false, false);
        }
    }
    for (int k = 0; k < e->nanas; k++)
        e->anas[k].xidx = index[e->anas[k].host];
    for (int k = 0; k < e->nsims; k++)
        e->sims[k].xidx = l->inline_ranks ? index[e->sims[k].host] : -1;
    free(index);
    return 0;
}

int sim_build_workflow(struct engine *e)
{
    int *group_of_rank = malloc(sizeof(int) * (e->l.sim_cores ? e->l.sim_cores : 1));
    int rc = group_of_rank && build_sim_groups(e, group_of_rank) == 0 && build_postmen(e) == 0 &&
                     build_halo(e, group_of_rank) == 0 && sim_halo_local_init(e) == 0 &&
                     build_dtl(e, group_of_rank) == 0 && build_exchange(e) == 0
                 ? 0
                 : -1;
    free(group_of_rank);
    return rc;
}
