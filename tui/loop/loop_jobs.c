/* The explorer's simulations: the glue between the app and the runner (engine/run/runner.h). A
 * configuration change shows what the cache knows at once and submits the rest after the
 * debounce pause, the configuration on screen first and its crossover points behind it; the
 * results, the job counts and the running time come back as app calls whose flags are posted to
 * loop.c. Nothing here draws or acts on flags. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../engine/base/cache_dir.h"
#include "loop.h"

static enum sim_phase phase_of(struct tui *t, long id)
{
    switch (id ? runner_job_state(t->runner, id) : RUNNER_JOB_NONE) {
    case RUNNER_JOB_QUEUED:
        return SIM_QUEUED;
    case RUNNER_JOB_RUNNING:
        return SIM_RUNNING;
    default:
        return SIM_NONE;
    }
}

/* The column's run under way, and its fidelity: a running one before a queued one, the
 * refinement before the fast run (it is what the column ends at). */
static enum sim_phase current_phase(struct tui *t, int *fid)
{
    enum sim_phase a = phase_of(t, t->current_id), b = phase_of(t, t->refine_id);
    if (b == SIM_RUNNING || (b == SIM_QUEUED && a != SIM_RUNNING)) {
        *fid = t->refine_fid;
        return b;
    }
    *fid = a != SIM_NONE ? t->current_fid : -1;
    return a;
}

/* The job counts and the phase of the simulation on screen, into the state whenever the runner
 * or the submission on screen changes (the runner says so: on_runner_change). */
static void sync_counts(struct tui *t)
{
    int running, queued, fid;
    runner_counts(t->runner, &running, &queued);
    enum sim_phase ph = current_phase(t, &fid);
    unsigned flags = app_set_jobs(&t->app, running, queued, ph, fid);
    if (flags)
        loop_post(t, flags);
}

static void on_runner_change(void *ud)
{
    sync_counts(ud);
}

static void on_sim_done(void *ud, const struct runner_done *d)
{
    struct tui *t = ud;
    if (d->id && d->id == t->current_id) {
        t->current_id = 0;
        if (d->status == RUNNER_OK) {
            t->result_at = t->submitted_at;
            t->result_key_at = t->submitted_key_at;
        }
    }
    if (d->id && d->id == t->refine_id) {
        t->refine_id = 0;
        if (d->status == RUNNER_OK)
            t->faithful_key_at = t->refine_key_at;
    }
    unsigned flags = app_on_result(&t->app, d->params, d->result, d->error, d->cached, d->seconds);
    if (d->changed) { /* stderr is not on screen: the notice line says it */
        app_notice(&t->app, false, "%.200s changed during the run: result not cached", d->changed);
        flags |= APP_DIRTY;
    }
    loop_post(t, flags);
    sync_counts(t); /* after the result: the refinement under way shows as the column's run */
}

/* Whether the column's target is on screen: nothing left to refine. */
static bool refined(const struct tui *t)
{
    const struct app_state *a = &t->app;
    return a->has_sim && a->sim_fid >= app_sim_target(a);
}

/* Submits the current configuration, then the crossover points behind it; a submission made
 * stale is cancelled only after its replacement is queued, so an identical job survives. */
static void submit(struct tui *t, bool force)
{
    if (!app_sim_allowed(&t->app)) {
        /* No simulation of an analytics that is still being evaluated, or that failed: the
         * model's answer decides (jobs_evaluated). */
        t->sim_deferred = true;
        t->sim_deferred_force = t->sim_deferred_force || force;
        return;
    }
    t->sim_deferred = false;
    long old = t->current_id, id = 0;
    t->current_id = 0;
    /* A refinement of a configuration the user has left goes (a newer key supersedes it). */
    if (t->refine_id > 0 && strcmp(t->refine_key, t->app.key)) {
        runner_cancel(t->runner, t->refine_id);
        t->refine_id = 0;
    }
    /* The first rung: fast with refinement. Not when the column already shows its target
     * (a cached full result): the fast run would say less. */
    if (force || !refined(t)) {
        struct params q;
        t->current_fid = app_sim_first(&t->app);
        app_at_fidelity(&t->app.p, t->current_fid, &q);
        id = runner_submit(t->runner, &q, PRIO_CURRENT, TAG_CURRENT, force ? RUNNER_FORCE : 0,
                           on_sim_done, t);
    }
    if (id > 0) {
        t->current_id = id;
        t->submitted_at = uv_hrtime();
        t->submitted_key_at = t->config_key_at;
    }
    if (old > 0 && old != id)
        runner_cancel(t->runner, old);
    sync_counts(t); /* the runner told before current_id was known */

    struct xover *xo = &t->app.xo;
    bool new_base = strcmp(t->xo_key, xo->base_key) != 0;
    if (!new_base && !force)
        return;
    int old_tag = t->xo_tag;
    t->xo_tag = TAG_XOVER_BASE + ++t->xo_gen; /* never TAG_CURRENT: that is another job */
    for (int m = 0; m < xo->n; m++) {
        for (int i = 0; i < XO_POINTS; i++) {
            if (xo->pstate[m][i] == XO_PT_DONE)
                continue;
            struct params q;
            xover_point_params(xo, m, i, &q);
            q.fidelity = app_sim_first(&t->app);
            runner_submit(t->runner, &q, PRIO_XOVER, t->xo_tag, 0, on_sim_done, t);
        }
    }
    if (old_tag)
        runner_cancel_tag(t->runner, old_tag);
    snprintf(t->xo_key, sizeof t->xo_key, "%s", xo->base_key);
    t->xo_refined[0] = 0; /* the new tag's points are refined anew */
}

/* The setting has stayed: the configuration on screen at the column's target fidelity (sampled
 * full), then its crossover points, behind the fast ones. Nothing when refinement is off. */
static void refine_now(struct tui *t, bool force)
{
    struct app_state *a = &t->app;
    int target = app_sim_target(a);
    if (!a->refine || target == app_sim_first(a))
        return;
    if (!app_sim_allowed(a)) { /* as submit: the model's answer decides (jobs_evaluated) */
        t->refine_deferred = true;
        t->refine_force = t->refine_force || force;
        return;
    }
    t->refine_deferred = false;
    if ((force || !refined(t)) && !(t->refine_id > 0 && !strcmp(t->refine_key, a->key) && !force)) {
        long old = t->refine_id;
        struct params q;
        app_at_fidelity(&a->p, target, &q);
        t->refine_fid = target;
        t->refine_id = runner_submit(t->runner, &q, PRIO_REFINE, TAG_REFINE,
                                     force ? RUNNER_FORCE : 0, on_sim_done, t);
        snprintf(t->refine_key, sizeof t->refine_key, "%s", a->key);
        t->refine_key_at = t->config_key_at;
        if (t->refine_id < 0)
            t->refine_id = 0;
        if (old > 0 && old != t->refine_id)
            runner_cancel(t->runner, old);
        sync_counts(t);
    }
    struct xover *xo = &a->xo;
    if (!t->xo_tag || strcmp(t->xo_key, xo->base_key) ||
        (!force && !strcmp(t->xo_refined, t->xo_key)))
        return; /* the points of this base are not submitted yet, or already refined */
    for (int m = 0; m < xo->n; m++) {
        for (int i = 0; i < XO_POINTS; i++) {
            if (xo->pstate[m][i] == XO_PT_DONE && xo->pfid[m][i] >= target && !force)
                continue;
            struct params q;
            xover_point_params(xo, m, i, &q);
            q.fidelity = target;
            runner_submit(t->runner, &q, PRIO_XOVER, t->xo_tag, 0, on_sim_done, t);
        }
    }
    snprintf(t->xo_refined, sizeof t->xo_refined, "%s", t->xo_key);
}

static void on_refine(uv_timer_t *h)
{
    struct tui *t = h->data;
    refine_now(t, t->refine_force);
    t->refine_force = false;
}

static void on_debounce(uv_timer_t *h)
{
    submit(h->data, false);
}

void jobs_config_changed(struct tui *t)
{
    /* What the cache knows of each rung, the least faithful first (the app keeps the most). */
    int fids[3] = {app_sim_first(&t->app), t->app.p.fidelity, app_sim_target(&t->app)};
    struct xover *xo = &t->app.xo;
    struct runner_lookup_memo memo = {.ok = false}; /* the files read once for all of them */
    for (int k = 0; k < 3; k++) {
        if (k && (fids[k] == fids[k - 1] || (k == 2 && fids[2] == fids[0])))
            continue; /* a rung named twice (the slider's fidelity is often the target) */
        struct params q;
        app_at_fidelity(&t->app.p, fids[k], &q);
        const struct sim_result *r = runner_lookup_memo(t->runner, &q, &memo);
        if (r)
            loop_post(t, app_on_result(&t->app, &q, r, NULL, true, 0));
        for (int m = 0; m < xo->n; m++) {
            for (int i = 0; i < XO_POINTS; i++) {
                if (xo->pstate[m][i] == XO_PT_DONE && xo->pfid[m][i] >= fids[k])
                    continue;
                xover_point_params(xo, m, i, &q);
                q.fidelity = fids[k];
                if ((r = runner_lookup_memo(t->runner, &q, &memo)) != NULL)
                    loop_post(t, app_on_result(&t->app, &q, r, NULL, true, 0));
            }
        }
    }
    uv_timer_start(&t->debounce, on_debounce, DEBOUNCE_MS, 0);
    if (t->app.refine)
        uv_timer_start(&t->refine, on_refine, REFINE_MS, 0);
}

void jobs_rerun(struct tui *t)
{
    uv_timer_stop(&t->debounce);
    submit(t, true);
    if (t->app.refine) { /* the whole ladder again, the full run after its pause */
        t->refine_force = true;
        uv_timer_start(&t->refine, on_refine, REFINE_MS, 0);
    }
}

void jobs_refine_changed(struct tui *t)
{
    uv_timer_stop(&t->refine);
    if (t->app.refine) {
        refine_now(t, false);
        return;
    }
    if (t->refine_id > 0) /* off: what it runs goes, and the fidelity parameter's run comes */
        runner_cancel(t->runner, t->refine_id);
    t->refine_id = 0;
    t->refine_deferred = false;
    t->xo_key[0] = 0; /* the crossover's points again, at the fidelity parameter's level */
    submit(t, false);
}

void jobs_cancel(struct tui *t)
{
    uv_timer_stop(&t->debounce);
    uv_timer_stop(&t->refine);
    if (t->current_id > 0) /* the curve's points too: they may share its child */
        runner_cancel(t->runner, t->current_id);
    if (t->refine_id > 0)
        runner_cancel(t->runner, t->refine_id);
    t->refine_id = 0;
    t->refine_deferred = false;
    if (t->xo_tag)
        runner_cancel_tag(t->runner, t->xo_tag);
    t->current_id = 0;
    t->xo_key[0] = 0; /* r submits them again */
    t->sim_deferred = false;
    sync_counts(t);
}

void jobs_evaluated(struct tui *t)
{
    if (t->sim_deferred) {
        uv_timer_stop(&t->debounce);
        submit(t, t->sim_deferred_force);
        t->sim_deferred_force = false;
    }
    if (t->refine_deferred) {
        refine_now(t, t->refine_force);
        t->refine_force = false;
    }
}

/* A simulation that takes a while (fidelity full, smpi) shows how long it has run, each second. */
static void on_progress(uv_timer_t *h)
{
    struct tui *t = h->data;
    uint64_t now = uv_hrtime();
    int fid;
    bool running = current_phase(t, &fid) == SIM_RUNNING;
    /* The run shown: the refinement once it runs, its clock its own (not the fast run's). */
    long id = phase_of(t, t->refine_id) == SIM_RUNNING ? t->refine_id : t->current_id;
    if (!running || id != t->running_job)
        t->running_since = 0;
    t->running_job = running ? id : 0;
    if (running && !t->running_since)
        t->running_since = now;
    unsigned flags =
        app_set_running_for(&t->app, running ? (double)(now - t->running_since) * 1e-9 : 0);
    if (flags)
        loop_post(t, flags);
}

int jobs_open(struct tui *t, char *err, size_t errlen)
{
    const char *limit = getenv("SITU_TIME_LIMIT");
    double seconds = limit ? atof(limit) : 0;
    /* The results directory `situ sweep` fills: what any earlier run measured is instant. */
    char cache_dir[4096];
    bool disk = cache_default_dir(cache_dir, sizeof cache_dir) == 0;
    /* The children are the simulation helper exec'd (the runner's default); SITU_TIME_LIMIT
     * overrides the runner's own limit (RUNNER_TIME_LIMIT). */
    struct runner_opts o = {
        .time_limit = seconds > 0 ? seconds : 0,
        .on_change = on_runner_change,
        .on_change_ud = t,
        .disk_cache = disk ? cache_dir : NULL,
        /* A key's simulation skips the process start; SITU_READY_CHILD=0 starts every child
         * cold (make bench measures one against the other). */
        .ready = !(getenv("SITU_READY_CHILD") && !strcmp(getenv("SITU_READY_CHILD"), "0")),
    };
    t->max_jobs = (int)uv_available_parallelism();
    o.max_jobs = t->max_jobs;
    t->runner = runner_new(&t->loop, &o, err, errlen);
    if (!t->runner)
        return -1;
    uv_timer_init(&t->loop, &t->debounce);
    t->debounce.data = t;
    uv_timer_init(&t->loop, &t->progress);
    t->progress.data = t;
    uv_timer_init(&t->loop, &t->refine);
    t->refine.data = t;
    uv_timer_start(&t->progress, on_progress, PROGRESS_MS, PROGRESS_MS);
    return 0;
}

void jobs_close(struct tui *t)
{
    if (!t->runner)
        return;
    if (!uv_is_closing((uv_handle_t *)&t->debounce)) {
        uv_close((uv_handle_t *)&t->debounce, NULL);
        uv_close((uv_handle_t *)&t->progress, NULL);
        uv_close((uv_handle_t *)&t->refine, NULL);
    }
    runner_shutdown(t->runner); /* children die; the loop reaps them and then returns */
}

void jobs_free(struct tui *t)
{
    runner_free(t->runner);
    t->runner = NULL;
}
