/* Bytes per link, counted by the engine from the route of every transfer it starts: SimGrid
 * 3.32's link-load plugin misreports bursty traffic, so Situ does not use it. Engine-internal. */
#ifndef SITU_SIM_LINKS_H
#define SITU_SIM_LINKS_H

#include <simgrid/forward.h>

struct sim_link;

struct route {
    sg_host_t src, dst;
    int nlinks;
    int *links; /* indices into sim_links.link */
};

struct sim_links {
    int count, cap;
    sg_link_t *link;
    double *bytes;
    struct route *routes; /* open addressing on (src, dst) */
    int nroutes, route_cap;
};

void sim_links_init(struct sim_links *s);
void sim_links_count(struct sim_links *s, sg_host_t src, sg_host_t dst, double bytes);
/* Route latency in seconds (sum over the route's links), for the engine's halo accounting. */
double sim_links_latency(struct sim_links *s, sg_host_t src, sg_host_t dst);
/* The route's narrowest bandwidth in bytes per second. */
double sim_links_bandwidth(struct sim_links *s, sg_host_t src, sg_host_t dst);
/* Links that carried traffic, with utilisation over `makespan` and their place in the platform
 * pf's topology. Returns how many; *out malloc'd. */
struct platform;
int sim_links_report(const struct sim_links *s, const struct platform *pf, double makespan,
                     struct sim_link **out);
void sim_links_free(struct sim_links *s);

#endif
