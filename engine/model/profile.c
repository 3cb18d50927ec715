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

static bool same_value(const struct analytics_value *a, const struct analytics_value *b)
{
    return a->cost == b->cost && a->bytes == b->bytes && a->pattern == b->pattern &&
           a->exchange_bytes == b->exchange_bytes;
}

int profile_add_step(struct analytics_profile *prof, long step, const struct analytics_value *v)
{
    int k = prof->nclasses - 1; /* a run of equal steps hits the last class first */
    if (k >= 0 && !same_value(&prof->classes[k].v, v))
        for (k = 0; k < prof->nclasses && !same_value(&prof->classes[k].v, v); k++)
            ;
    if (k < 0 || k == prof->nclasses) {
        struct analytics_class *c =
            realloc(prof->classes, (size_t)(prof->nclasses + 1) * sizeof *c);
        if (!c)
            return -1;
        prof->classes = c;
        k = prof->nclasses++;
        c[k].v = *v;
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

const struct analytics_value *profile_step(const struct analytics_profile *prof, long i)
{
    long k = prof->step_class && i >= 0 && i < prof->steps ? prof->step_class[i] : 0;
    return &prof->classes[k].v;
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
    simprofile_melt(p, l, &out->sim);
    struct analytics_value v = profile_thermo(p, out->sim.particles);
    if (profile_add_step(out, 0, &v) < 0)
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
