/* The child-process runner and the result parser: real children on a real libuv loop. Success
 * through `situ model --json` (same keys as `situ run --json`), then every way a child can go
 * wrong (garbage, crash, exit code, time limit, too much output), cancellation, the cache, the
 * concurrency cap, sharing of identical jobs, priorities, shutdown, and that nothing is left
 * unreaped. Run from the repository root after `make situ` (make test does both). */
#include <criterion/criterion.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <uv.h>

#include "../../engine/lua/evaluate.h"
#include "../../engine/model/model.h"
#include "../../engine/model/result.h"
#include "../../engine/run/runner.h"

#define MAX_DONE 16

struct seen {
    int n;
    long ids[MAX_DONE];
    int tags[MAX_DONE];
    bool ok[MAX_DONE], cached[MAX_DONE];
    double makespan[MAX_DONE], data_scaling[MAX_DONE];
    char error[MAX_DONE][RUNNER_ERR_MAX];
    int max_running; /* seen through on_change */
    struct runner *r;
};

static void on_done(void *ud, const struct runner_done *d)
{
    struct seen *s = ud;
    if (s->n >= MAX_DONE)
        return;
    int i = s->n++;
    s->ids[i] = d->id;
    s->tags[i] = d->tag;
    s->ok[i] = d->status == RUNNER_OK;
    s->cached[i] = d->cached;
    s->data_scaling[i] = d->params->data_scaling;
    s->makespan[i] = d->result ? d->result->m.makespan : -1;
    snprintf(s->error[i], sizeof s->error[i], "%s", d->error ? d->error : "");
}

/* on_done, then what a caller does on a result: drops tag 11 and submits p again as tag 12. */
static void on_done_cancel_11(void *ud, const struct runner_done *d)
{
    struct seen *s = ud;
    on_done(ud, d);
    runner_cancel_tag(s->r, 11);
    runner_submit(s->r, d->params, 0, 12, 0, on_done, s);
}

static void on_change(void *ud)
{
    struct seen *s = ud;
    int running;
    if (!s->r)
        return;
    runner_counts(s->r, &running, NULL);
    if (running > s->max_running)
        s->max_running = running;
}

/* A runner whose children run `script` under /bin/sh (the parameter flags become $1...). */
static struct runner *sh_runner(uv_loop_t *loop, const char *script, struct seen *s, double limit,
                                int jobs)
{
    const char *argv[] = {"/bin/sh", "-c", script, "sh", NULL};
    struct runner_opts o = {.argv = argv,
                            .max_jobs = jobs,
                            .time_limit = limit,
                            .on_change = on_change,
                            .on_change_ud = s};
    char err[256] = "";
    struct runner *r = runner_new(loop, &o, err, sizeof err);
    cr_assert_not_null(r, "runner_new: %s", err);
    s->r = r;
    return r;
}

static void drain(uv_loop_t *loop, struct runner *r)
{
    runner_shutdown(r);
    uv_run(loop, UV_RUN_DEFAULT);
    runner_free(r);
    cr_assert_eq(uv_loop_close(loop), 0, "handles left open on the loop");
}

/* Runs the loop until `n` callbacks arrived or `seconds` passed. */
static void run_until(uv_loop_t *loop, struct seen *s, int n, double seconds)
{
    uint64_t end = uv_hrtime() + (uint64_t)(seconds * 1e9);
    while (s->n < n && uv_hrtime() < end)
        uv_run(loop, UV_RUN_ONCE);
}

/* A pid the child wrote to `path` (the tests' way to see their children). */
static pid_t read_pid(const char *path)
{
    FILE *f = fopen(path, "r");
    long pid = -1;
    if (f) {
        if (fscanf(f, "%ld", &pid) != 1)
            pid = -1;
        fclose(f);
    }
    return (pid_t)pid;
}

/* Reaped: no /proc entry at all (a zombie still has one, in state Z). */
static bool gone(pid_t pid)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld", (long)pid);
    struct stat st;
    return stat(path, &st) != 0;
}

static void params_with_scaling(struct params *p, double x)
{
    params_defaults(p);
    p->data_scaling = x;
}

Test(runner, model_child_succeeds_and_is_cached, .timeout = 20)
{
    cr_assert_eq(access("./situ", X_OK), 0, "run from the repository root after make situ");
    uv_loop_t loop;
    uv_loop_init(&loop);
    const char *argv[] = {"./situ", "model", "--json", NULL};
    struct seen s = {0};
    struct runner_opts o = {.argv = argv, .on_change = on_change, .on_change_ud = &s};
    char err[256];
    struct runner *r = runner_new(&loop, &o, err, sizeof err);
    cr_assert_not_null(r, "%s", err);
    s.r = r;
    struct params p;
    params_defaults(&p);
    long id = runner_submit(r, &p, 0, 7, 0, on_done, &s);
    cr_assert_gt(id, 0);
    cr_assert_neq(runner_job_state(r, id), RUNNER_JOB_NONE);
    run_until(&loop, &s, 1, 15);
    cr_assert_eq(s.n, 1);
    cr_assert(s.ok[0], "child failed: %s", s.error[0]);
    cr_assert_eq(s.tags[0], 7);
    cr_assert_eq(s.ids[0], id);

    struct model_result m;
    cr_assert_eq(evaluate_model(&p, &m, err, sizeof err), 0, "%s", err);
    cr_assert_float_eq(s.makespan[0], m.makespan, 1e-6 * m.makespan);

    /* Returning to the configuration is instant: no child, the result on the next loop turn,
     * never inside submit (the caller's state must not change under its own call). */
    const struct sim_result *hit = runner_lookup(r, &p);
    cr_assert_not_null(hit);
    cr_assert_eq(runner_submit(r, &p, 0, 8, 0, on_done, &s), 0);
    cr_assert_eq(s.n, 1, "the cache hit was said inside runner_submit");
    uv_run(&loop, UV_RUN_NOWAIT);
    cr_assert_eq(s.n, 2, "the cache hit was not said on the next loop turn");
    cr_assert(s.ok[1] && s.cached[1]);
    cr_assert_float_eq(s.makespan[1], m.makespan, 1e-6 * m.makespan);
    /* A hit whose tag is cancelled before that turn is never said, nor one that a callback of
     * the same turn cancels; one a callback submits waits for the next turn. */
    cr_assert_eq(runner_submit(r, &p, 0, 10, 0, on_done, &s), 0);
    cr_assert_eq(runner_cancel_tag(r, 10), 1);
    uv_run(&loop, UV_RUN_NOWAIT);
    cr_assert_eq(s.n, 2, "a cancelled cache hit was said");
    s.r = r;
    cr_assert_eq(runner_submit(r, &p, 0, 11, 0, on_done_cancel_11, &s), 0);
    cr_assert_eq(runner_submit(r, &p, 0, 11, 0, on_done, &s), 0);
    uv_run(&loop, UV_RUN_NOWAIT);
    cr_assert_eq(s.n, 3, "a hit cancelled by a callback of its turn was said");
    uv_run(&loop, UV_RUN_NOWAIT);
    cr_assert_eq(s.n, 4, "the hit a callback submitted was not said on the next turn");
    cr_assert_eq(s.tags[3], 12);
    /* A forced re-run does run. */
    cr_assert_gt(runner_submit(r, &p, 0, 9, RUNNER_FORCE, on_done, &s), 0);
    run_until(&loop, &s, 5, 15);
    cr_assert(s.ok[4] && !s.cached[4], "forced re-run: %s", s.error[4]);
    drain(&loop, r);
}

Test(runner, results_persist_through_the_disk_cache, .timeout = 20)
{
    char dir[] = "/tmp/situ-runner-cache-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    const char *argv[] = {"./situ", "model", "--json", NULL};
    struct runner_opts o = {.argv = argv, .disk_cache = dir};
    struct params p;
    params_defaults(&p);
    p.stride = 40;
    char err[256];
    for (int session = 0; session < 2; session++) {
        uv_loop_t loop;
        uv_loop_init(&loop);
        struct seen s = {0};
        struct runner *r = runner_new(&loop, &o, err, sizeof err);
        cr_assert_not_null(r, "%s", err);
        long id = runner_submit(r, &p, 0, 1, 0, on_done, &s);
        if (session == 0) {
            cr_assert_gt(id, 0);
            run_until(&loop, &s, 1, 15);
            cr_assert(s.ok[0] && !s.cached[0], "%s", s.error[0]);
        } else {
            /* A new runner, an empty memory: the disk answers, on the next turn. */
            cr_assert_eq(id, 0);
            uv_run(&loop, UV_RUN_NOWAIT);
            cr_assert(s.n == 1 && s.ok[0] && s.cached[0]);
            cr_assert_not_null(runner_lookup(r, &p));
        }
        drain(&loop, r);
    }
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_assert_eq(system(cmd), 0);
}

Test(runner, garbage_output_is_an_error, .timeout = 10)
{
    uv_loop_t loop;
    uv_loop_init(&loop);
    struct seen s = {0};
    struct runner *r = sh_runner(&loop, "echo 'hello, I am not JSON'", &s, 10, 2);
    struct params p;
    params_defaults(&p);
    runner_submit(r, &p, 0, 1, 0, on_done, &s);
    run_until(&loop, &s, 1, 5);
    cr_assert_eq(s.n, 1);
    cr_assert(!s.ok[0]);
    cr_assert(strstr(s.error[0], "unreadable result: not JSON"), "got: %s", s.error[0]);
    cr_assert(strstr(s.error[0], "hello"), "the reason quotes the output: %s", s.error[0]);
    cr_assert_null(runner_lookup(r, &p), "a failure must not be cached");
    drain(&loop, r);
}

Test(runner, json_without_the_keys_is_an_error, .timeout = 10)
{
    uv_loop_t loop;
    uv_loop_init(&loop);
    struct seen s = {0};
    struct runner *r = sh_runner(&loop, "echo '{\"makespan\": \"soon\"}'", &s, 10, 2);
    struct params p;
    params_defaults(&p);
    runner_submit(r, &p, 0, 1, 0, on_done, &s);
    run_until(&loop, &s, 1, 5);
    cr_assert(!s.ok[0]);
    cr_assert(strstr(s.error[0], "'makespan' is not a number"), "got: %s", s.error[0]);
    drain(&loop, r);
}

Test(runner, crash_is_reported_with_its_signal, .timeout = 10)
{
    uv_loop_t loop;
    uv_loop_init(&loop);
    struct seen s = {0};
    struct runner *r = sh_runner(&loop, "echo 'about to fall' >&2; kill -SEGV $$", &s, 10, 2);
    struct params p;
    params_defaults(&p);
    runner_submit(r, &p, 0, 1, 0, on_done, &s);
    run_until(&loop, &s, 1, 5);
    cr_assert(!s.ok[0]);
    cr_assert(strstr(s.error[0], "crashed (Segmentation fault)"), "got: %s", s.error[0]);
    cr_assert(strstr(s.error[0], "about to fall"), "stderr's last line is kept: %s", s.error[0]);
    drain(&loop, r);
}

/* The child is ours (its parent is this process: one fork, nothing between) and leads its own
 * process group (what it starts is killed with it). */
Test(runner, child_is_ours_and_leads_its_group, .timeout = 10)
{
    uv_loop_t loop;
    uv_loop_init(&loop);
    struct seen s = {0};
    struct runner *r = sh_runner(&loop,
                                 "set -- $(sed 's/.*) //' /proc/$$/stat); "
                                 "echo \"situ: ppid $2 pgid $3 pid $$\" >&2; exit 3",
                                 &s, 10, 1);
    struct params p;
    params_defaults(&p);
    runner_submit(r, &p, 0, 1, 0, on_done, &s);
    run_until(&loop, &s, 1, 5);
    long ppid = 0, pgid = 0, pid = -1;
    cr_assert_eq(sscanf(s.error[0], "simulation failed (exit 3): ppid %ld pgid %ld pid %ld", &ppid,
                        &pgid, &pid),
                 3, "got: %s", s.error[0]);
    cr_assert_eq(ppid, (long)getpid(), "the child's parent is %ld, not the runner", ppid);
    cr_assert_eq(pgid, pid, "the child does not lead its own group: %s", s.error[0]);
    drain(&loop, r);
}

Test(runner, exit_status_and_last_stderr_line, .timeout = 10)
{
    uv_loop_t loop;
    uv_loop_init(&loop);
    struct seen s = {0};
    struct runner *r = sh_runner(
        &loop, "echo noise >&2; echo 'situ: run: the SimGrid engine is not built yet' >&2; exit 3",
        &s, 10, 2);
    struct params p;
    params_defaults(&p);
    runner_submit(r, &p, 0, 1, 0, on_done, &s);
    run_until(&loop, &s, 1, 5);
    cr_assert(!s.ok[0]);
    cr_assert_str_eq(s.error[0],
                     "simulation failed (exit 3): run: the SimGrid engine is not built yet");
    drain(&loop, r);
}

Test(runner, time_limit_kills_and_reaps, .timeout = 10)
{
    char pidfile[] = "/tmp/situ-runner-XXXXXX";
    int fd = mkstemp(pidfile);
    cr_assert_geq(fd, 0);
    close(fd);
    char script[256];
    /* A grandchild too: the whole group must go, or it would hold the pipes open. */
    snprintf(script, sizeof script, "echo $$ > %s; sleep 30 & sleep 30", pidfile);
    uv_loop_t loop;
    uv_loop_init(&loop);
    struct seen s = {0};
    struct runner *r = sh_runner(&loop, script, &s, 0.3, 2);
    struct params p;
    params_defaults(&p);
    uint64_t t0 = uv_hrtime();
    runner_submit(r, &p, 0, 1, 0, on_done, &s);
    run_until(&loop, &s, 1, 5);
    double took = (double)(uv_hrtime() - t0) / 1e9;
    cr_assert_eq(s.n, 1);
    cr_assert(strstr(s.error[0], "timed out after 0.3 s (the time limit)"), "got: %s", s.error[0]);
    cr_assert_lt(took, 3, "the limit took %.1f s to act", took);
    pid_t pid = read_pid(pidfile);
    unlink(pidfile);
    cr_assert_gt(pid, 0);
    cr_assert(gone(pid), "child %ld was not reaped", (long)pid);
    drain(&loop, r);
}

Test(runner, cancel_kills_without_callback_and_reaps, .timeout = 10)
{
    char pidfile[] = "/tmp/situ-runner-XXXXXX";
    int fd = mkstemp(pidfile);
    cr_assert_geq(fd, 0);
    close(fd);
    char script[256];
    snprintf(script, sizeof script, "echo $$ > %s; exec sleep 30", pidfile);
    uv_loop_t loop;
    uv_loop_init(&loop);
    struct seen s = {0};
    struct runner *r = sh_runner(&loop, script, &s, 60, 2);
    struct params p;
    params_defaults(&p);
    long id = runner_submit(r, &p, 0, 5, 0, on_done, &s);
    uint64_t end = uv_hrtime() + 5000000000ull;
    while (read_pid(pidfile) <= 0 && uv_hrtime() < end)
        uv_run(&loop, UV_RUN_NOWAIT);
    pid_t pid = read_pid(pidfile);
    unlink(pidfile);
    cr_assert_gt(pid, 0, "the child never started");
    cr_assert_eq(runner_job_state(r, id), RUNNER_JOB_RUNNING);
    cr_assert_eq(runner_cancel_tag(r, 5), 1);
    cr_assert_eq(runner_job_state(r, id), RUNNER_JOB_NONE);
    int running, queued;
    runner_counts(r, &running, &queued);
    cr_assert_eq(running + queued, 0);
    uint64_t t0 = uv_hrtime();
    drain(&loop, r);
    cr_assert_lt((double)(uv_hrtime() - t0) / 1e9, 2.0, "the killed child was slow to go");
    cr_assert_eq(s.n, 0, "a cancelled job called back");
    cr_assert(gone(pid), "child %ld was not reaped", (long)pid);
}

Test(runner, too_much_output_fails, .timeout = 10)
{
    uv_loop_t loop;
    uv_loop_init(&loop);
    struct seen s = {0};
    const char *argv[] = {"/bin/sh", "-c", "yes situ | head -c 100000", "sh", NULL};
    struct runner_opts o = {.argv = argv, .output_max = 1000};
    char err[256];
    struct runner *r = runner_new(&loop, &o, err, sizeof err);
    cr_assert_not_null(r);
    struct params p;
    params_defaults(&p);
    runner_submit(r, &p, 0, 1, 0, on_done, &s);
    run_until(&loop, &s, 1, 5);
    cr_assert(strstr(s.error[0], "more than 1000 bytes"), "got: %s", s.error[0]);
    drain(&loop, r);
}

Test(runner, cap_on_concurrent_children, .timeout = 20)
{
    uv_loop_t loop;
    uv_loop_init(&loop);
    struct seen s = {0};
    struct runner *r = sh_runner(&loop, "sleep 0.2; exit 1", &s, 10, 2);
    struct params p;
    for (int i = 0; i < 6; i++) {
        params_with_scaling(&p, i + 1);
        cr_assert_gt(runner_submit(r, &p, 0, 1, 0, on_done, &s), 0);
    }
    int running, queued;
    runner_counts(r, &running, &queued);
    cr_assert_eq(running + queued, 6);
    run_until(&loop, &s, 6, 15);
    cr_assert_eq(s.n, 6);
    cr_assert_eq(s.max_running, 2, "saw %d children at once", s.max_running);
    drain(&loop, r);
}

Test(runner, identical_configurations_share_one_child, .timeout = 10)
{
    char countfile[] = "/tmp/situ-runner-XXXXXX";
    int fd = mkstemp(countfile);
    cr_assert_geq(fd, 0);
    close(fd);
    char script[256];
    snprintf(script, sizeof script, "echo run >> %s; sleep 0.2; exit 2", countfile);
    uv_loop_t loop;
    uv_loop_init(&loop);
    struct seen s = {0};
    struct runner *r = sh_runner(&loop, script, &s, 10, 2);
    struct params p;
    params_defaults(&p);
    long a = runner_submit(r, &p, 0, 1, 0, on_done, &s);
    long b = runner_submit(r, &p, 5, 2, 0, on_done, &s);
    cr_assert_neq(a, b);
    /* Dropping one waiter keeps the child for the other. */
    runner_cancel(r, a);
    run_until(&loop, &s, 1, 5);
    cr_assert_eq(s.n, 1);
    cr_assert_eq(s.ids[0], b);
    cr_assert_eq(s.tags[0], 2);
    drain(&loop, r);
    FILE *f = fopen(countfile, "r");
    int lines = 0;
    char buf[16];
    while (f && fgets(buf, sizeof buf, f))
        lines++;
    if (f)
        fclose(f);
    unlink(countfile);
    cr_assert_eq(lines, 1, "%d children ran for one configuration", lines);
}

Test(runner, urgent_job_preempts_and_the_other_is_requeued, .timeout = 20)
{
    uv_loop_t loop;
    uv_loop_init(&loop);
    struct seen s = {0};
    /* Slow unless data_scaling is 2 (the urgent one); $1.. are the flags, find its value. */
    const char *script = "while [ $# -gt 0 ]; do [ \"$1\" = --data_scaling ] && x=$2; shift; "
                         "done; [ \"$x\" = 2 ] || sleep 1; exit 4";
    struct runner *r = sh_runner(&loop, script, &s, 10, 1);
    struct params slow, urgent;
    params_with_scaling(&slow, 1);
    params_with_scaling(&urgent, 2);
    long a = runner_submit(r, &slow, 0, 1, 0, on_done, &s);
    uint64_t end = uv_hrtime() + 5000000000ull;
    while (runner_job_state(r, a) != RUNNER_JOB_RUNNING && uv_hrtime() < end)
        uv_run(&loop, UV_RUN_NOWAIT);
    cr_assert_eq(runner_job_state(r, a), RUNNER_JOB_RUNNING);
    runner_submit(r, &urgent, 10, 2, 0, on_done, &s);
    run_until(&loop, &s, 2, 10);
    cr_assert_eq(s.n, 2);
    cr_assert_eq(s.data_scaling[0], 2, "the urgent job did not finish first");
    cr_assert_eq(s.data_scaling[1], 1, "the preempted job was lost");
    cr_assert_eq(s.max_running, 1);
    drain(&loop, r);
}

Test(runner, shutdown_kills_everything, .timeout = 10)
{
    uv_loop_t loop;
    uv_loop_init(&loop);
    struct seen s = {0};
    struct runner *r = sh_runner(&loop, "sleep 30", &s, 60, 2);
    struct params p;
    for (int i = 0; i < 4; i++) {
        params_with_scaling(&p, i + 1);
        runner_submit(r, &p, 0, 1, 0, on_done, &s);
    }
    for (int i = 0; i < 20; i++)
        uv_run(&loop, UV_RUN_NOWAIT);
    uint64_t t0 = uv_hrtime();
    drain(&loop, r);
    cr_assert_lt((double)(uv_hrtime() - t0) / 1e9, 2.0);
    cr_assert_eq(s.n, 0);
}

Test(runner, missing_program_fails_cleanly, .timeout = 10)
{
    uv_loop_t loop;
    uv_loop_init(&loop);
    struct seen s = {0};
    const char *argv[] = {"/nonexistent/situ", "run", "--json", NULL};
    struct runner_opts o = {.argv = argv};
    char err[256];
    struct runner *r = runner_new(&loop, &o, err, sizeof err);
    struct params p;
    params_defaults(&p);
    runner_submit(r, &p, 0, 1, 0, on_done, &s);
    run_until(&loop, &s, 1, 5);
    cr_assert_eq(s.n, 1);
    cr_assert(strstr(s.error[0], "cannot start /nonexistent/situ"), "got: %s", s.error[0]);
    drain(&loop, r);
}

/* ---- the ready child ----------------------------------------------------------------------- */

/* This process's ready child that waits (`__simulate --ready`, its stdin still a pipe), or 0;
 * -1 if there are several. */
static pid_t ready_waiting(void)
{
    pid_t found = 0;
    char cmd[64], buf[256], link[64];
    snprintf(cmd, sizeof cmd, "ps -o pid= --ppid %ld", (long)getpid());
    FILE *ps = popen(cmd, "r");
    cr_assert_not_null(ps);
    long pid;
    while (fscanf(ps, "%ld", &pid) == 1) {
        snprintf(buf, sizeof buf, "/proc/%ld/cmdline", pid);
        FILE *f = fopen(buf, "r");
        size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
        if (f)
            fclose(f);
        buf[n] = 0;
        const char *arg1 = buf + strlen(buf) + 1, *arg2 = arg1 + strlen(arg1) + 1;
        if (n == 0 || arg1 >= buf + n || strcmp(arg1, "__simulate") || arg2 >= buf + n ||
            strcmp(arg2, "--ready"))
            continue;
        snprintf(cmd, sizeof cmd, "/proc/%ld/fd/0", pid);
        ssize_t k = readlink(cmd, link, sizeof link - 1);
        if (k > 5 && !strncmp(link, "pipe:", 5))
            found = found ? -1 : (pid_t)pid;
    }
    pclose(ps);
    return found;
}

struct seen_json {
    int n;
    json_t *json;
    char error[RUNNER_ERR_MAX];
};

static void on_done_json(void *ud, const struct runner_done *d)
{
    struct seen_json *s = ud;
    s->n++;
    s->json = d->json ? json_incref(d->json) : NULL;
    snprintf(s->error, sizeof s->error, "%s", d->error ? d->error : "");
}

/* The JSON line of one simulation of p by `./situ-sim __simulate`, a ready child kept or not,
 * without its wall time (the one key that may differ between two runs). Checks which child ran it:
 * an urgent job (priority > 0) the ready child that waited (it has exited and another waits), a
 * background one a cold child (the same one still waits); runner_shutdown reaps the ready one. */
static json_t *run_once(bool ready, const struct params *p, int priority)
{
    uv_loop_t loop;
    uv_loop_init(&loop);
    const char *argv[] = {"./situ-sim", "__simulate", NULL};
    struct runner_opts o = {.argv = argv, .ready = ready, .cache_max = -1};
    char err[256];
    struct runner *r = runner_new(&loop, &o, err, sizeof err);
    cr_assert_not_null(r, "%s", err);
    pid_t before = ready_waiting();
    cr_assert(ready ? before > 0 : before == 0, "ready child before the job: %ld", (long)before);
    struct seen_json s = {0};
    cr_assert_gt(runner_submit(r, p, priority, 1, RUNNER_FORCE, on_done_json, &s), 0);
    uint64_t end = uv_hrtime() + (uint64_t)30e9;
    while (!s.n && uv_hrtime() < end)
        uv_run(&loop, UV_RUN_ONCE);
    cr_assert_not_null(s.json, "no result: %s", s.error);
    json_object_del(s.json, "wall_seconds");
    pid_t after = ready_waiting();
    if (ready && priority > 0) {
        cr_assert(gone(before), "the ready child %ld did not run the urgent job", (long)before);
        cr_assert(after > 0 && after != before, "no new ready child after the hand-out");
    } else if (ready) {
        cr_assert_eq(after, before, "a background job took the ready child");
    }
    drain(&loop, r);
    if (ready)
        cr_assert(gone(after), "the ready child %ld outlived runner_shutdown", (long)after);
    return s.json;
}

/* The ready child gives what a cold child gives, runs only what someone waits for, and goes with
 * its runner. A real simulation (SimGrid), one node, a few steps. */
Test(runner, ready_child_runs_urgent_jobs_as_a_cold_child_would, .timeout = 60)
{
    cr_assert_eq(access("./situ", X_OK), 0, "run from the repository root after make situ");
    struct params p;
    params_defaults(&p);
    p.nodes = 1;
    p.iterations = 400;
    json_t *cold = run_once(false, &p, 1);
    json_t *warm = run_once(true, &p, 1);
    json_t *background = run_once(true, &p, 0);
    char *a = json_dumps(cold, JSON_SORT_KEYS | JSON_COMPACT);
    char *b = json_dumps(warm, JSON_SORT_KEYS | JSON_COMPACT);
    cr_assert(json_equal(cold, warm), "cold:  %s\nready: %s", a, b);
    cr_assert(json_equal(cold, background));
    cr_assert_not_null(json_object_get(cold, "makespan"));
    free(a);
    free(b);
    json_decref(cold);
    json_decref(warm);
    json_decref(background);
}

/* ---- result_parse ------------------------------------------------------------------------- */

#define MODEL_KEYS                                                                                 \
    "\"particles\":1372000.0,\"sim_cores\":30,\"analytics_cores\":2,\"sim_nodes\":1,"              \
    "\"analytics_nodes\":1,\"nodes_used\":1,\"steps\":3,\"stage\":{\"S\":0.75,\"Ing\":0.0,"        \
    "\"R\":0.0036,\"A\":0.544,\"W\":0.0,\"C\":0.0},\"halo\":1e-5,\"sim_active\":300.0,"            \
    "\"sim_idle\":0.5,\"analytics_active\":219.0,\"analytics_idle\":81.5,\"makespan\":300.5,"      \
    "\"makespan_eq5\":300.6,\"efficiency\":0.73,\"scenario\":\"IA\""

static void expect_parse_error(const char *json, const char *needle)
{
    struct sim_result r;
    char err[RESULT_ERR_MAX] = "";
    cr_assert_eq(result_parse(json, strlen(json), &r, err, sizeof err), -1, "accepted: %s", json);
    cr_assert(strstr(err, needle), "error '%s' lacks '%s'", err, needle);
    cr_assert_null(strchr(err, '\n'));
    result_free(&r);
}

Test(result, parses_model_and_run_keys)
{
    const char *json = "{" MODEL_KEYS ",\"wall_seconds\":0.12,\"activities\":4242,"
                       "\"fidelity\":\"fast\",\"per_step\":{\"sim_active\":[0.75,0.75,0.75],"
                       "\"sim_idle\":[0,0,0.1],\"analytics_active\":[0.5,0.6,0.7],"
                       "\"analytics_idle\":[0.25,0.15,0.15]},\"links\":[{\"name\":\"dahu-1_UP\","
                       "\"bytes\":1e9,\"utilisation\":0.25}]}\n";
    struct sim_result r, copy;
    char err[RESULT_ERR_MAX];
    cr_assert_eq(result_parse(json, strlen(json), &r, err, sizeof err), 0, "%s", err);
    cr_assert_float_eq(r.m.makespan, 300.5, 1e-12);
    cr_assert_float_eq(r.m.efficiency, 0.73, 1e-12);
    cr_assert_eq(r.m.scenario, SCENARIO_IA);
    cr_assert_eq(r.m.sim_cores, 30);
    cr_assert_float_eq(r.m.stage.A, 0.544, 1e-12);
    cr_assert_float_eq(r.wall_seconds, 0.12, 1e-12);
    cr_assert_eq(r.activities, 4242);
    cr_assert_str_eq(r.fidelity, "fast");
    cr_assert_eq(r.nsteps, 3);
    cr_assert_float_eq(result_step_mean(&r, r.step_ana_active), 0.6, 1e-12);
    cr_assert_eq(r.nlinks, 1);
    cr_assert_str_eq(r.links[0].name, "dahu-1_UP");
    cr_assert_eq(result_copy(&copy, &r), 0);
    result_free(&r);
    cr_assert_float_eq(copy.step_sim_idle[2], 0.1, 1e-12);
    cr_assert_float_eq(copy.links[0].utilisation, 0.25, 1e-12);
    result_free(&copy);
}

Test(result, model_output_without_run_keys_is_fine)
{
    const char *json = "{" MODEL_KEYS "}";
    struct sim_result r;
    char err[RESULT_ERR_MAX];
    cr_assert_eq(result_parse(json, strlen(json), &r, err, sizeof err), 0, "%s", err);
    cr_assert_eq(r.nsteps, 0);
    cr_assert_eq(r.wall_seconds, -1);
    cr_assert_eq(result_step_mean(&r, r.step_sim_active), -1);
    result_free(&r);
}

Test(result, rejects_malformed_input)
{
    expect_parse_error("", "no output");
    expect_parse_error("   \n", "no output");
    expect_parse_error("Segmentation fault", "not JSON");
    expect_parse_error("{\"makespan\": 1", "not JSON");
    expect_parse_error("[1, 2]", "expected a JSON object, got an array");
    expect_parse_error("{" MODEL_KEYS "} trailing", "not JSON");
    expect_parse_error("{\"efficiency\":0.5}", "'makespan' is missing");
    expect_parse_error("{" MODEL_KEYS ",\"activities\":-3}", "'activities' is not a non-negative");
    expect_parse_error("{" MODEL_KEYS ",\"fidelity\":3}", "'fidelity' is not a string");
    expect_parse_error("{" MODEL_KEYS ",\"per_step\":{\"sim_active\":[1],\"sim_idle\":[1,2],"
                       "\"analytics_active\":[1],\"analytics_idle\":[1]}}",
                       "per_step arrays differ in length");
    expect_parse_error("{" MODEL_KEYS ",\"per_step\":{\"sim_active\":[1]}}",
                       "'per_step.sim_idle' is missing");
    expect_parse_error("{" MODEL_KEYS ",\"per_step\":{\"sim_active\":[\"x\"],\"sim_idle\":[1],"
                       "\"analytics_active\":[1],\"analytics_idle\":[1]}}",
                       "per_step.sim_active[0] is not a number");
    expect_parse_error("{" MODEL_KEYS ",\"links\":[{\"name\":\"l\",\"bytes\":1}]}",
                       "links[0]: key 'utilisation' is missing");
}

Test(result, rejects_a_bad_scenario)
{
    char json[2048];
    snprintf(json, sizeof json, "{%s}", MODEL_KEYS);
    char *sc = strstr(json, "\"IA\"");
    cr_assert_not_null(sc);
    memcpy(sc, "\"XX\"", 4);
    expect_parse_error(json, "'scenario' is 'XX'");
}
