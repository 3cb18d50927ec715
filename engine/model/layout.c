#include "layout.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../base/infile.h"

void layout_decompose(long n, int *px, int *py, int *pz)
{
    /* Minimise the surface of a unit cube cut into px*py*pz boxes, as MD codes do. */
    double best = INFINITY;
    *px = (int)n, *py = 1, *pz = 1;
    for (long z = 1; z * z * z <= n; z++) {
        if (n % z)
            continue;
        for (long y = z; y * y <= n / z; y++) {
            if ((n / z) % y)
                continue;
            long x = n / z / y;
            double surface = (double)x * y + (double)y * z + (double)x * z;
            if (surface < best) {
                best = surface;
                *px = (int)x, *py = (int)y, *pz = (int)z;
            }
        }
    }
}

static struct sim_shape shape = {3, true};

struct sim_shape layout_shape(void)
{
    return shape;
}

void layout_set_shape(struct sim_shape s)
{
    shape = s;
}

void layout_decompose_shape(long n, int *px, int *py, int *pz)
{
    if (shape.dims == 1) {
        *px = (int)n, *py = *pz = 1;
        return;
    }
    if (shape.dims == 3) {
        layout_decompose(n, px, py, pz);
        return;
    }
    /* 2D: the most square px * py with px >= py, as a 2D code cuts its grid. */
    *px = (int)n, *py = *pz = 1;
    for (long y = 1; y * y <= n; y++)
        if (n % y == 0)
            *px = (int)(n / y), *py = (int)y;
}

long layout_neighbour(const struct layout *l, long rank, int dx, int dy, int dz)
{
    long x = rank % l->px, y = (rank / l->px) % l->py, z = rank / ((long)l->px * l->py);
    if (l->bounded && (x + dx < 0 || x + dx >= l->px || y + dy < 0 || y + dy >= l->py ||
                       z + dz < 0 || z + dz >= l->pz))
        return rank;
    x = (x + dx + l->px) % l->px;
    y = (y + dy + l->py) % l->py;
    z = (z + dz + l->pz) % l->pz;
    return x + (long)l->px * (y + (long)l->py * z);
}

double layout_particles(const struct params *p)
{
    double L = (double)p->region;
    return PARTICLES_PER_CELL * L * L * L;
}

double layout_face_bytes(const struct params *p, const struct layout *l, int dim)
{
    double L = (double)p->region;
    double side[3] = {L / l->px, L / l->py, L / l->pz};
    double area = dim == 0 ? side[1] * side[2] : dim == 1 ? side[0] * side[2] : side[0] * side[1];
    return area * PARTICLES_PER_CELL * HALO_BYTES_PER_PARTICLE;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1]))
        *--e = 0;
    return s;
}

int layout_read_hostfile(const char *path, const struct platform *pf, long cores_per_node,
                         int *slots, char *err, size_t errlen)
{
    FILE *f = infile_open(path, "hostfile", 0, err, errlen);
    if (!f)
        return -1;
    int rc = -1, lineno = 0;
    char line[1024];
    memset(slots, 0, sizeof(int) * pf->hosts);
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (!strchr(line, '\n') && !feof(f)) {
            snprintf(err, errlen, "%s:%d: line longer than %zu bytes", path, lineno,
                     sizeof line - 2);
            goto out;
        }
        char *hash = strchr(line, '#');
        if (hash)
            *hash = 0;
        char *s = trim(line);
        if (!*s)
            continue;
        long n = 1;
        char *name = s, *rest = s + strcspn(s, " \t:");
        if (*rest == ':') {
            *rest++ = 0;
            char *end;
            n = strtol(rest, &end, 10);
            if (end == rest || *trim(end))
                n = -1;
        } else if (*rest) {
            *rest++ = 0;
            rest = trim(rest);
            char *end;
            if (strncmp(rest, "slots=", 6))
                n = -1;
            else {
                n = strtol(rest + 6, &end, 10);
                if (end == rest + 6 || *trim(end))
                    n = -1;
            }
        }
        int h = platform_host_index(pf, name);
        if (h < 0) {
            snprintf(err, errlen, "%s:%d: unknown host '%.64s' (platform hosts are %s..%s)", path,
                     lineno, name, pf->host[0].name, pf->host[pf->hosts - 1].name);
            goto out;
        }
        /* A node runs at most cores_per_node of the workflow's processes (the ranks fill what
         * the analytics leave of them), and at most its own cores. */
        int cores = pf->host[h].cores, most = cores;
        if (cores_per_node > 0 && cores_per_node < cores)
            most = (int)cores_per_node;
        char limit[48];
        if (most < cores)
            snprintf(limit, sizeof limit, "cores_per_node (%d)", most);
        else
            snprintf(limit, sizeof limit, "its %d cores", cores);
        if (n < 1) {
            snprintf(err, errlen,
                     "%s:%d: expected 'HOST', 'HOST slots=N' or 'HOST:N' with N in [1, %d]", path,
                     lineno, most);
            goto out;
        }
        if (n > most - slots[h]) { /* not slots[h] + n: n may be LONG_MAX */
            if (n > most)
                snprintf(err, errlen, "%s:%d: host '%s' given %ld slots, more than %s", path,
                         lineno, name, n, limit);
            else
                snprintf(err, errlen, "%s:%d: host '%s' given %ld slots in all, more than %s", path,
                         lineno, name, slots[h] + n, limit);
            goto out;
        }
        slots[h] += (int)n;
    }
    if (ferror(f)) {
        snprintf(err, errlen, "%s: read error", path);
        goto out;
    }
    rc = 0;
out:
    fclose(f);
    return rc;
}

/* The hosts a mapping uses, in order: the first N of the platform, or (intransit with an
 * analytics zone) the zone's first hosts for the analytics and the first others for the
 * simulation. role[h]: 0 unused, 1 simulation, 2 analytics (intransit), 3 both (insitu). */
static int choose_hosts(const struct params *p, const struct platform *pf, char *role, char *err,
                        size_t errlen)
{
    long C = p->cores_per_node, N = p->nodes, R = p->ratio;
    const struct platform_zone *z = NULL;
    if (p->mapping == MAPPING_INTRANSIT && p->analytics_zone[0]) {
        z = platform_zone(pf, p->analytics_zone);
        if (!z || !z->nhosts) {
            snprintf(err, errlen, "analytics_zone: platform '%s' has no zone or cluster '%.64s'%s",
                     p->platform, p->analytics_zone, z ? " with hosts" : "");
            return -1;
        }
    }
    long an = lround((double)N / (R + 1));
    an = an < 1 ? 1 : an > N - 1 ? N - 1 : an;
    if (z && an > z->nhosts)
        an = z->nhosts;
    char *in_zone = calloc((size_t)pf->hosts, 1);
    if (!in_zone) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (int k = 0; z && k < z->nhosts; k++)
        in_zone[z->hosts[k]] = 1;
    long sims = p->mapping == MAPPING_INTRANSIT ? N - an : N, anas = an;
    for (int h = 0; h < pf->hosts; h++) {
        if (p->mapping != MAPPING_INTRANSIT)
            role[h] = h < N ? 3 : 0;
        else if (z ? in_zone[h] : sims == 0)
            role[h] = anas-- > 0 ? 2 : 0;
        else
            role[h] = sims-- > 0 ? 1 : 0;
    }
    free(in_zone);
    if (p->mapping == MAPPING_INTRANSIT && (sims > 0 || anas > 0)) {
        snprintf(err, errlen, "nodes: %ld asked but platform '%s' has %d hosts%s%s", N, p->platform,
                 z ? pf->hosts - z->nhosts : pf->hosts, z ? " outside analytics_zone " : "",
                 z ? p->analytics_zone : "");
        return -1;
    }
    for (int h = 0; h < pf->hosts; h++)
        if (role[h] && pf->host[h].cores < C) {
            snprintf(err, errlen,
                     "cores_per_node: %ld asked but platform '%s' host %s has %d cores", C,
                     p->platform, pf->host[h].name, pf->host[h].cores);
            return -1;
        }
    return 0;
}

/* Places analytics actors per host according to the mapping; returns -1 with err set. */
static int place_analytics(const struct params *p, const struct platform *pf, const char *role,
                           struct layout *l, char *err, size_t errlen)
{
    long C = p->cores_per_node, N = p->nodes, R = p->ratio;
    long ana_total = N * C / (R + 1);
    switch (p->mapping) {
    case MAPPING_INLINE: /* no analytics cores: the ranks analyse */
    case MAPPING_POSTHOC:
        return 0;
    case MAPPING_INSITU:
        for (int h = 0; h < pf->hosts; h++)
            l->ana_per_host[h] = role[h] ? (int)(C / (R + 1)) : 0;
        return 0;
    case MAPPING_INTRANSIT:
        /* Whole analytics nodes, as many as keep the ratio closest, at least one of each kind. */
        for (int h = 0; h < pf->hosts; h++)
            l->ana_per_host[h] = role[h] == 2 ? (int)C : 0;
        return 0;
    case MAPPING_HOSTFILE: {
        int *slots = calloc(pf->hosts, sizeof(int));
        if (!slots) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        int rc = layout_read_hostfile(p->hostfile, pf, C, slots, err, errlen);
        long left = ana_total;
        for (int h = 0; rc == 0 && h < pf->hosts && left > 0; h++) {
            long take = slots[h] < left ? slots[h] : left;
            l->ana_per_host[h] = (int)take;
            left -= take;
        }
        if (rc == 0 && left > 0) {
            snprintf(err, errlen,
                     "%s: too few slots: ratio %ld on %ld nodes needs %ld analytics slots, "
                     "the file gives %ld",
                     p->hostfile, R, N, ana_total, ana_total - left);
            rc = -1;
        }
        free(slots);
        return rc;
    }
    }
    return -1;
}

int layout_build(const struct params *p, const struct platform *pf, struct layout *l, char *err,
                 size_t errlen)
{
    memset(l, 0, sizeof *l);
    long C = p->cores_per_node, N = p->nodes, R = p->ratio;
    if (N > pf->hosts) {
        snprintf(err, errlen, "nodes: %ld asked but platform '%s' has %d hosts", N, p->platform,
                 pf->hosts);
        return -1;
    }
    /* Files need a file system: the platform's disks (inline ignores the DTL). */
    bool files =
        p->mapping == MAPPING_POSTHOC || (p->dtl == DTL_FILE && p->mapping != MAPPING_INLINE);
    if (files && pf->ndisks < 1) {
        snprintf(err, errlen,
                 "%s: platform '%s' has no disks (a <disk> on a storage host) to write files to",
                 p->mapping == MAPPING_POSTHOC ? "mapping: posthoc" : "dtl: file", p->platform);
        return -1;
    }
    l->hosts = pf->hosts;
    l->sim_per_host = calloc(pf->hosts, sizeof(int));
    l->ana_per_host = calloc(pf->hosts, sizeof(int));
    l->dtl_load = calloc(pf->hosts, sizeof(int));
    char *role = calloc(pf->hosts, 1);
    if (!l->sim_per_host || !l->ana_per_host || !l->dtl_load || !role)
        goto oom;
    int most = 0; /* a hostfile's ranks fill hosts of up to cores_per_node cores */
    for (int h = 0; h < pf->hosts; h++)
        most = pf->host[h].cores > most ? pf->host[h].cores : most;
    if (p->mapping == MAPPING_HOSTFILE && C > most) {
        snprintf(err, errlen, "cores_per_node: %ld asked but platform '%s' hosts have %d cores", C,
                 p->platform, most);
        goto fail;
    }
    if ((p->mapping != MAPPING_HOSTFILE && choose_hosts(p, pf, role, err, errlen) < 0) ||
        place_analytics(p, pf, role, l, err, errlen) < 0)
        goto fail;

    /* Simulation ranks: the ratio's share of N nodes' cores, filling free cores host by host. */
    long sim_total = p->mapping == MAPPING_INTRANSIT ? 0
                     : p->mapping == MAPPING_INLINE || p->mapping == MAPPING_POSTHOC
                         ? N * C
                         : N * C * R / (R + 1);
    for (int h = 0; p->mapping == MAPPING_INTRANSIT && h < pf->hosts; h++)
        sim_total += role[h] == 1 ? C : 0;
    long left = sim_total;
    for (int h = 0; h < pf->hosts && left > 0; h++) {
        /* hostfile: like an MPI launch, the ranks fill each host's free cores in host order. */
        long room = (pf->host[h].cores < C ? pf->host[h].cores : C) - l->ana_per_host[h];
        if (p->mapping == MAPPING_INTRANSIT)
            room = role[h] == 1 ? C : 0;
        else if (p->mapping == MAPPING_INSITU || p->mapping == MAPPING_INLINE ||
                 p->mapping == MAPPING_POSTHOC)
            room = role[h] ? room : 0;
        long take = room < left ? room : left;
        l->sim_per_host[h] = (int)take;
        left -= take;
    }
    if (left > 0) {
        snprintf(err, errlen,
                 "%s: the analytics slots leave too few cores for %ld simulation ranks",
                 p->hostfile, sim_total);
        goto fail;
    }
    l->sim_cores = sim_total;
    l->collector_host = -1;
    for (int h = 0; h < pf->hosts; h++) {
        l->ana_cores += l->ana_per_host[h];
        l->sim_nodes += l->sim_per_host[h] > 0;
        l->ana_nodes += l->ana_per_host[h] > 0;
        l->nodes_used += l->sim_per_host[h] > 0 || l->ana_per_host[h] > 0;
        if (l->collector_host < 0 && l->ana_per_host[h])
            l->collector_host = h;
    }
    l->inline_ranks = p->mapping == MAPPING_INLINE || p->mapping == MAPPING_POSTHOC;
    if (l->sim_cores < 1 || (l->ana_cores < 1 && !l->inline_ranks)) {
        snprintf(err, errlen, "ratio: %ld on %ld nodes leaves no %s cores", R, N,
                 l->sim_cores < 1 ? "simulation" : "analytics");
        goto fail;
    }

    l->rank_host = malloc(sizeof(int) * l->sim_cores);
    l->dtl_host = malloc(sizeof(int) * l->sim_cores);
    if (!l->rank_host || !l->dtl_host)
        goto oom;
    long r = 0;
    for (int h = 0; h < pf->hosts; h++)
        for (int k = 0; k < l->sim_per_host[h]; k++)
            l->rank_host[r++] = h;
    /* DTL route: a rank's state stays on its node when the node has analytics; otherwise it goes
     * to the analytics host with the least load per actor, so the actors share the work evenly. */
    for (r = 0; r < l->sim_cores && l->inline_ranks; r++)
        l->dtl_host[r] = l->rank_host[r]; /* a rank's state stays with it */
    if (l->inline_ranks)
        l->collector_host = l->rank_host[0];
    /* The analytics hosts in host order: a remote rank (in transit, a hostfile) looks at
     * these only, not at every host of the platform. */
    int *anas = (int *)calloc((size_t)pf->hosts + 1, sizeof(int)), nanas = 0;
    if (!anas)
        goto oom;
    for (int h = 0; h < pf->hosts; h++)
        if (l->ana_per_host[h])
            anas[nanas++] = h;
    /* Hosts of as many actors each, all empty, take remote ranks in turn (the least loaded, the
     * first of equals): the search below in O(1) a rank, until a rank stays on its node. */
    bool turns = nanas > 0;
    for (int i = 1; i < nanas; i++)
        turns = turns && l->ana_per_host[anas[i]] == l->ana_per_host[anas[0]];
    long turn = 0;
    for (r = 0; r < l->sim_cores && !l->inline_ranks; r++) {
        int h = l->rank_host[r];
        bool local = l->ana_per_host[h] && p->mapping != MAPPING_HOSTFILE;
        int best = local ? h : -1;
        turns = turns && !local;
        if (turns)
            best = anas[turn++ % nanas];
        for (int i = 0; !local && !turns && i < nanas; i++) {
            int a = anas[i];
            if (best < 0 || (double)(l->dtl_load[a] + 1) / l->ana_per_host[a] <
                                (double)(l->dtl_load[best] + 1) / l->ana_per_host[best])
                best = a;
        }
        l->dtl_host[r] = best;
        l->dtl_load[best]++;
    }
    free(anas);
    layout_decompose_shape(l->sim_cores, &l->px, &l->py, &l->pz);
    l->bounded = !shape.periodic;
    free(role);
    return 0;
oom:
    snprintf(err, errlen, "out of memory");
fail:
    free(role);
    layout_free(l);
    return -1;
}

void layout_inline_view(const struct layout *l, struct layout *x)
{
    *x = *l;
    x->ana_per_host = l->sim_per_host;
    x->dtl_load = l->sim_per_host;
    x->ana_cores = l->sim_cores;
    x->ana_nodes = l->sim_nodes;
    x->collector_host = l->sim_cores ? l->rank_host[0] : 0;
}

void layout_free(struct layout *l)
{
    free(l->sim_per_host);
    free(l->ana_per_host);
    free(l->rank_host);
    free(l->dtl_host);
    free(l->dtl_load);
    memset(l, 0, sizeof *l);
}
