/* Files on the platform's file system (--dtl file, --mapping posthoc), with SimGrid's own disks:
 * a state is one file striped over every host with a disk (model_file.c); each stripe is sent
 * over the network (sg_host_sendto) and written to the server's disk (sg_disk_write), or read
 * then sent back. SimGrid's C API has no asynchronous disk or host-to-host transfer, so one
 * helper actor per stripe moves it and the writer (reader) waits for all of them: a file's
 * stripes go at once and share the disks and links with everything else in flight. */
#include <math.h>
#include <simgrid/actor.h>
#include <simgrid/disk.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/semaphore.h>
#include <stdlib.h>
#include <xbt/sysdep.h>

#include "sim_internal.h"

struct stripe {
    struct engine *e;
    int server;
    sg_host_t peer; /* the writer's or the reader's host */
    double bytes;
    bool write;
    sg_sem_t done;
};

static void stripe_actor(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    struct stripe *s = sg_actor_self_get_data();
    struct engine *e = s->e;
    sg_host_t srv = e->fs_host[s->server];
    if (s->write) {
        sg_host_sendto(s->peer, srv, s->bytes);
        sg_disk_write(e->fs_disk[s->server], (sg_size_t)llround(s->bytes));
    } else {
        sg_disk_read(e->fs_disk[s->server], (sg_size_t)llround(s->bytes));
        sg_host_sendto(srv, s->peer, s->bytes);
    }
    sg_sem_release(s->done);
}

int sim_file_init(struct engine *e)
{
    e->nfs = e->pf.ndisks;
    if (!ZALLOC(e->fs_host, e->nfs) || !ZALLOC(e->fs_disk, e->nfs))
        return -1;
    for (int s = 0; s < e->nfs; s++) {
        e->fs_host[s] = e->hosts[e->pf.disk[s].host];
        unsigned n = 0;
        sg_disk_t *disks = NULL;
        if (e->fs_host[s])
            sg_host_get_disks(e->fs_host[s], &n, &disks);
        if (n < 1) {
            xbt_free(disks);
            return -1;
        }
        e->fs_disk[s] = disks[0];
        xbt_free(disks);
    }
    return 0;
}

/* Moves one file of `bytes` between host `peer` and the servers, a stripe each, and returns
 * when every stripe is written (read and delivered). */
static void file_move(struct engine *e, sg_host_t peer, double bytes, bool write)
{
    if (bytes <= 0 || e->nfs < 1)
        return;
    struct stripe s[e->nfs];
    sg_sem_t done = sg_sem_init(0);
    for (int k = 0; k < e->nfs; k++) {
        s[k] = (struct stripe){e, k, peer, bytes / e->nfs, write, done};
        sg_actor_t a = sg_actor_init(write ? "stripe-write" : "stripe-read", peer);
        sg_actor_set_data(a, &s[k]);
        sg_actor_start(a, stripe_actor, 0, NULL);
        if (write)
            sim_links_count(&e->links, peer, e->fs_host[k], bytes / e->nfs);
        else
            sim_links_count(&e->links, e->fs_host[k], peer, bytes / e->nfs);
    }
    for (int k = 0; k < e->nfs; k++)
        sg_sem_acquire(done);
    sg_sem_destroy(done);
    e->io += 2 * e->nfs;
}

void sim_file_write(struct engine *e, sg_host_t from, double bytes)
{
    file_move(e, from, bytes, true);
}

void sim_file_read(struct engine *e, sg_host_t to, double bytes)
{
    file_move(e, to, bytes, false);
}
