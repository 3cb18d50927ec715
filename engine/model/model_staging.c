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

/* One state's transfer, k in flight: seconds per state of service, the host's share of its
 * busiest link or its time alone, whichever is longer. 0 for empty states (zero bytes cross in
 * no time): the loop below then lands every transfer in flight at once, and never divides. */
static double queue_seconds(const struct queue_in *q, long k)
{
    return fmax(q->beta1, (double)k * q->beta);
}

/* The queue's event loop. It ends whatever the input: every turn handles at least one of the
 * 3L events (a latency ends, a transfer lands, an analysis ends), each exactly once, because the
 * event that set the turn's date is taken as happened whatever floating point says (a transfer
 * of 1e-300 s at t = 1 s leaves t and the service where they were: waiting for them to move
 * looped for ever). A turn that handles none breaks the proof: -1, never a hang. -1 also when
 * out of memory. */
static int queue_run(const struct queue_in *q, struct queue_out *o)
{
    long L = q->L;
    if (!(q->a >= 0) || !(q->lat >= 0) || !(q->beta >= 0) || !(q->beta1 >= 0) || !isfinite(q->a) ||
        !isfinite(q->lat) || !isfinite(q->beta) || !isfinite(q->beta1) || q->n < 1 || L < 0)
        return -1; /* the model's inputs are checked where they enter: never seen */
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
    int rc = 0;
    for (long turns = 0; taken < L || nb > 0; turns++) {
        if (turns > 3 * L + 1) { /* more turns than events: the proof above is broken */
            rc = -1;
            break;
        }
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
        long k = active - done;
        double per = k ? queue_seconds(q, k) : 0;
        double latency = active < admitted ? put[active] + q->lat : INFINITY;
        double lands = k ? t + fmax(0, 1 - (V - v0[done])) * per : INFINITY;
        double ends = nb ? busy[bh] : INFINITY;
        double next = fmin(latency, fmin(lands, ends));
        if (!isfinite(next))
            break; /* nothing left to happen (L = 0) */
        if (per > 0)
            V += (next - t) / per;
        t = next;
        int events = 0;
        /* The transfers in flight before this turn, [done, done + k), land in order: the head
         * if its date set the turn's (its service then exactly done, whatever rounding left:
         * the others in flight got as much), any whose service is done, all of them when they
         * take no time. Then the latencies that end start their transfers. */
        long flying = done + k;
        bool head_due = k && next == lands;
        while (done < flying && (head_due || per == 0 || 1 - (V - v0[done]) <= 1e-9)) {
            if (head_due)
                V = fmax(V, v0[done] + 1);
            head_due = false;
            arr[done++] = t, events++;
        }
        while (active < admitted && put[active] + q->lat <= t + 1e-15)
            v0[active++] = V, events++;
        while (nb && busy[bh] <= t + 1e-15) { /* an analysis ends: its state's room is free */
            int j = bwho[bh];
            bh = (bh + 1) % q->n, nb--;
            ask[j] = t;
            freeq[(fh + nf) % q->n] = j, nf++;
            slots++;
            o->end = t;
            events++;
        }
        if (!events) { /* a turn that moved nothing would loop: never seen */
            rc = -1;
            break;
        }
    }
    free(put), free(v0), free(arr), free(busy), free(who);
    return rc;
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

int model_staging_step(const struct platform *pf, const struct layout *l,
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
    int rc = route_sum && load ? 0 : -1;
    for (int h = 0; rc == 0 && h < l->hosts; h++) {
        if (!l->ana_per_host[h] || !l->dtl_load[h])
            continue;
        struct queue_in q = {.L = l->dtl_load[h], .n = l->ana_per_host[h]};
        q.c = chunk > 0 ? (long)fmin(floor(memory / chunk), (double)q.L) : q.L;
        q.c = q.c < 1 ? 1 : q.c;
        q.a = v->cost / l->sim_cores * REFERENCE_SPEED / pf->host[h].speed;
        q.lat = route_sum[h] / q.L; /* the mean route's */
        q.beta1 = alone[h];         /* 0 for empty states: they cross in no time */
        q.beta = fmax(busiest[h] / q.L, q.beta1 / q.L);
        struct queue_out o;
        if ((rc = queue_run(&q, &o)) < 0)
            break; /* out of memory: no figure rather than one without this host */
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
    return rc;
}
