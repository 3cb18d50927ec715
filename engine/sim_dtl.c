#include "sim_dtl.h"

#include <simgrid/actor.h>
#include <simgrid/comm.h>
#include <simgrid/host.h>
#include <stdlib.h>
#include <string.h>

#include "sim_links.h"

#ifdef SITU_SMPI
/* Built into libsitu_dtl for SMPI, where payloads must be copied as pointers (comm_shim.h). */
#include "../smpi/comm_shim.h"
#define sg_mailbox_put_init  situ_shim_put_init
#define sg_mailbox_get       situ_shim_get
#define sg_mailbox_get_async situ_shim_get_async
#endif

long channel_activities;

void channel_init(struct channel *c, const char *name, sg_host_t owner, bool instant)
{
    memset(c, 0, sizeof *c);
    c->owner = owner;
    c->mailbox = sg_mailbox_by_name(name);
    c->instant = instant;
    if (instant) {
        c->mutex = sg_mutex_init();
        c->nonempty = sg_cond_init();
    }
}

void channel_destroy(struct channel *c)
{
    if (c->instant) {
        for (size_t i = 0; i < c->count; i++)
            free(c->items[(c->head + i) % c->cap]);
        free(c->items);
        sg_cond_destroy(c->nonempty);
        sg_mutex_destroy(c->mutex);
    }
    memset(c, 0, sizeof *c);
}

static void queue_push(struct channel *c, struct message *m)
{
    sg_mutex_lock(c->mutex);
    if (c->count == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 16;
        void **items = malloc(cap * sizeof *items);
        if (!items)
            abort(); /* the child dies, the parent reports it: no partial result */
        for (size_t i = 0; i < c->count; i++)
            items[i] = c->items[(c->head + i) % c->cap];
        free(c->items);
        c->items = items;
        c->head = 0;
        c->cap = cap;
    }
    c->items[(c->head + c->count++) % c->cap] = m;
    sg_cond_notify_one(c->nonempty);
    sg_mutex_unlock(c->mutex);
}

static struct message *queue_pop(struct channel *c)
{
    sg_mutex_lock(c->mutex);
    while (c->count == 0)
        sg_cond_wait(c->nonempty, c->mutex);
    struct message *m = c->items[c->head];
    c->head = (c->head + 1) % c->cap;
    c->count--;
    sg_mutex_unlock(c->mutex);
    return m;
}

void channel_put(struct channel *c, struct message *m, double bytes, double real_bytes,
                 struct sim_links *links)
{
    if (c->instant) {
        queue_push(c, m);
        return;
    }
    sg_comm_t comm = sg_mailbox_put_init(c->mailbox, m, (long)bytes);
    sg_comm_detach(comm, free); /* a message nobody takes is freed with its comm */
    channel_activities++;
    if (links)
        sim_links_count(links, sg_host_self(), c->owner, real_bytes);
}

struct message *channel_get(struct channel *c)
{
    if (c->instant)
        return queue_pop(c);
    return sg_mailbox_get(c->mailbox);
}

void channel_get_n(struct channel *c, int n, struct message **out)
{
    if (c->instant || n == 1) {
        for (int i = 0; i < n; i++)
            out[i] = channel_get(c);
        return;
    }
    sg_comm_t comms[n];
    for (int i = 0; i < n; i++)
        comms[i] = sg_mailbox_get_async(c->mailbox, (void **)&out[i]);
    sg_comm_wait_all(comms, n);
}
