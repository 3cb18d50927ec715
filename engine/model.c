#include "model.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *model_scenario_name(enum scenario s)
{
    return s == SCENARIO_IS ? "IS" : s == SCENARIO_IA ? "IA" : "balanced";
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

double model_transfer_time(const struct platform *pf, int a, int b, double bytes, double sharers)
{
    if (sharers < 1)
        sharers = 1;
    if (a == b && pf->loopback_bw > 0) /* the loopback is a fat pipe: not shared */
        return pf->loopback_lat * NET_LATENCY_FACTOR +
               bytes / (pf->loopback_bw * NET_BANDWIDTH_FACTOR);
    /* Through the switch: the sender's link up, [the backbone], the receiver's link down. */
    double lat = 2 * pf->lat + pf->backbone_lat;
    double bw = pf->bw;
    if (pf->backbone_bw > 0 && pf->backbone_bw < bw)
        bw = pf->backbone_bw;
    return lat * NET_LATENCY_FACTOR + bytes * sharers / (bw * NET_BANDWIDTH_FACTOR);
}

/* Time of one halo exchange: every rank sends its faces at once. Off-node bytes share each node's
 * link (both ways are symmetric); on-node messages go through the unshared loopback. */
static double halo_exchange_time(const struct params *p, const struct platform *pf,
                                 const struct layout *l, double *off_bytes)
{
    double face[3];
    for (int d = 0; d < 3; d++)
        face[d] = layout_face_bytes(p, l, d);
    double worst = 0;
    double host_off = 0, host_on_max = 0;
    int host = l->sim_cores ? l->rank_host[0] : 0;
    /* Ranks in order walk the decomposition x fastest: the neighbours follow from (x, y, z)
     * without layout_neighbour's divisions (this loop is most of an advisor's search). */
    long plane = (long)l->px * l->py;
    int x = 0, y = 0, z = 0;
    for (long r = 0; r <= l->sim_cores; r++) {
        if (r == l->sim_cores || l->rank_host[r] != host) {
            double off =
                host_off > 0 ? model_transfer_time(pf, 0, 1, host_off, NET_CROSSTRAFFIC) : 0;
            double on = host_on_max > 0 ? model_transfer_time(pf, host, host, host_on_max, 1) : 0;
            worst = fmax(worst, fmax(off, on));
            *off_bytes = fmax(*off_bytes, host_off);
            if (r == l->sim_cores)
                break;
            host = l->rank_host[r];
            host_off = host_on_max = 0;
        }
        const long nbs[6] = {r - x + (x + 1 == l->px ? 0 : x + 1),
                             r - x + (x == 0 ? l->px - 1 : x - 1),
                             r + ((y + 1 == l->py ? 0 : y + 1) - y) * (long)l->px,
                             r + ((y == 0 ? l->py - 1 : y - 1) - y) * (long)l->px,
                             r + ((z + 1 == l->pz ? 0 : z + 1) - z) * plane,
                             r + ((z == 0 ? l->pz - 1 : z - 1) - z) * plane};
        if (++x == l->px && (x = 0, ++y == l->py))
            y = 0, z++;
        for (int k = 0; k < 6; k++) {
            long nb = nbs[k];
            if (nb == r)
                continue;
            double bytes = face[k / 2];
            if (l->rank_host[nb] != host || pf->loopback_bw <= 0)
                host_off += bytes;
            else
                host_on_max = fmax(host_on_max, bytes);
        }
    }
    return worst;
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

/* The analytics side of one step whose analysis is av: R, A and W of the critical host. */
struct ana_step {
    double R, A, W, chunks;
};

static void analytics_step(const struct params *p, const struct platform *pf,
                           const struct layout *l, const struct analytics_value *av,
                           double sim_busy, double halo_load, struct ana_step *out)
{
    double f = REFERENCE_SPEED / pf->speed; /* reference seconds -> seconds on this platform */
    bool queue = p->dtl == DTL_QUEUE;
    /* The critical analytics host: the one whose actors take longest per step. */
    double chunk_bytes = av->bytes / l->sim_cores;
    double chunk_compute = av->cost / l->sim_cores * f;
    /* The analytics actors' exchange follows each analysis: part of A (law in model.h). */
    double exchange = model_exchange_time(pf, l, av);
    /* remote[h]: states h receives over the network; out[s]: states s sends over it; feed[h]:
     * the most any one sender of h sends (that sender's link carries all of it at once). */
    int *remote = calloc(3 * (size_t)l->hosts, sizeof(int));
    int *sent = remote ? remote + l->hosts : NULL, *feed = remote ? sent + l->hosts : NULL;
    for (long r = 0; remote && r < l->sim_cores; r++)
        if (l->rank_host[r] != l->dtl_host[r]) {
            remote[l->dtl_host[r]]++;
            sent[l->rank_host[r]]++;
        }
    for (long r = 0; remote && r < l->sim_cores; r++)
        if (l->rank_host[r] != l->dtl_host[r] && sent[l->rank_host[r]] > feed[l->dtl_host[r]])
            feed[l->dtl_host[r]] = sent[l->rank_host[r]];
    double worst = -1;
    *out = (struct ana_step){0};
    for (int h = 0; h < l->hosts; h++) {
        if (!l->ana_per_host[h] || !l->dtl_load[h])
            continue;
        double chunks = ceil((double)l->dtl_load[h] / l->ana_per_host[h]);
        double retrieval = 0;
        if (!queue) {
            /* Sources on this host come over the loopback; remote ones share the host's link
             * with every actor of the host fetching at the same time, and a sender's link with
             * every state it sends: when analytics hosts outnumber simulation hosts, the
             * sender sets the pace. */
            bool far = !remote || remote[h] > 0;
            int src = far ? (h + 1) % l->hosts : h;
            double sharers = far ? fmin(l->ana_per_host[h], l->dtl_load[h]) : 1;
            retrieval = chunks * model_transfer_time(pf, src, h, chunk_bytes, sharers);
            if (far && feed && feed[h] > 0)
                retrieval =
                    fmax(retrieval, model_transfer_time(pf, src, h, feed[h] * chunk_bytes, 1));
        }
        /* The collector needs every host's metrics: the host whose chain ends last, its
         * metrics message included, sets the pace. */
        double w = queue ? 0 : model_transfer_time(pf, h, l->collector_host, METRIC_BYTES, 1);
        /* In situ, the simulation's halos cross the node links while the exchange does, from the
         * analysis' end until the simulation's S (both sides start a step together): meanwhile
         * the exchange gets what the halos leave of the link, 1 - halo_load. */
        double start = retrieval + chunks * chunk_compute, x = exchange;
        double rate = 1 - fmin(halo_load, 0.9), window = fmax(0, sim_busy - start);
        if (x > 0 && window > 0)
            x = x <= window * rate ? x / rate : x + window * (1 - rate);
        double t = start + x + w;
        if (t > worst) {
            worst = t;
            *out = (struct ana_step){
                .R = retrieval, .A = chunks * chunk_compute + x, .W = w, .chunks = chunks};
        }
    }
    free(remote);
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
    for (int h = 0; h < l->hosts; h++) {
        if (!l->ana_per_host[h] || !l->dtl_load[h])
            continue;
        double heard = 0;
        for (long r = 0; r < l->sim_cores; r++)
            if (l->dtl_host[r] == h) {
                heard = fmax(heard, model_transfer_time(pf, l->rank_host[r], h, 0, 1));
                remote = remote || l->rank_host[r] != h;
            }
        local = fmax(local, heard);
        end = fmax(end, heard + model_transfer_time(pf, h, l->collector_host, 0, 1));
    }
    /* Across the network the last actor to stop is a remote one: two hops. In situ every actor
     * hears over its loopback at once, and which one stops last (so whether its message to the
     * collector crosses the network) depends on the order SimGrid wakes them: counted local,
     * which holds at the default sizes, not in every latency-bound run (README). */
    return remote ? end : local;
}

void model_eval(const struct params *p, const struct platform *pf, const struct layout *l,
                const struct analytics_profile *prof, struct model_result *m)
{
    double f = REFERENCE_SPEED / pf->speed;
    bool queue = p->dtl == DTL_QUEUE;

    memset(m, 0, sizeof *m);
    m->particles = layout_particles(p);
    m->sim_cores = l->sim_cores;
    m->ana_cores = l->ana_cores;
    m->sim_nodes = l->sim_nodes;
    m->ana_nodes = l->ana_nodes;
    m->nodes_used = l->nodes_used;
    m->steps = p->iterations / p->stride;
    m->tail_iterations = p->iterations - m->steps * p->stride;

    double per_rank = m->particles / l->sim_cores;
    double iteration = per_rank * p->sim_cost * f;
    /* Halo exchanges happen every halo_period iterations: counted, not averaged (a short run may
     * have none), and spread over the steps. */
    long analysed = m->steps * p->stride;
    double exchanges = m->steps ? (double)(analysed / p->halo_period) / m->steps
                                : (double)p->stride / p->halo_period;
    long tail_halos = p->iterations / p->halo_period - analysed / p->halo_period;
    double halo_off = 0; /* off-node halo bytes of the busiest host, one exchange */
    double one_halo = halo_exchange_time(p, pf, l, &halo_off);
    m->halo = exchanges * one_halo;

    struct stages *st = &m->stage;
    st->S = p->stride * iteration + m->halo;
    st->Ing = 0; /* fire-and-forget: the retrieval pays for the transfer */
    /* Metrics back to the ranks: the slowest copy is the one that leaves the collector's node. */
    if (!queue) {
        int far = l->collector_host;
        for (int h = 0; h < l->hosts; h++)
            if (l->sim_per_host[h] && h != l->collector_host)
                far = h;
        st->C = model_transfer_time(pf, l->collector_host, far, METRIC_BYTES, 1);
    }
    double sim_side = st->S + st->Ing;
    /* Seconds of one step that the off-node halos keep the busiest node link busy, both ways at
     * once (as the exchange's), during S: on hosts that run analytics actors too (in situ), they
     * slow the analytics' exchange down. */
    bool shared = false;
    for (int h = 0; h < l->hosts; h++)
        shared = shared || (l->ana_per_host[h] && l->dtl_load[h] && l->sim_per_host[h]);
    double halo_busy =
        shared ? exchanges * halo_off * NET_CROSSTRAFFIC / (pf->bw * NET_BANDWIDTH_FACTOR) : 0;

    /* Each class of steps runs at its own period; the run is their sum. A rank fetches its
     * copy of the metrics when it needs them, before its next put (C_{i-1} -> Ing_i), and the
     * fetch is a rendezvous: C is on the rank's path whichever side is slower, so it follows
     * the max rather than joining the analytics side in it. */
    double steps_total = 0, busy_ana = 0, period_sum = 0, R = 0, A = 0, W = 0, last_ana = 0;
    for (int k = 0; k < prof->nclasses; k++) {
        struct ana_step a;
        analytics_step(p, pf, l, &prof->classes[k].v, sim_side,
                       sim_side > 0 ? halo_busy / sim_side : 0, &a);
        double n = (double)prof->classes[k].count;
        period_sum += n * (fmax(sim_side, a.R + a.A + a.W) + st->C);
        busy_ana += n * (a.R + a.A);
        R += n * a.R;
        A += n * a.A;
        W += n * a.W;
        steps_total += n;
        m->chunks = fmax(m->chunks, a.chunks);
        if (prof->step_class ? prof->step_class[prof->steps - 1] == k : k == 0)
            last_ana = a.R + a.A + a.W + st->C;
    }
    if (steps_total > 0) {
        st->R = R / steps_total;
        st->A = A / steps_total;
        st->W = W / steps_total;
    }
    double ana_side = st->R + st->A + st->W + st->C;
    double tail = m->tail_iterations * iteration + tail_halos * one_halo;
    m->sim_active = m->steps * sim_side + tail;
    m->sim_idle = fmax(0, period_sum - m->steps * sim_side);
    m->ana_active = busy_ana;
    m->ana_idle = fmax(0, period_sum - busy_ana);
    m->makespan_eq5 = period_sum + tail;
    /* The pipeline's fill and drain: the first step's analysis cannot start before its S, and
     * the last step's shorter side is overlapped by nothing but the tail's iterations, which
     * the ranks compute meanwhile. */
    double drain = m->steps ? fmax(0, fmin(sim_side, last_ana) - tail) : 0;
    m->makespan = m->makespan_eq5 + drain + run_end(p, pf, l);
    m->efficiency = model_efficiency(sim_side, ana_side);
    m->scenario = model_scenario(sim_side, ana_side);
}
