/* The blocking pool (sim_pool.h): the runner on a loop of its own, every child the simulation
 * helper exec'd. */
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/cache_dir.h"
#include "../base/datadir.h"
#include "../base/watchdog.h"
#include "../lua/script.h"
#include "../model/report.h"
#include "runner.h"
#include "sim_pool.h"

struct sim_smpi_app sim_smpi_app;

volatile sig_atomic_t sim_pool_stop;

static const int caught[] = {SIGTERM, SIGINT, SIGHUP};

static void on_stop(int sig)
{
    sim_pool_stop = sig;
}

/* While children run, TERM, INT and HUP only set sim_pool_stop: the loops below then kill and
 * reap the children. A caller's own handler (a sweep's, which reports what was cached) or an
 * ignored signal (nohup) is left alone; where the default (death) was in force, the process
 * dies of the same signal once its children are gone, so its status is still 128+N. */
struct guard {
    struct sigaction old[sizeof caught / sizeof caught[0]];
    bool ours[sizeof caught / sizeof caught[0]];
};

static void guard_begin(struct guard *g)
{
    struct sigaction sa = {.sa_handler = on_stop};
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof caught / sizeof caught[0]; i++) {
        sigaction(caught[i], NULL, &g->old[i]);
        g->ours[i] = g->old[i].sa_handler == SIG_DFL;
        if (g->ours[i])
            sigaction(caught[i], &sa, NULL);
    }
}

static void guard_end(struct guard *g)
{
    int sig = sim_pool_stop;
    for (size_t i = 0; i < sizeof caught / sizeof caught[0]; i++) {
        if (!g->ours[i])
            continue;
        sigaction(caught[i], &g->old[i], NULL);
        if (sig == caught[i]) {
            fflush(stdout);      /* what the caller printed before the signal is not lost */
            cache_dir_cleanup(); /* a death by signal skips atexit */
            raise(sig);
        }
    }
}

/* ---- the blocking pool: the runner on a loop of its own --------------------------------- */

struct pool {
    struct sim_job *jobs;
    int n, done, failed;
    void (*progress)(void *ud, struct sim_job *job, int done, int total);
    void *ud;
    struct runner *r;
    uv_timer_t watch;
    bool stopped;
};

static void pool_on_done(void *ud, const struct runner_done *d)
{
    struct pool *pl = ud;
    struct sim_job *j = &pl->jobs[d->tag];
    j->rc = -3;
    if (d->status == RUNNER_OK && d->json && d->text && (j->output = strdup(d->text))) {
        j->json = json_incref(d->json);
        j->rc = 0;
    } else {
        snprintf(j->err, sizeof j->err, "%s", d->error ? d->error : "out of memory");
    }
    pl->failed += j->rc < 0;
    pl->done++;
    if (pl->progress)
        pl->progress(pl->ud, j, pl->done, pl->n);
}

/* A signal only sets sim_pool_stop; this sees it within 100 ms (uv_run does not return for a
 * signal it does not handle) and kills every child. */
static void pool_on_watch(uv_timer_t *t)
{
    struct pool *pl = t->data;
    if (!sim_pool_stop || pl->stopped)
        return;
    pl->stopped = true;
    runner_shutdown(pl->r);
    uv_close((uv_handle_t *)t, NULL);
}

/* The command every child execs: `situ-sim __simulate` with what the helper cannot know from
 * the parameters (--time-limit, --alert, --smpi-app). */
static const char **exec_argv(char *helper, size_t len, char *limit, size_t limit_len, char *alert,
                              size_t alert_len, char *err, size_t errlen)
{
    if (datadir_helper(helper, len, err, errlen) < 0)
        return NULL;
    const char **argv = calloc((size_t)sim_smpi_app.argc + 10, sizeof *argv);
    if (!argv) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    int n = 0;
    argv[n++] = helper;
    argv[n++] = "__simulate";
    if (script_time_limit() > 0) {
        snprintf(limit, limit_len, "%.17g", script_time_limit());
        argv[n++] = "--time-limit";
        argv[n++] = limit;
    }
    if (report_link_alert != REPORT_ALERT_DEFAULT) {
        snprintf(alert, alert_len, "%.17g", report_link_alert);
        argv[n++] = "--alert";
        argv[n++] = alert;
    }
    if (sim_smpi_app.argc > 0) {
        argv[n++] = "--smpi-app";
        for (int i = 0; i < sim_smpi_app.argc; i++)
            argv[n++] = sim_smpi_app.argv[i];
        argv[n++] = "--"; /* the application's arguments end here, the parameters follow */
    }
    argv[n] = NULL;
    return argv;
}

static int pool_run(struct sim_job *jobs, int n, int parallel, double time_limit,
                    void (*progress)(void *ud, struct sim_job *job, int done, int total), void *ud)
{
    char helper[4096], limit[32], alert[32], err[RUNNER_ERR_MAX] = "";
    const char **argv =
        exec_argv(helper, sizeof helper, limit, sizeof limit, alert, sizeof alert, err, sizeof err);
    uv_loop_t loop;
    if (!argv || uv_loop_init(&loop) < 0) {
        for (int i = 0; i < n; i++) /* the caller says why */
            snprintf(jobs[i].err, sizeof jobs[i].err, "%s", err[0] ? err : "out of memory");
        free(argv);
        return -1;
    }
    struct pool pl = {.jobs = jobs, .n = n, .progress = progress, .ud = ud};
    struct runner_opts o = {
        .argv = argv,
        .max_jobs = parallel < 1 ? 1 : parallel,
        .time_limit = time_limit > 0 ? time_limit : -1,
        .cache_max = -1, /* every job runs (RUNNER_FORCE); a sweep keeps its own cache */
    };
    pl.r = runner_new(&loop, &o, err, sizeof err);
    free(argv); /* the runner keeps its own copy */
    if (!pl.r) {
        for (int i = 0; i < n; i++)
            snprintf(jobs[i].err, sizeof jobs[i].err, "%s", err);
        uv_loop_close(&loop);
        return -1;
    }
    struct guard g;
    guard_begin(&g);
    uv_timer_init(&loop, &pl.watch);
    pl.watch.data = &pl;
    uv_timer_start(&pl.watch, pool_on_watch, 100, 100);
    uv_unref((uv_handle_t *)&pl.watch);
    /* Queued together, identical configurations share one child; FIFO among equals. Priority 1:
     * what the caller waits for keeps the caller's CPU priority. */
    for (int i = 0; i < n; i++) {
        jobs[i].output = NULL;
        jobs[i].json = NULL;
        jobs[i].err[0] = 0;
        jobs[i].rc = -3;
        runner_submit(pl.r, &jobs[i].p, 1, i, RUNNER_FORCE, pool_on_done, &pl);
    }
    uv_run(&loop, UV_RUN_DEFAULT);
    if (!pl.stopped) {
        runner_shutdown(pl.r);
        uv_close((uv_handle_t *)&pl.watch, NULL);
    }
    uv_run(&loop, UV_RUN_DEFAULT); /* the killed children are reaped, the handles closed */
    runner_free(pl.r);
    uv_loop_close(&loop);
    for (int i = 0; i < n && pl.stopped; i++)
        if (jobs[i].rc < 0 && !jobs[i].err[0])
            snprintf(jobs[i].err, sizeof jobs[i].err, "interrupted");
    guard_end(&g);
    return pl.stopped ? -2 : pl.failed;
}

void sim_jobs_clear(struct sim_job *jobs, int n)
{
    for (int i = 0; jobs && i < n; i++) {
        free(jobs[i].output);
        json_decref(jobs[i].json);
        jobs[i].output = NULL;
        jobs[i].json = NULL;
    }
}

int sim_pool_run(struct sim_job *jobs, int n, int parallel, double time_limit,
                 void (*progress)(void *ud, struct sim_job *job, int done, int total), void *ud)
{
    /* Waiting for the children is not the caller's time: a Lua scenario's deadline stops only
     * its own Lua, however long the simulations it asked for take (they have time_limit). */
    watchdog_pause();
    int rc = pool_run(jobs, n, parallel, time_limit, progress, ud);
    watchdog_resume();
    return rc;
}
