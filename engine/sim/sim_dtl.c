#include "sim_dtl.h"

#include <math.h>
#include <simgrid/actor.h>
#include <simgrid/comm.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/semaphore.h>
#include <stdlib.h>
#include <string.h>
#include <xbt/log.h>

#include "sim_links.h"

XBT_LOG_NEW_DEFAULT_SUBCATEGORY(situ_sim_dtl, situ_sim, "the data transport layer's channels");

#ifdef SITU_SMPI
/* Built into libsitu_dtl for SMPI, where payloads must be copied as pointers (comm_shim.h). */
#include "../../smpi/comm_shim.h"
#define sg_mailbox_put_init  situ_shim_put_init
#define sg_mailbox_put_async situ_shim_put_async
#define sg_mailbox_get       situ_shim_get
#define sg_mailbox_get_async situ_shim_get_async
#endif

long channel_activities;

/* A transfer its sender has not released yet. */
struct sent {
    sg_comm_t comm; /* NULL once waited for */
    struct outbox *box;
    struct sent *prev, *next; /* the sender's pending transfers */
    struct sent *dnext;       /* the sender's delivered ones */
    bool delivered;           /* the receiver has the message */
    bool orphan;              /* the sender waited for it and ended: the receiver frees it */
};

/* One per actor (by pid): what it sent, and what of that was delivered since it last looked. */
struct outbox {
    struct sent *pending, *delivered;
    int ndelivered;
};

/* Releasing is a simcall per transfer: in batches, while a sender's list stays short. */
enum { RELEASE_BATCH = 16 };

static struct outbox **outboxes; /* [pid]: an outbox never moves, transfers point to it */
static size_t noutboxes;

static struct outbox *outbox_self(void)
{
    size_t pid = (size_t)sg_actor_self_get_pid();
    if (pid >= noutboxes) {
        size_t n = noutboxes ? noutboxes : 64;
        while (n <= pid)
            n *= 2;
        struct outbox **grown = realloc(outboxes, n * sizeof *grown);
        if (!grown)
            abort(); /* the child dies, the parent reports it: no partial result */
        memset(grown + noutboxes, 0, (n - noutboxes) * sizeof *grown);
        outboxes = grown;
        noutboxes = n;
    }
    if (!outboxes[pid] && !(outboxes[pid] = calloc(1, sizeof **outboxes)))
        abort();
    return outboxes[pid];
}

static void sent_track(struct message *m, sg_comm_t comm)
{
    struct outbox *box = outbox_self();
    struct sent *s = calloc(1, sizeof *s);
    if (!s)
        abort();
    s->comm = comm;
    s->box = box;
    s->next = box->pending;
    if (box->pending)
        box->pending->prev = s;
    box->pending = s;
    m->receipt = s;
}

/* The receiver has the message: the transfer is over, its sender may release it. */
static void sent_delivered(struct message *m)
{
    struct sent *s = m->receipt;
    m->receipt = NULL;
    if (!s)
        return;
    if (s->orphan) {
        free(s);
        return;
    }
    s->delivered = true;
    s->dnext = s->box->delivered;
    s->box->delivered = s;
    s->box->ndelivered++;
}

static void sent_unlink(struct sent *s)
{
    if (s->prev)
        s->prev->next = s->next;
    else
        s->box->pending = s->next;
    if (s->next)
        s->next->prev = s->prev;
}

/* Releases this actor's delivered transfers: each is over, so the wait takes no simulated time
 * (SimGrid drops it from the actor's list of activities). */
static void outbox_release(struct outbox *box)
{
    while (box->delivered) {
        struct sent *s = box->delivered;
        box->delivered = s->dnext;
        box->ndelivered--;
        sent_unlink(s);
        if (s->comm)
            sg_comm_wait(s->comm);
        free(s);
    }
}

void channel_flush(void)
{
    struct outbox *box = outbox_self();
    /* An actor's open transfers would be cancelled when it ends: wait until they are taken. */
    for (outbox_release(box); box->pending; outbox_release(box)) {
        struct sent *s = box->pending;
        sg_comm_wait(s->comm);
        s->comm = NULL;
        if (s->delivered) /* marked while we waited: released with the others */
            continue;
        sent_unlink(s);
        s->orphan = true; /* the receiver may mark it later (a get of several messages) */
    }
}

void channel_init(struct channel *c, const char *name, sg_host_t owner, bool instant, bool crowded)
{
    memset(c, 0, sizeof *c);
    c->owner = owner;
    c->mailbox = sg_mailbox_by_name(name);
    c->instant = instant;
    c->crowded = crowded;
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

static void ring_push(struct channel *c, struct message *m)
{
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
}

static struct message *ring_pop(struct channel *c)
{
    struct message *m = c->items[c->head];
    c->head = (c->head + 1) % c->cap;
    c->count--;
    return m;
}

static void queue_push(struct channel *c, struct message *m)
{
    sg_mutex_lock(c->mutex);
    ring_push(c, m);
    sg_cond_notify_one(c->nonempty);
    sg_mutex_unlock(c->mutex);
}

static struct message *queue_pop(struct channel *c)
{
    sg_mutex_lock(c->mutex);
    while (c->count == 0)
        sg_cond_wait(c->nonempty, c->mutex);
    struct message *m = ring_pop(c);
    sg_mutex_unlock(c->mutex);
    return m;
}

void channel_set_local(struct channel *c, double latency, double bandwidth)
{
    c->local = true;
    c->latency = latency;
    c->bandwidth = bandwidth;
    c->avail = sg_sem_init(0);
}

/* A local channel's gets: the messages' transfers start when both ends are there, side by side
 * on the unshared loopback; the receiver goes on when the last lands. */
static void local_get_n(struct channel *c, int n, struct message **out)
{
    double asked = simgrid_get_clock(), done = 0;
    for (int i = 0; i < n; i++) {
        sg_sem_acquire(c->avail); /* FIFO, as a mailbox matches its receivers */
        out[i] = ring_pop(c);
        done = fmax(done, fmax(out[i]->sent, asked) + c->latency + out[i]->bytes / c->bandwidth);
    }
    if (done > simgrid_get_clock()) {
        sg_actor_sleep_until(done);
        channel_activities++;
    }
}

void channel_put(struct channel *c, struct message *m, double bytes, double real_bytes,
                 struct sim_links *links)
{
    m->receipt = NULL;
    m->bytes = bytes;
    XBT_DEBUG("%s: put %.0f bytes (step %d)", sg_mailbox_get_name(c->mailbox), real_bytes, m->step);
    if (c->instant) {
        queue_push(c, m);
        return;
    }
    if (c->local) {
        ring_push(c, m); /* actors take turns: no lock needed */
        sg_sem_release(c->avail);
        if (links)
            sim_links_count(links, sg_host_self(), c->owner, real_bytes);
        return;
    }
    if (c->crowded) {
        struct outbox *box = outbox_self();
        if (box->ndelivered >= RELEASE_BATCH)
            outbox_release(box);
        sent_track(m, sg_mailbox_put_async(c->mailbox, m, (long)bytes));
    } else {
        sg_comm_t comm = sg_mailbox_put_init(c->mailbox, m, (long)bytes);
        sg_comm_detach(comm, free); /* a message nobody takes is freed with its comm */
    }
    channel_activities++;
    if (links)
        sim_links_count(links, sg_host_self(), c->owner, real_bytes);
}

struct message *channel_get(struct channel *c)
{
    if (c->instant)
        return queue_pop(c);
    if (c->local) {
        struct message *m;
        local_get_n(c, 1, &m);
        return m;
    }
    struct message *m = sg_mailbox_get(c->mailbox);
    sent_delivered(m);
    return m;
}

void channel_get_n_start(struct channel *c, int n, struct message **out, sg_comm_t *comms)
{
    if (c->instant)
        return;
    for (int i = 0; i < n; i++)
        comms[i] = sg_mailbox_get_async(c->mailbox, (void **)&out[i]);
}

void channel_get_n_wait(struct channel *c, int n, struct message **out, sg_comm_t *comms)
{
    if (c->instant) {
        for (int i = 0; i < n; i++)
            out[i] = channel_get(c);
        return;
    }
    if (n > 0)
        sg_comm_wait_all(comms, n);
    for (int i = 0; i < n; i++)
        sent_delivered(out[i]);
}

void channel_get_n(struct channel *c, int n, struct message **out)
{
    if (c->local) {
        local_get_n(c, n, out);
        return;
    }
    if (n == 1) { /* one simcall, as it always was: the order among actors at a date stays */
        out[0] = channel_get(c);
        return;
    }
    sg_comm_t comms[n > 0 ? n : 1];
    channel_get_n_start(c, n, out, comms);
    channel_get_n_wait(c, n, out, comms);
}

struct message *message_new(int kind, int step, int count)
{
    struct message *m = malloc(sizeof *m);
    if (!m)
        abort();
    m->kind = kind;
    m->step = step;
    m->count = count;
    m->sent = simgrid_get_clock();
    m->held = 0;
    return m;
}
