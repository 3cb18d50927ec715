/* What the analytic model needs to know of a SimGrid platform, read from the same XML file that
 * the simulation loads, so that model and simulation agree on the hardware. */
#ifndef SITU_PLATFORM_H
#define SITU_PLATFORM_H

#include <stddef.h>

/* Speed of a "reference core" in flop/s: sim_cost and analytics_cost are seconds on such a core. */
#define REFERENCE_SPEED 1e9

#define PLATFORM_MAX_HOSTS 65536      /* in all the clusters of a platform */
#define PLATFORM_MAX_BYTES (64 << 20) /* of a platform file */

struct platform {
    char cluster_id[64];
    char prefix[64], suffix[64];
    int hosts;           /* number of nodes */
    int *radicals;       /* hosts entries: host i is prefix radicals[i] suffix */
    int cores;           /* cores per node */
    double speed;        /* flop/s of one core */
    double bw, lat;      /* each node's private link to the switch, B/s and s */
    double loopback_bw;  /* B/s, 0 when the cluster has no loopback */
    double loopback_lat; /* s */
    double backbone_bw;  /* B/s, 0 when the switch is non-blocking */
    double backbone_lat; /* s */
    int split_duplex;    /* links have separate up and down directions */
};

/* Reads the first <cluster> of a platform XML file, after checking the whole file as SimGrid 3.32
 * will when `situ run` loads it: the prolog (<!DOCTYPE platform SYSTEM ...simgrid.dtd>), the
 * version (4 to 4.1), the elements (<zone>/<AS>, <cluster>, <prop>: Situ supports no others) and
 * their attributes, every cluster's values, and the uniqueness of host, zone and router names.
 * What SimGrid would refuse or die of is refused here. On error returns -1 with a one-line
 * message naming the file (and line) and the problem in err (errlen bytes). */
int platform_load(const char *path, struct platform *pf, char *err, size_t errlen);
void platform_free(struct platform *pf);

/* "dahu-7.grid5000.fr" for host index i (0-based). */
void platform_host_name(const struct platform *pf, int i, char *buf, size_t len);
/* Index of a host by name, -1 if the platform has no such host. */
int platform_host_index(const struct platform *pf, const char *name);

/* Parses a SimGrid quantity with unit ("10Gbps", "0.72us", "1Gf", "1.5gigaflops"), with SimGrid
 * 3.32's units: bps/Bps after k..Y or Ki..Yi, f after k..Y, flops after kilo..yotta, and w d h m s
 * ms us ns ps. kind is 'b' (bandwidth, to B/s), 't' (time, to s) or 'f' (speed, to flop/s). A
 * unit-less value is refused (SimGrid deprecates it), except 0. Returns 0 or -1. */
int platform_parse_unit(const char *text, char kind, double *out);

#endif
