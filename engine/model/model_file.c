/* Files on the platform's file system (--dtl file, --mapping posthoc): the model's times for
 * writing and reading states striped over every disk of the platform (platform.disk). Each
 * state is one file, cut into one stripe per server; a stripe travels over the network (the
 * route from the writer to the server, or back to the reader) and is written to or read from
 * the server's disk, one after the other; a file's stripes go at once. Every writer (reader) of
 * a phase goes at once too: the ranks are in step, and so are the analytics actors. SimGrid
 * shares a disk's bandwidth among its concurrent accesses as a link's. Pure, as model.c. */
#include <math.h>
#include <stdlib.h>

#include "model.h"
#include "model_reduce.h"

/* The network part of one phase: every host h moves per[h] states of `bytes` to (write) or from
 * (read) every server, a stripe each; the time of the slowest host's stripes, each sharing
 * every link of its route with the phase's whole load. */
static double stripes_net(const struct platform *pf, const int *per, int hosts, double bytes,
                          bool write)
{
    struct model_net net;
    model_net_init(&net, pf);
    if (!net.load)
        return NAN;
    double stripe = bytes / pf->ndisks, t = 0;
    for (int h = 0; h < hosts; h++)
        for (int s = 0; per[h] && s < pf->ndisks; s++) {
            int srv = pf->disk[s].host;
            model_net_flow(&net, write ? h : srv, write ? srv : h, per[h] * stripe);
        }
    for (int h = 0; h < hosts; h++)
        for (int s = 0; per[h] && s < pf->ndisks; s++) {
            int srv = pf->disk[s].host;
            t = fmax(t, model_net_time(&net, write ? h : srv, write ? srv : h, per[h] * stripe));
        }
    model_net_free(&net);
    return t;
}

/* The disk part: every server gets its stripe of each of the phase's states at once. */
static double stripes_disk(const struct platform *pf, const int *per, int hosts, double bytes,
                           bool write)
{
    double states = 0, t = 0;
    for (int h = 0; h < hosts; h++)
        states += per[h];
    for (int s = 0; s < pf->ndisks; s++)
        t = fmax(t, states * bytes / pf->ndisks /
                        (write ? pf->disk[s].write_bw : pf->disk[s].read_bw));
    return t;
}

double model_file_write(const struct platform *pf, const struct layout *l, double bytes)
{
    if (pf->ndisks < 1 || bytes <= 0)
        return 0;
    return stripes_net(pf, l->sim_per_host, l->hosts, bytes, true) +
           stripes_disk(pf, l->sim_per_host, l->hosts, bytes, true);
}

double model_file_read(const struct platform *pf, const struct layout *l, const int *readers,
                       double bytes)
{
    if (pf->ndisks < 1 || bytes <= 0)
        return 0;
    return stripes_disk(pf, readers, l->hosts, bytes, false) +
           stripes_net(pf, readers, l->hosts, bytes, false);
}

double model_file_latency(const struct platform *pf, int h)
{
    double lat = 0;
    for (int s = 0; s < pf->ndisks; s++) {
        int n;
        const int *route = platform_route(pf, pf->disk[s].host, h, &n);
        double one = 0;
        for (int k = 0; route && k < n; k++)
            one += pf->link[route[k]].lat;
        lat = fmax(lat, one);
    }
    return lat * NET_LATENCY_FACTOR;
}

void model_file_posthoc(const struct params *p, const struct platform *pf, const struct layout *l,
                        const struct analytics_profile *prof, double f, struct model_result *m)
{
    /* The files hold reduced states (model_reduce.h): a rank reduces its state before writing
     * it (Ing) and restores it after reading it back, with its analysis (A). */
    int dims = layout_shape().dims;
    double w = 0, r = 0, restore = 0, moved = 0, steps = 0;
    for (int k = 0; k < prof->nclasses; k++) {
        const struct analytics_value *whole = &prof->classes[k].v;
        struct analytics_value v = reduce_value(p, dims, whole);
        double n = (double)prof->classes[k].count, b = v.bytes / l->sim_cores;
        w += n * (model_file_write(pf, l, b) +
                  reduce_put_cost(p, dims, whole->bytes / l->sim_cores) * f);
        r += n * model_file_read(pf, l, l->sim_per_host, b);
        restore += n * (v.cost - whole->cost) / l->sim_cores * f;
        moved += n * b;
        steps += n;
    }
    if (steps > 0) {
        m->stage.Ing = w / steps;
        m->stage.R = r / steps;
        m->stage.A += restore / steps;
        m->state_moved = moved / steps;
    }
    m->sim_active += w;
    m->ana_active += r + restore;
    m->ana_active_drifted = m->ana_active;
    m->makespan = m->makespan_eq5 = m->sim_active + m->ana_active;
}
