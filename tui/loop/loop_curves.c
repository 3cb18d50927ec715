/* The explorer's background curves: the crossover's (always on screen or a key away) and the
 * static scaling's (while its view is open). The built-in analytics' are computed on libuv's
 * thread pool, a Lua analytics' in the curves' evaluator process (user Lua never runs in this
 * one); one computation at a time, so a burst of keys costs one more, for the last
 * configuration. The curves come back as app calls whose flags are posted to loop.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../../engine/lua/script.h"
#include "../procs/evaluator.h"
#include "loop.h"

/* One computation on the thread pool. One at a time also keeps a Lua analytics interpreter to
 * one thread. */
struct curves_work {
    uv_work_t req;
    struct tui *t;
    bool scaling;
    struct params base;
    char key[RUNNER_KEY_MAX];
    struct platform pf; /* a private copy: the app may load another while this runs */
    struct xover_curves c;
    struct scaling_curves sc;
};

static void curves_run(uv_work_t *req)
{
    struct curves_work *w = req->data;
    /* This thread (not the process): on a machine whose cores the simulations fill, the thread
     * reading keys must win over the one drawing curves. */
    setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 5);
    if (w->scaling)
        scaling_eval(&w->sc, &w->base, w->key, &w->pf, profile_source_builtin);
    else
        xover_curves_eval(&w->c, &w->base, w->key, &w->pf, profile_source_builtin);
}

static void curves_done(uv_work_t *req, int status)
{
    struct curves_work *w = req->data;
    struct tui *t = w->t;
    t->curves_busy = false;
    if (status == 0)
        loop_post(t, w->scaling ? app_on_scaling(&t->app, &w->sc) : app_on_curves(&t->app, &w->c));
    platform_free(&w->pf);
    free(w);
    curves_start(t); /* the configuration may have moved on while this ran */
}

/* Curves from the evaluator process. A failure (the analytics timed out) installs curves with no
 * model points for that key, which say why, rather than asking again for ever. */
static void on_curves_reply(void *ud, const struct evaluator_reply *r)
{
    struct tui *t = ud;
    if (r->seq != t->curves_seq)
        return;
    t->curves_busy = false;
    if (r->kind == EVAL_XOVER) {
        struct xover_curves *c = malloc(sizeof *c);
        if (c) {
            *c = r->u.xo;
            if (!r->ok) {
                memset(c, 0, sizeof *c);
                snprintf(c->key, sizeof c->key, "%s", t->app.xo.base_key);
                c->n = t->app.xo.n;
                for (int m = 0; m < c->n; m++) {
                    snprintf(c->name[m], sizeof c->name[m], "%s", t->app.xo.st[m].name);
                    snprintf(c->err[m], sizeof c->err[m], "%.*s", (int)sizeof c->err[m] - 1,
                             r->err);
                }
            }
            loop_post(t, app_on_curves(&t->app, c));
            free(c);
        }
    } else {
        struct scaling_curves *c = malloc(sizeof *c);
        if (c) {
            *c = r->u.sc;
            if (!r->ok) {
                memset(c, 0, sizeof *c);
                snprintf(c->key, sizeof c->key, "%s", t->app.sc.base_key);
            }
            loop_post(t, app_on_scaling(&t->app, c));
            free(c);
        }
    }
    curves_start(t); /* the configuration may have moved on while this ran */
}

/* The curves of a Lua analytics, from the curves' evaluator. */
static void ask_evaluator(struct tui *t, bool scaling)
{
    const struct params *base = scaling ? &t->app.sc.base : &t->app.xo.base;
    const char *key = scaling ? t->app.sc.base_key : t->app.xo.base_key;
    t->curves_seq = evaluator_submit(t->curves_ev, scaling ? EVAL_SCALING : EVAL_XOVER, base, key);
    t->curves_busy = t->curves_seq > 0;
}

/* No memory for the background: computed here, on this thread, rather than never. */
static void compute_here(struct tui *t, bool scaling)
{
    scaling ? app_scaling_sync(&t->app) : app_xover_sync(&t->app);
    t->dirty = true;
}

void curves_start(struct tui *t)
{
    if (t->curves_busy || t->quitting)
        return;
    /* The crossover is always on screen or a key away; the scaling only when its view is. */
    bool scaling = xover_current(&t->app.xo);
    if (scaling && (t->app.pane != APP_PANE_SCALING || scaling_current(&t->app.sc)))
        return;
    if (params_user_lua(&t->app.p)) { /* user Lua: in the curves' evaluator process */
        ask_evaluator(t, scaling);
        return;
    }
    struct curves_work *w = calloc(1, sizeof *w);
    if (!w || xover_platform_copy(&w->pf, &t->app.pf) < 0) {
        free(w);
        compute_here(t, scaling);
        return;
    }
    w->t = t;
    w->req.data = w;
    w->scaling = scaling;
    w->base = scaling ? t->app.sc.base : t->app.xo.base;
    snprintf(w->key, sizeof w->key, "%s", scaling ? t->app.sc.base_key : t->app.xo.base_key);
    if (uv_queue_work(&t->loop, &w->req, curves_run, curves_done) < 0) {
        platform_free(&w->pf);
        free(w);
        compute_here(t, scaling);
        return;
    }
    t->curves_busy = true;
}

int curves_open(struct tui *t)
{
    /* Background work: behind the model and the simulations on screen. */
    t->curves_ev = evaluator_new(&t->loop, script_time_limit(), 10, on_curves_reply, t);
    return t->curves_ev ? 0 : -1;
}

void curves_close(struct tui *t)
{
    evaluator_close(t->curves_ev);
    t->curves_ev = NULL;
}
