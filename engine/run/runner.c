/* The runner's scheduler (see runner.h): the queue of jobs, their priorities and waiters,
 * preemption, cancelling, and the memory and disk caches. Each running job's child process is
 * runner_child.c's: the one child wrapper. */
#include "runner.h"

#include "cache.h"
#include "../base/datadir.h"
#include "runner_cache.h"
#include "runner_internal.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void pump(struct runner *r);
static void schedule(struct runner *r);
static int drop_deliveries(struct runner *r, bool all, int tag);

/* ---- small helpers ----------------------------------------------------------------------- */

static void notify(struct runner *r)
{
    if (r->on_change)
        r->on_change(r->on_change_ud);
}

static void list_push(struct job **head, struct job *j)
{
    j->prev = NULL;
    j->next = *head;
    if (*head)
        (*head)->prev = j;
    *head = j;
}

static void list_unlink(struct job **head, struct job *j)
{
    if (j->prev)
        j->prev->next = j->next;
    else
        *head = j->next;
    if (j->next)
        j->next->prev = j->prev;
    j->prev = j->next = NULL;
}

/* The cache key: the configuration, plus what its input files held when it was taken
 * (params_canonical has only their names, and an edited file must not hit old results). */
static void runner_key(const struct params *p, const struct cache_inputs *in, char *key, size_t len)
{
    params_canonical(p, key, len);
    size_t n = strlen(key);
    snprintf(key + n, len - n, ";inputs=%016llx", (unsigned long long)cache_inputs_digest(in));
}

const struct sim_result *runner_lookup(struct runner *r, const struct params *p)
{
    struct runner_lookup_memo m = {.ok = false};
    return runner_lookup_memo(r, p, &m);
}

const struct sim_result *runner_lookup_memo(struct runner *r, const struct params *p,
                                            struct runner_lookup_memo *m)
{
    if (!m->ok || !cache_inputs_same_paths(&m->p, p)) {
        cache_inputs_take(p, &m->in);
        m->p = *p;
        m->ok = true;
    }
    char key[RUNNER_KEY_MAX];
    runner_key(p, &m->in, key, sizeof key);
    return rcache_get(r->cache, key, rcache_hash(key));
}

/* ---- lifecycle --------------------------------------------------------------------------- */

static void on_closed(uv_handle_t *h)
{
    (void)h;
}

static void job_free(struct job *j);
static void child_ended(struct job *j, const struct sim_result *res, json_t *json, const char *text,
                        const char *error, double secs);

struct runner *runner_new(uv_loop_t *loop, const struct runner_opts *o, char *err, size_t errlen)
{
    if (err && errlen)
        err[0] = 0;
    struct runner *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(err, errlen, "runner: out of memory");
        return NULL;
    }
    r->loop = loop;
    r->max_jobs = o && o->max_jobs > 0 ? o->max_jobs : (int)uv_available_parallelism();
    r->time_limit = o && o->time_limit != 0 ? o->time_limit : RUNNER_TIME_LIMIT;
    r->output_max = o && o->output_max > 0 ? o->output_max : (size_t)64 << 20;
    r->on_change = o ? o->on_change : NULL;
    r->on_change_ud = o ? o->on_change_ud : NULL;
    r->job_ended = child_ended;
    r->job_free = job_free;
    r->next_id = 1;
    r->deliveries_end = &r->deliveries;
    r->cache = rcache_new(o && o->cache_max > 0 ? o->cache_max : 0);
    r->remember = !o || o->cache_max >= 0;
    if (!r->cache || (o && o->disk_cache && !(r->disk = strdup(o->disk_cache))))
        goto fail;
    cache_dir_say(); /* the explorer's stderr is still the terminal's here */

    /* SITU_SIM_SUBCOMMAND=model lets tests stand this binary's instant `situ model --json` in
     * for the simulation helper. */
    char self[4096];
    const char *sub = getenv("SITU_SIM_SUBCOMMAND");
    bool other = sub && *sub;
    const char *self_argv[] = {self, other ? sub : "__simulate", other ? "--json" : NULL, NULL};
    const char *const *argv = o && o->argv ? o->argv : self_argv;
    if (argv == self_argv && !other && datadir_helper(self, sizeof self, err, errlen) < 0)
        goto fail;
    if (argv == self_argv && other && datadir_self(self, sizeof self) < 0) {
        snprintf(err, errlen, "runner: cannot find this program (/proc/self/exe): %s",
                 strerror(errno));
        goto fail;
    }
    while (argv[r->nprefix])
        r->nprefix++;
    /* The ready child is `PREFIX --ready`: a `situ-sim __simulate` prefix, with the flags the
     * pool adds (sim_pool.c); the parameters come on its stdin. */
    r->ready_on = o && o->ready && r->nprefix >= 2 && !strcmp(argv[1], "__simulate");
    if (r->nprefix == 0) {
        snprintf(err, errlen, "runner: empty command");
        goto fail;
    }
    r->prefix = calloc((size_t)r->nprefix, sizeof *r->prefix);
    if (!r->prefix)
        goto fail;
    for (int i = 0; i < r->nprefix; i++)
        if (!(r->prefix[i] = strdup(argv[i])))
            goto fail;
    uv_idle_init(loop, &r->kick);
    r->kick.data = r;
    r->kick_open = true;
    runner_child_ready_start(r);
    return r;
fail:
    if (err && !err[0])
        snprintf(err, errlen, "runner: out of memory");
    runner_free(r);
    return NULL;
}

/* Frees a job that owns no open libuv handle (queued, or its handles have closed). */
static void job_free(struct job *j)
{
    for (struct waiter *w = j->waiters, *next; w; w = next) {
        next = w->next;
        free(w);
    }
    free(j);
}

void runner_free(struct runner *r)
{
    if (!r)
        return;
    while (r->queued) {
        struct job *j = r->queued;
        list_unlink(&r->queued, j);
        job_free(j);
    }
    drop_deliveries(r, true, 0);
    runner_child_ready_stop(r);
    /* Running jobs own libuv handles; runner_shutdown and a drained loop have closed them. */
    rcache_free(r->cache);
    free(r->disk);
    for (int i = 0; r->prefix && i < r->nprefix; i++)
        free(r->prefix[i]);
    free(r->prefix);
    free(r);
}

void runner_shutdown(struct runner *r)
{
    if (r->kick_open) {
        uv_close((uv_handle_t *)&r->kick, on_closed);
        r->kick_open = false;
    }
    while (r->queued) {
        struct job *j = r->queued;
        list_unlink(&r->queued, j);
        job_free(j);
    }
    r->nqueued = 0;
    drop_deliveries(r, true, 0);
    for (struct job *j = r->running; j; j = j->next) {
        for (struct waiter *w = j->waiters, *next; w; w = next) {
            next = w->next;
            free(w);
        }
        j->waiters = NULL;
        runner_child_kill(j);
    }
    r->ready_on = false;
    runner_child_ready_stop(r);
    notify(r);
}

/* ---- a job's end ------------------------------------------------------------------------- */

static void deliver(struct runner *r, struct job *j, struct waiter *waiters,
                    const struct sim_result *res, json_t *json, const char *text, const char *error,
                    double secs, const char *changed)
{
    for (struct waiter *w = waiters, *next; w; w = next) {
        next = w->next;
        struct runner_done d = {
            .id = w->id,
            .tag = w->tag,
            .params = &j->p,
            .key = j->key,
            .status = error ? RUNNER_FAILED : RUNNER_OK,
            .result = error ? NULL : res,
            .text = error ? NULL : text,
            .json = error ? NULL : json,
            .error = error,
            .seconds = secs,
            .changed = changed && changed[0] ? changed : NULL,
        };
        if (w->cb)
            w->cb(w->ud, &d);
        free(w);
    }
    (void)r;
}

/* A job's child has ended, or could not start: its slot frees, a result joins the caches and
 * the waiters hear the outcome. No schedule here: start runs inside pump, which goes on. */
static void job_ended(struct job *j, const struct sim_result *res, json_t *json, const char *text,
                      const char *error, double secs)
{
    struct runner *r = j->r;
    list_unlink(&r->running, j);
    r->nrunning--;
    struct waiter *waiters = j->waiters;
    j->waiters = NULL;
    char changed[PATH_MAX] = "";
    /* Kept only if the input files still hold what the key says (taken at submission). On disk,
     * the very line `situ sweep` would have stored. */
    bool keep = res && r->remember;
    if (keep && r->disk)
        cache_put(r->disk, &j->p, &j->inputs, text, changed, sizeof changed);
    else if (keep)
        cache_inputs_same(&j->p, &j->inputs, changed, sizeof changed);
    if (keep && !changed[0] && j->inputs.n >= 0)
        rcache_put(r->cache, j->key, j->hash, res);
    deliver(r, j, waiters, res, json, text, error, secs, changed);
    notify(r);
}

/* runner_child.c's report that j's child has ended. */
static void child_ended(struct job *j, const struct sim_result *res, json_t *json, const char *text,
                        const char *error, double secs)
{
    struct runner *r = j->r;
    job_ended(j, res, json, text, error, secs);
    schedule(r);
}

/* ---- starting a job ---------------------------------------------------------------------- */

static void start(struct runner *r, struct job *j)
{
    cache_dir_say(); /* a simulation starts: what the cache cannot keep is said now, once */
    list_unlink(&r->queued, j);
    r->nqueued--;
    list_push(&r->running, j);
    r->nrunning++;
    j->state = JOB_RUNNING;
    char error[RUNNER_ERR_MAX];
    if (runner_child_start(j, error, sizeof error) < 0) {
        job_ended(j, NULL, NULL, NULL, error, 0);
        job_free(j);
    }
}

static struct job *most_urgent(struct runner *r)
{
    struct job *best = NULL;
    for (struct job *j = r->queued; j; j = j->next)
        if (!best || j->priority > best->priority ||
            (j->priority == best->priority && j->seq < best->seq))
            best = j;
    return best;
}

static struct job *job_new(struct runner *r, const struct params *p, const struct cache_inputs *in,
                           const char *key, uint64_t h)
{
    struct job *j = calloc(1, sizeof *j);
    if (!j)
        return NULL;
    j->r = r;
    j->p = *p;
    j->inputs = *in;
    snprintf(j->key, sizeof j->key, "%s", key);
    j->hash = h;
    j->seq = r->next_seq++;
    j->state = JOB_QUEUED;
    return j;
}

/* Every slot is taken and `want` is more urgent than some running child: kill the least urgent
 * one and queue its waiters again in a fresh job, ahead of its priority class. */
static void preempt_for(struct runner *r, struct job *want)
{
    struct job *victim = NULL;
    for (struct job *j = r->running; j; j = j->next) {
        if (!j->waiters) /* an orphan is already dying: its slot frees itself */
            return;
        if (!victim || j->priority < victim->priority)
            victim = j;
    }
    if (!victim || victim->priority >= want->priority)
        return;
    struct job *again = job_new(r, &victim->p, &victim->inputs, victim->key, victim->hash);
    if (!again)
        return;
    again->waiters = victim->waiters;
    again->priority = victim->priority;
    again->force = victim->force;
    again->seq = victim->seq;
    victim->waiters = NULL;
    runner_child_kill(victim);
    list_push(&r->queued, again);
    r->nqueued++;
}

static bool urgent_running(const struct runner *r)
{
    for (const struct job *j = r->running; j; j = j->next)
        if (j->waiters && j->priority > 0)
            return true;
    return false;
}

static void pump(struct runner *r)
{
    if (r->pumping) {
        r->pump_again = true;
        return;
    }
    r->pumping = true;
    do {
        r->pump_again = false;
        struct job *j;
        while ((j = most_urgent(r)) != NULL && r->nrunning < r->max_jobs) {
            if (j->priority <= 0 && urgent_running(r))
                break; /* background waits: what someone waits for gets the cores */
            start(r, j);
        }
        if ((j = most_urgent(r)) != NULL)
            preempt_for(r, j);
    } while (r->pump_again);
    r->pumping = false;
    notify(r);
}

/* The cache hits submitted before this turn, oldest first, each with its result as the cache
 * holds it now; one evicted meanwhile (a burst past cache_max) is submitted again as a job. A
 * callback may submit (its hits wait for the next turn) or cancel (the hits not yet said go,
 * these included): each is taken off the list only when it is said. */
static void deliver_hits(struct runner *r)
{
    long last = r->delivery_seq;
    struct delivery *dv;
    while ((dv = r->deliveries) != NULL && dv->seq <= last) {
        r->deliveries = dv->next;
        if (!r->deliveries)
            r->deliveries_end = &r->deliveries;
        const struct sim_result *hit = rcache_get(r->cache, dv->key, dv->hash);
        struct runner_done d = {.tag = dv->tag,
                                .params = &dv->p,
                                .key = dv->key,
                                .status = RUNNER_OK,
                                .result = hit,
                                .cached = true};
        if (hit && dv->cb)
            dv->cb(dv->ud, &d);
        else if (!hit)
            runner_submit(r, &dv->p, dv->priority, dv->tag, 0, dv->cb, dv->ud);
        free(dv);
    }
}

static void on_kick(uv_idle_t *h)
{
    struct runner *r = h->data;
    uv_idle_stop(h);
    deliver_hits(r);
    pump(r);
}

/* Forking takes milliseconds: children start from an idle callback, so a submission, a cancel
 * or a child's exit never makes the caller's event (a key, a frame) wait for it. */
static void schedule(struct runner *r)
{
    if (r->kick_open && r->queued)
        uv_idle_start(&r->kick, on_kick);
}

/* ---- the public queue operations --------------------------------------------------------- */

static struct job *find_job(struct job *list, const char *key, uint64_t h)
{
    for (struct job *j = list; j; j = j->next)
        if (j->waiters && j->hash == h && !strcmp(j->key, key))
            return j;
    return NULL;
}

/* A result an earlier session or a sweep stored on disk; it joins the memory cache. */
static const struct sim_result *disk_lookup(struct runner *r, const struct params *p,
                                            const struct cache_inputs *in, const char *key,
                                            uint64_t h)
{
    char *json = NULL;
    if (cache_get(r->disk, p, in, &json) < 0)
        return NULL;
    struct sim_result res;
    char err[RESULT_ERR_MAX];
    int rc = result_parse(json, strlen(json), &res, err, sizeof err);
    free(json);
    if (rc < 0)
        return NULL; /* an entry we cannot read is a miss: the simulation runs again */
    rcache_put(r->cache, key, h, &res);
    result_free(&res);
    return rcache_get(r->cache, key, h);
}

long runner_submit(struct runner *r, const struct params *p, int priority, int tag, unsigned flags,
                   runner_cb cb, void *ud)
{
    /* What the input files hold now, before the run: the key, and what its end checks. */
    struct cache_inputs in;
    cache_inputs_take(p, &in);
    char key[RUNNER_KEY_MAX];
    runner_key(p, &in, key, sizeof key);
    uint64_t h = rcache_hash(key);
    bool force = flags & RUNNER_FORCE;
    const struct sim_result *hit = force ? NULL : rcache_get(r->cache, key, h);
    if (!hit && !force && r->disk)
        hit = disk_lookup(r, p, &in, key, h);
    if (hit) { /* said on the next loop turn (deliver_hits), not inside this call */
        struct delivery *dv = calloc(1, sizeof *dv);
        if (!dv)
            goto oom;
        *dv = (struct delivery){.seq = ++r->delivery_seq,
                                .tag = tag,
                                .priority = priority,
                                .cb = cb,
                                .ud = ud,
                                .p = *p,
                                .hash = h};
        snprintf(dv->key, sizeof dv->key, "%s", key);
        *r->deliveries_end = dv;
        r->deliveries_end = &dv->next;
        if (r->kick_open)
            uv_idle_start(&r->kick, on_kick);
        return 0;
    }
    struct waiter *w = calloc(1, sizeof *w);
    if (!w)
        goto oom;
    w->id = r->next_id++;
    w->tag = tag;
    w->priority = priority;
    w->cb = cb;
    w->ud = ud;

    /* An identical configuration already queued, or running and not older than a forced
     * re-run asks for, is shared. */
    struct job *j = find_job(r->queued, key, h);
    if (!j && !force)
        j = find_job(r->running, key, h);
    if (!j) {
        j = job_new(r, p, &in, key, h);
        if (!j) {
            free(w);
            goto oom;
        }
        j->priority = priority;
        list_push(&r->queued, j);
        r->nqueued++;
    }
    j->force = j->force || force;
    if (priority > j->priority && j->state == JOB_QUEUED)
        j->priority = priority;
    w->next = j->waiters;
    j->waiters = w;
    notify(r);
    schedule(r);
    return w->id;
oom : { /* said in the call, the one exception: nothing could be queued to say it later */
    struct runner_done d = {.tag = tag,
                            .params = p,
                            .key = key,
                            .status = RUNNER_FAILED,
                            .error = "runner: out of memory"};
    if (cb)
        cb(ud, &d);
    return -1;
}
}

/* Removes the waiters that match; returns how many. A job left without waiters is dropped
 * (queued) or killed (running: it is reaped, and freed, when its exit arrives). */
static int drop_waiters(struct runner *r, bool by_id, long id, int tag)
{
    int dropped = 0;
    struct job *lists[2] = {r->queued, r->running};
    for (int l = 0; l < 2; l++) {
        for (struct job *j = lists[l], *next; j; j = next) {
            next = j->next;
            if (!j->waiters)
                continue;
            for (struct waiter **pp = &j->waiters; *pp;) {
                struct waiter *w = *pp;
                if (by_id ? w->id == id : w->tag == tag) {
                    *pp = w->next;
                    free(w);
                    dropped++;
                } else {
                    pp = &w->next;
                }
            }
            if (j->waiters)
                continue;
            if (j->state == JOB_QUEUED) {
                list_unlink(&r->queued, j);
                r->nqueued--;
                job_free(j);
            } else {
                runner_child_kill(j);
            }
        }
    }
    if (dropped) {
        notify(r);
        schedule(r);
    }
    return dropped;
}

int runner_cancel(struct runner *r, long id)
{
    return id > 0 ? drop_waiters(r, true, id, 0) : 0;
}

/* Drops the cache hits not yet said for `tag` (all of them for `all`); returns how many. */
static int drop_deliveries(struct runner *r, bool all, int tag)
{
    int dropped = 0;
    r->deliveries_end = &r->deliveries;
    for (struct delivery **pp = &r->deliveries; *pp;) {
        struct delivery *dv = *pp;
        if (all || dv->tag == tag) {
            *pp = dv->next;
            free(dv);
            dropped++;
        } else {
            r->deliveries_end = &dv->next;
            pp = &dv->next;
        }
    }
    return dropped;
}

int runner_cancel_tag(struct runner *r, int tag)
{
    return drop_deliveries(r, false, tag) + drop_waiters(r, false, 0, tag);
}

enum runner_job_state runner_job_state(const struct runner *r, long id)
{
    const struct job *lists[2] = {r->queued, r->running};
    for (int l = 0; l < 2; l++)
        for (const struct job *j = lists[l]; j; j = j->next)
            for (const struct waiter *w = j->waiters; w; w = w->next)
                if (w->id == id)
                    return l == 0 ? RUNNER_JOB_QUEUED : RUNNER_JOB_RUNNING;
    return RUNNER_JOB_NONE;
}

void runner_counts(const struct runner *r, int *running, int *queued)
{
    int live = 0;
    for (const struct job *j = r->running; j; j = j->next)
        live += j->waiters != NULL;
    if (running)
        *running = live;
    if (queued)
        *queued = r->nqueued;
}
