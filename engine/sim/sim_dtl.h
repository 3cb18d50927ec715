/* The data transport layer of the Sim-Situ paper (section 4.3) as channels: a producer/consumer
 * over a SimGrid mailbox (transfers cost loopback or network time, depending on where the two
 * ends are) or an instantaneous queue (no simulated time, flow dependencies kept). Halo exchanges
 * use the mailbox kind too: they are MPI traffic, not DTL traffic. Engine-internal. */
#ifndef SITU_SIM_DTL_H
#define SITU_SIM_DTL_H

#include <simgrid/cond.h>
#include <simgrid/forward.h>
#include <simgrid/mailbox.h>
#include <simgrid/mutex.h>
#include <simgrid/semaphore.h>
#include <stdbool.h>
#include <stddef.h>

struct sim_links;
struct staging_server;

struct channel {
    sg_mailbox_t mailbox; /* both kinds: the mailbox names the channel */
    sg_host_t owner;      /* where the receiver lives: the route of every put ends there */
    bool instant;         /* queue kind */
    bool crowded;         /* mailbox kind: many of its transfers are in flight at once */
    bool local;           /* every put comes over an unshared loopback (channel_set_local) */
    double latency, bandwidth;
    sg_sem_t avail;
    /* dtl=staging: the host's server (sim_staging.c), or NULL */
    struct staging_server *server;
    sg_mutex_t mutex; /* queue kind */
    sg_cond_t nonempty;
    void **items;
    size_t head, count, cap;
};

struct sent;

/* What travels: the simulated size is separate from this small descriptor. */
struct message {
    int kind;             /* MSG_STATE, MSG_METRIC, MSG_POISON, MSG_HALO */
    int step;             /* 0-based step the data belongs to */
    int count;            /* ranks (states, copies) or actors (metrics) this message stands for */
    double sent;          /* simulated date of the put */
    double bytes;         /* simulated size */
    struct sent *receipt; /* the sender's handle on the transfer, mailbox kind (sim_dtl.c) */
    double held;          /* dtl=staging: server bytes it holds until analysed (sim_staging.c) */
};

enum { MSG_STATE, MSG_METRIC, MSG_POISON, MSG_HALO };

/* A message of `kind` for `step`, standing for `count` ranks or actors, sent now (the caller's
 * date); aborts when out of memory (the child dies, its parent reports it). */
struct message *message_new(int kind, int step, int count);

/* `crowded`: many transfers of the channel are in flight at once (the halos, the states, the
 * metric copies); their senders keep them (see channel_put). The others are detached. */
void channel_init(struct channel *c, const char *name, sg_host_t owner, bool instant, bool crowded);
void channel_destroy(struct channel *c);

/* Every put to this channel comes from its own host over an unshared (fat-pipe) loopback: each
 * transfer takes `latency` + bytes / `bandwidth` from when both ends are there, whatever else
 * flows, so the channel keeps the dates instead of starting SimGrid transfers (an activity each,
 * and the LMM's work). */
void channel_set_local(struct channel *c, double latency, double bandwidth);

/* Fire-and-forget: the sender goes on at once. `bytes` is the simulated size, `real_bytes` the
 * traffic it stands for (counted on the route's links). The message is freed by the receiver.
 * A crowded channel's transfer is not detached: SimGrid 3.32 keeps every detached activity in one
 * list that it scans on each completion, which made a run cost the square of its ranks. Each
 * sender keeps its own transfers instead, and releases the delivered ones, 16 at a time, before it
 * sends again (and all in channel_flush). Other transfers are detached: few are in flight at once,
 * and releasing one is a simcall that could reorder the sender among actors waking at the same
 * date. */
void channel_put(struct channel *c, struct message *m, double bytes, double real_bytes,
                 struct sim_links *links);

/* Waits until every transfer this actor put is taken: an actor calls it before it ends. */
void channel_flush(void);

/* Blocking get of one message. */
struct message *channel_get(struct channel *c);

/* Starts `n` gets and waits for all of them (concurrent transfers share the links as they would).
 * out[n] receives the messages. */
void channel_get_n(struct channel *c, int n, struct message **out);

/* channel_get_n in two halves: the gets are posted (the transfers may start), then waited for. */
void channel_get_n_start(struct channel *c, int n, struct message **out, sg_comm_t *comms);
void channel_get_n_wait(struct channel *c, int n, struct message **out, sg_comm_t *comms);

/* Activities started through channels (communications). */
extern long channel_activities;

#endif
