/* The staging servers' queue (model.h): per analytics host, the step's states wait for
 * room, cross the network and wait for an actor, in the order they were put. Equal states and
 * equal analyses keep every queue first-in first-out, so one pass over the states, with a few
 * pointers, follows it exactly. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "model.h"

/* One host's queue. L states, c of them in memory at most, n actors taking a seconds each. A
 * transfer takes lat, then shares the host's bandwidth (beta seconds per state, all of them at
 * once) with the others in flight, no faster than alone (beta1). */
struct queue_in {
    long L, c;
    int n;
    double a, lat, beta, beta1;
};

struct queue_out {
    double end;      /* the last analysis' end */
    double last_put; /* when the last state got room */
    double puts;     /* the sum of the states' waits for room */
    double R;        /* the actors' waits for states put before they asked, summed */
};

static int queue_run(const struct queue_in *q, struct queue_out *o)
{
    long L = q->L;
    double *put = malloc(sizeof(double) * (size_t)(L ? L : 1));
    double *v0 = malloc(sizeof(double) * (size_t)(L ? L : 1)); /* service done when it began */
    double *arr = malloc(sizeof(double) * (size_t)(L ? L : 1));
    double *busy = malloc(sizeof(double) * (size_t)q->n * 2); /* analysis ends, FIFO */
    double *ask = busy ? busy + q->n : NULL;
    int *who = malloc(sizeof(int) * (size_t)q->n * 2), *freeq = who ? who + q->n : NULL;
    if (!put || !v0 || !arr || !busy || !who) {
        free(put), free(v0), free(arr), free(busy), free(who);
        return -1;
    }
    *o = (struct queue_out){0};
    /* Pointers: [done, admitted) in flight, [done, active) past their latency; arrivals
     * [taken, done); busy actors [bh, bh + nb) of the ring, free ones [fh, fh + nf). */
    long admitted = 0, active = 0, done = 0, taken = 0;
    int bh = 0, nb = 0, fh = 0, nf = q->n;
    long slots = q->c;
    double t = 0, V = 0; /* V: the service each transfer in flight got since the start */
    for (int j = 0; j < q->n; j++)
        who[j] = j, freeq[j] = j, ask[j] = -INFINITY;
    int *bwho = who; /* busy ring's actor ids, parallel to busy[] */
    while (taken < L || nb > 0) {
        while (slots > 0 && admitted < L) { /* room: the next put goes in */
            put[admitted] = t;
            o->puts += t;
            o->last_put = t;
            admitted++;
            slots--;
        }
        /* Free actors take the states that have come, in order. */
        while (nf > 0 && taken < done) {
            int j = freeq[fh];
            fh = (fh + 1) % q->n, nf--;
            double r = t - fmax(ask[j], put[taken]);
            o->R += r;
            busy[(bh + nb) % q->n] = t + q->a;
            bwho[(bh + nb) % q->n] = j;
            nb++;
            taken++;
        }
        /* The next event: a latency ends, the head transfer lands, an analysis ends. */
        double next = INFINITY;
        if (active < admitted)
            next = fmin(next, put[active] + q->lat);
        long k = active - done;
        double rate = k ? fmin(1 / q->beta1, 1 / (k * q->beta)) : 0;
        if (k)
            next = fmin(next, t + fmax(0, 1 - (V - v0[done])) / rate);
        if (nb)
            next = fmin(next, busy[bh]);
        if (!isfinite(next))
            break; /* nothing left to happen (L = 0) */
        V += rate * (next - t);
        t = next;
        while (active < admitted && put[active] + q->lat <= t + 1e-15)
            v0[active++] = V;
        while (done < active && 1 - (V - v0[done]) <= 1e-9)
            arr[done++] = t;
        while (nb && busy[bh] <= t + 1e-15) { /* an analysis ends: its state's room is free */
            int j = bwho[bh];
            bh = (bh + 1) % q->n, nb--;
            ask[j] = t;
            freeq[(fh + nf) % q->n] = j, nf++;
            slots++;
            o->end = t;
        }
    }
    free(put), free(v0), free(arr), free(busy), free(who);
    return 0;
}

/* Seconds of `bytes` from host a to b alone (model_transfer_time's law, for one flow). */
static double alone_time(const struct platform *pf, int a, int b, double bytes)
{
    int n;
    const int *route = platform_route(pf, a, b, &n);
    double lat = 0, t = 0;
    for (int k = 0; route && k < n; k++) {
        lat += pf->link[route[k]].lat;
        t = fmax(t, bytes / (pf->link[route[k]].bw * NET_BANDWIDTH_FACTOR));
    }
    return lat * NET_LATENCY_FACTOR + t;
}

void model_staging_step(const struct platform *pf, const struct layout *l,
                        const struct analytics_value *v, double memory, double exchange,
                        struct staging_step *out)
{
    *out = (struct staging_step){0};
    double chunk = v->bytes / l->sim_cores;
    /* Every state's flow at once (and its acknowledgements' 5% back, as model_net_flow): the
     * busiest link of a host's routes sets its bandwidth. */
    double *load = calloc((size_t)pf->nlinks + 1, sizeof *load);
    for (long r = 0; load && r < l->sim_cores; r++) {
        int n, a = l->rank_host[r], b = l->dtl_host[r];
        if (a == b)
            continue;
        const int *route = platform_route(pf, a, b, &n);
        for (int k = 0; route && k < n; k++)
            load[route[k]] += chunk;
        route = platform_route(pf, b, a, &n);
        for (int k = 0; route && k < n; k++)
            load[route[k]] += chunk * (NET_CROSSTRAFFIC - 1);
    }
    /* Per host, over the routes of its states (one pass over the ranks): the latencies' sum, the
     * busiest shared link's load time, one state's time alone. */
    double *route_sum = calloc(3 * (size_t)l->hosts, sizeof *route_sum);
    double *busiest = route_sum ? route_sum + l->hosts : NULL;
    double *alone = route_sum ? busiest + l->hosts : NULL;
    for (long r = 0; route_sum && r < l->sim_cores; r++) {
        int n, h = l->dtl_host[r];
        const int *route = platform_route(pf, l->rank_host[r], h, &n);
        for (int k = 0; route && k < n; k++) {
            const struct platform_link *K = &pf->link[route[k]];
            double bw = K->bw * NET_BANDWIDTH_FACTOR;
            route_sum[h] += K->lat * NET_LATENCY_FACTOR;
            alone[h] = fmax(alone[h], chunk / bw);
            if (K->shared && load)
                busiest[h] = fmax(busiest[h], load[route[k]] / bw);
        }
    }
    double worst = -1, waits = 0;
    for (int h = 0; route_sum && h < l->hosts; h++) {
        if (!l->ana_per_host[h] || !l->dtl_load[h])
            continue;
        struct queue_in q = {.L = l->dtl_load[h], .n = l->ana_per_host[h]};
        q.c = chunk > 0 ? (long)fmin(floor(memory / chunk), (double)q.L) : q.L;
        q.c = q.c < 1 ? 1 : q.c;
        q.a = v->cost / l->sim_cores * REFERENCE_SPEED / pf->host[h].speed;
        q.lat = route_sum[h] / q.L; /* the mean route's */
        q.beta1 = alone[h] > 0 ? alone[h] : 1e-300;
        q.beta = fmax(busiest[h] / q.L, q.beta1 / q.L);
        struct queue_out o;
        if (queue_run(&q, &o) < 0)
            continue; /* out of memory: this host counts for nothing (never seen) */
        double chunks = ceil((double)q.L / q.n), A = chunks * q.a;
        double w = alone_time(pf, h, l->collector_host, METRIC_BYTES);
        out->active += (o.R + q.L * q.a + exchange) / l->ana_cores;
        out->Ing = fmax(out->Ing, o.last_put);
        waits += o.puts;
        if (o.end + exchange + w > worst) {
            worst = o.end + exchange + w;
            out->R = o.end - A;
            out->A = A + exchange;
            out->W = w;
            out->chunks = chunks;
        }
    }
    out->wait = waits / l->sim_cores;
    free(load);
    free(route_sum);
}
