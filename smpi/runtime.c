/* The shared part of fidelity=smpi (runtime.h). Compiled without SMPI's helpers: clocks here are
 * the machine's, the simulated one is simgrid_get_clock(). */
#include "runtime.h"

#include <limits.h>
#include <mpi.h>
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <smpi/smpi.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../engine/base/outfile.h"
#include "../engine/lua/simulation.h"
#include "../engine/model/platform.h"
#include "../engine/model/report.h"
#include "../engine/sim/sim.h"
#include "../engine/sim/sim_smpi.h"

#define HALO_TAG 0x5175

static struct engine engine;
static struct sim_measure measure;
static bool building, ready;
static double t0;
static char run_dir[PATH_MAX]; /* where the configuration is, and the result goes */
static long nprocs, running;
static void *halo_buf;
static long halo_max;

/* The run's directory, that of SITU_SMPI_CONFIG ("" outside situ): known before the
 * configuration is read, so that a reason can be written there from the first call on. */
static const char *dir_of_run(void)
{
    const char *path = getenv(SIM_SMPI_CONFIG_ENV);
    if (!run_dir[0] && path && strlen(path) < sizeof run_dir) {
        memcpy(run_dir, path, strlen(path) + 1);
        char *slash = strrchr(run_dir, '/');
        if (slash)
            *slash = 0;
        else
            memcpy(run_dir, ".", 2);
    }
    return run_dir;
}

/* Writes the reason where situ reads it first (SIM_SMPI_REASON), and on stderr for whoever runs
 * this by hand; then ends the process at once. Not exit(): SimGrid's exit handler would see ranks
 * that never called MPI_Finalize, die with its own message and abort, and the reason that
 * matters would be a line among others. */
void situ_smpi_die(const char *fmt, ...)
{
    char reason[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    fprintf(stderr, "situ-smpi: %s\n", reason);
    char path[PATH_MAX + 16], err[OUTFILE_ERR_MAX];
    struct outfile o;
    if (dir_of_run()[0] &&
        snprintf(path, sizeof path, "%s/" SIM_SMPI_REASON, dir_of_run()) < (int)sizeof path &&
        outfile_open(&o, path, err, sizeof err) == 0) {
        outfile_write(&o, reason, strlen(reason));
        outfile_write(&o, "\n", 1);
        outfile_commit(&o, err, sizeof err);
    }
    fflush(NULL); /* what the application printed so far */
    _exit(3);
}

struct engine *situ_smpi_engine(void)
{
    return &engine;
}

static void read_config(struct params *p)
{
    const char *path = getenv(SIM_SMPI_CONFIG_ENV);
    if (!path)
        situ_smpi_die("no %s: run this under 'situ run --fidelity smpi' or '--smpi-app'",
                      SIM_SMPI_CONFIG_ENV);
    FILE *f = fopen(path, "r");
    if (!f)
        situ_smpi_die("%s: cannot read", path);
    params_defaults(p);
    char line[PARAMS_PATH_MAX + 64], err[PARAMS_ERR_MAX];
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        if (!strncmp(line, "--situ-t0=", 10))
            t0 = atof(line + 10);
        else if (!strncmp(line, "--situ-self=", 12))
            platform_set_digest_program(line + 12);
        else if (!strncmp(line, "--situ-", 7))
            continue; /* read by the side that needs it */
        else if (!strncmp(line, "--simulation=", 13) &&
                 simulation_activate(line + 13, err, sizeof err) < 0)
            situ_smpi_die("%s", err); /* its parameters follow it in the table's order */
        else {
            char *argv[] = {line, NULL};
            int i = 0;
            if (params_parse_flag(p, 1, argv, &i, err) <= 0)
                situ_smpi_die("%s: %s", path, err);
        }
    }
    fclose(f);
}

static void mpi_execute(double flops)
{
    smpi_execute_flops(flops);
}

/* A halo edge points at its receiver's halo channel, inside the receiver's group. */
static struct sim_group *group_of(struct channel *halo)
{
    return (struct sim_group *)((char *)halo - offsetof(struct sim_group, halo));
}

/* The engine's halo exchange in MPI: each face sent fire-and-forget, as the mailbox puts are,
 * then the faces of every neighbour received. Full fidelity keeps its on-node faces apart (dates
 * on the loopback, sim_halo.c): here they are MPI messages too. */
static void mpi_send(struct engine *e, struct sim_group *g, struct sim_group *to, double bytes,
                     double real_bytes)
{
    MPI_Request r;
    MPI_Isend(halo_buf, (int)bytes, MPI_BYTE, (int)(to - e->sims), HALO_TAG, MPI_COMM_WORLD, &r);
    MPI_Request_free(&r);
    sim_links_count(&e->links, g->sg, to->sg, real_bytes);
    channel_activities++;
}

static void mpi_halo(struct engine *e, struct sim_group *g, long exchanges)
{
    for (int k = 0; k < g->nhalo; k++) {
        const struct edge *x = &g->halo_out[k];
        mpi_send(e, g, group_of(x->to), x->bytes * exchanges * g->halo_scale,
                 x->real_bytes * exchanges * g->halo_scale);
    }
    for (int k = 0; k < g->nlout; k++) {
        double bytes = g->lout[k].bytes * exchanges * g->halo_scale;
        mpi_send(e, g, g->lout[k].to, bytes, bytes);
    }
    int n = g->nhalo + g->nlout; /* the neighbours send as many as they get from us */
    MPI_Request in[n ? n : 1];
    for (int k = 0; k < n; k++) {
        struct sim_group *from =
            k < g->nhalo ? group_of(g->halo_out[k].to) : g->lout[k - g->nhalo].to;
        MPI_Irecv(halo_buf, (int)halo_max, MPI_BYTE, (int)(from - e->sims), HALO_TAG,
                  MPI_COMM_WORLD, &in[k]);
    }
    MPI_Waitall(n, in, MPI_STATUSES_IGNORE);
}

static void setup(bool app)
{
    struct params p;
    char err[512];
    read_config(&p);
    if (p.fidelity != FIDELITY_SMPI)
        situ_smpi_die("the configuration is not fidelity=smpi");
    if (sim_load(&engine, &p, err, sizeof err) < 0 ||
        sim_setup(&engine, &measure, err, sizeof err) < 0)
        situ_smpi_die("%s", err);
    engine.execute = mpi_execute;
    if (!app) {
        engine.halo = mpi_halo;
        for (int k = 0; k < engine.nsims; k++) {
            const struct sim_group *g = &engine.sims[k];
            for (int x = 0; x < g->nhalo; x++)
                halo_max = g->halo_out[x].bytes > halo_max ? (long)g->halo_out[x].bytes : halo_max;
            for (int x = 0; x < g->nlout; x++)
                halo_max = g->lout[x].bytes > halo_max ? (long)g->lout[x].bytes : halo_max;
        }
        if (halo_max > INT_MAX)
            situ_smpi_die("a halo message of %ld bytes is beyond one MPI message", halo_max);
        /* One buffer for every face: SMPI moves no real bytes through a shared one. */
        halo_buf = SMPI_SHARED_MALLOC(halo_max ? (size_t)halo_max : 1);
    }
    engine.analytics_running = 0;
    for (int k = 0; k < engine.nanas; k++)
        engine.analytics_running += sim_analytics_runs(&engine, k);
    nprocs = running = sim_smpi_placement(&engine.l, NULL);
    int workflow =
        engine.nsims + (engine.l.inline_ranks ? 0 /* the ranks alone */
                                              : engine.analytics_running + 1 + engine.npostmen);
    if (nprocs != workflow)
        situ_smpi_die("the placement has %ld processes, the workflow %d: a Situ bug", nprocs,
                      workflow);
    ready = true;
}

static int role_of(long rank, void **data)
{
    if (rank < engine.nsims) {
        *data = &engine.sims[rank];
        return SITU_ROLE_SIM;
    }
    long n = engine.nsims;
    for (int k = 0; k < engine.nanas; k++) {
        if (!sim_analytics_runs(&engine, k))
            continue;
        if (n++ == rank) {
            *data = &engine.anas[k];
            return SITU_ROLE_ANALYTICS;
        }
    }
    *data = NULL;
    if (n++ == rank)
        return SITU_ROLE_COLLECTOR;
    *data = &engine.postmen[rank - n];
    return SITU_ROLE_POSTMAN;
}

int situ_smpi_join(bool app, struct sim_group **group)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    /* The first process builds; SimGrid may switch to others in the middle (some calls are
     * simcalls): they wait for it. */
    if (!building) {
        building = true;
        setup(app);
    }
    while (!ready)
        sg_actor_yield();
    if (size != nprocs)
        situ_smpi_die("%d MPI processes, but the placement has %ld (sim ranks, analytics, "
                      "collector, postmen): run it through situ",
                      size, nprocs);
    void *data;
    int role = role_of(rank, &data);
    sg_host_t want = role == SITU_ROLE_SIM         ? ((struct sim_group *)data)->sg
                     : role == SITU_ROLE_ANALYTICS ? ((struct ana_group *)data)->sg
                                                   : engine.hosts[engine.l.collector_host];
    if (sg_host_self() != want)
        situ_smpi_die("rank %d runs on %s, the placement says %s", rank,
                      sg_host_get_name(sg_host_self()), sg_host_get_name(want));
    sg_actor_set_data(sg_actor_self(), data);
    *group = role == SITU_ROLE_SIM ? data : NULL;
    return role;
}

void situ_smpi_play(int role)
{
    if (role == SITU_ROLE_SIM)
        sim_rank_actor(0, NULL);
    else if (role == SITU_ROLE_ANALYTICS)
        sim_analytics_actor(0, NULL);
    else if (role == SITU_ROLE_COLLECTOR)
        sim_collector_actor(0, NULL);
    else
        sim_postman_actor(0, NULL);
}

void situ_smpi_leave(void)
{
    if (--running > 0)
        return;
    char err[OUTFILE_ERR_MAX];
    if (sim_finish(&engine, &measure, err, sizeof err) < 0)
        situ_smpi_die("%s", err);
    struct timespec w;
    clock_gettime(CLOCK_MONOTONIC, &w);
    measure.wall_seconds = w.tv_sec + w.tv_nsec * 1e-9 - t0;
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m)
        situ_smpi_die("out of memory");
    json_t *j = report_sim_json(&engine.p, &measure,
                                report_link_alert); /* the wrapper reads one JSON line */
    if (!j || report_print_json(m, j) < 0)
        situ_smpi_die("out of memory");
    json_decref(j);
    fclose(m);
    struct outfile o;
    char out_path[PATH_MAX + 16];
    snprintf(out_path, sizeof out_path, "%s/" SIM_SMPI_RESULT, dir_of_run());
    if (outfile_open(&o, out_path, err, sizeof err) < 0)
        situ_smpi_die("%s", err);
    outfile_write(&o, text, len);
    free(text);
    if (outfile_commit(&o, err, sizeof err) < 0)
        situ_smpi_die("%s", err);
}
