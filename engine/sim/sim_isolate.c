/* What runs in a simulation's child, and the blocking way to run simulations: SimGrid cannot be
 * reset, may abort on a bad platform or a deadlock, and writes assertion failures to stderr, so
 * each simulation runs in a child of the one child wrapper (runner.h), which turns its end into
 * one line. sim_child_main is the child's whole life: one simulation, its JSON line on stdout.
 * sim_pool_run drives the runner on a loop of its own for `situ run`, `situ sweep` and Lua, whose
 * children are copies of the caller (forks without exec: no second start of the binary) while it
 * has one thread (Lua's watchdog ends its own while the pool runs), else `situ __simulate`
 * exec'd with the same state (a library's thread: see child.h). While children run, TERM, INT
 * and HUP kill and reap their groups before the caller goes (see struct guard). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../base/cache_dir.h"
#include "../base/datadir.h"
#include "../base/watchdog.h"
#include "../lua/script.h"
#include "../model/report.h"
#include "../run/runner.h"
#include "sim.h"
#include "sim_smpi.h"

static void write_all(int fd, const char *buf, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, buf, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            _exit(3);
        buf += n;
        len -= (size_t)n;
    }
}

/* Test hook: SITU_TEST_FAULT=KIND[:KEY=VALUE][:once=FILE] makes the simulation child of the
 * configurations whose parameter KEY formats as VALUE misbehave: segv, abort, hang, garbage
 * (prints a non-JSON line), partial (half a JSON line), kill (SIGKILL), exit (status 3, no
 * message). With once=FILE only the first such child does, creating FILE. Lets the tests check
 * that every consumer of children reports, reaps and keeps the other results. */
static void inject_fault(const struct params *p, int out_fd)
{
    const char *spec = getenv("SITU_TEST_FAULT");
    if (!spec || !*spec)
        return;
    char buf[512], *save = NULL;
    snprintf(buf, sizeof buf, "%s", spec);
    const char *kind = strtok_r(buf, ":", &save);
    for (char *item = strtok_r(NULL, ":", &save); item; item = strtok_r(NULL, ":", &save)) {
        char *eq = strchr(item, '=');
        if (!eq)
            return;
        *eq = 0;
        if (!strcmp(item, "once")) {
            int fd = open(eq + 1, O_CREAT | O_EXCL | O_WRONLY, 0644);
            if (fd < 0)
                return; /* already happened once */
            close(fd);
            continue;
        }
        int id = params_find(item);
        char value[PARAMS_PATH_MAX];
        if (id < 0)
            return;
        params_format(p, id, value, sizeof value);
        if (strcmp(value, eq + 1))
            return;
    }
    static const char garbage[] = "this is not JSON\n", partial[] = "{\"particles\": 13720";
    if (!strcmp(kind, "segv"))
        raise(SIGSEGV);
    else if (!strcmp(kind, "abort"))
        abort();
    else if (!strcmp(kind, "kill"))
        raise(SIGKILL);
    else if (!strcmp(kind, "hang"))
        for (;;)
            pause();
    else if (!strcmp(kind, "exit"))
        _exit(3);
    else if (!strcmp(kind, "garbage") || !strcmp(kind, "partial")) {
        bool g = kind[0] == 'g';
        write_all(out_fd, g ? garbage : partial, g ? sizeof garbage - 1 : sizeof partial - 1);
        _exit(0);
    }
}

_Noreturn void sim_child_main(const struct params *p)
{
    inject_fault(p, STDOUT_FILENO);
    struct sim_measure r;
    char err[512];
    if (p->fidelity == FIDELITY_SMPI) { /* SMPI's processes render the result */
        char *text = sim_smpi_run(p, err, sizeof err);
        if (!text) {
            fprintf(stderr, "situ: %s\n", err);
            fflush(stderr);
            _exit(3);
        }
        write_all(STDOUT_FILENO, text, strlen(text));
        _exit(0);
    }
    if (sim_run(p, &r, err, sizeof err) < 0) {
        fprintf(stderr, "situ: %s\n", err);
        fflush(stderr);
        _exit(3);
    }
    json_t *j = report_sim_json(p, &r, sim_link_alert);
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!j || !mem || report_print_json(mem, j) < 0 || fclose(mem) != 0)
        _exit(3);
    write_all(STDOUT_FILENO, text, len);
    _exit(0);
}

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

/* The command a child execs when it cannot be a copy of this process: `situ __simulate` with
 * what a copy would have inherited besides the parameters (--time-limit, --smpi-app). */
static const char **exec_argv(char *self, size_t len, char *limit, size_t limit_len)
{
    const char **argv = calloc((size_t)sim_smpi_app.argc + 8, sizeof *argv);
    if (!argv)
        return NULL;
    int n = 0;
    datadir_self(self, len); /* "situ" if the kernel cannot tell: runner_new then says so */
    argv[n++] = self;
    argv[n++] = "__simulate";
    if (script_time_limit() > 0) {
        snprintf(limit, limit_len, "%.17g", script_time_limit());
        argv[n++] = "--time-limit";
        argv[n++] = limit;
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
    char self[4096], limit[32];
    const char **argv = exec_argv(self, sizeof self, limit, sizeof limit);
    uv_loop_t loop;
    if (!argv || uv_loop_init(&loop) < 0) {
        free(argv);
        return -1;
    }
    struct pool pl = {.jobs = jobs, .n = n, .progress = progress, .ud = ud};
    struct runner_opts o = {
        .argv = argv,
        .in_process = sim_child_main,
        .max_jobs = parallel < 1 ? 1 : parallel,
        .time_limit = time_limit > 0 ? time_limit : -1,
        .cache_max = -1, /* every job runs (RUNNER_FORCE); a sweep keeps its own cache */
    };
    char err[RUNNER_ERR_MAX];
    pl.r = runner_new(&loop, &o, err, sizeof err);
    free(argv); /* the runner keeps its own copy */
    if (!pl.r) {
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
     * its own Lua, however long the simulations it asked for take (they have time_limit). The
     * pause also ends the watchdog's thread, so that the children can be copies of this one. */
    watchdog_pause();
    int rc = pool_run(jobs, n, parallel, time_limit, progress, ud);
    watchdog_resume();
    return rc;
}
