/* The one child wrapper between a caller and a simulation: the explorer, `situ run`, `situ sweep`
 * and Lua all reach SimGrid through it. Simulations run as child processes on a libuv loop: one
 * child per configuration (SimGrid cannot be reset, and a child is crash-isolated and killable),
 * at most max_jobs at once, most urgent first, results cached by configuration.
 *
 * Each child is one fork and one exec: the simulation helper, `situ-sim __simulate` (the one
 * program that links SimGrid: engine/base/datadir.h), or the command a caller names. Nothing forks
 * again below it. The explorer keeps one exec'd child ready ahead (runner_opts.ready),
 * which takes the next urgent configuration on its stdin and runs it as any other. The wrapper
 * alone applies the time limit, turns the child's end into a one-line reason, and parses its JSON
 * line, once, against the result schema. Every child runs in its own process group, dies with its
 * parent (PR_SET_PDEATHSIG) and is SIGKILLed with its group when nobody waits for it any more.
 *
 * A submission names a configuration, a priority (higher runs first, and may preempt a running
 * lower-priority child when every slot is taken) and a tag (what the caller cancels by). Identical
 * configurations share one child: each submission is a waiter on it, and a child nobody waits for
 * any more is killed (SIGKILL to its process group) and reaped. Children start on the next loop
 * turn (forking costs milliseconds, which no caller's event should wait for). Background jobs
 * (priority <= 0) run at nice 10, below the caller, and none starts while an urgent one
 * (priority > 0) runs: what someone is waiting for gets the cores. Callbacks run on the loop
 * thread, never inside a call of the caller's: a cache hit is said on the next loop turn. No
 * curses, no SimGrid here. */
#ifndef SITU_RUNNER_H
#define SITU_RUNNER_H

#include <jansson.h>
#include <stdbool.h>
#include <uv.h>

#include "../model/params.h"
#include "../model/result.h"
#include "cache.h" /* struct cache_inputs (runner_lookup_memo) */

#define RUNNER_KEY_MAX    (PARAMS_CANONICAL_MAX + PARAMS_PATH_MAX + 64) /* canonical + inputs */
#define RUNNER_ERR_MAX    320
#define RUNNER_TIME_LIMIT 60 /* seconds a simulation child may run, unless the caller says */

enum runner_status { RUNNER_OK, RUNNER_FAILED };

struct runner_done {
    long id; /* what runner_submit returned (0 for a cache hit) */
    int tag; /* as submitted */
    const struct params *params;
    const char *key; /* params_canonical of params, plus the digest of its input files' content */
    enum runner_status status;
    const struct sim_result *result; /* RUNNER_OK; valid during the callback only */
    /* RUNNER_OK from a child (not the cache): its JSON line as printed and as parsed (the one
     * parse; json_incref to keep it), valid during the callback only. NULL otherwise. */
    const char *text;
    json_t *json;
    const char *error; /* RUNNER_FAILED: one line, e.g. "simulation crashed (Aborted): ..." */
    bool cached;       /* served from the cache, no child ran */
    double seconds;    /* the child's wall time */
    /* RUNNER_OK from a child: an input file (platform, hostfile, analytics) that changed
     * between the submission and the child's end, so the result is in no cache (and may
     * mix both versions); NULL otherwise. Said once on stderr too (cache.h). */
    const char *changed;
};

typedef void (*runner_cb)(void *ud, const struct runner_done *done);

struct runner_opts {
    /* The command a child execs before the parameter flags, NULL-terminated; NULL means the
     * helper as `situ-sim __simulate` (SITU_SIM_SUBCOMMAND=model makes it this binary's `situ
     * model --json`, a test's instant stand-in). Every parameter follows as "--key" "value". */
    const char *const *argv;
    int max_jobs;      /* concurrent children; <= 0: uv_available_parallelism() */
    double time_limit; /* seconds per child before SIGKILL; 0: RUNNER_TIME_LIMIT; < 0: none */
    /* Results kept (oldest evicted first); 0: 4096; < 0: none, and no input file is checked at
     * a job's end (a caller that runs everything RUNNER_FORCE and keeps its own cache). */
    int cache_max;
    /* Results directory shared with `situ sweep` (engine/run/cache.h), or NULL: looked up when a
     * job is submitted (not by runner_lookup, which stays a memory lookup) and fed by every
     * successful child. */
    const char *disk_cache;
    size_t output_max; /* bytes of stdout accepted; beyond that the child fails; 0: 64 MiB */
    /* Keep a child ready (argv `situ-sim __simulate [FLAG ...]` only): one child is started
     * ahead as `ARGV --ready`, loads the helper and SimGrid, and waits on its stdin for a
     * configuration; the
     * next urgent job (priority > 0) is handed to it, which takes the process start (tens of
     * ms) off that job's path, and the next ready child starts at once. It still runs exactly
     * one simulation; it dies with this process (PR_SET_PDEATHSIG, and its stdin's EOF) and
     * with runner_shutdown. Background jobs start cold, as without it. */
    bool ready;
    /* Called (if set) whenever the running or queued counts change, so a UI can redraw. */
    void (*on_change)(void *ud);
    void *on_change_ud;
};

enum runner_flags {
    RUNNER_FORCE = 1, /* run even if cached; the new result replaces the old */
};

enum runner_job_state { RUNNER_JOB_NONE, RUNNER_JOB_QUEUED, RUNNER_JOB_RUNNING };

struct runner;

/* NULL with a reason in err if the loop or the options cannot work. */
struct runner *runner_new(uv_loop_t *loop, const struct runner_opts *o, char *err, size_t errlen);

/* Queues a simulation of p. Returns an id > 0 if queued (or attached to an identical job), 0 if
 * served from the cache (cb runs on the next loop turn, unless its tag is cancelled first), -1
 * when out of memory (cb has run with the reason: the one case it runs inside this call, as
 * nothing could be queued to say it later). */
long runner_submit(struct runner *r, const struct params *p, int priority, int tag, unsigned flags,
                   runner_cb cb, void *ud);

/* Drops one submission / every submission with `tag` (cache hits not yet said included); a child
 * left with no waiter is killed. No callback runs for dropped submissions. Returns how many were
 * dropped. */
int runner_cancel(struct runner *r, long id);
int runner_cancel_tag(struct runner *r, int tag);

/* The cached result for p, or NULL. Valid until the next runner call. */
const struct sim_result *runner_lookup(struct runner *r, const struct params *p);

/* runner_lookup for a burst of configurations of the same files (the explorer's rungs and
 * crossover points at each key): the input files are read once for each set of paths, not at
 * every lookup (reading and hashing a platform, and parsing it for the files it names, was most
 * of a key's time). Zero the memo before the burst; it holds for that burst only. */
struct runner_lookup_memo {
    bool ok;
    struct params p; /* whose paths in holds */
    struct cache_inputs in;
};
const struct sim_result *runner_lookup_memo(struct runner *r, const struct params *p,
                                            struct runner_lookup_memo *m);

enum runner_job_state runner_job_state(const struct runner *r, long id);

/* Children running (killed ones still being reaped are not counted) and jobs waiting. */
void runner_counts(const struct runner *r, int *running, int *queued);

/* Kills every child, drops every waiter and closes the runner's handles; safe to call twice.
 * The children are reaped as the loop keeps running; run it (uv_run) until it has nothing left,
 * then runner_free. */
void runner_shutdown(struct runner *r);

/* Frees the runner; call after runner_shutdown and after the loop has drained. */
void runner_free(struct runner *r);

#endif
