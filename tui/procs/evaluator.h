/* The explorer's evaluator: a child process (this binary, `situ __evaluate`) where a Lua
 * analytics file is evaluated, so that nothing it does (an endless loop inside a C function or
 * a finalizer, a memory bomb) can stall the explorer. The child answers one request at a time:
 * the model of a configuration, or the crossover or scaling curves of a base. Requests and
 * replies are the structs below, written whole over pipes (parent and child are the same
 * binary). A request that outlives its deadline gets the child killed and an error reply; the
 * next request starts a new child. Callbacks run on the loop thread. No curses here. */
#ifndef SITU_EVALUATOR_H
#define SITU_EVALUATOR_H

#include <stdbool.h>
#include <uv.h>

#include "../../engine/model/model.h"
#include "../../engine/model/params.h"
#include "../state/app.h"
#include "../scaling/scaling.h"
#include "../xover/xover.h"

#define EVALUATOR_ERR_MAX APP_ERR_LONG
#define EVALUATOR_MAGIC   0x53495455u /* "SITU": anything else on the pipe is refused */

enum evaluator_kind { EVAL_MODEL, EVAL_XOVER, EVAL_SCALING, EVAL_GOAL };

/* EVAL_GOAL: a lesson step's goal against a configuration, its model and its simulation (what
 * a goal sees of it: the shared keys, the wall time and the fidelity). */
struct evaluator_goal {
    char lesson[PARAMS_PATH_MAX];
    int step;
    struct model_result model;
    bool has_sim;
    struct model_result sim;
    double sim_wall;
    char sim_fidelity[16];
    bool has_answer;
    char answer[128]; /* the student's answer to the step's question (state.answer) */
};

struct evaluator_request {
    unsigned magic;
    enum evaluator_kind kind;
    long seq;
    struct params p;          /* the configuration, or the curves' base */
    char key[RUNNER_KEY_MAX]; /* the curves' key, copied into them */
    struct evaluator_goal goal;
};

struct evaluator_reply {
    unsigned magic;
    enum evaluator_kind kind;
    long seq;
    bool ok;
    char err[EVALUATOR_ERR_MAX]; /* !ok: one line, "FILE:LINE: message"; a goal's message */
    union {
        int goal; /* enum lesson_goal */
        struct model_result m;
        struct xover_curves xo;
        struct scaling_curves sc;
    } u;
};

typedef void (*evaluator_cb)(void *ud, const struct evaluator_reply *r);

struct evaluator;

/* time_limit: seconds each configuration's evaluation may take (<= 0: the default); nice: the
 * child's scheduling priority (0: the explorer's; 10: background). */
struct evaluator *evaluator_new(uv_loop_t *loop, double time_limit, int nice, evaluator_cb cb,
                                void *ud);

/* Asks for kind of p. One request runs at a time; a request not yet sent is replaced by a newer
 * one (the explorer only wants the latest). Returns its sequence number (> 0), which the reply
 * carries; 0 if it could not be queued. */
long evaluator_submit(struct evaluator *ev, enum evaluator_kind kind, const struct params *p,
                      const char *key);
/* The same for a goal. */
long evaluator_submit_goal(struct evaluator *ev, const struct params *p,
                           const struct evaluator_goal *goal);

/* Whether a request is running or waiting. */
bool evaluator_busy(const struct evaluator *ev);

/* Kills the child; the loop closes the handles. ev is freed once they are closed. */
void evaluator_close(struct evaluator *ev);

/* The child's side: reads requests on stdin and answers on stdout until stdin closes. */
int evaluator_child_main(int argc, char **argv);

/* `situ __lesson-check FILE`: loads a lesson, writes it on stdout as data (lesson_wire.h) and
 * frees it: exit 0, or 2 with its one line. The lesson's Lua runs here and in the evaluator
 * (its goals), never in the explorer, which takes the lesson this check hands over. */
int evaluator_lesson_check_main(int argc, char **argv);

/* Runs that check in a child and waits for it, at most the time limit and a second (before the
 * loop runs: at start-up). The lesson it handed over (lesson_free it), or NULL with the child's
 * line, or why it was stopped. */
struct lesson *evaluator_lesson_check(const char *lesson, double time_limit, char *err,
                                      size_t errlen);

#endif
