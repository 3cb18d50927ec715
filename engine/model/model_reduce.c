#include "model_reduce.h"

#include <math.h>
#include <stdio.h>

bool reduce_on(const struct params *p)
{
    return p->compression > 1 || p->decimation > 1;
}

/* decimation^dims: the share of elements decimation keeps is its inverse. */
static double decimated(const struct params *p, int dims)
{
    return pow((double)p->decimation, dims > 0 ? dims : 1);
}

double reduce_kept(const struct params *p, int dims)
{
    return 1 / (p->compression * decimated(p, dims));
}

struct analytics_value reduce_value(const struct params *p, int dims,
                                    const struct analytics_value *v)
{
    struct analytics_value r = *v;
    if (!reduce_on(p))
        return r;
    r.bytes = v->bytes * reduce_kept(p, dims);
    if (p->compression > 1) /* every state restored: the decimated elements */
        r.cost += v->bytes / REDUCE_ELEMENT_BYTES / decimated(p, dims) * p->decompression_cost;
    return r;
}

double reduce_put_cost(const struct params *p, int dims, double bytes)
{
    double elements = bytes / REDUCE_ELEMENT_BYTES, t = 0;
    if (p->decimation > 1) /* the whole state is read to pick its elements */
        t += elements * p->decimation_cost;
    if (p->compression > 1) /* what decimation kept is compressed */
        t += elements / decimated(p, dims) * p->compression_cost;
    return t;
}

int reduce_check(const struct params *p, int dims, double particles, long sim_cores, char *err,
                 size_t errlen)
{
    if (p->decimation <= 1 || p->mapping == MAPPING_INLINE || sim_cores < 1)
        return 0;
    double extent = pow(particles / (double)sim_cores, 1.0 / (dims > 0 ? dims : 1));
    /* A hair of slack: 4 * 10^3 particles per rank is a side of 15.87, not 15.8699999. */
    if ((double)p->decimation <= extent * (1 + 1e-9))
        return 0;
    char along[48];
    snprintf(along, sizeof along, dims > 1 ? "each of its %d dimensions" : "its one dimension",
             dims);
    snprintf(err, errlen,
             "decimation: %ld leaves nothing of a rank's state, whose extent is %.4g elements "
             "along %s (%.4g elements per rank); expected at most %.0f",
             p->decimation, extent, along, particles / (double)sim_cores,
             floor(extent * (1 + 1e-9)));
    return -1;
}
