/* The simulation's side of the model: the halo exchange of each class of steps, its time on the
 * platform's links, and the advisor's memo of it (model_halo.h). */
#include "model_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Time of one halo exchange: every rank sends its faces at once, each message over its route.
 * Messages share the shared links of their routes (the busiest link of a message's route sets
 * its pace); a FATPIPE (the loopback) carries each at full speed. *busy: seconds the busiest
 * shared link is busy; *cut: the cut's unevenness. */
/* One flow per pair of hosts: its messages' bytes summed, its largest message kept for a
 * FATPIPE. */
struct halo_flow {
    int from, to;
    double bytes, largest;
    unsigned faces; /* bits: the faces it sends (its largest message is the largest of those) */
};

static double halo_exchange_time(const struct sim_profile *sim, const struct platform *pf,
                                 const struct layout *l, double *busy, struct halo_cut *cut)
{
    const double *face = sim->face;
    /* One flow per pair of hosts: ranks in order walk the decomposition x fastest, so the
     * neighbours follow from (x, y, z) without layout_neighbour's divisions (this loop is most of
     * an advisor's search). A host's flows are contiguous in flow[]. */
    struct halo_flow *flow = malloc(sizeof *flow * (6 * (size_t)l->sim_cores + 1));
    long nflows = 0, plane = (long)l->px * l->py, first = 0;
    int x = 0, y = 0, z = 0;
    /* slot[to]: the flow of the current host to host `to` (-1: none yet). The bytes of the flow
     * being added to are kept in a register (cur_bytes) and written back when another one's
     * turn comes: each flow's bytes add up in the same order, without a store and a load
     * between two additions (the loop's pace). */
    long *slot = malloc(sizeof *slot * (size_t)l->hosts), cur = -1;
    double cur_bytes = 0;
    for (int h = 0; slot && h < l->hosts; h++)
        slot[h] = -1;
    /* Off-node bytes: the least and most [0, 2 hosts) of the ranks that send host h their
     * states, and [2 hosts, 4 hosts) of the ranks on host h. */
    int H = l->hosts;
    double *off = malloc(4 * (size_t)H * sizeof *off);
    for (int h = 0; off && h < 2 * H; h++)
        off[2 * h] = INFINITY, off[2 * h + 1] = -1;
    for (long r = 0; flow && slot && r < l->sim_cores; r++) {
        int h = l->rank_host[r];
        if (r > 0 && l->rank_host[r - 1] != h) {
            for (long f = first; f < nflows; f++)
                slot[flow[f].to] = -1;
            first = nflows;
        }
        /* Past a boundary that does not wrap, the neighbour is the rank itself: none. */
        int b = l->bounded;
        const long nbs[6] = {r - x + (x + 1 == l->px ? (b ? x : 0) : x + 1),
                             r - x + (x == 0 ? (b ? x : l->px - 1) : x - 1),
                             r + ((y + 1 == l->py ? (b ? y : 0) : y + 1) - y) * (long)l->px,
                             r + ((y == 0 ? (b ? y : l->py - 1) : y - 1) - y) * (long)l->px,
                             r + ((z + 1 == l->pz ? (b ? z : 0) : z + 1) - z) * plane,
                             r + ((z == 0 ? (b ? z : l->pz - 1) : z - 1) - z) * plane};
        if (++x == l->px && (x = 0, ++y == l->py))
            y = 0, z++;
        double sent_off = 0;
        for (int k = 0; k < 6; k++) {
            if (nbs[k] == r)
                continue;
            int to = l->rank_host[nbs[k]];
            sent_off += to != h ? face[k / 2] : 0;
            long f = slot[to];
            if (f < 0) {
                f = slot[to] = nflows;
                flow[nflows++] = (struct halo_flow){h, to, 0, 0, 0};
            }
            if (f != cur) {
                if (cur >= 0)
                    flow[cur].bytes = cur_bytes;
                cur = f, cur_bytes = flow[f].bytes;
            }
            cur_bytes += face[k / 2];
            flow[f].faces |= 1u << (k / 2);
        }
        int at[2] = {l->dtl_host[r] != h ? l->dtl_host[r] : -1, H + h};
        for (int k = 0; off && k < 2; k++)
            if (at[k] >= 0) {
                off[2 * at[k]] = min2(off[2 * at[k]], sent_off);
                off[2 * at[k] + 1] = max2(off[2 * at[k] + 1], sent_off);
            }
    }
    if (cur >= 0)
        flow[cur].bytes = cur_bytes;
    free(slot);
    /* max2 over the same faces in another order than they were sent: the same largest */
    for (long f = 0; flow && f < nflows; f++)
        for (int d = 0; d < 3; d++)
            if (flow[f].faces & 1u << d)
                flow[f].largest = max2(flow[f].largest, face[d]);
    cut->ranks = false;
    for (int h = 0; h < 2 * H; h++) {
        bool differ = off && off[2 * h + 1] > off[2 * h] * (1 + 1e-9);
        if (h < H && cut->states)
            cut->states[h] = differ;
        cut->ranks = cut->ranks || (h >= H && differ);
    }
    free(off);
    struct model_net net;
    double worst = 0;
    model_net_init(&net, pf);
    for (long f = 0; flow && f < nflows; f++)
        model_net_flow(&net, flow[f].from, flow[f].to, flow[f].bytes);
    for (long f = 0; flow && f < nflows; f++) /* a shared link's load, a FATPIPE's largest */
        worst = max2(worst, model_net_time(&net, flow[f].from, flow[f].to, flow[f].largest));
    *busy = model_net_busiest(&net);
    model_net_free(&net);
    free(flow);
    return worst;
}

/* ---- the memo of the halo exchange (model.h) ---- */

struct model_memo {
    bool valid;
    /* the inputs: the platform, the halo's bytes, the layout's ranks */
    const struct platform *pf;
    double face[3];
    long sim_cores;
    int hosts, px, py, pz;
    bool bounded;
    int *rank_host, *dtl_host; /* [sim_cores] */
    long cap;
    int collector_host;
    int *ana_per_host; /* [hosts] */
    /* the outputs */
    double worst, busy;
    bool ranks, states_ok;
    bool *states; /* [hosts] */
    int states_cap;
    double end; /* run_end's over the network (the mailbox DTL), if end_ok */
    bool end_ok;
    struct ana_geometry geo; /* the analytics hosts' (model_internal.h), if geo.ok */
};

struct model_memo *model_memo_new(void)
{
    return calloc(1, sizeof(struct model_memo));
}

void model_memo_forget(struct model_memo *memo)
{
    if (memo)
        memo->valid = false;
}

void model_memo_free(struct model_memo *memo)
{
    if (!memo)
        return;
    free(memo->rank_host);
    free(memo->dtl_host);
    free(memo->states);
    free(memo->ana_per_host);
    free(memo->geo.host);
    free(memo);
}

static bool memo_holds(const struct model_memo *c, const struct sim_profile *sim,
                       const struct platform *pf, const struct layout *l, bool want_states)
{
    size_t ranks = sizeof(int) * (size_t)l->sim_cores;
    return c->valid && c->pf == pf && !memcmp(c->face, sim->face, sizeof c->face) &&
           c->sim_cores == l->sim_cores && c->hosts == l->hosts && c->px == l->px &&
           c->py == l->py && c->pz == l->pz && c->bounded == l->bounded &&
           c->collector_host == l->collector_host && (c->states_ok || !want_states) &&
           !memcmp(c->rank_host, l->rank_host, ranks) && !memcmp(c->dtl_host, l->dtl_host, ranks) &&
           !memcmp(c->ana_per_host, l->ana_per_host, sizeof(int) * (size_t)l->hosts);
}

/* halo_exchange_time through the memo, if any. */
static double halo_memo(struct model_memo *c, const struct sim_profile *sim,
                        const struct platform *pf, const struct layout *l, double *busy,
                        struct halo_cut *cut)
{
    if (c && memo_holds(c, sim, pf, l, cut->states != NULL)) {
        if (cut->states)
            memcpy(cut->states, c->states, sizeof *cut->states * (size_t)l->hosts);
        cut->ranks = c->ranks;
        *busy = c->busy;
        return c->worst;
    }
    double worst = halo_exchange_time(sim, pf, l, busy, cut);
    if (!c)
        return worst;
    c->valid = false;
    if (l->sim_cores > c->cap) {
        free(c->rank_host);
        free(c->dtl_host);
        c->cap = l->sim_cores;
        c->rank_host = malloc(sizeof(int) * (size_t)c->cap);
        c->dtl_host = malloc(sizeof(int) * (size_t)c->cap);
    }
    if (l->hosts > c->states_cap) {
        free(c->states);
        free(c->ana_per_host);
        c->states_cap = l->hosts;
        c->states = malloc(sizeof(bool) * (size_t)c->states_cap);
        c->ana_per_host = malloc(sizeof(int) * (size_t)c->states_cap);
    }
    if (!c->rank_host || !c->dtl_host || !c->states || !c->ana_per_host) { /* no memo */
        c->cap = c->states_cap = 0;
        return worst;
    }
    memcpy(c->rank_host, l->rank_host, sizeof(int) * (size_t)l->sim_cores);
    memcpy(c->dtl_host, l->dtl_host, sizeof(int) * (size_t)l->sim_cores);
    memcpy(c->face, sim->face, sizeof c->face);
    memcpy(c->ana_per_host, l->ana_per_host, sizeof(int) * (size_t)l->hosts);
    c->collector_host = l->collector_host;
    c->end_ok = false;
    c->geo.ok = false;
    c->states_ok = cut->states != NULL;
    if (c->states_ok)
        memcpy(c->states, cut->states, sizeof(bool) * (size_t)l->hosts);
    c->pf = pf;
    c->sim_cores = l->sim_cores;
    c->hosts = l->hosts;
    c->px = l->px, c->py = l->py, c->pz = l->pz;
    c->bounded = l->bounded;
    c->worst = worst;
    c->busy = *busy;
    c->ranks = cut->ranks;
    c->valid = true;
    return worst;
}

struct ana_geometry *model_memo_geometry(struct model_memo *memo)
{
    return memo && memo->valid ? &memo->geo : NULL;
}

bool model_memo_end(const struct model_memo *memo, double *end)
{
    if (!memo || !memo->valid || !memo->end_ok)
        return false;
    *end = memo->end;
    return true;
}

void model_memo_keep_end(struct model_memo *memo, double end)
{
    if (memo && memo->valid)
        memo->end = end, memo->end_ok = true;
}

int model_sim_sides(const struct params *p, const struct platform *pf, const struct layout *l,
                    const struct analytics_profile *prof, double f, struct model_memo *memo,
                    struct face_memo *faces, struct sim_side *side)
{
    long steps = p->iterations / p->stride, T = p->stride;
    int nm = 0;
    for (int k = 0; k < prof->nclasses; k++) {
        const struct sim_profile *sim = &prof->classes[k].sim;
        struct sim_side *sd = &side[k];
        long H = sim->halo_period, n = prof->classes[k].count, count = 0;
        /* Halo exchanges happen every halo_period iterations: counted, not averaged (a short
         * run may have none), and spread over the class's steps. */
        if (!prof->step_class)
            sd->exchanges = steps ? (double)(steps * T / H) / steps : (double)T / H;
        else {
            for (long i = 0; i < steps; i++)
                if (prof->step_class[i] == k)
                    count += (i + 1) * T / H - i * T / H;
            sd->exchanges = n ? (double)count / n : 0;
        }
        int m = nm - 1;
        while (m >= 0 && memcmp(faces[m].face, sim->face, sizeof faces[m].face))
            m--;
        if (m < 0) {
            m = nm++;
            memcpy(faces[m].face, sim->face, sizeof faces[m].face);
            if (!(faces[m].apart = calloc((size_t)l->hosts, sizeof *faces[m].apart)))
                return -1;
            struct halo_cut cut = {faces[m].apart, false};
            faces[m].one = halo_memo(memo, sim, pf, l, &faces[m].link, &cut);
            faces[m].ranks = cut.ranks;
        }
        sd->one_halo = faces[m].one;
        sd->halo_link = faces[m].link;
        sd->ranks = faces[m].ranks;
        sd->apart = p->iterations >= H ? faces[m].apart : NULL; /* no exchange, nothing apart */
        sd->halo = sd->exchanges * sd->one_halo;
        sd->S = T * (sim->cost * f) + sd->halo;
    }
    return 0;
}
