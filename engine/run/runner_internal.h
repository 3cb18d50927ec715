/* Private to engine/run/runner*.c: the job and runner records shared by the scheduler (runner.c:
 * the queue, priorities, waiters, caches) and the child wrapper (runner_child.c: one child process
 * per running job, its time limit, its reason and its parse). The scheduler calls the wrapper; the
 * wrapper answers only through the two callbacks the scheduler set in struct runner, so the calls
 * run one way, as a libuv handle answers through its callbacks. */
#ifndef SITU_RUNNER_INTERNAL_H
#define SITU_RUNNER_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <uv.h>

#include "../model/params.h"
#include "../model/result.h"
#include "cache.h"
#include "runner.h"

struct proc;

#define STDERR_LINE_MAX 200 /* of the reason a failed simulation gives */

struct waiter {
    long id;
    int tag;
    int priority;
    runner_cb cb;
    void *ud;
    struct waiter *next;
};

enum job_state { JOB_QUEUED, JOB_RUNNING };

struct job {
    struct runner *r;
    struct job *prev, *next; /* in r->queued or r->running */
    enum job_state state;
    struct params p;
    char key[RUNNER_KEY_MAX];
    uint64_t hash;
    struct cache_inputs inputs; /* the input files when submitted: the key's, checked at the end */
    struct waiter *waiters;     /* none left: an orphan, killed and reaped without callbacks */
    int priority;               /* the highest of the waiters' */
    long seq;                   /* FIFO order among equal priorities */
    bool force;

    struct proc *proc; /* its child while it runs (runner_child.c), NULL before and after */
};

/* A cache hit waiting for the next loop turn: the result is looked up again then (by key). */
struct delivery {
    struct delivery *next;
    long seq; /* in submission order: a turn says those submitted before it began */
    int tag, priority;
    runner_cb cb;
    void *ud;
    struct params p;
    char key[RUNNER_KEY_MAX];
    uint64_t hash;
};

struct runner {
    uv_loop_t *loop;
    char **prefix; /* argv before the parameter flags (exec'd children) */
    int nprefix;
    int max_jobs;
    double time_limit;
    size_t output_max;
    void (*on_change)(void *ud);
    void *on_change_ud;

    /* How the child wrapper reports back (set by runner_new). job_ended: j's child has ended;
     * its slot frees, and the result (res, parsed from json, the child's stdout `text`) or the
     * reason `error` goes to its waiters. job_free: then j goes. */
    void (*job_ended)(struct job *j, const struct sim_result *res, json_t *json, const char *text,
                      const char *error, double secs);
    void (*job_free)(struct job *j);

    /* Cache hits, delivered on the next loop turn (on_kick), never inside runner_submit: a
     * caller's callback never runs inside its own call. Oldest first. */
    struct delivery *deliveries, **deliveries_end;
    long delivery_seq;

    struct job *queued, *running;
    int nqueued, nrunning; /* nrunning counts orphans not yet reaped: they still hold a slot */
    long next_id, next_seq;
    bool pumping, pump_again;
    uv_idle_t kick; /* starts children on the next loop turn, never inside a caller's event */
    bool kick_open;

    struct rcache *cache; /* this session's results */
    bool remember;        /* cache_max >= 0: results are kept (if their inputs held) */
    char *disk;           /* the results directory shared with `situ sweep`, or NULL */

    /* The ready child (runner_child.c): `situ-sim __simulate --ready`, started ahead and
     * waiting on its stdin for the next urgent job's parameters. NULL: none. */
    bool ready_on;
    struct proc *ready;
};

/* ---- runner_child.c: one child process --------------------------------------------------- */

/* Starts j's child (j is already in r->running). On failure error holds the one-line reason;
 * returns -1. */
int runner_child_start(struct job *j, char *error, size_t errlen);

/* SIGKILLs j's child and everything in its process group; its exit is reaped as usual. */
void runner_child_kill(struct job *j);

/* Starts the ready child if r keeps one (ready_on) and has none. */
void runner_child_ready_start(struct runner *r);

/* SIGKILLs the ready child, if any; the loop reaps it. */
void runner_child_ready_stop(struct runner *r);

#endif
