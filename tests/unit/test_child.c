/* Fork only before threads, or fork and exec (engine/base/child.h): the runner copies a process
 * only while it has one thread, and Lua's watchdog has no thread while a script waits for its
 * simulations. (The digest's exec: test_platform.c; through the CLI: tests/study/run.py.) Run
 * from the repository root after `make situ`. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <uv.h>

#include "../../engine/base/child.h"
#include "../../engine/base/watchdog.h"
#include "../../engine/run/runner.h"
#include "fixtures.h"

struct ended {
    int n;
    bool ok;
    char error[RUNNER_ERR_MAX];
};

static void on_done(void *ud, const struct runner_done *d)
{
    struct ended *e = ud;
    e->n++;
    e->ok = d->status == RUNNER_OK;
    snprintf(e->error, sizeof e->error, "%s", d->error ? d->error : "");
}

/* in_process's copy and the exec'd child both become `situ model --json`; each first says which
 * it is in the fixture's file `how`. */
static void copy_child(const struct params *p)
{
    (void)p;
    char path[128];
    snprintf(path, sizeof path, "%s/how", fixture_dir);
    FILE *f = fopen(path, "w");
    if (f)
        fputs("copy\n", f), fclose(f);
    execl("./situ", "situ", "model", "--json", (char *)NULL);
    _exit(3);
}

static void *idle_thread(void *stop)
{
    while (!__atomic_load_n((bool *)stop, __ATOMIC_SEQ_CST))
        usleep(1000);
    return NULL;
}

/* With in_process set, a process that has a thread besides this one (a library's, say) gets an
 * exec'd child, never a copy of itself. (A Criterion worker has a thread of Criterion's already;
 * the one-thread case, a copy, is tests/study/run.py's, through `situ run`.) */
Test(child, a_process_with_threads_execs, .init = fixture_dir_make, .fini = fixture_dir_remove,
     .timeout = 30)
{
    cr_assert_eq(access("./situ", X_OK), 0, "run from the repository root after make situ");
    char script[256], how[160], text[32] = "";
    snprintf(how, sizeof how, "%s/how", fixture_dir);
    snprintf(script, sizeof script, "echo exec > '%s'; exec ./situ model --json", how);
    bool stop = false;
    pthread_t t;
    cr_assert_eq(pthread_create(&t, NULL, idle_thread, &stop), 0);
    uv_loop_t loop;
    uv_loop_init(&loop);
    const char *argv[] = {"/bin/sh", "-c", script, "sh", NULL};
    struct ended e = {0};
    struct runner_opts o = {.argv = argv, .in_process = copy_child};
    char err[256];
    struct runner *r = runner_new(&loop, &o, err, sizeof err);
    cr_assert_not_null(r, "%s", err);
    struct params p;
    params_defaults(&p);
    cr_assert_gt(runner_submit(r, &p, 0, 1, 0, on_done, &e), 0);
    uint64_t end = uv_hrtime() + (uint64_t)15e9;
    while (e.n < 1 && uv_hrtime() < end)
        uv_run(&loop, UV_RUN_ONCE);
    __atomic_store_n(&stop, true, __ATOMIC_SEQ_CST);
    pthread_join(t, NULL);
    cr_assert(e.n == 1 && e.ok, "child failed: %s", e.error);
    FILE *f = fopen(how, "r");
    cr_assert_not_null(f);
    cr_assert_not_null(fgets(text, sizeof text, f));
    fclose(f);
    cr_assert_str_eq(text, "exec\n", "a process with threads made a copy of itself");
    runner_shutdown(r);
    uv_run(&loop, UV_RUN_DEFAULT);
    runner_free(r);
    cr_assert_eq(uv_loop_close(&loop), 0, "handles left open on the loop");
}

/* This process's threads once the count has settled (a joined thread may linger a moment). */
static int threads_now(int want)
{
    int n = child_threads();
    for (int i = 0; i < 100 && n != want; i++) {
        usleep(1000);
        n = child_threads();
    }
    return n;
}

/* Lua's watchdog has a thread only while a deadline may fire: none once paused, as it is while
 * a script waits for its simulations, so those are copies of a one-thread process. */
Test(child, watchdog_thread_ends_while_paused, .timeout = 10)
{
    int base = child_threads();
    cr_assert_gt(base, 0);
    int h = watchdog_arm(60, "test");
    cr_assert_geq(h, 0);
    cr_assert_eq(threads_now(base + 1), base + 1, "no watchdog thread while armed");
    watchdog_pause();
    cr_assert_eq(threads_now(base), base, "the watchdog's thread outlived the pause");
    cr_assert(!watchdog_expired(h));
    watchdog_resume();
    cr_assert_eq(threads_now(base + 1), base + 1, "no watchdog thread after the pause");
    watchdog_disarm(h);
    watchdog_pause();
    cr_assert_eq(threads_now(base), base);
    watchdog_resume();
    cr_assert_eq(threads_now(base), base, "a thread for no deadline");
}
