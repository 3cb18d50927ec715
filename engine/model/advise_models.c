/* The model of many configurations (advise_models.h): the platforms, the last layout and the
 * halo memo an instance keeps, and the checks every configuration passes before its model. */
#include "advise_models.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/datadir.h"
#include "layout.h"

#define MODELS_PLATFORMS 16

struct advise_models {
    profile_source src;
    int n;
    struct {
        char given[PARAMS_PATH_MAX];    /* the path as a configuration names it */
        char resolved[PARAMS_PATH_MAX]; /* where it was found */
        struct platform pf;
        bool whole; /* platform_routes_whole: no layout's routes to ask for or check */
        int rc;     /* 0 loaded, -1: err */
        char err[256];
    } pf[MODELS_PLATFORMS];
    int next;                /* the slot a new platform replaces when all are taken */
    struct model_memo *memo; /* the last layout's halo exchange (model.h); NULL: none */
    /* The last layout built, with what layout_build reads of its configuration: a search moves
     * the stride and the costs fastest, which keep it (building it was a sixth of a search). */
    struct {
        bool valid;
        const struct platform *pf;
        long nodes, cores_per_node, ratio;
        int mapping;
        bool files;
        char zone[PARAMS_PATH_MAX], hostfile[PARAMS_PATH_MAX];
        struct layout l;
    } lay;
};

struct advise_models *advise_models_new(profile_source src)
{
    struct advise_models *c = calloc(1, sizeof *c);
    if (c) {
        c->src = src;
        c->memo = model_memo_new(); /* none: every layout computed anew, the same results */
    }
    return c;
}

void advise_models_free(struct advise_models *c)
{
    if (!c)
        return;
    for (int k = 0; k < c->n; k++)
        if (c->pf[k].rc == 0)
            platform_free(&c->pf[k].pf);
    if (c->lay.valid)
        layout_free(&c->lay.l);
    model_memo_free(c->memo);
    free(c);
}

/* The platform a configuration names: loaded the first time, from memory after. */
static int models_platform(struct advise_models *c, struct params *p, struct platform **pf,
                           bool *whole, char *err, size_t errlen)
{
    int k = 0; /* (a configuration may name it by where it was found: the same file) */
    while (k < c->n && strcmp(c->pf[k].given, p->platform) &&
           (c->pf[k].rc < 0 || strcmp(c->pf[k].resolved, p->platform)))
        k++;
    if (k == c->n) {
        if (c->n < MODELS_PLATFORMS)
            k = c->n++;
        else if (k = c->next, c->next = (c->next + 1) % MODELS_PLATFORMS, c->pf[k].rc == 0)
            platform_free(&c->pf[k].pf);
        model_memo_forget(c->memo); /* a platform may take a freed one's address */
        if (c->lay.valid)
            layout_free(&c->lay.l);
        c->lay.valid = false;
        snprintf(c->pf[k].given, sizeof c->pf[k].given, "%s", p->platform);
        if (datadir_resolve(p->platform, c->pf[k].resolved, sizeof c->pf[k].resolved) < 0)
            snprintf(c->pf[k].resolved, sizeof c->pf[k].resolved, "%s", p->platform);
        c->pf[k].rc =
            platform_load(c->pf[k].resolved, &c->pf[k].pf, c->pf[k].err, sizeof c->pf[k].err);
        c->pf[k].whole = c->pf[k].rc == 0 && platform_routes_whole(&c->pf[k].pf);
    }
    if (strcmp(p->platform, c->pf[k].resolved)) /* (a printf per candidate showed) */
        snprintf(p->platform, sizeof p->platform, "%s", c->pf[k].resolved);
    if (c->pf[k].rc < 0) {
        snprintf(err, errlen, "%s", c->pf[k].err);
        return -1;
    }
    *pf = &c->pf[k].pf;
    *whole = c->pf[k].whole;
    return 0;
}

/* p's layout, with its routes known: c's last one where p places its ranks and actors as that
 * one's did (a failure is not kept: its message names p). */
static int models_layout(struct advise_models *c, struct platform *pf, bool whole,
                         const struct params *p, const struct layout **l, char *err, size_t errlen)
{
    bool files =
        p->mapping == MAPPING_POSTHOC || (p->dtl == DTL_FILE && p->mapping != MAPPING_INLINE);
    if (!c->lay.valid || c->lay.pf != pf || c->lay.nodes != p->nodes ||
        c->lay.cores_per_node != p->cores_per_node || c->lay.ratio != p->ratio ||
        c->lay.mapping != p->mapping || c->lay.files != files ||
        strcmp(c->lay.zone, p->analytics_zone) || strcmp(c->lay.hostfile, p->hostfile)) {
        if (c->lay.valid)
            layout_free(&c->lay.l);
        c->lay.valid = false;
        if (layout_build(p, pf, &c->lay.l, err, errlen) < 0)
            return -1;
        /* The routes it reads, before it is kept: a platform of more than DIGEST_EAGER_HOSTS
         * hosts has in its digest only the routes asked for, and the model of a route it lacks
         * is NaN (the advisor's search called such a candidate an overflow). Where the digest
         * has them all, none is looked for: the search of a map whose every candidate is a new
         * layout spent 14 times as long sorting the pairs of each. */
        if (!whole && platform_need_layout_routes(pf, &c->lay.l, err, errlen) < 0) {
            layout_free(&c->lay.l);
            return -1;
        }
        c->lay.valid = true;
        c->lay.pf = pf;
        c->lay.nodes = p->nodes;
        c->lay.cores_per_node = p->cores_per_node;
        c->lay.ratio = p->ratio;
        c->lay.mapping = p->mapping;
        c->lay.files = files;
        snprintf(c->lay.zone, sizeof c->lay.zone, "%s", p->analytics_zone);
        snprintf(c->lay.hostfile, sizeof c->lay.hostfile, "%s", p->hostfile);
    }
    *l = &c->lay.l;
    return 0;
}

/* The check, leaving p's platform and layout in *pf and *l. */
static int models_check(struct advise_models *c, struct params *p, struct platform **pf,
                        const struct layout **l, char *err, size_t errlen)
{
    char perr[PARAMS_ERR_MAX];
    if (params_validate(p, perr) < 0) {
        snprintf(err, errlen, "%s", perr);
        return -1;
    }
    bool whole;
    if (models_platform(c, p, pf, &whole, err, errlen) < 0)
        return -1;
    return models_layout(c, *pf, whole, p, l, err, errlen);
}

int advise_model_check(struct advise_models *c, struct params *p, char *err, size_t errlen)
{
    struct platform *pf;
    const struct layout *l;
    return models_check(c, p, &pf, &l, err, errlen);
}

/* The profile and the model of a checked p on pf and l. */
static int models_eval_on(const struct platform *pf, const struct layout *l, profile_source src,
                          const struct params *p, struct model_result *m, struct model_memo *memo,
                          char *err, size_t errlen)
{
    struct analytics_profile prof;
    int rc = src(p, l, &prof, err, errlen);
    if (rc == 0)
        model_eval_memo(p, pf, l, &prof, m, memo);
    profile_free(&prof); /* (a failed source may leave it allocated; freeing twice is safe) */
    return rc;
}

int advise_model_eval(struct advise_models *c, struct params *p, struct model_result *m, char *err,
                      size_t errlen)
{
    struct platform *pf;
    const struct layout *l;
    if (models_check(c, p, &pf, &l, err, errlen) < 0)
        return -1;
    return models_eval_on(pf, l, c->src, p, m, c->memo, err, errlen);
}

/* The advisor's refusal of a result it cannot rank. */
static int rankable(const struct model_result *m, char *err, size_t errlen)
{
    /* Finite inputs can still overflow (a cost of 1e308): no result to rank. */
    if (isfinite(m->makespan) && isfinite(m->efficiency) && m->makespan > 0)
        return 0;
    snprintf(err, errlen, "the model overflows (makespan %g s)", m->makespan);
    return -1;
}

int advise_model(struct advise_models *c, struct params *p, struct model_result *m, char *err,
                 size_t errlen)
{
    if (advise_model_eval(c, p, m, err, errlen) < 0)
        return -1;
    return rankable(m, err, errlen);
}

int advise_model_on(const struct platform *pf, profile_source src, const struct params *p,
                    struct model_result *m, char *err, size_t errlen)
{
    char perr[PARAMS_ERR_MAX];
    if (params_validate(p, perr) < 0) {
        snprintf(err, errlen, "%s", perr);
        return -1;
    }
    struct layout l;
    if (layout_build(p, pf, &l, err, errlen) < 0)
        return -1;
    int rc = models_eval_on(pf, &l, src, p, m, NULL, err, errlen);
    layout_free(&l);
    return rc < 0 ? -1 : rankable(m, err, errlen);
}
