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
