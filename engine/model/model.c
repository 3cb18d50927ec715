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

/* The share of S in halo exchanges from which an uneven cut's drift may move S by 1% or more:
 * measured (4 nodes in transit) 0.6% at 0.09, 1.7% at 0.13, 5 to 7% from 0.3 on; in situ on 6
 * nodes, 0.4% at 0.56. */
#define RANKS_DRIFT_HALO 0.1
/* The least change of analytics active time that the drift range reports. */
#define DRIFT_WORTH 0.01

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
        if (model_analytics_step(p, pf, l, &v, sim_k, sim_k > 0 ? halo_busy / sim_k : 0,
                                 side[k].apart, side[k].one_halo, memo, &a) < 0) {
            m->makespan = m->makespan_eq5 = NAN; /* out of memory (as above) */
            goto done;
        }
        double n = (double)prof->classes[k].count;
        if (p->dtl == DTL_STAGING) { /* the servers' queue in place of the retrieval */
            struct staging_step q;
            if (model_staging_step(pf, l, &v, p->staging_memory, model_exchange_time(pf, l, &v),
                                   &q) < 0) {
                m->makespan = m->makespan_eq5 = NAN; /* as above */
                goto done;
            }
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
        m->routes_drift = m->routes_drift || (a.routes && a.drifted < a.active);
        m->routes_apart = m->routes_apart || a.routes_apart;
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
        end = model_run_end(p, pf, l);
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

const char *model_drift_warning(const char *who, double active, double low, bool ranks, bool routes,
                                bool paced, bool actors_kept, char *buf, size_t len)
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
    else if (routes && !ranks)
        snprintf(buf, len,
                 "%s %s: it keeps the actors in step, but their states come over routes of "
                 "different lengths, which end the actors' transfers apart, so they may drift "
                 "(measured -20%% on a dragonfly, none on a fat-tree); check with --fidelity full",
                 who, what);
    else
        snprintf(buf, len,
                 "%s %s: it keeps each node's ranks%s in step, but the nodes cut the domain "
                 "unevenly, so the ranks end their halo exchanges apart and may drift over the "
                 "shared links (measured up to 20%% on analytics, 7%% on S); check with "
                 "--fidelity full",
                 who, what, actors && actors_kept ? " and the actors" : "");
    return buf;
}

const char *model_warning(const struct model_result *m, char *buf, size_t len)
{
    char drift[448];
    model_drift_warning("the model's", m->ana_active, m->ana_active_drifted, m->ranks_drift,
                        m->routes_drift, m->scenario == SCENARIO_IS, true, drift, sizeof drift);
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
