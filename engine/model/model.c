#include "model.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_internal.h"
#include "model_reduce.h"

const char *model_scenario_name(enum scenario s)
{
    return s == SCENARIO_IS       ? "IS"
           : s == SCENARIO_IA     ? "IA"
           : s == SCENARIO_INLINE ? "inline"
                                  : "balanced";
}

double model_efficiency(double sim_side, double ana_side)
{
    double top = fmax(sim_side, ana_side);
    return top > 0 ? 1 - fabs(sim_side - ana_side) / top : 1;
}

enum scenario model_scenario(double sim_side, double ana_side)
{
    double top = fmax(sim_side, ana_side);
    if (top <= 0 || fabs(sim_side - ana_side) <= 1e-9 * top)
        return SCENARIO_BALANCED;
    /* IS: the simulation idles because the analytics is slower; IA: the reverse. */
    return ana_side > sim_side ? SCENARIO_IS : SCENARIO_IA;
}

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
/* The share of S in halo exchanges from which an uneven cut's drift may move S by 1% or more:
 * measured (4 nodes in transit) 0.6% at 0.09, 1.7% at 0.13, 5 to 7% from 0.3 on; in situ on 6
 * nodes, 0.4% at 0.56. */
#define RANKS_DRIFT_HALO 0.1
/* The least change of analytics active time that the drift range reports. */
#define DRIFT_WORTH 0.01

/* The analytics side of one step whose analysis is av: R, A and W of the critical host. */
struct ana_step {
    double R, A, W, chunks;
    double active;  /* R + A over all the analytics cores, per core: some take fewer states */
    double drifted; /* the same should the actors' rounds drift apart (model.h) */
    int inbound;    /* most links one host receives remote states over */
};

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
    double *lat = remote ? calloc((size_t)l->hosts, sizeof *lat) : NULL, route_lat = 0;
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
            lat[l->dtl_host[r]] += route_lat;
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
static int analytics_step(const struct params *p, const struct platform *pf, const struct layout *l,
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
        if (a->far && apart && apart[h] && l->ana_per_host[h] > 1) {
            double alone = a->alone;
            if (chunks > 1 && spread >= DRIFT_SPREAD * chunk_compute)
                drift_R = fmax(retrieval - chunks * chunk_compute, alone);
            else if (chunks == 1) /* one round, its transfers starting up to `spread` apart */
                drift_R = fmax(retrieval - spread, alone);
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
    free(own.host);
    return 0;
}

/* The run's end (Algorithm 1): after its last metrics, each rank sends its analytics actors a
 * poisoned value, and the last actor to stop stops the collector: two empty messages, the
 * second from the analytics host that hears last. Instantaneous with the queue DTL. */
static double run_end(const struct params *p, const struct platform *pf, const struct layout *l)
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

/* mapping=inline (model.h): m's S and halo are set; each class's analysis follows its S on the
 * same cores, the ranks' parts at once (f: reference seconds to the slowest rank host's), then
 * their exchange. */
static void model_inline(const struct platform *pf, const struct layout *l,
                         const struct analytics_profile *prof, double f, double sim_active,
                         struct model_result *m)
{
    struct layout x;
    layout_inline_view(l, &x);
    double A = 0, steps = 0;
    for (int k = 0; k < prof->nclasses; k++) {
        const struct analytics_value *v = &prof->classes[k].v;
        double n = (double)prof->classes[k].count;
        A += n * (v->cost / l->sim_cores * f + model_exchange_time(pf, &x, v));
        steps += n;
    }
    m->stage.A = steps > 0 ? A / steps : 0;
    m->chunks = 1;
    /* The exchange's law takes the messages into a host to share one link: over several (a
     * torus node's), they do not (MODEL_INLINE_LINKS_WARNING). Counted into rank 0's host. */
    bool exchanges = false;
    for (int k = 0; k < prof->nclasses; k++)
        exchanges = exchanges || prof->classes[k].v.pattern != ANALYTICS_NONE;
    int seen[8], n = 0, root = x.collector_host, len;
    for (int h = 0; exchanges && h < l->hosts && n < 8; h++) {
        if (!l->sim_per_host[h] || h == root)
            continue;
        const int *route = platform_route(pf, h, root, &len);
        int last = route && len ? route[len - 1] : -1, k = 0;
        while (k < n && seen[k] != last)
            k++;
        if (k == n)
            seen[n++] = last;
    }
    m->inbound_links = n;
    m->sim_active = sim_active;
    m->ana_active = m->ana_active_drifted = A;
    m->sim_idle = m->ana_idle = 0;
    m->makespan = m->makespan_eq5 = m->sim_active + m->ana_active;
    m->efficiency = 1;
    m->scenario = SCENARIO_INLINE;
}

void model_eval(const struct params *p, const struct platform *pf, const struct layout *l,
                const struct analytics_profile *prof, struct model_result *m)
{
    model_eval_memo(p, pf, l, prof, m, NULL);
}

void model_eval_memo(const struct params *p, const struct platform *pf, const struct layout *l,
                     const struct analytics_profile *prof, struct model_result *m,
                     struct model_memo *memo)
{
    /* The slowest simulation host sets the pace of every iteration (the halos synchronise). */
    double speed = INFINITY;
    for (int h = 0; h < l->hosts; h++)
        if (l->sim_per_host[h])
            speed = fmin(speed, pf->host[h].speed);
    double f = REFERENCE_SPEED / speed;
    bool queue = p->dtl == DTL_QUEUE;

    memset(m, 0, sizeof *m);
    m->traced = pf->traced;
    const struct sim_profile *sim = &prof->sim;
    m->particles = sim->particles;
    m->sim_cores = l->sim_cores;
    m->ana_cores = l->ana_cores;
    m->sim_nodes = l->sim_nodes;
    m->ana_nodes = l->ana_nodes;
    m->nodes_used = l->nodes_used;
    m->steps = p->iterations / p->stride;
    m->tail_iterations = p->iterations - m->steps * p->stride;

    /* Each class of steps has its S (a simulation profile that reads ctx.step); the stages are
     * means over the steps, the sums exact. */
    int nc = prof->nclasses;
    struct sim_side *side = calloc((size_t)nc + 1, sizeof *side);
    struct face_memo *faces = calloc((size_t)nc + 1, sizeof *faces);
    if (!side || !faces || model_sim_sides(p, pf, l, prof, f, memo, faces, side) < 0) {
        for (int k = 0; faces && k < nc; k++)
            free(faces[k].apart);
        free(side);
        free(faces);
        m->makespan = m->makespan_eq5 = NAN; /* out of memory: no figure rather than a wrong one */
        return;
    }
    long last = profile_step_class(prof, m->steps - 1);
    const struct sim_profile *lsim = &prof->classes[last].sim; /* the tail's iterations */
    long analysed = m->steps * p->stride, H = lsim->halo_period;
    long tail_halos = p->iterations / H - analysed / H;
    double sim_sum = 0, halo_sum = 0, steps_total = 0;
    for (int k = 0; k < nc; k++) {
        double n = (double)prof->classes[k].count;
        sim_sum += n * side[k].S;
        halo_sum += n * side[k].halo;
        steps_total += n;
        /* The model (and fast mode) pay a node's slowest exchange at every exchange, each
         * node's ranks in step. Where a node's ranks differ in what they send off it, full
         * fidelity's drift apart and share the node's link less: S is an upper bound, by as
         * much as the halos are a part of it (model.h). */
        m->ranks_drift = m->ranks_drift || (side[k].ranks && side[k].exchanges > 0 &&
                                            side[k].halo >= RANKS_DRIFT_HALO * side[k].S);
    }
    struct stages *st = &m->stage;
    bool one = nc == 1 || steps_total == 0;
    st->S = one ? side[0].S : sim_sum / steps_total;
    m->halo = one ? side[0].halo : halo_sum / steps_total;
    if (one)
        sim_sum = m->steps * st->S;
    double tail = m->tail_iterations * (lsim->cost * f) + tail_halos * side[last].one_halo;
    if (l->inline_ranks) {
        model_inline(pf, l, prof, f, sim_sum + tail, m);
        if (p->mapping == MAPPING_POSTHOC)
            model_file_posthoc(p, pf, l, prof, f, m);
        goto done;
    }
    st->Ing = 0; /* fire-and-forget: the retrieval pays for the transfer; reduction, below */
    /* Metrics back to the ranks: the slowest copy is the one that leaves the collector's node. */
    if (!queue) {
        int far = l->collector_host;
        for (int h = 0; h < l->hosts; h++)
            if (l->sim_per_host[h] && h != l->collector_host)
                far = h;
        st->C = model_transfer_time(pf, l->collector_host, far, METRIC_BYTES, 1);
    }
    /* Seconds of one step that the off-node halos keep the busiest node link busy, both ways at
     * once (as the exchange's), during S: on hosts that run analytics actors too (in situ), they
     * slow the analytics' exchange down. */
    bool shared = false;
    for (int h = 0; h < l->hosts; h++)
        shared = shared || (l->ana_per_host[h] && l->dtl_load[h] && l->sim_per_host[h]);

    /* Each class of steps runs at its own period; the run is their sum. A rank fetches its
     * copy of the metrics when it needs them, before its next put (C_{i-1} -> Ing_i), and the
     * fetch is a rendezvous: C is on the rank's path whichever side is slower, so it follows
     * the max rather than joining the analytics side in it. */
    double busy_ana = 0, period_sum = 0, R = 0, A = 0, W = 0, last_ana = 0, last_sim = 0;
    double drifted = 0, ing = 0, written_sum = 0, waits = 0;
    for (int k = 0; k < nc; k++) {
        /* Reduction (model_reduce.h): the rank reduces its state before the put (Ing), the
         * analytics gets fewer bytes and restores them (A). */
        int dims = layout_shape().dims;
        struct analytics_value v = reduce_value(p, dims, &prof->classes[k].v);
        double put = reduce_put_cost(p, dims, prof->classes[k].v.bytes / l->sim_cores) * f;
        /* A file (model_file.c): the rank writes its reduced state, then goes on. */
        double written = p->dtl == DTL_FILE ? model_file_write(pf, l, v.bytes / l->sim_cores) : 0;
        double sim_k = side[k].S + put;
        double halo_busy = shared ? side[k].exchanges * side[k].halo_link : 0;
        struct ana_step a;
        if (analytics_step(p, pf, l, &v, sim_k, sim_k > 0 ? halo_busy / sim_k : 0, side[k].apart,
                           side[k].one_halo, memo, &a) < 0) {
            m->makespan = m->makespan_eq5 = NAN; /* out of memory (as above) */
            goto done;
        }
        double n = (double)prof->classes[k].count;
        if (p->dtl == DTL_STAGING) { /* the servers' queue in place of the retrieval */
            struct staging_step q;
            model_staging_step(pf, l, &v, p->staging_memory, model_exchange_time(pf, l, &v), &q);
            a.R = q.R, a.A = q.A, a.W = q.W, a.chunks = q.chunks;
            a.active = a.drifted = q.active;
            waits += n * q.Ing;
        }
        ing += n * (put + written);
        written_sum += n * written;
        m->state_moved += n * v.bytes / l->sim_cores;
        /* A written file is on both paths: the analysis starts once it is written. */
        period_sum += n * (written + fmax(sim_k, a.R + a.A + a.W) + st->C);
        busy_ana += n * a.active;
        drifted += n * a.drifted;
        R += n * a.R;
        A += n * a.A;
        W += n * a.W;
        m->chunks = fmax(m->chunks, a.chunks);
        m->inbound_links = a.inbound > m->inbound_links ? a.inbound : m->inbound_links;
        if (k == last) {
            last_ana = a.R + a.A + a.W + st->C;
            last_sim = sim_k;
        }
    }
    if (steps_total > 0) {
        st->Ing = ing / steps_total;
        m->state_moved /= steps_total;
        st->R = R / steps_total;
        st->A = A / steps_total;
        st->W = W / steps_total;
        /* dtl=staging: a rank's wait for room overlaps its next step, which the queue paces
         * (model.h); the stages keep the paper's meaning. */
        m->staging_wait = waits / steps_total;
    }
    double written = steps_total > 0 ? written_sum / steps_total : 0;
    double sim_side = st->S + st->Ing, ana_side = written + st->R + st->A + st->W + st->C;
    m->sim_active = sim_sum + ing + tail;
    m->sim_idle = fmax(0, period_sum - sim_sum - ing);
    m->backpressure = m->staging_wait > 0 && ana_side > sim_side;
    m->ana_active = busy_ana;
    /* A drift that would move analytics active time by less than 1% is not worth a caution. */
    m->ana_active_drifted = drifted < busy_ana * (1 - DRIFT_WORTH) ? drifted : busy_ana;
    m->ana_idle = fmax(0, period_sum - busy_ana);
    m->makespan_eq5 = period_sum + tail;
    /* The pipeline's fill and drain: the first step's analysis cannot start before its S, and
     * the last step's shorter side is overlapped by nothing but the tail's iterations, which
     * the ranks compute meanwhile. */
    double drain = m->steps ? fmax(0, fmin(last_sim, last_ana) - tail) : 0;
    double end; /* the mailbox's over the network: the memo's, where it holds l */
    if (p->dtl != DTL_MAILBOX || !model_memo_end(memo, &end)) {
        end = run_end(p, pf, l);
        if (p->dtl == DTL_MAILBOX)
            model_memo_keep_end(memo, end);
    }
    m->makespan = m->makespan_eq5 + drain + end;
    m->efficiency = model_efficiency(sim_side, ana_side);
    m->scenario = model_scenario(sim_side, ana_side);
    m->files_spread = p->dtl == DTL_FILE && (m->chunks > 1 || shared);
done:
    for (int k = 0; k < nc; k++)
        free(faces[k].apart);
    free(side);
    free(faces);
}

static int pair_cmp(const void *x, const void *y)
{
    const int *a = x, *b = y;
    return a[0] != b[0] ? (a[0] > b[0]) - (a[0] < b[0]) : (a[1] > b[1]) - (a[1] < b[1]);
}

long model_route_pairs(const struct layout *l, int **pairs)
{
    static const int dirs[6][3] = {{1, 0, 0},  {-1, 0, 0}, {0, 1, 0},
                                   {0, -1, 0}, {0, 0, 1},  {0, 0, -1}};
    long cap = 16 * (l->sim_cores + l->hosts) + 8, n = 0;
    int *p = malloc(sizeof(int) * 2 * (size_t)cap);
    if (!p)
        return -1;
#define PAIR(x, y)                                                                                 \
    (p[2 * n] = (x), p[2 * n + 1] = (y), n++, p[2 * n] = (y), p[2 * n + 1] = (x), n++)
    int first = -1, second = -1;
    for (int h = 0; h < l->hosts; h++) {
        if (!l->sim_per_host[h] && !l->ana_per_host[h])
            continue;
        PAIR(h, h);
        if (l->collector_host >= 0)
            PAIR(h, l->collector_host);
        if (l->ana_per_host[h] && l->dtl_load[h] && first >= 0 && second < 0)
            second = h;
        if (l->ana_per_host[h] && l->dtl_load[h] && first < 0)
            first = h;
    }
    for (int h = 0; l->inline_ranks && h < l->hosts; h++) /* the ranks' exchange, into rank 0's */
        if (l->sim_per_host[h] && h != l->collector_host) {
            PAIR(h, l->collector_host);
            if (second < 0)
                first = l->collector_host, second = h;
        }
    if (second >= 0)
        PAIR(first, second);
    for (long r = 0; r < l->sim_cores; r++) {
        PAIR(l->rank_host[r], l->dtl_host[r]);
        for (int k = 0; k < 6; k++)
            PAIR(l->rank_host[r],
                 l->rank_host[layout_neighbour(l, r, dirs[k][0], dirs[k][1], dirs[k][2])]);
    }
#undef PAIR
    qsort(p, (size_t)n, 2 * sizeof(int), pair_cmp);
    long u = 0;
    for (long k = 0; k < n; k++)
        if (!u || pair_cmp(&p[2 * k], &p[2 * (u - 1)])) {
            p[2 * u] = p[2 * k];
            p[2 * u + 1] = p[2 * k + 1];
            u++;
        }
    *pairs = p;
    return u;
}

const char *model_drift_warning(const char *who, double active, double low, bool ranks, bool paced,
                                char *buf, size_t len)
{
    bool actors = low < active * (1 - 1e-6);
    char what[192] = "";
    if (actors)
        snprintf(what, sizeof what,
                 "analytics active time%s is an upper bound here (fully drifted, about %.4g s, "
                 "%+.0f%%)%s",
                 paced ? ", so the makespan," : "", low, 100 * (low / active - 1),
                 ranks ? ", and so may S be" : "");
    else if (ranks)
        snprintf(what, sizeof what, "S (so the makespan) may be an upper bound here");
    if (!what[0])
        snprintf(buf, len, "%s", "");
    else
        snprintf(buf, len,
                 "%s %s: it keeps each node's ranks%s in step, but the nodes cut the domain "
                 "unevenly, so the ranks end their halo exchanges apart and may drift over the "
                 "shared links (measured up to 20%% on analytics, 7%% on S); check with "
                 "--fidelity full",
                 who, what, actors ? " and the actors" : "");
    return buf;
}

const char *model_warning(const struct model_result *m, char *buf, size_t len)
{
    char drift[448];
    model_drift_warning("the model's", m->ana_active, m->ana_active_drifted, m->ranks_drift,
                        m->scenario == SCENARIO_IS, drift, sizeof drift);
    const char *links =
        m->scenario == SCENARIO_INLINE ? MODEL_INLINE_LINKS_WARNING : MODEL_INBOUND_WARNING;
    snprintf(buf, len, "%s%s%s%s%s", m->traced ? MODEL_TRACE_WARNING : "",
             m->traced && (m->inbound_links > 1 || drift[0]) ? "; " : "",
             m->inbound_links > 1 ? links : "", m->inbound_links > 1 && drift[0] ? "; " : "",
             drift);
    if (m->files_spread) { /* files: its own caution, after the others */
        size_t n = strlen(buf);
        snprintf(buf + n, len - n, "%s%s", n ? "; " : "", MODEL_FILE_WARNING);
    }
    if (m->staging_wait > 0) { /* model.h: the waits' other end */
        const struct stages *st = &m->stage;
        double S = st->S + st->Ing, ana = st->R + st->A + st->W + st->C;
        double more = m->steps * (fmax(S + m->staging_wait, ana) - fmax(S, ana));
        size_t used = strlen(buf);
        snprintf(buf + used, len - used, "%s" MODEL_STAGING_WARNING, used ? "; " : "",
                 m->staging_wait, m->makespan > 0 ? 100 * more / m->makespan : 0);
    }
    return buf;
}
