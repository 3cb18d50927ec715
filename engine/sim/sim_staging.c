/* dtl=staging in the engine: one staging server per analytics host (mapping=intransit puts the
 * analytics on the staging nodes), holding up to staging_memory bytes of states. A rank's put
 * first waits for room on its server (back-pressure, a SimGrid mutex and condition over the
 * server's bytes), then pushes its state there: the host's DTL channel has a permanent receiver,
 * so the transfer starts with the put, as a DataSpaces put writes into the server's memory. The
 * host's actors read the states in place, in the order they were put, and free their bytes when
 * the analysis ends (model.h says the same for the model). */
#include <math.h>
#include <simgrid/cond.h>
#include <simgrid/engine.h>
#include <simgrid/mailbox.h>
#include <simgrid/mutex.h>
#include <stdlib.h>
#include <xbt/log.h>

#include "sim_internal.h"

XBT_LOG_NEW_DEFAULT_SUBCATEGORY(situ_sim_staging, situ_sim, "the staging servers' memory");

struct staging_server {
    sg_mutex_t mutex;
    sg_cond_t room;
    double used, capacity; /* bytes */
};

bool sim_staging_fast(const struct engine *e)
{
    double most = 0;
    for (long i = 0; i < e->steps; i++)
        most = fmax(most, e->chunk_bytes[i]);
    /* The same rounding as the model's states per server (model_staging.c). */
    long states = most > 0 ? (long)floor(e->p.staging_memory / most) : -1;
    for (int h = 0; states >= 0 && h < e->l.hosts; h++)
        if (e->l.ana_per_host[h] && e->l.dtl_load[h] > states)
            return false;
    return true;
}

int sim_staging_init(struct engine *e)
{
    if (e->p.dtl != DTL_STAGING)
        return 0;
    if (!ZALLOC(e->servers, e->l.hosts) || !ZALLOC(e->staging_max, e->steps) ||
        !ZALLOC(e->staging_first, e->steps) || !ZALLOC(e->staging_last, e->steps))
        return -1;
    for (long i = 0; i < e->steps; i++)
        e->staging_first[i] = INFINITY;
    for (int k = 0; k < e->nstate_channels; k++) {
        struct channel *c = &e->state_channels[k];
        int h = -1;
        for (int a = 0; a < e->nanas && h < 0; a++)
            h = e->anas[a].in == c ? e->anas[a].host : -1;
        if (h < 0)
            continue;
        struct staging_server *s = &e->servers[h];
        s->mutex = sg_mutex_init();
        s->room = sg_cond_init();
        s->capacity = e->p.staging_memory;
        c->server = s;
    }
    /* Fast mode's group of a host's actors: the states were pushed with their puts, so no
     * retrieval of theirs is merged away (no latency to add), and every actor waits for its
     * first state as long as the group does (they all land together). */
    for (int k = 0; k < e->nanas; k++) {
        e->anas[k].extra_latency = 0;
        e->anas[k].share_R = 1;
    }
    return 0;
}

void sim_staging_reserve(struct engine *e, struct sim_group *g, long i, struct channel *c,
                         double bytes)
{
    struct staging_server *s = c->server;
    double t0 = simgrid_get_clock();
    e->staging_first[i] = fmin(e->staging_first[i], t0);
    sg_mutex_lock(s->mutex);
    /* A server takes any state that fits (profile_staging_check: one always does, alone). */
    while (s->used > 0 && s->used + bytes > s->capacity * (1 + 1e-12))
        sg_cond_wait(s->room, s->mutex);
    s->used += bytes;
    sg_mutex_unlock(s->mutex);
    double wait = simgrid_get_clock() - t0;
    if (wait > 0) {
        g->idle[i] += wait;
        e->staging_max[i] = fmax(e->staging_max[i], wait);
        XBT_DEBUG("step %ld: %d ranks waited %.6f s for room", i, g->ranks, wait);
    }
}

void sim_staging_release(struct engine *e, struct ana_group *a, long step)
{
    struct staging_server *s = a->in->server;
    if (!s || a->held <= 0)
        return;
    e->staging_last[step] = fmax(e->staging_last[step], simgrid_get_clock());
    sg_mutex_lock(s->mutex);
    s->used = fmax(0, s->used - a->held);
    sg_cond_notify_all(s->room);
    sg_mutex_unlock(s->mutex);
    a->held = 0;
}

void sim_staging_receive(struct ana_group *a)
{
    if (a->in->server)
        sg_mailbox_set_receiver(sg_mailbox_get_name(a->in->mailbox));
}
