/* Lua's watchdog has no thread while a script waits for its simulations (every child of ours is a
 * fork and exec: engine/base/child.h; the digest's exec: test_platform.c; the simulation helper
 * through the CLI: tests/study/run.py). */
#include <criterion/criterion.h>
#include <unistd.h>

#include "../../engine/base/child.h"
#include "../../engine/base/watchdog.h"

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
 * a script waits for its simulations (whose time is not the script's). */
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

/* ---- the process module: every child of ours starts through child_start ---------------- */

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

static char sh[] = "/bin/sh", dash_c[] = "-c";

/* Runs `sh -c script` through child_start and child_wait; its stdout in w (caller frees). */
static void run_sh(const char *script, double limit, size_t out_max, struct child_wait *w,
                   struct child_spec *extra)
{
    char *argv[] = {sh, dash_c, (char *)script, NULL};
    struct child_spec spec = {.argv = argv, .in = CHILD_NULL, .out = CHILD_PIPE, .err = CHILD_PIPE};
    if (extra) {
        extra->argv = argv;
        spec = *extra;
    }
    struct child c;
    char why[256];
    cr_assert_eq(child_start(&c, &spec, why, sizeof why), 0, "%s", why);
    cr_assert_gt(c.pid, 0);
    *w = (struct child_wait){.limit = limit, .out_max = out_max};
    child_wait(&c, w);
    cr_assert_eq(c.pid, 0, "reaped");
    cr_assert_eq(c.out, -1, "its pipes are closed");
}

static bool alive(pid_t pid)
{
    for (int i = 0; i < 200; i++) {
        if (kill(pid, 0) < 0 && errno == ESRCH)
            return false;
        usleep(10000);
    }
    return true;
}

/* Its own group, its pipes on 0, 1 and 2, a kept descriptor where asked, and nothing else of
 * ours: a descriptor this process opened without close-on-exec stays here. */
Test(child, own_group_and_only_the_descriptors_given, .timeout = 10)
{
    int leak = open("/dev/null", O_RDONLY); /* no O_CLOEXEC: a careless descriptor of ours */
    int kept = open("/dev/null", O_RDONLY | O_CLOEXEC);
    cr_assert_geq(leak, 3);
    char script[256];
    snprintf(script, sizeof script,
             "read -r pid comm state ppid pgrp rest < /proc/$$/stat; echo \"$pid $pgrp\"; "
             "for f in %d 7; do [ -e /proc/$$/fd/$f ] && echo \"fd $f\"; done; exit 0",
             leak);
    struct child_spec spec = {
        .in = CHILD_NULL, .out = CHILD_PIPE, .err = CHILD_PIPE, .keep = {{kept, 7}}, .nkeep = 1};
    struct child_wait w;
    run_sh(script, 5, 4096, &w, &spec);
    long pid = 0, pgrp = -1;
    cr_assert_eq(sscanf(w.out, "%ld %ld", &pid, &pgrp), 2, "%s", w.out);
    cr_assert_eq(pgrp, pid, "it leads its own group: %s", w.out);
    char unwanted[32];
    snprintf(unwanted, sizeof unwanted, "fd %d\n", leak);
    cr_assert_null(strstr(w.out, unwanted), "our descriptor %d reached it: %s", leak, w.out);
    cr_assert_not_null(strstr(w.out, "fd 7\n"), "the kept descriptor is not at 7: %s", w.out);
    free(w.out);
    close(leak);
    close(kept);
}

/* A child dies with its parent, even one killed by SIGKILL; the warden's kind outlives it. */
Test(child, dies_with_its_parent_unless_asked, .timeout = 20)
{
    for (int outlive = 0; outlive < 2; outlive++) {
        int p[2];
        cr_assert_eq(pipe(p), 0);
        pid_t mid = fork(); /* the parent that dies */
        if (mid == 0) {
            char sleep_bin[] = "/bin/sleep", secs[] = "30";
            char *argv[] = {sleep_bin, secs, NULL};
            struct child_spec spec = {.argv = argv,
                                      .in = CHILD_NULL,
                                      .out = CHILD_NULL,
                                      .err = CHILD_NULL,
                                      .outlive_parent = outlive};
            struct child c;
            char why[128];
            if (child_start(&c, &spec, why, sizeof why) < 0)
                _exit(1);
            ssize_t n = write(p[1], &c.pid, sizeof c.pid);
            (void)n;
            pause();
        }
        close(p[1]);
        pid_t grandchild = 0;
        cr_assert_eq(read(p[0], &grandchild, sizeof grandchild), (ssize_t)sizeof grandchild);
        close(p[0]);
        kill(mid, SIGKILL);
        waitpid(mid, NULL, 0);
        if (outlive) {
            cr_assert(alive(grandchild), "a child asked to outlive its parent died with it");
            kill(grandchild, SIGKILL);
        } else {
            cr_assert(!alive(grandchild), "child %d outlived its SIGKILLed parent",
                      (int)grandchild);
        }
    }
}

/* Past its limit the whole group goes: what it started too. */
Test(child, time_limit_kills_its_group, .timeout = 10)
{
    struct child_wait w;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    run_sh("sleep 30 & echo $!; sleep 30", 0.3, 4096, &w, NULL);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    cr_assert(w.timed_out);
    cr_assert_lt(t1.tv_sec - t0.tv_sec, 5, "not stopped at its limit");
    long grandchild = atol(w.out ? w.out : "0");
    cr_assert_gt(grandchild, 0, "%s", w.out);
    cr_assert(!alive((pid_t)grandchild), "what it started outlived it");
    char line[128];
    child_end_line("the check", w.status, w.timed_out, 0.3, false, 0, "", line, sizeof line);
    cr_assert_str_eq(line, "the check timed out after 0.3 s (the time limit)");
    free(w.out);
}

Test(child, too_much_output_kills_it, .timeout = 10)
{
    struct child_wait w;
    run_sh("yes", 5, 1000, &w, NULL);
    cr_assert(w.overflow);
    cr_assert(!w.timed_out);
    cr_assert_leq(w.out_len, 1000);
    cr_assert(WIFSIGNALED(w.status), "it was not killed");
    free(w.out);
}

Test(child, exit_status_and_reason, .timeout = 10)
{
    struct child_wait w;
    run_sh("echo noise >&2; echo 'situ: foo.lua:3: attempt to call a nil value' >&2; exit 4", 5,
           4096, &w, NULL);
    char reason[256], line[512];
    child_reason(&w.err, reason, sizeof reason);
    cr_assert_str_eq(reason, "foo.lua:3: attempt to call a nil value");
    child_end_line("simulation", w.status, false, 0, false, 0, reason, line, sizeof line);
    cr_assert_str_eq(line, "simulation failed (exit 4): foo.lua:3: attempt to call a nil value");
    free(w.out);
    run_sh("kill -SEGV $$", 5, 4096, &w, NULL);
    child_end_line("simulation", w.status, false, 0, false, 0, "", line, sizeof line);
    cr_assert_str_eq(line, "simulation crashed (Segmentation fault)");
    free(w.out);
    run_sh("exit 0", 5, 4096, &w, NULL);
    child_end_line("simulation", w.status, false, 0, false, 0, "", line, sizeof line);
    cr_assert_str_eq(line, "", "a clean exit is no failure");
    free(w.out);
}

/* A program that is not there: one line naming it, and nothing of ours left open. */
Test(child, a_missing_program_is_refused_whole, .timeout = 10)
{
    char missing[] = "/nonexistent/situ-sim";
    char *argv[] = {missing, NULL};
    struct child_spec spec = {.argv = argv, .in = CHILD_PIPE, .out = CHILD_PIPE, .err = CHILD_PIPE};
    int before = open("/dev/null", O_RDONLY);
    close(before);
    struct child c;
    char why[256];
    cr_assert_eq(child_start(&c, &spec, why, sizeof why), -1);
    cr_assert_str_eq(why, "cannot start /nonexistent/situ-sim: No such file or directory");
    int after = open("/dev/null", O_RDONLY);
    cr_assert_eq(after, before, "a descriptor was left open");
    close(after);
}

Test(child, fatal_signal_kills_every_child, .timeout = 10)
{
    char sleep_bin[] = "/bin/sleep", secs[] = "30";
    char *argv[] = {sleep_bin, secs, NULL};
    struct child_spec spec = {.argv = argv, .in = CHILD_NULL, .out = CHILD_NULL, .err = CHILD_NULL};
    struct child a, b;
    char why[128];
    cr_assert_eq(child_start(&a, &spec, why, sizeof why), 0, "%s", why);
    cr_assert_eq(child_start(&b, &spec, why, sizeof why), 0, "%s", why);
    child_kill_all_signal_safe();
    cr_assert_eq(waitpid(a.pid, NULL, WNOHANG), -1, "not reaped");
    cr_assert(!alive(a.pid) && !alive(b.pid));
}

static void feed(struct child_err *e, const char *text)
{
    child_err_feed(e, text, strlen(text));
}

/* SimGrid's message, not its backtrace; our own verdict after it wins; a long stderr keeps both
 * its head and its tail. */
Test(child, reason_reads_simgrid_and_us)
{
    static struct child_err e;
    char out[256];
    e = (struct child_err){.len = 0};
    feed(&e, "[0.000000] [xbt_cfg/INFO] Configuration change\n"
             "[node-1:sim:(2) 1.5] [root/CRITICAL] Uncaught exception xbt::Err by sim: Link "
             "not found: l9\n  continued here\n"
             "Backtrace (displayed in actor sim):\n  ->  0# foo\n  ->  1# bar\nExiting now.\n");
    child_reason(&e, out, sizeof out);
    cr_assert_str_eq(out, "Link not found: l9 continued here");
    feed(&e, "situ: node-1: the simulation deadlocked\n");
    child_reason(&e, out, sizeof out);
    cr_assert_str_eq(out, "node-1: the simulation deadlocked", "our verdict comes last");

    e = (struct child_err){.len = 0};
    feed(&e, "[0.0] [ker/ERROR] the platform has no host\n");
    for (int i = 0; i < 2000; i++)
        feed(&e, "  ->  9# a very long backtrace line of nothing in particular\n");
    cr_assert(e.cut);
    cr_assert_leq(e.len, CHILD_ERR_KEEP);
    child_reason(&e, out, sizeof out);
    cr_assert_str_eq(out, "the platform has no host", "the head was lost");
    feed(&e, "situ: the end\n");
    child_reason(&e, out, sizeof out);
    cr_assert_str_eq(out, "the end", "the tail was lost");

    e = (struct child_err){.len = 0};
    child_reason(&e, out, sizeof out);
    cr_assert_str_eq(out, "");
}
