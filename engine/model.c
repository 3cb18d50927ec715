#include "model.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analytics.h"

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
                                 const struct layout *l)
{
    static const int dirs[6][3] = {{1, 0, 0},  {-1, 0, 0}, {0, 1, 0},
                                   {0, -1, 0}, {0, 0, 1},  {0, 0, -1}};
    double face[3];
    for (int d = 0; d < 3; d++)
        face[d] = layout_face_bytes(p, l, d);
    double worst = 0;
    double host_off = 0, host_on_max = 0;
    int host = l->sim_cores ? l->rank_host[0] : 0;
    for (long r = 0; r <= l->sim_cores; r++) {
        if (r == l->sim_cores || l->rank_host[r] != host) {
            double off =
                host_off > 0 ? model_transfer_time(pf, 0, 1, host_off, NET_CROSSTRAFFIC) : 0;
            double on = host_on_max > 0 ? model_transfer_time(pf, host, host, host_on_max, 1) : 0;
            worst = fmax(worst, fmax(off, on));
            if (r == l->sim_cores)
                break;
            host = l->rank_host[r];
            host_off = host_on_max = 0;
        }
        for (int k = 0; k < 6; k++) {
            long nb = layout_neighbour(l, r, dirs[k][0], dirs[k][1], dirs[k][2]);
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

/* The model for given analytics values (the built-in's or a Lua file's, at step 0: the model
 * assumes every step costs the same, as the paper's section 5.1 does). */
static void model_eval_values(const struct params *p, const struct platform *pf,
                              const struct layout *l, const struct analytics_value *av,
                              struct model_result *m)
{
    double f = REFERENCE_SPEED / pf->speed; /* reference seconds -> seconds on this platform */
    bool queue = p->dtl == DTL_QUEUE;

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
    double exchanges = (double)p->stride / p->halo_period;
    m->halo = exchanges * halo_exchange_time(p, pf, l);

    struct stages *st = &m->stage;
    st->S = p->stride * iteration + m->halo;
    st->Ing = 0; /* fire-and-forget: the retrieval pays for the transfer */

    /* The critical analytics host: the one whose actors take longest per step. */
    double chunk_bytes = av->bytes / l->sim_cores;
    double chunk_compute = av->cost / l->sim_cores * f;
    /* The analytics actors' exchange follows each analysis: part of A (law in analytics.h). */
    double exchange = analytics_exchange_time(pf, l, av);
    /* remote[h]: states h receives over the network; out[s]: states s sends over it; feed[h]:
     * the most any one sender of h sends (that sender's link carries all of it at once). */
    int *remote = calloc(3 * (size_t)l->hosts, sizeof(int));
    int *out = remote ? remote + l->hosts : NULL, *feed = remote ? out + l->hosts : NULL;
    for (long r = 0; remote && r < l->sim_cores; r++)
        if (l->rank_host[r] != l->dtl_host[r]) {
            remote[l->dtl_host[r]]++;
            out[l->rank_host[r]]++;
        }
    for (long r = 0; remote && r < l->sim_cores; r++)
        if (l->rank_host[r] != l->dtl_host[r] && out[l->rank_host[r]] > feed[l->dtl_host[r]])
            feed[l->dtl_host[r]] = out[l->rank_host[r]];
    double worst = -1;
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
        double t = retrieval + chunks * chunk_compute + exchange + w;
        if (t > worst) {
            worst = t;
            m->chunks = chunks;
            st->R = retrieval;
            st->A = chunks * chunk_compute + exchange;
            st->W = w;
        }
    }
    free(remote);
    /* Metrics back to the ranks: the slowest copy is the one that leaves the collector's node. */
    st->C = 0;
    if (!queue) {
        int far = l->collector_host;
        for (int h = 0; h < l->hosts; h++)
            if (l->sim_per_host[h] && h != l->collector_host)
                far = h;
        st->C = model_transfer_time(pf, l->collector_host, far, METRIC_BYTES, 1);
    }

    double sim_side = st->S + st->Ing;
    double ana_side = st->R + st->A + st->W + st->C;
    /* A rank fetches its copy of the metrics when it needs them, before its next put (C_{i-1}
     * -> Ing_i), and the fetch is a rendezvous: C is on the rank's path whichever side is
     * slower, so it follows the max rather than joining the analytics side in it. */
    double period = fmax(sim_side, st->R + st->A + st->W) + st->C;
    double tail = m->tail_iterations * iteration +
                  (double)m->tail_iterations / p->halo_period * (m->halo / exchanges);
    m->sim_active = m->steps * sim_side + tail;
    m->sim_idle = m->steps * (period - sim_side);
    m->ana_active = m->steps * (st->R + st->A);
    m->ana_idle = m->steps * (period - st->R - st->A);
    m->makespan = m->steps * period + tail;
    m->makespan_pipeline = m->makespan + (m->steps ? fmin(sim_side, ana_side) : 0);
    m->efficiency = model_efficiency(sim_side, ana_side);
    m->scenario = model_scenario(sim_side, ana_side);
}

void model_eval(const struct params *p, const struct platform *pf, const struct layout *l,
                struct model_result *m)
{
    struct analytics_ctx c;
    struct analytics_value av;
    char err[512];
    analytics_ctx_init(&c, p, l, 0);
    if (analytics_eval(p, &c, &av, err, sizeof err) == 0) {
        model_eval_values(p, pf, l, &av, m);
        return;
    }
    /* No error channel here: a broken analytics file gives no numbers (model_run says why). */
    memset(m, 0, sizeof *m);
    m->makespan = m->makespan_pipeline = m->efficiency = NAN;
}

int model_run(const struct params *p, struct model_result *m, char *err, size_t errlen)
{
    struct platform pf;
    struct layout l;
    if (params_validate(p, err) < 0)
        return -1;
    if (platform_load(p->platform, &pf, err, errlen) < 0)
        return -1;
    int rc = layout_build(p, &pf, &l, err, errlen);
    if (rc == 0) {
        struct analytics_ctx c;
        struct analytics_value av;
        analytics_ctx_init(&c, p, &l, 0);
        rc = analytics_eval(p, &c, &av, err, errlen);
        if (rc == 0)
            model_eval_values(p, &pf, &l, &av, m);
        layout_free(&l);
    }
    platform_free(&pf);
    return rc;
}
