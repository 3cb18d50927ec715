/* One child process of the runner (see runner.h): a job's simulation, a proc (proc.h: the
 * process module's child on this loop, with its time limit, its output bound and its reason),
 * and the ready child kept ahead for the next urgent job. This file builds the command, hands a
 * job to the ready child, and turns the end of the child into a result (one parse of its JSON
 * line) or a one-line reason for the scheduler (runner.c). */
#include "runner_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proc.h"

void runner_child_kill(struct job *j)
{
    if (j->proc)
        proc_kill(j->proc); /* its group: what it started goes too; its end follows */
}

/* The child's end as one line (error), or its result: its JSON line parsed once, into *json and
 * *res. Returns 0 for a result. */
static int judge(struct job *j, const struct proc_end *e, json_t **json, struct sim_result *res,
                 char *error, size_t len)
{
    struct runner *r = j->r;
    char reason[STDERR_LINE_MAX + 1];
    child_reason(e->err, reason, sizeof reason);
    child_end_line("simulation", e->status, e->timed_out, e->limit, e->overflow, r->output_max,
                   reason, error, len);
    if (error[0])
        return -1;
    char perr[RESULT_ERR_MAX];
    *json = result_load(e->out, e->out_len, perr, sizeof perr);
    if (*json && result_from_json(*json, res, perr, sizeof perr) == 0)
        return 0;
    json_decref(*json);
    *json = NULL;
    snprintf(error, len, "simulation printed an unreadable result: %s", perr);
    return -1;
}

static void on_end(void *ud, const struct proc_end *e)
{
    struct job *j = ud;
    struct runner *r = j->r;
    j->proc = NULL; /* gone after this call (proc.h) */
    char error[RUNNER_ERR_MAX] = "";
    struct sim_result res;
    memset(&res, 0, sizeof res);
    json_t *json = NULL;
    /* An orphan's end interests nobody: it is not judged, nor parsed. */
    bool ok = j->waiters && judge(j, e, &json, &res, error, sizeof error) == 0;
    r->job_ended(j, ok ? &res : NULL, json, ok ? e->out : NULL, ok ? NULL : error, e->secs);
    json_decref(json);
    result_free(&res);
    r->job_free(j);
}

/* ---- the ready child ---------------------------------------------------------------------- */

static void on_ready_end(void *ud, const struct proc_end *e)
{
    struct runner *r = ud;
    (void)e;
    r->ready = NULL; /* it died waiting: the next urgent job starts cold, and a new one follows */
}

void runner_child_ready_start(struct runner *r)
{
    if (!r->ready_on || r->ready)
        return;
    char ready_flag[] = "--ready";
    char **args = calloc((size_t)r->nprefix + 2, sizeof *args);
    if (!args)
        return; /* jobs start cold, as without a ready child */
    for (int i = 0; i < r->nprefix; i++)
        args[i] = r->prefix[i];
    args[r->nprefix] = ready_flag;
    struct proc_opts o = {
        .spec = {.argv = args, .in = CHILD_PIPE},
        .out_max = r->output_max,
    };
    struct proc_cbs cbs = {.on_exit = on_ready_end, .ud = r};
    char why[RUNNER_ERR_MAX];
    r->ready = proc_start(r->loop, &o, &cbs, why, sizeof why); /* none: jobs start cold */
    free(args);
}

void runner_child_ready_stop(struct runner *r)
{
    proc_close(r->ready);
    r->ready = NULL;
}

/* Hands the parameter arguments args[0..n) to the ready child, each NUL-terminated on its stdin,
 * then EOF, and the child to j. False when there is none, or it has died (the caller starts a
 * cold child). */
static bool ready_take(struct runner *r, struct job *j, char *const *args, int n,
                       const struct proc_cbs *cbs)
{
    if (!r->ready || proc_exited(r->ready)) {
        runner_child_ready_stop(r);
        return false;
    }
    size_t len = 0;
    for (int i = 0; i < n; i++)
        len += strlen(args[i]) + 1;
    char *buf = malloc(len ? len : 1);
    if (!buf)
        return false;
    len = 0;
    for (int i = 0; i < n; i++) {
        size_t k = strlen(args[i]) + 1;
        memcpy(buf + len, args[i], k);
        len += k;
    }
    bool ok = proc_write(r->ready, buf, len) == 0;
    free(buf);
    if (!ok) {
        runner_child_ready_stop(r);
        return false;
    }
    proc_close_in(r->ready);
    proc_hand_over(r->ready, cbs, r->time_limit);
    j->proc = r->ready;
    r->ready = NULL;
    return true;
}

/* ---- a job's child ------------------------------------------------------------------------- */

int runner_child_start(struct job *j, char *error, size_t errlen)
{
    struct runner *r = j->r;
    /* Every parameter explicitly: the child's defaults may not be ours. */
    char *args[r->nprefix + 2 * PARAM_COUNT + 1];
    char flags[PARAM_COUNT][40];
    char values[PARAM_COUNT][PARAMS_PATH_MAX];
    int n = 0;
    for (int i = 0; i < r->nprefix; i++)
        args[n++] = r->prefix[i];
    for (int id = 0; id < PARAM_COUNT; id++) {
        snprintf(flags[id], sizeof flags[id], "--%s", param_table[id].key);
        if (param_table[id].type == PARAM_REAL)
            snprintf(values[id], sizeof values[id], "%.17g", params_get_number(&j->p, id));
        else
            params_format(&j->p, id, values[id], sizeof values[id]);
        args[n++] = flags[id];
        args[n++] = values[id];
    }
    args[n] = NULL;
    struct proc_cbs cbs = {.on_exit = on_end, .ud = j};
    /* What someone waits for goes to the ready child, if there is one: no process start. */
    if (j->priority > 0 && ready_take(r, j, args + r->nprefix, n - r->nprefix, &cbs)) {
        runner_child_ready_start(r); /* the next one, for the next key */
        return 0;
    }
    /* Background work (priority <= 0) runs below the caller, the whole group: an interactive
     * parent must stay responsive while its children use every core. What someone waits for
     * now keeps the caller's priority. */
    struct proc_opts o = {
        .spec = {.argv = args, .in = CHILD_NULL, .nice = j->priority <= 0 ? 10 : 0},
        .time_limit = r->time_limit,
        .out_max = r->output_max,
    };
    if (!(j->proc = proc_start(r->loop, &o, &cbs, error, errlen)))
        return -1;
    /* An urgent job that found no ready child (the last one died waiting): one for the next. */
    if (j->priority > 0)
        runner_child_ready_start(r);
    return 0;
}
