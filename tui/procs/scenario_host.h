/* A Lua scenario of the explorer (x, or situ --script) runs in a child process (`situ
 * __scenario`), never in the explorer: nothing it does (an endless loop in a C function, a
 * finalizer that never returns) can stall the screen, and closing the panel kills it. The child
 * runs the engine's async coroutine and speaks JSON lines:
 *   child -> explorer   {"output": TEXT}                what the scenario printed
 *                       {"waiting": [CONFIG, ...]}      simulations it asks for
 *                       {"done": true} | {"failed": ERR} its end (ERR: message and traceback)
 *   explorer -> child   {"i": K, "result": RESULT} | {"i": K, "error": TEXT}, one per CONFIG
 * CONFIG is report_params_json, RESULT what `situ run --json` prints. The explorer simulates
 * (runner.h) and feeds the results; once all are in, the child resumes by itself. */
#ifndef SITU_TUI_SCENARIO_HOST_H
#define SITU_TUI_SCENARIO_HOST_H

#include <stdbool.h>
#include <uv.h>

#include "../../engine/model/params.h"
#include "../../engine/model/result.h"

enum scenario_event_kind { SCENARIO_OUTPUT, SCENARIO_WAITING, SCENARIO_DONE, SCENARIO_FAILED };

struct scenario_event {
    enum scenario_event_kind kind;
    const char *text;             /* OUTPUT: what it printed; FAILED: the error and traceback */
    size_t len;                   /* of text */
    int n;                        /* WAITING: how many configurations */
    const struct params *configs; /* WAITING: valid during the callback */
};

typedef void (*scenario_cb)(void *ud, const struct scenario_event *e);

struct scenario_host;

/* Starts argv[0] (the scenario's file) with its arguments. NULL with a reason. */
struct scenario_host *scenario_host_start(uv_loop_t *loop, int argc, char **argv, bool unsafe,
                                          double time_limit, scenario_cb cb, void *ud, char *err,
                                          size_t errlen);

/* Result i of the configurations it waits for: r, or error. */
void scenario_host_feed(struct scenario_host *sc, int i, const struct params *p,
                        const struct sim_result *r, const char *error);

/* Kills it (if it runs) and frees it; no callback after. NULL is fine. */
void scenario_host_close(struct scenario_host *sc);

/* The child's side. */
int scenario_host_main(int argc, char **argv);

#endif
