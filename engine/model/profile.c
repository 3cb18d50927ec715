#include "profile.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const pattern_names[] = {"none", "allreduce", "allgather", "gather", NULL};

const char *analytics_pattern_name(enum analytics_pattern pattern)
{
    return pattern_names[pattern];
}

int analytics_pattern_find(const char *s)
{
    for (int i = 0; s && pattern_names[i]; i++)
        if (!strcmp(s, pattern_names[i]))
            return i;
    return -1;
}

int profile_init(struct analytics_profile *prof, long steps)
{
    memset(prof, 0, sizeof *prof);
    prof->steps = steps;
    return 0;
}

static bool same_sim(const struct sim_profile *a, const struct sim_profile *b)
{
    return a->particles == b->particles && a->cost == b->cost && a->face[0] == b->face[0] &&
           a->face[1] == b->face[1] && a->face[2] == b->face[2] &&
           a->halo_period == b->halo_period && a->state_bytes == b->state_bytes;
}

static bool same_value(const struct analytics_class *c, const struct analytics_value *v,
                       const struct sim_profile *sim)
{
    const struct analytics_value *a = &c->v;
    return a->cost == v->cost && a->bytes == v->bytes && a->pattern == v->pattern &&
           a->exchange_bytes == v->exchange_bytes && same_sim(&c->sim, sim);
}

int profile_add_step(struct analytics_profile *prof, long step, const struct analytics_value *v,
                     const struct sim_profile *sim)
{
    if (prof->nclasses == 0)
        prof->sim = *sim;
    int k = prof->nclasses - 1; /* a run of equal steps hits the last class first */
    if (k >= 0 && !same_value(&prof->classes[k], v, sim))
        for (k = 0; k < prof->nclasses && !same_value(&prof->classes[k], v, sim); k++)
            ;
    if (k < 0 || k == prof->nclasses) {
        struct analytics_class *c =
            realloc(prof->classes, (size_t)(prof->nclasses + 1) * sizeof *c);
        if (!c)
            return -1;
        prof->classes = c;
        k = prof->nclasses++;
        c[k].v = *v;
        c[k].sim = *sim;
        c[k].count = 0;
    }
    prof->classes[k].count++;
    if (k > 0 && !prof->step_class && prof->steps > 0) {
        /* The first step of a second class: from now on each step says which it has. */
        if (!(prof->step_class = calloc((size_t)prof->steps, sizeof *prof->step_class)))
            return -1;
    }
    if (prof->step_class && step >= 0 && step < prof->steps)
        prof->step_class[step] = k;
    return 0;
}

long profile_step_class(const struct analytics_profile *prof, long i)
{
    if (!prof->step_class || prof->steps <= 0)
        return 0;
    return prof->step_class[i >= 0 && i < prof->steps ? i : prof->steps - 1];
}

const struct analytics_value *profile_step(const struct analytics_profile *prof, long i)
{
    return &prof->classes[profile_step_class(prof, i)].v;
}

const struct sim_profile *profile_step_sim(const struct analytics_profile *prof, long i)
{
    return &prof->classes[profile_step_class(prof, i)].sim;
}

bool profile_sim_varies(const struct analytics_profile *prof)
{
    for (int k = 1; k < prof->nclasses; k++)
        if (!same_sim(&prof->classes[k].sim, &prof->classes[0].sim))
            return true;
    return false;
}

int profile_halo_scales(const struct analytics_profile *prof, const char *who, double ref[3],
                        double *scale, char *err, size_t errlen)
{
    const double *big = prof->classes[0].sim.face;
    for (int k = 1; k < prof->nclasses; k++) {
        const double *f = prof->classes[k].sim.face;
        if (f[0] + f[1] + f[2] > big[0] + big[1] + big[2])
            big = f;
    }
    memcpy(ref, big, 3 * sizeof *ref);
    double top = fmax(ref[0], fmax(ref[1], ref[2]));
    for (long i = 0; i < prof->steps; i++) {
        const double *f = profile_step_sim(prof, i)->face;
        double s = top > 0 ? fmax(f[0], fmax(f[1], f[2])) / top : 0;
        for (int d = 0; d < 3; d++)
            if (fabs(f[d] - s * ref[d]) > 1e-9 * fmax(f[d], ref[d])) {
                snprintf(err, errlen,
                         "%s: halo at ctx.step = %ld is {x = %g, y = %g, z = %g}, not one "
                         "multiple of the largest step's {x = %g, y = %g, z = %g}: the SimGrid "
                         "engines scale one set of halo messages per step, so a profile's faces "
                         "must grow or shrink alike",
                         who, i, f[0], f[1], f[2], ref[0], ref[1], ref[2]);
                return -1;
            }
        if (scale)
            scale[i] = s;
    }
    return 0;
}

struct analytics_value profile_thermo(const struct params *p, double particles)
{
    return (struct analytics_value){.cost = particles * p->analytics_cost * p->compute_scaling,
                                    .bytes = particles * p->data_size * p->data_scaling,
                                    .pattern = ANALYTICS_NONE};
}

int profile_builtin(const struct params *p, const struct layout *l, struct analytics_profile *out)
{
    profile_init(out, p->iterations / p->stride);
    struct sim_profile sim;
    simprofile_melt(p, l, &sim);
    struct analytics_value v = profile_thermo(p, sim.particles);
    if (profile_add_step(out, 0, &v, &sim) < 0)
        return -1;
    out->classes[0].count = out->steps; /* every step alike */
    return 0;
}

int profile_copy(struct analytics_profile *dst, const struct analytics_profile *src)
{
    *dst = *src;
    dst->classes = NULL;
    dst->step_class = NULL;
    size_t nc = (size_t)src->nclasses * sizeof *src->classes;
    if (nc && !(dst->classes = malloc(nc)))
        goto oom;
    if (nc)
        memcpy(dst->classes, src->classes, nc);
    if (src->step_class) {
        size_t ns = (size_t)src->steps * sizeof *src->step_class;
        if (!(dst->step_class = malloc(ns)))
            goto oom;
        memcpy(dst->step_class, src->step_class, ns);
    }
    return 0;
oom:
    profile_free(dst);
    return -1;
}

void profile_free(struct analytics_profile *prof)
{
    free(prof->classes);
    free(prof->step_class);
    memset(prof, 0, sizeof *prof);
}

int profile_source_builtin(const struct params *p, const struct layout *l,
                           struct analytics_profile *out, char *err, size_t errlen)
{
    profile_init(out, p->iterations / p->stride);
    if (p->analytics[0] || p->simulation[0]) {
        snprintf(err, errlen, "%s: a Lua %s is evaluated in its own process",
                 p->analytics[0] ? p->analytics : p->simulation,
                 p->analytics[0] ? "analytics" : "simulation profile");
        return -1;
    }
    if (profile_builtin(p, l, out) < 0) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (profile_staging_check(p, l, out, err, errlen) == 0)
        return 0;
    profile_free(out);
    return -1;
}

int profile_staging_check(const struct params *p, const struct layout *l,
                          const struct analytics_profile *prof, char *err, size_t errlen)
{
    if (p->dtl != DTL_STAGING || l->sim_cores < 1)
        return 0;
    double most = 0;
    for (int k = 0; k < prof->nclasses; k++)
        most = fmax(most, prof->classes[k].v.bytes / l->sim_cores);
    if (p->staging_memory >= most)
        return 0;
    snprintf(err, errlen,
             "staging_memory: %.6g bytes per server is less than one rank's state (%.6g bytes): "
             "no put could ever fit",
             p->staging_memory, most);
    return -1;
}
