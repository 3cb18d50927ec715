/* Where every simulation rank and analytics actor lives: the core split that the ratio gives, the
 * mapping (insitu, intransit, hostfile), the DTL route of each rank and the 3D decomposition of the
 * MD domain. The analytic model and the SimGrid engine both read this one placement. */
#ifndef SITU_LAYOUT_H
#define SITU_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>

#include "params.h"
#include "platform.h"

/* Halo messages: ghost shell one cell thick, bytes sent per ghost particle (3 double positions
 * plus id and type, as ExaMiniMD's halo exchange). */
#define HALO_BYTES_PER_PARTICLE 32
#define PARTICLES_PER_CELL      4 /* FCC lattice */

struct layout {
    int hosts;          /* platform hosts (size of the per-host arrays) */
    int nodes_used;     /* hosts with at least one rank or actor */
    int sim_nodes;      /* hosts with simulation ranks */
    int ana_nodes;      /* hosts with analytics actors */
    long sim_cores;     /* simulation ranks */
    long ana_cores;     /* analytics actors */
    int *sim_per_host;  /* [hosts] */
    int *ana_per_host;  /* [hosts] */
    int *rank_host;     /* [sim_cores] host of each rank */
    int *dtl_host;      /* [sim_cores] analytics host that receives each rank's state */
    int *dtl_load;      /* [hosts] ranks whose state goes to each analytics host */
    int collector_host; /* where the metric collector runs: the first analytics host (inline:
                         * rank 0's host, the root of the ranks' exchange) */
    bool inline_ranks;  /* mapping=inline: every core a rank, each rank analyses its own state
                         * (no analytics cores; dtl_host is the rank's own host, dtl_load 0) */
    int px, py, pz;     /* 3D decomposition of the ranks */
};

/* The ranks' hosts seen as the analytics hosts of an inline analysis' exchange (x shares l's
 * arrays: ana_per_host and dtl_load are sim_per_host, the collector rank 0's host), so that the
 * exchange's law (model_exchange_time) and its engine run over the ranks. */
void layout_inline_view(const struct layout *l, struct layout *x);

/* Builds the placement; -1 with a one-line message in err on impossible configurations (too few
 * hosts, unknown hostfile host, too few slots). */
int layout_build(const struct params *p, const struct platform *pf, struct layout *l, char *err,
                 size_t errlen);
void layout_free(struct layout *l);

/* Particles of the LJ melt: 4 per FCC cell, region^3 cells. */
double layout_particles(const struct params *p);

/* Most cubic factorisation n = px * py * pz with px >= py >= pz. */
void layout_decompose(long n, int *px, int *py, int *pz);

/* Rank of the neighbour of `rank` at offset (dx, dy, dz) in the periodic decomposition. */
long layout_neighbour(const struct layout *l, long rank, int dx, int dy, int dz);

/* Bytes of one halo message across a face perpendicular to dimension dim (0, 1, 2). */
double layout_face_bytes(const struct params *p, const struct layout *l, int dim);

/* Reads an MPI-style hostfile ("host", "host slots=N" or "host:N" per line, # comments) against
 * the platform: a host's slots, over all its lines, are at most its cores and cores_per_node
 * (<= 0: no such limit). Fills slots[hosts]. -1 with a one-line message naming the file and the
 * line on error. */
int layout_read_hostfile(const char *path, const struct platform *pf, long cores_per_node,
                         int *slots, char *err, size_t errlen);

#endif
