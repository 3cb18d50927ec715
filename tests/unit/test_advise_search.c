/* The advisor's search (advise_run) against the model of each of its points alone: what a search
 * keeps from one point to the next (its last layout, the memo of its analytics hosts, the axes
 * it does not set again) must never change a result, and its ranking and front must be what
 * their definitions give. The grids move the platform (one without disks, where dtl=file cannot
 * be), the mapping, the nodes, the ratio, the DTL and a state's bytes, slowest or fastest. */
#include <criterion/criterion.h>
#include <string.h>

#include "../../engine/model/advise.h"

static const char *const platforms[2] = {"platforms/dahu.xml", "platforms/dahu-pfs.xml"};

/* Each point's metrics by advise_model_on on its own (no memo, a layout of its own). */
static void same_as_alone(const struct advise *a, struct platform *pf)
{
    for (long i = 0; i < a->n; i++) {
        struct params p;
        char err[512];
        cr_assert_eq(advise_params(a, i, &p, err), 0, "%s", err);
        int k = strstr(p.platform, "dahu-pfs") ? 1 : 0;
        struct model_result m;
        bool valid = advise_model_on(&pf[k], profile_source_builtin, &p, &m, err, sizeof err) == 0;
        cr_assert_eq(a->cands[i].valid, valid, "point %ld: valid %d in the search, %d alone (%s)",
                     i, a->cands[i].valid, valid, valid ? "" : err);
        if (!valid)
            continue;
        struct advise_metrics alone;
        advise_metrics_from_model(&p, &m, &alone);
        cr_assert(!memcmp(&alone, &a->cands[i].model, sizeof alone),
                  "point %ld: makespan %.17g in the search, %.17g alone", i,
                  a->cands[i].model.makespan, alone.makespan);
    }
}

/* The ranking: every feasible point that is not a repeat, best first, ties in grid order. The
 * front: those that no other such point is at least as good as on makespan and core-hours and
 * better on one of them (every point checked against every other). */
static void ranked_and_front(const struct advise *a)
{
    bool max = advise_maximise(a->objective);
    long listed = 0;
    for (long i = 0; i < a->n; i++)
        listed += a->cands[i].feasible && !a->cands[i].repeat;
    cr_assert_eq(a->nranked, listed);
    for (long k = 1; k < a->nranked; k++) {
        const struct advise_cand *x = &a->cands[a->ranked[k - 1]], *y = &a->cands[a->ranked[k]];
        double u = advise_value(&x->model, a->objective), v = advise_value(&y->model, a->objective);
        cr_assert(max ? u >= v : u <= v, "rank %ld: %g before %g", k, u, v);
        cr_assert(u != v || a->ranked[k - 1] < a->ranked[k], "rank %ld: a tie out of order", k);
        cr_assert_eq(y->rank, k);
    }
    long on = 0;
    for (long i = 0; i < a->n; i++) {
        const struct advise_cand *c = &a->cands[i];
        bool dominated = false;
        for (long j = 0; c->feasible && !c->repeat && j < a->n && !dominated; j++) {
            const struct advise_cand *d = &a->cands[j];
            dominated = d->feasible && !d->repeat && d->model.makespan <= c->model.makespan &&
                        d->model.core_hours <= c->model.core_hours &&
                        (d->model.makespan < c->model.makespan ||
                         d->model.core_hours < c->model.core_hours);
        }
        bool front = c->feasible && !c->repeat && !dominated;
        cr_assert_eq(c->pareto, front, "point %ld: on the front %d, expected %d", i, c->pareto,
                     front);
        on += front;
    }
    cr_assert_eq(a->nfront, on);
}

static void search(const char *const axes[][2], int naxes, enum advise_objective o,
                   struct platform *pf)
{
    struct advise a;
    char err[512];
    advise_init(&a);
    a.objective = o;
    for (int k = 0; k < naxes; k++)
        cr_assert_eq(grid_add_axis(&a.grid, axes[k][0], axes[k][1], err, sizeof err), 0, "%s", err);
    cr_assert_eq(advise_run(&a, profile_source_builtin, err, sizeof err), 0, "%s", err);
    cr_assert_gt(a.nranked, 10);
    cr_assert_gt(a.invalid, 0, "dtl=file without disks is not evaluated");
    same_as_alone(&a, pf);
    ranked_and_front(&a);
    advise_free(&a);
}

Test(advise_search, each_point_as_alone)
{
    struct platform pf[2];
    char err[512];
    for (int k = 0; k < 2; k++)
        cr_assert_eq(platform_load(platforms[k], &pf[k], err, sizeof err), 0, "%s", err);
    /* The layout kept over the costs and the stride, then changed at every point. */
    static const char *const slow[][2] = {
        {"platform", "platforms/dahu.xml,platforms/dahu-pfs.xml"},
        {"mapping", "insitu,intransit,inline"},
        {"nodes", "3,2"},
        {"ratio", "7,1"},
        {"dtl", "mailbox,file,queue"},
        {"stride", "20,500"},
        {"compute_scaling", "1,40,5"},
        {"data_scaling", "1,50"}, /* a layout's states of other bytes */
    };
    static const char *const fast[][2] = {
        {"compute_scaling", "1,40"},
        {"stride", "500,20"},
        {"nodes", "2,4"},
        {"ratio", "3,15"},
        {"dtl", "file,mailbox"},
        {"mapping", "intransit,insitu,inline"},
        {"platform", "platforms/dahu-pfs.xml,platforms/dahu.xml"},
    };
    search(slow, 8, ADVISE_EFFICIENCY, pf);
    search(fast, 7, ADVISE_MAKESPAN, pf);
    search(slow, 8, ADVISE_BALANCE, pf);
    for (int k = 0; k < 2; k++)
        platform_free(&pf[k]);
}
