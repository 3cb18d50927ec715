/* The evaluator process (evaluator.h): the only place the explorer's user Lua runs. It reads a
 * request, evaluates it under the time limit (script.h's hook for Lua code, the watchdog for
 * library calls and finalizers, which ends this process with one line on stderr) and writes the
 * reply. It dies with the explorer. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../engine/lua/analytics.h"
#include "../../engine/lua/script.h"
#include "../../engine/model/layout.h"
#include "../../engine/scenario/lesson.h"
#include "../../engine/scenario/lesson_wire.h"
#include "../../engine/base/watchdog.h"
#include "evaluator.h"

static int read_full(int fd, void *buf, size_t len)
{
    size_t got = 0;
    while (got < len) {
        ssize_t n = read(fd, (char *)buf + got, len - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        got += (size_t)n;
    }
    return 0;
}

static int write_full(int fd, const void *buf, size_t len)
{
    size_t put = 0;
    while (put < len) {
        ssize_t n = write(fd, (const char *)buf + put, len - put);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        put += (size_t)n;
    }
    return 0;
}

/* The model of one configuration: the analytics' whole profile under one deadline. */
static void eval_model(const struct evaluator_request *q, struct platform *pf, double limit,
                       struct evaluator_reply *r)
{
    char perr[PARAMS_ERR_MAX];
    struct layout l;
    if (params_validate(&q->p, perr) < 0) {
        snprintf(r->err, sizeof r->err, "%s", perr);
        return;
    }
    if (layout_build(&q->p, pf, &l, r->err, sizeof r->err) < 0)
        return;
    if (platform_need_layout_routes(pf, &l, r->err, sizeof r->err) < 0) {
        layout_free(&l);
        return;
    }
    struct analytics_profile prof;
    int watch = watchdog_arm(limit, q->p.analytics);
    r->ok = analytics_profile(&q->p, &l, &prof, r->err, sizeof r->err) == 0;
    watchdog_disarm(watch);
    if (r->ok)
        model_eval(&q->p, pf, &l, &prof, &r->u.m);
    profile_free(&prof);
    layout_free(&l);
}

/* A lesson step's goal; the lesson is loaded once, and again when its file changes. */
static void eval_goal(const struct evaluator_request *q, double limit, struct evaluator_reply *r)
{
    static struct lesson *lesson;
    static struct stat loaded;
    const struct evaluator_goal *g = &q->goal;
    struct stat st;
    int watch = watchdog_arm(limit, g->lesson);
    if (stat(g->lesson, &st) < 0 || !lesson || strcmp(lesson_path(lesson), g->lesson) ||
        st.st_mtim.tv_sec != loaded.st_mtim.tv_sec ||
        st.st_mtim.tv_nsec != loaded.st_mtim.tv_nsec || st.st_size != loaded.st_size) {
        lesson_free(lesson);
        lesson = lesson_load(g->lesson, r->err, sizeof r->err);
        loaded = st;
    }
    if (lesson) {
        struct sim_result sim = {.m = g->sim, .wall_seconds = g->sim_wall};
        snprintf(sim.fidelity, sizeof sim.fidelity, "%s", g->sim_fidelity);
        char answer[sizeof g->answer];
        snprintf(answer, sizeof answer, "%s", g->answer);
        struct lesson_state state = {&q->p, &g->model, g->has_sim ? &sim : NULL,
                                     g->has_answer ? answer : NULL};
        r->u.goal = lesson_goal_check(lesson, g->step, &state, r->err, sizeof r->err);
    } else {
        r->u.goal = LESSON_GOAL_ERROR;
    }
    watchdog_disarm(watch);
    r->ok = true;
}

int evaluator_child_main(int argc, char **argv)
{
    double limit = 0;
    for (int i = 1; i + 1 < argc; i++) {
        if (!strcmp(argv[i], "--time-limit"))
            limit = strtod(argv[i + 1], NULL);
        else if (!strcmp(argv[i], "--nice"))
            (void)!setpriority(PRIO_PROCESS, 0, atoi(argv[i + 1]));
    }
    if (!(limit > 0))
        limit = ANALYTICS_TIME_LIMIT;
    /* An explorer killed with SIGKILL cannot kill us: the kernel does. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() == 1)
        return 1;
    signal(SIGPIPE, SIG_IGN);
    /* The replies get a descriptor of their own; stdout becomes stderr, so that nothing else
     * (a library's message) can slip into them. */
    int replies = dup(STDOUT_FILENO);
    if (replies < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
        return 1;
    script_set_time_limit(limit); /* every interpreter of this child: analytics and profile */
    analytics_set_output(NULL);   /* print() has no terminal here */

    struct evaluator_request *q = malloc(sizeof *q);
    struct evaluator_reply *r = malloc(sizeof *r);
    struct platform pf;
    char pf_path[PARAMS_PATH_MAX] = "";
    bool pf_ok = false;
    if (!q || !r)
        return 1;
    while (read_full(STDIN_FILENO, q, sizeof *q) == 0) {
        if (q->magic != EVALUATOR_MAGIC)
            return 2;
        q->key[sizeof q->key - 1] = 0;
        memset(r, 0, sizeof *r);
        r->magic = EVALUATOR_MAGIC;
        r->kind = q->kind;
        r->seq = q->seq;
        if (q->kind == EVAL_GOAL) {
            eval_goal(q, limit, r);
            if (write_full(replies, r, sizeof *r) < 0)
                return 1;
            continue;
        }
        if (!pf_ok || strcmp(pf_path, q->p.platform)) {
            if (pf_ok)
                platform_free(&pf);
            pf_ok = platform_load(q->p.platform, &pf, r->err, sizeof r->err) == 0;
            snprintf(pf_path, sizeof pf_path, "%s", pf_ok ? q->p.platform : "");
        }
        if (!pf_ok) {
            /* r->err says why */
        } else if (q->kind == EVAL_MODEL) {
            eval_model(q, &pf, limit, r);
        } else if (q->kind == EVAL_XOVER) {
            xover_curves_eval(&r->u.xo, &q->p, q->key, &pf, analytics_profile);
            r->ok = true;
        } else {
            scaling_eval(&r->u.sc, &q->p, q->key, &pf, analytics_profile);
            r->ok = true;
        }
        if (write_full(replies, r, sizeof *r) < 0)
            return 1;
    }
    return 0;
}

int evaluator_lesson_check_main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() == 1)
        return 1;
    /* The lesson goes out on a descriptor of its own; stdout becomes stderr, so that nothing
     * else (the lesson's io.write, a library's message) can slip into it. */
    int fd = dup(STDOUT_FILENO);
    FILE *wire = fd < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0 ? NULL : fdopen(fd, "w");
    if (!wire)
        return 1;
    char err[1024];
    struct lesson *l = lesson_load(argv[2], err, sizeof err);
    if (!l) {
        fprintf(stderr, "situ: %s\n", err);
        return 2;
    }
    if (lesson_wire_write(l, wire) < 0 || fclose(wire) != 0) {
        fprintf(stderr, "situ: %s: cannot hand the lesson over: %s\n", argv[2], strerror(errno));
        return 1;
    }
    lesson_free(l); /* its finalizers too: under the limits, as in the explorer's goals */
    return 0;
}
