/* What model*.c share and nobody else needs: the simulation's side (model_halo.c: each class of
 * steps' S, the halo exchange that is part of it, the advisor's memo of that exchange, model.h's
 * struct model_memo) and a route's latency (model_net.c). Pure, as model.c. */
#ifndef SITU_MODEL_INTERNAL_H
#define SITU_MODEL_INTERNAL_H

#include <stdbool.h>

#include "model.h"

/* fmax and fmin as glibc computes them on x86-64 (maxsd/minsd: on a tie, the second; a NaN
 * loses to a number), inlined: libm's calls were an eighth of an advisor's search. */
static inline double max2(double a, double b)
{
    double m = a > b ? a : b; /* maxsd, no branch */
    return b != b ? a : m;
}

static inline double min2(double a, double b)
{
    double m = a < b ? a : b;
    return b != b ? a : m;
}

/* A route remembered per host for the last other end asked (from[h] < 0: none yet): the ranks
 * of one host, in order, send to the same hosts, so that most of a pass over the ranks finds
 * its routes here rather than in the platform's table (a third of a map's layout). */
struct route_memo {
    int other, n;
    const int *links;
    double lat; /* its latency, once asked (model.c); < 0: not yet */
};

/* The route a -> b through c[b] (c: [hosts], other = -1 at first). */
static inline const int *route_to(const struct platform *pf, struct route_memo *c, int a, int b,
                                  int *n)
{
    struct route_memo *e = &c[b];
    if (e->other != a) {
        e->links = platform_route(pf, a, b, &e->n);
        e->other = a;
        e->lat = -1;
    }
    *n = e->n;
    return e->links;
}

/* The same for b -> a, through c[b]. */
static inline const int *route_from(const struct platform *pf, struct route_memo *c, int a, int b,
                                    int *n)
{
    struct route_memo *e = &c[b];
    if (e->other != a) {
        e->links = platform_route(pf, b, a, &e->n);
        e->other = a;
    }
    *n = e->n;
    return e->links;
}

/* model_net_flow's a -> b over routes already found (there and back). */
void model_net_flow_on(struct model_net *net, const int *there, int nthere, const int *back,
                       int nback, double bytes);

/* Seconds of latency of the route a -> b (0 when unknown): model_net.c. */
double model_route_latency(const struct platform *pf, int a, int b);

/* Where the nodes cut the decomposition unevenly: ranks that send different halo bytes off their
 * node end their exchanges at different dates. */
struct halo_cut {
    bool *states; /* [hosts] or NULL: the ranks that send host h their states over the network
                   * differ so (their states leave apart) */
    bool ranks;   /* some node's ranks differ so (they drift out of step) */
};

/* The simulation's side of each class of steps (profile.h): its S, and what the analytics' side
 * needs of its halos. Classes with the same faces share one halo computation (memo). */
struct sim_side {
    double S, halo, one_halo, halo_link, exchanges;
    const bool *apart; /* NULL: no drift range */
    bool ranks;        /* the cut is uneven (halo_cut) */
};

struct face_memo {
    double face[3], one, link;
    bool ranks, *apart;
};

/* Each class's S into side[] (prof->nclasses); -1 if out of memory. memo[nclasses] is the
 * caller's to free. */
int model_sim_sides(const struct params *p, const struct platform *pf, const struct layout *l,
                    const struct analytics_profile *prof, double f, struct model_memo *memo,
                    struct face_memo *faces, struct sim_side *side);

/* One loaded analytics host's part of a step that the layout, the DTL and a state's bytes fix
 * (model.c's analytics_geometry): its retrieval R, its metrics message W, its actors' shares
 * (model_actor_shares), the drift's floor (its transfers alone, where they come from afar). */
struct ana_host {
    int h;
    bool far;
    double chunks, retrieval, w, share_R, share_A, alone;
    /* How far apart in latency its remote senders' routes are (seconds, as SimGrid pays them).
     * From the second step on, the ranks put their states as the metrics reach them, so a
     * round's transfers come from several nodes: over routes of different lengths they end
     * apart, and the actors' rounds drift as an uneven halo cut makes them (docs/model.md). */
    double route_spread;
};

struct ana_geometry {
    bool ok;
    int dtl;
    double chunk_bytes;
    int n, cap; /* hosts (in host order), room */
    struct ana_host *host;
    int inbound; /* inbound_links */
};

/* The geometry that memo keeps for its layout (valid while the memo holds the layout that
 * model_sim_sides was last given: a new one clears it); NULL without a memo. */
struct ana_geometry *model_memo_geometry(struct model_memo *memo);

/* The run's end (model.c's run_end) kept in memo while it holds the same layout: *end and true
 * if it has one. memo may be NULL. */
bool model_memo_end(const struct model_memo *memo, double *end);
void model_memo_keep_end(struct model_memo *memo, double end);

/* The analytics side of one step whose analysis is av: R, A and W of the critical host. */
struct ana_step {
    double R, A, W, chunks;
    double active;  /* R + A over all the analytics cores, per core: some take fewer states */
    double drifted; /* the same should the actors' rounds drift apart (model.h) */
    int inbound;    /* most links one host receives remote states over */
    bool routes;    /* the drift range comes from the routes' spread alone, not the halos */
    /* an analytics host whose actors take several states each gets them over routes of different
     * lengths (whatever else parts the actors): merged transfers would end together */
    bool routes_apart;
};

/* The analytics side of one step (model_ana.c): av's R, A and W on the host that sets the pace,
 * given the simulation side's busy time, its halo load, which classes' rounds stay apart and
 * the ranks' spread; the layout's part is kept in memo (NULL: none). -1 when out of memory. */
int model_analytics_step(const struct params *p, const struct platform *pf, const struct layout *l,
                         const struct analytics_value *av, double sim_busy, double halo_load,
                         const bool *apart, double spread, struct model_memo *memo,
                         struct ana_step *out);

/* What the run's end adds after the last step: the last states' way to the analytics and the
 * collector's messages (model_ana.c). */
double model_run_end(const struct params *p, const struct platform *pf, const struct layout *l);

#endif
