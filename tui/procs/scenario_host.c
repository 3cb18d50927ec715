#include "../../engine/lua/simulation.h"
#include "scenario_host.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../engine/model/report.h"
#include "../../engine/run/proc.h"

#define SCENARIO_LINE_MAX (64u << 20) /* a line longer than this is not the child talking */

struct scenario_host {
    struct proc *child;
    scenario_cb cb;
    void *ud;
    char *line; /* the line being read */
    size_t len, cap;
    bool ended; /* it said done or failed, or it died: one end event only */
};

static void end_with(struct scenario_host *sc, enum scenario_event_kind kind, const char *text)
{
    if (sc->ended)
        return;
    sc->ended = true;
    struct scenario_event e = {.kind = kind, .text = text, .len = text ? strlen(text) : 0};
    sc->cb(sc->ud, &e);
}

/* One line from the child. -1 if it is not the protocol. */
static int on_line(struct scenario_host *sc, const char *text)
{
    json_error_t jerr;
    json_t *o = json_loads(text, 0, &jerr), *v;
    int rc = 0;
    if (!json_is_object(o)) {
        rc = -1;
    } else if ((v = json_object_get(o, "output")) && json_is_string(v)) {
        struct scenario_event e = {
            .kind = SCENARIO_OUTPUT, .text = json_string_value(v), .len = json_string_length(v)};
        sc->cb(sc->ud, &e);
    } else if ((v = json_object_get(o, "waiting")) && json_is_array(v)) {
        size_t n = json_array_size(v);
        struct params *ps = calloc(n ? n : 1, sizeof *ps);
        char err[PARAMS_ERR_MAX + 64];
        for (size_t i = 0; ps && i < n && rc == 0; i++)
            rc = report_params_from_json(json_array_get(v, i), &ps[i], err, sizeof err);
        if (ps && rc == 0) {
            struct scenario_event e = {.kind = SCENARIO_WAITING, .n = (int)n, .configs = ps};
            sc->cb(sc->ud, &e);
        } else {
            rc = -1;
        }
        free(ps);
    } else if (json_object_get(o, "done")) {
        end_with(sc, SCENARIO_DONE, NULL);
    } else if ((v = json_object_get(o, "failed")) && json_is_string(v)) {
        end_with(sc, SCENARIO_FAILED, json_string_value(v));
    } else {
        rc = -1;
    }
    json_decref(o);
    return rc;
}

static void on_out(void *ud, const char *buf, size_t n)
{
    struct scenario_host *sc = ud;
    for (size_t k = 0; k < n && sc->child; k++) {
        if (buf[k] != '\n') {
            if (sc->len + 1 >= sc->cap) {
                size_t cap = sc->cap ? 2 * sc->cap : 4096;
                char *grown = cap <= SCENARIO_LINE_MAX ? realloc(sc->line, cap) : NULL;
                if (!grown) {
                    proc_kill(sc->child); /* on_exit ends it */
                    return;
                }
                sc->line = grown;
                sc->cap = cap;
            }
            sc->line[sc->len++] = buf[k];
            continue;
        }
        sc->line[sc->len] = 0;
        sc->len = 0;
        if (on_line(sc, sc->line) < 0)
            proc_kill(sc->child);
    }
}

static void on_exit_cb(void *ud, const struct proc_end *e)
{
    struct scenario_host *sc = ud;
    sc->child = NULL; /* proc.h: gone after on_exit */
    char why[512];
    /* The child's own word: the watchdog's "situ: FILE: stopped after ...". */
    child_reason(e->err, why, sizeof why);
    if (!why[0])
        child_end_line("the scenario's process", e->status, false, 0, false, 0, NULL, why,
                       sizeof why);
    end_with(sc, SCENARIO_FAILED, why[0] ? why : "the scenario's process ended");
}

struct scenario_host *scenario_host_start(uv_loop_t *loop, int argc, char **argv, bool unsafe,
                                          double time_limit, scenario_cb cb, void *ud, char *err,
                                          size_t errlen)
{
    struct scenario_host *sc = calloc(1, sizeof *sc);
    char *args[50], limit[32];
    int n = 0;
    if (!sc || argc < 1 || argc > 40) {
        free(sc);
        snprintf(err, errlen, "%s", sc ? "too many arguments" : "out of memory");
        return NULL;
    }
    sc->cb = cb;
    sc->ud = ud;
    args[n++] = "/proc/self/exe";
    args[n++] = "__scenario";
    if (unsafe)
        args[n++] = "--unsafe";
    if (time_limit > 0) {
        snprintf(limit, sizeof limit, "%.17g", time_limit);
        args[n++] = "--time-limit";
        args[n++] = limit;
    }
    if (simulation_active()[0]) { /* its parameters are in the table the scenario reads */
        args[n++] = "--simulation";
        args[n++] = (char *)simulation_active();
    }
    args[n++] = "--";
    for (int i = 0; i < argc; i++)
        args[n++] = argv[i];
    args[n] = NULL;
    struct proc_opts o = {.spec = {.argv = args, .in = CHILD_PIPE}};
    struct proc_cbs cbs = {.on_out = on_out, .on_exit = on_exit_cb, .ud = sc};
    if (!(sc->child = proc_start(loop, &o, &cbs, err, errlen))) {
        free(sc);
        return NULL;
    }
    return sc;
}

void scenario_host_feed(struct scenario_host *sc, int i, const struct params *p,
                        const struct sim_result *r, const char *error)
{
    if (!sc || !sc->child)
        return;
    json_t *result = r ? report_sim_result_json(p, r) : NULL;
    json_t *o = result ? json_pack("{s:i,s:o}", "i", i, "result", result)
                       : json_pack("{s:i,s:s}", "i", i, "error", error ? error : "no result");
    char *text = o ? json_dumps(o, JSON_COMPACT) : NULL;
    json_decref(o);
    if (!text || proc_write(sc->child, text, strlen(text)) < 0 ||
        proc_write(sc->child, "\n", 1) < 0)
        proc_kill(sc->child); /* it cannot go on without this result: on_exit ends it */
    free(text);
}

void scenario_host_close(struct scenario_host *sc)
{
    if (!sc)
        return;
    proc_close(sc->child);
    free(sc->line);
    free(sc);
}
