/* The model's analytics side (section 5.1's R, A and W): what one step costs the analytics
 * host that sets the pace, from the layout's routes, the DTL and a state's bytes, and what the
 * run's end adds. Pure, as model.c: numbers in, numbers out. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "model_internal.h"
#include "model_reduce.h"

void model_actor_shares(long load, int actors, bool shared, double *retrieval, double *analysis)
{
    *retrieval = *analysis = 0;
    if (load <= 0 || actors <= 0)
        return;
    double n = actors, L = (double)load, chunks = ceil(L / n), q = floor(L / n), r = L - q * n;
    *analysis = L / (n * chunks);
    /* q full rounds of n states (each actor waits n states' time) and one of r (r actors, r). */
    *retrieval = shared ? (q * n * n + r * r) / (n * L) : *analysis;
}

double model_exchange_time(const struct platform *pf, const struct layout *l,
                           const struct analytics_value *v)
{
    int n = 0, a = -1, b = -1;
    long total = 0, root_k = -1, first_k = 0;
    for (int h = 0; h < l->hosts; h++) {
        if (!l->ana_per_host[h] || !l->dtl_load[h])
            continue;
        if (n == 0) {
            a = h;
            first_k = l->ana_per_host[h];
        } else if (n == 1) {
            b = h;
        }
        if (h == l->collector_host)
            root_k = l->ana_per_host[h];
        total += l->ana_per_host[h];
        n++;
    }
    if (v->pattern == ANALYTICS_NONE || n < 2)
        return 0;
    double B = v->exchange_bytes;
    if (v->pattern == ANALYTICS_ALLREDUCE)
        return ceil(log2(n)) * model_transfer_time(pf, a, b, B, NET_CROSSTRAFFIC);
    if (v->pattern == ANALYTICS_GATHER)
        return model_transfer_time(pf, a, b, (total - (root_k >= 0 ? root_k : first_k)) * B, 1);
    double worst = 0; /* allgather: the busiest link, up or down */
    for (int h = 0; h < l->hosts; h++) {
        if (!l->ana_per_host[h] || !l->dtl_load[h])
            continue;
        long k = l->ana_per_host[h];
        worst = fmax(worst, fmax((double)(n - 1) * k, (double)(total - k)));
    }
    return model_transfer_time(pf, a, b, worst * B, NET_CROSSTRAFFIC); /* both ways at once */
}

/* The most distinct last links of the routes that bring one analytics host its remote states. */
static int inbound_links(const struct platform *pf, const struct layout *l)
{
    /* One pass over the ranks (not one per host): each host's links, in the ranks' order. */
    int(*seen)[10] = calloc((size_t)l->hosts, sizeof *seen); /* [8]: how many, [9]: last from */
    int most = 0, len;
    for (long r = 0; seen && r < l->sim_cores; r++) {
        int h = l->dtl_host[r], from = l->rank_host[r];
        if (h < 0 || from == h || !l->ana_per_host[h] || seen[h][8] == 8 || seen[h][9] == from + 1)
            continue; /* (a rank after one of the same hosts brings the same last link) */
        seen[h][9] = from + 1;
        const int *route = platform_route(pf, from, h, &len);
        int last = route && len ? route[len - 1] : -1, k = 0, *n = &seen[h][8];
        while (k < *n && seen[h][k] != last)
            k++;
        if (k == *n)
            seen[h][(*n)++] = last;
        most = *n > most ? *n : most;
    }
    free(seen);
    return most;
}

/* The ranks' states leave apart by about one halo exchange (the halos resynchronise them at each
 * exchange); when that is under this share of one analysis, the actors' rounds stay together:
 * full fidelity measured no drift at 0.4% (stride 1000), 4% less analytics time at 6%. */
#define DRIFT_SPREAD 0.01

/* model_route_latency through c (model_internal.h): the same sum, once per route found. */
static double route_latency(const struct platform *pf, struct route_memo *c, int a, int b)
{
    int n;
    if (c[b].other == a && c[b].lat >= 0)
        return c[b].lat;
    const int *route = route_to(pf, c, a, b, &n);
    double lat = 0;
    for (int k = 0; route && k < n; k++)
        lat += pf->link[route[k]].lat;
    return c[b].lat = lat;
}

/* The part of one step's analytics side that the layout, the DTL and a state's bytes fix (not the
 * analysis' cost, nor the simulation's side): each loaded analytics host's retrieval, metrics
 * message and shares, into g (its hosts in host order). A search that moves the stride or the
 * costs over one layout computes it once (the memo's, model_internal.h). -1 if out of memory. */
static int analytics_geometry(const struct params *p, const struct platform *pf,
                              const struct layout *l, double chunk_bytes, struct ana_geometry *g)
{
    bool queue = p->dtl == DTL_QUEUE, file = p->dtl == DTL_FILE;
    g->ok = false;
    if (g->cap < l->hosts) {
        free(g->host);
        g->cap = 0;
        if (!(g->host = malloc(sizeof *g->host * (size_t)l->hosts)))
            return -1;
        g->cap = l->hosts;
    }
    /* dtl=file: the actors of every host read one state each at once, in rounds (chunks). */
    int *round = file ? calloc((size_t)l->hosts, sizeof *round) : NULL;
    for (int h = 0; round && h < l->hosts; h++)
        round[h] = l->dtl_load[h] < l->ana_per_host[h] ? l->dtl_load[h] : l->ana_per_host[h];
    /* Every state crosses the links of its route at once with all the others: a link they
     * share (a staging cluster's uplink, a fat-tree's spine) may pace them more than any one
     * host's link does. */
    struct model_net net;
    model_net_init(&net, pf);
    struct route_memo *there = malloc(2 * sizeof *there * (size_t)l->hosts);
    struct route_memo *back = there ? there + l->hosts : NULL;
    for (int h = 0; there && h < 2 * l->hosts; h++)
        there[h].other = -1;
    for (long r = 0; !queue && r < l->sim_cores; r++)
        if (l->rank_host[r] != l->dtl_host[r]) {
            int a = l->rank_host[r], b = l->dtl_host[r], n, nback;
            if (!there)
                model_net_flow(&net, a, b, chunk_bytes);
            else {
                const int *to = route_to(pf, there, a, b, &n);
                const int *from = route_from(pf, back, a, b, &nback);
                model_net_flow_on(&net, to, n, from, nback, chunk_bytes);
            }
        }
    /* remote[h]: states h receives over the network; out[s]: states s sends over it; feed[h]:
     * the most any one sender of h sends (that sender's link carries all of it at once). */
    int *remote = calloc(4 * (size_t)l->hosts, sizeof(int));
    int *sent = remote ? remote + l->hosts : NULL, *feed = remote ? sent + l->hosts : NULL;
    int *from = remote ? feed + l->hosts : NULL; /* one remote sender of each host, +1 */
    /* An actor's chunks come from near and far senders alike: each costs the mean latency. */
    double *lat = remote ? calloc(3 * (size_t)l->hosts, sizeof *lat) : NULL, route_lat = 0;
    double *lat_lo = lat ? lat + l->hosts : NULL, *lat_hi = lat ? lat_lo + l->hosts : NULL;
    for (long r = 0, prev = -1; remote && lat && r < l->sim_cores; r++)
        if (l->rank_host[r] != l->dtl_host[r]) {
            remote[l->dtl_host[r]]++;
            sent[l->rank_host[r]]++;
            from[l->dtl_host[r]] = l->rank_host[r] + 1;
            /* (the ranks of one host to one host, in a row, have one route) */
            if (prev < 0 || l->rank_host[r] != l->rank_host[prev] ||
                l->dtl_host[r] != l->dtl_host[prev])
                route_lat = there ? route_latency(pf, there, l->rank_host[r], l->dtl_host[r])
                                  : model_route_latency(pf, l->rank_host[r], l->dtl_host[r]);
            prev = r;
            int h = l->dtl_host[r];
            lat[h] += route_lat;
            bool first = remote[h] == 1;
            lat_lo[h] = first || route_lat < lat_lo[h] ? route_lat : lat_lo[h];
            lat_hi[h] = first || route_lat > lat_hi[h] ? route_lat : lat_hi[h];
        }
    for (long r = 0; remote && r < l->sim_cores; r++)
        if (l->rank_host[r] != l->dtl_host[r] && sent[l->rank_host[r]] > feed[l->dtl_host[r]])
            feed[l->dtl_host[r]] = sent[l->rank_host[r]];
    g->n = 0;
    g->inbound = inbound_links(pf, l);
    for (int h = 0; h < l->hosts; h++) {
        if (!l->ana_per_host[h] || !l->dtl_load[h])
            continue;
        struct ana_host *a = &g->host[g->n++];
        double chunks = ceil((double)l->dtl_load[h] / l->ana_per_host[h]);
        double retrieval = 0;
        bool far = !queue && !file && remote && remote[h] > 0;
        int src = far ? from[h] - 1 : h;
        if (file)
            retrieval = chunks * model_file_read(pf, l, round, chunk_bytes);
        else if (!queue) {
            /* Sources on this host come over the loopback; remote ones share the host's link
             * with every actor of the host fetching at the same time, and a sender's link with
             * every state it sends: when analytics hosts outnumber simulation hosts, the
             * sender sets the pace. */
            double sharers = far ? fmin(l->ana_per_host[h], l->dtl_load[h]) : 1;
            retrieval = chunks * model_transfer_time(pf, src, h, chunk_bytes, sharers);
            if (far && lat)
                retrieval += chunks * (lat[h] / remote[h] - model_route_latency(pf, src, h)) *
                             NET_LATENCY_FACTOR;
            if (far && feed[h] > 0)
                retrieval =
                    fmax(retrieval, model_transfer_time(pf, src, h, feed[h] * chunk_bytes, 1));
            /* A link shared with other hosts' states (a staging uplink): its load sets the
             * pace, and each of an actor's chunks still pays its latency. */
            if (far && lat)
                retrieval =
                    fmax(retrieval, model_net_time(&net, src, h, chunk_bytes) +
                                        (chunks - 1) * lat[h] / remote[h] * NET_LATENCY_FACTOR);
        }
        *a = (struct ana_host){.h = h, .far = far, .chunks = chunks, .retrieval = retrieval};
        /* The collector needs every host's metrics: the host whose chain ends last, its
         * metrics message included, sets the pace. */
        a->w = queue ? 0 : model_transfer_time(pf, h, l->collector_host, METRIC_BYTES, 1);
        /* one actor of the host does the exchange */
        model_actor_shares(l->dtl_load[h], l->ana_per_host[h], file || (remote && remote[h] > 0),
                           &a->share_R, &a->share_A);
        if (far && l->ana_per_host[h] > 1) /* the drift's floor: the transfers alone */
            a->alone = chunks * model_transfer_time(pf, src, h, chunk_bytes, 1);
        if (far && lat)
            a->route_spread = (lat_hi[h] - lat_lo[h]) * NET_LATENCY_FACTOR;
    }
    free(remote);
    free(lat);
    free(round);
    free(there);
    model_net_free(&net);
    g->dtl = p->dtl;
    g->chunk_bytes = chunk_bytes;
    g->ok = true;
    return 0;
}

/* One step of the analysis av: -1 if out of memory. */
int model_analytics_step(const struct params *p, const struct platform *pf, const struct layout *l,
                         const struct analytics_value *av, double sim_busy, double halo_load,
                         const bool *apart, double spread, struct model_memo *memo,
                         struct ana_step *out)
{
    double chunk_bytes = av->bytes / l->sim_cores;
    struct ana_geometry own = {0}, *g = model_memo_geometry(memo);
    if (!g)
        g = &own;
    if ((!g->ok || g->dtl != p->dtl || memcmp(&g->chunk_bytes, &chunk_bytes, sizeof chunk_bytes)) &&
        analytics_geometry(p, pf, l, chunk_bytes, g) < 0) {
        free(own.host);
        return -1;
    }
    /* The analytics actors' exchange follows each analysis: part of A (law in model.h). */
    double exchange = model_exchange_time(pf, l, av);
    double worst = -1, active = 0, drifted = 0;
    bool by_routes = false, routes_apart = false;
    *out = (struct ana_step){0};
    for (int k = 0; k < g->n; k++) {
        const struct ana_host *a = &g->host[k];
        int h = a->h;
        double chunks = a->chunks, retrieval = a->retrieval, w = a->w;
        /* The critical analytics host: the one whose actors take longest per step. */
        double chunk_compute = av->cost / l->sim_cores * REFERENCE_SPEED / pf->host[h].speed;
        /* In situ, the simulation's halos cross the node links while the exchange does, from the
         * analysis' end until the simulation's S (both sides start a step together): meanwhile
         * the exchange gets what the halos leave of the link, 1 - halo_load. */
        double start = retrieval + chunks * chunk_compute, x = exchange;
        double rate = 1 - fmin(halo_load, 0.9), window = fmax(0, sim_busy - start);
        if (x > 0 && window > 0)
            x = x <= window * rate ? x / rate : x + window * (1 - rate);
        double t = start + x + w;
        double share_R = a->share_R, share_A = a->share_A;
        active +=
            (l->ana_per_host[h] * (share_R * retrieval + share_A * chunks * chunk_compute) + x) /
            l->ana_cores;
        /* The actors' rounds may drift apart where states come at different dates (apart), over
         * the host's shared link, whichever side is slower (where the analytics is, states wait
         * for the actors and the drift shortens the step: the makespan too). Taking several each,
         * far enough apart (spread), an actor's transfer overlaps the others' analyses, and fewer
         * share the link: drifted all the way, the link still carries every state, but its sharers
         * are short of the analysing ones, R - A per actor. Taking one each, the round's transfers
         * start up to `spread` apart, and the first to start end sooner: R - spread. Never less
         * than the transfers alone. The model keeps the actors in step (an upper bound); this is
         * the range's other end. */
        double drift_R = retrieval;
        bool halos = apart && apart[h];
        /* Routes of different lengths part the rounds only where an actor takes several states:
         * one round ends together, whatever its transfers' routes. */
        bool routes = chunks > 1 && a->route_spread >= DRIFT_SPREAD * chunk_compute;
        routes_apart = routes_apart || (routes && a->far && l->ana_per_host[h] > 1);
        if (a->far && (halos || routes) && l->ana_per_host[h] > 1) {
            double alone = a->alone;
            if (chunks > 1 && (routes || spread >= DRIFT_SPREAD * chunk_compute))
                drift_R = fmax(retrieval - chunks * chunk_compute, alone);
            else if (chunks == 1) /* one round, its transfers starting up to `spread` apart */
                drift_R = fmax(retrieval - spread, alone);
            by_routes = by_routes || (!halos && drift_R < retrieval);
        }
        drifted +=
            (l->ana_per_host[h] * (share_R * drift_R + share_A * chunks * chunk_compute) + x) /
            l->ana_cores;
        if (t > worst) {
            worst = t;
            *out = (struct ana_step){.R = retrieval,
                                     .A = chunks * chunk_compute + x,
                                     .W = w,
                                     .chunks = chunks,
                                     .inbound = g->inbound};
        }
    }
    out->active = active;
    out->drifted = drifted;
    out->routes = by_routes;
    out->routes_apart = routes_apart;
    free(own.host);
    return 0;
}

/* The run's end (Algorithm 1): after its last metrics, each rank sends its analytics actors a
 * poisoned value, and the last actor to stop stops the collector: two empty messages, the
 * second from the analytics host that hears last. Instantaneous with the queue DTL. */
double model_run_end(const struct params *p, const struct platform *pf, const struct layout *l)
{
    if (p->dtl == DTL_QUEUE)
        return 0;
    double end = 0, local = 0;
    bool remote = false;
    /* heard[h]: when host h's last actor hears its last rank. One pass over the ranks; a rank
     * from the same host to the same host as the one before takes the same time. */
    double *heard = calloc((size_t)l->hosts, sizeof *heard), t = 0;
    /* last[h]: the host of the last rank heard by h, +1: another from there changes nothing */
    int *last = calloc((size_t)l->hosts, sizeof *last);
    for (long r = 0; heard && last && r < l->sim_cores; r++) {
        int h = l->dtl_host[r];
        if (h < 0 || !l->ana_per_host[h] || !l->dtl_load[h] || last[h] == l->rank_host[r] + 1)
            continue;
        last[h] = l->rank_host[r] + 1;
        if (p->dtl == DTL_FILE) /* the poisoned values come at once (the notices' queue) */
            t = 0;
        else
            t = model_transfer_time(pf, l->rank_host[r], h, 0, 1);
        heard[h] = max2(heard[h], t);
        remote = remote || l->rank_host[r] != h;
    }
    free(last);
    for (int h = 0; heard && h < l->hosts; h++) {
        if (!l->ana_per_host[h] || !l->dtl_load[h])
            continue;
        local = max2(local, heard[h]);
        end = max2(end, heard[h] + model_transfer_time(pf, h, l->collector_host, 0, 1));
    }
    free(heard);
    /* Across the network the last actor to stop is a remote one: two hops. In situ every actor
     * hears over its loopback at once, and which one stops last (so whether its message to the
     * collector crosses the network) depends on the order SimGrid wakes them: counted local,
     * which holds at the default sizes, not in every latency-bound run (README). */
    return remote ? end : local;
}
