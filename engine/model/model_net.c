/* The network as the model sees it (model.h): a transfer's time over its route, and the flows
 * of one phase sharing the platform's links. Pure, as model.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model_internal.h"

double model_route_latency(const struct platform *pf, int a, int b)
{
    int n;
    const int *route = platform_route(pf, a, b, &n);
    double lat = 0;
    for (int k = 0; route && k < n; k++)
        lat += pf->link[route[k]].lat;
    return lat;
}

double model_transfer_time(const struct platform *pf, int a, int b, double bytes, double sharers)
{
    int n;
    const int *route = platform_route(pf, a, b, &n);
    if (!route)
        return NAN; /* the caller did not prepare this route (model_route_pairs): loud, not wrong */
    if (sharers < 1)
        sharers = 1;
    /* The digest's route: latencies add up, the narrowest link sets the rate; a FATPIPE (the
     * loopback, say) gives each flow its whole bandwidth, a shared link splits it. */
    double lat = 0, t = 0;
    for (int k = 0; k < n; k++) {
        const struct platform_link *L = &pf->link[route[k]];
        lat += L->lat;
        t = max2(t, bytes * (L->shared ? sharers : 1) / (L->bw * NET_BANDWIDTH_FACTOR));
    }
    return lat * NET_LATENCY_FACTOR + t;
}

void model_net_init(struct model_net *net, const struct platform *pf)
{
    net->pf = pf;
    net->load = calloc((size_t)pf->nlinks + 1, sizeof *net->load);
}

void model_net_free(struct model_net *net)
{
    free(net->load);
    net->load = NULL;
}

void model_net_flow(struct model_net *net, int a, int b, double bytes)
{
    int n = 0, nback = 0;
    const int *route = net->load ? platform_route(net->pf, a, b, &n) : NULL;
    const int *back = net->load ? platform_route(net->pf, b, a, &nback) : NULL;
    model_net_flow_on(net, route, n, back, nback, bytes);
}

void model_net_flow_on(struct model_net *net, const int *there, int nthere, const int *back,
                       int nback, double bytes)
{
    for (int k = 0; net->load && there && k < nthere; k++)
        net->load[there[k]] += bytes;
    /* SimGrid's cross-traffic: the acknowledgements load the way back with 5% of the flow. */
    for (int k = 0; net->load && back && k < nback; k++)
        net->load[back[k]] += bytes * (NET_CROSSTRAFFIC - 1);
}

double model_net_time(const struct model_net *net, int a, int b, double bytes)
{
    int n;
    const int *route = net->load ? platform_route(net->pf, a, b, &n) : NULL;
    if (!route)
        return model_transfer_time(net->pf, a, b, bytes, 1);
    double lat = 0, t = 0;
    for (int k = 0; k < n; k++) {
        const struct platform_link *L = &net->pf->link[route[k]];
        lat += L->lat;
        t = max2(t, (L->shared ? max2(bytes, net->load[route[k]]) : bytes) /
                        (L->bw * NET_BANDWIDTH_FACTOR));
    }
    return lat * NET_LATENCY_FACTOR + t;
}

double model_net_busiest(const struct model_net *net)
{
    double t = 0;
    for (int k = 0; net->load && k < net->pf->nlinks; k++) /* the network's, not the loopback */
        if (net->load[k] > 0 && net->pf->link[k].shared &&
            strcmp(net->pf->link[k].place, "loopback"))
            t = fmax(t, net->load[k] / (net->pf->link[k].bw * NET_BANDWIDTH_FACTOR));
    return t;
}
