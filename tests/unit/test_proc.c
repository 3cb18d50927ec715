/* A child on a libuv loop (engine/run/proc.h): its end said once, after its output; its time
 * limit; its stdin; its hand-over; and silence once closed. */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../engine/run/proc.h"

struct seen {
    int ends, outs;
    size_t streamed;
    char out[256];
    struct proc_end end;
    char reason[256];
    size_t out_len;
    char first[64];
};

static void on_out(void *ud, const char *buf, size_t n)
{
    struct seen *s = ud;
    s->outs++;
    if (s->streamed < sizeof s->out - 1) {
        size_t k = n < sizeof s->out - 1 - s->streamed ? n : sizeof s->out - 1 - s->streamed;
        memcpy(s->out + s->streamed, buf, k);
    }
    s->streamed += n;
}

static void on_exit_cb(void *ud, const struct proc_end *e)
{
    struct seen *s = ud;
    s->ends++;
    s->end = *e;
    s->out_len = e->out_len;
    snprintf(s->first, sizeof s->first, "%.*s", (int)(e->out_len < 63 ? e->out_len : 63), e->out);
    child_reason(e->err, s->reason, sizeof s->reason);
    s->end.out = NULL;
    s->end.err = NULL;
}

static char sh[] = "/bin/sh", dash_c[] = "-c";

static struct proc *start_sh(uv_loop_t *loop, const char *script, int in, double limit,
                             size_t out_max, struct seen *s)
{
    char *argv[] = {sh, dash_c, (char *)script, NULL};
    struct proc_opts o = {
        .spec = {.argv = argv, .in = in}, .time_limit = limit, .out_max = out_max};
    struct proc_cbs cbs = {.on_out = on_out, .on_exit = on_exit_cb, .ud = s};
    char why[256];
    struct proc *p = proc_start(loop, &o, &cbs, why, sizeof why);
    cr_assert_not_null(p, "%s", why);
    return p;
}

static void drain(uv_loop_t *loop)
{
    uv_run(loop, UV_RUN_DEFAULT);
    cr_assert_eq(uv_loop_close(loop), 0, "a handle was left open");
}

/* Kept whole, however it arrives, and said once with its status and reason. */
Test(proc, output_kept_whole_then_one_end, .timeout = 10)
{
    uv_loop_t loop;
    uv_loop_init(&loop);
    struct seen s = {0};
    start_sh(&loop, "head -c 200000 /dev/zero | tr '\\0' x; echo 'situ: said' >&2; exit 5",
             CHILD_NULL, 5, 1 << 20, &s);
    drain(&loop);
    cr_assert_eq(s.ends, 1);
    cr_assert_eq(s.outs, 0, "kept output is not streamed");
    cr_assert_eq(s.out_len, 200000);
    cr_assert_eq(s.first[0], 'x');
    cr_assert(WIFEXITED(s.end.status) && WEXITSTATUS(s.end.status) == 5);
    cr_assert_str_eq(s.reason, "said");
}

Test(proc, streamed_and_stdin, .timeout = 10)
{
    uv_loop_t loop;
    uv_loop_init(&loop);
    struct seen s = {0};
    struct proc *p = start_sh(&loop, "cat", CHILD_PIPE, 5, 0, &s);
    cr_assert_eq(proc_write(p, "hello ", 6), 0);
    cr_assert_eq(proc_write(p, "there", 5), 0);
    proc_close_in(p);
    drain(&loop);
    cr_assert_eq(s.ends, 1);
    cr_assert_eq(s.streamed, 11);
    cr_assert_str_eq(s.out, "hello there");
    cr_assert(WIFEXITED(s.end.status) && WEXITSTATUS(s.end.status) == 0);
}

Test(proc, time_limit_and_overflow, .timeout = 10)
{
    uv_loop_t loop;
    uv_loop_init(&loop);
    struct seen a = {0}, b = {0};
    uint64_t t0 = uv_hrtime();
    start_sh(&loop, "sleep 30 & sleep 30", CHILD_NULL, 0.2, 4096, &a);
    start_sh(&loop, "yes", CHILD_NULL, 5, 1000, &b);
    drain(&loop); /* returns only once the group is gone: the pipes closed */
    cr_assert_lt((uv_hrtime() - t0) / 1e9, 5.0);
    cr_assert(a.end.timed_out && !a.end.overflow);
    cr_assert_eq(a.end.limit, 0.2);
    cr_assert(b.end.overflow && !b.end.timed_out);
    cr_assert_leq(b.out_len, 1000);
}

/* Closed: killed, no callback, freed once reaped. */
Test(proc, closed_is_silent, .timeout = 10)
{
    uv_loop_t loop;
    uv_loop_init(&loop);
    struct seen s = {0};
    struct proc *p = start_sh(&loop, "echo hi; sleep 30", CHILD_NULL, 0, 0, &s);
    int pid = proc_pid(p);
    proc_close(p);
    drain(&loop);
    cr_assert_eq(s.ends, 0);
    cr_assert_eq(kill(pid, 0), -1, "still there");
}

/* The ready child's way: started ahead, handed to its job with the job's callbacks and limit. */
Test(proc, hand_over, .timeout = 10)
{
    uv_loop_t loop;
    uv_loop_init(&loop);
    struct seen before = {0}, after = {0};
    struct proc *p =
        start_sh(&loop, "read -r x; echo \"got $x\"; sleep 30", CHILD_PIPE, 0, 4096, &before);
    uv_run(&loop, UV_RUN_NOWAIT);
    struct proc_cbs cbs = {.on_exit = on_exit_cb, .ud = &after};
    proc_hand_over(p, &cbs, 0.3);
    cr_assert_eq(proc_write(p, "job\n", 4), 0);
    proc_close_in(p);
    drain(&loop);
    cr_assert_eq(before.ends, 0);
    cr_assert_eq(after.ends, 1);
    cr_assert(after.end.timed_out, "the job's limit did not hold");
    cr_assert_str_eq(after.first, "got job\n");
}
