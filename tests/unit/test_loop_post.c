/* The explorer loop's queue of posted flags (tui/loop/loop.h): the callbacks of loop_jobs.c,
 * loop_curves.c and the rest post what their app calls return, and loop.c acts on them in the
 * order they came; a full queue merges into its newest entry rather than lose a flag. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "../../tui/loop/loop.h"

static struct tui *fresh(void)
{
    struct tui *t = calloc(1, sizeof *t); /* large: the app state is inside */
    cr_assert_not_null(t);
    return t;
}

Test(loop_post, first_in_first_out_across_the_ring_end)
{
    struct tui *t = fresh();
    unsigned f;
    cr_assert_not(loop_take(t, &f), "nothing posted, nothing taken");
    /* Round the ring more than once, a few at a time, as turns of the loop do. */
    unsigned next = 1, want = 1;
    for (int turn = 0; turn < 3 * POSTED_MAX / 5; turn++) {
        for (int i = 0; i < 5; i++)
            loop_post(t, next++);
        for (int i = 0; i < 5; i++) {
            cr_assert(loop_take(t, &f));
            cr_assert_eq(f, want, "turn %d: took %u, posted %u first", turn, f, want);
            want++;
        }
    }
    cr_assert_not(loop_take(t, &f));
    free(t);
}

Test(loop_post, a_full_queue_merges_into_the_newest)
{
    struct tui *t = fresh();
    for (int i = 0; i < POSTED_MAX; i++)
        loop_post(t, APP_DIRTY);
    loop_post(t, APP_CONFIG);
    loop_post(t, APP_QUIT);
    cr_assert_eq(t->nposted, POSTED_MAX);
    unsigned f, last = 0;
    int n = 0;
    while (loop_take(t, &f)) {
        n++;
        last = f;
    }
    cr_assert_eq(n, POSTED_MAX);
    cr_assert_eq(last, APP_DIRTY | APP_CONFIG | APP_QUIT, "a flag was lost: %u", last);
    free(t);
}
