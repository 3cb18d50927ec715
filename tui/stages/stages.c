#include "stages.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The spread of a per-step series over steps [from, to): (max - min) / mean. */
static double spread(const double *v, long from, long to)
{
    if (!v || to - from < 2)
        return 0;
    double lo = INFINITY, hi = -INFINITY, sum = 0;
    for (long i = from; i < to; i++) {
        lo = fmin(lo, v[i]);
        hi = fmax(hi, v[i]);
        sum += v[i];
    }
    double mean = sum / (double)(to - from);
    return mean > 0 ? (hi - lo) / mean : 0;
}

/* The period of step i: the longer of its two sides, active and idle. */
static double step_period(const struct sim_result *r, long i)
{
    return fmax(r->step_sim_active[i] + r->step_sim_idle[i],
                r->step_ana_active[i] + r->step_ana_idle[i]);
}

/* Why the simulation differs from the model, when its per-step record says: the first and last
 * steps (fill and drain) weigh on few steps; the middle steps' periods vary (actors drift out of
 * lockstep); a Lua analytics' cost varies from step to step (the model's stages are means). */
static void reason(const struct params *p, const struct sim_result *r, struct stage_cmp *c)
{
    long n = r->nsteps;
    c->reason[0] = 0;
    if (c->nfar == 0 || n <= 0)
        return;
    double ana = spread(r->step_ana_active, 0, n);
    if (p->analytics[0] && ana > STAGES_FAR) {
        snprintf(c->reason, sizeof c->reason,
                 "the analytics' cost varies by step (%.0f%%); the model's stages are means",
                 ana * 100);
        return;
    }
    double mid = 0;
    if (n > 3) {
        double per[4096];
        long k = 0;
        for (long i = 1; i < n - 1 && k < 4096; i++)
            per[k++] = step_period(r, i);
        mid = spread(per, 0, k);
    }
    if (mid > STAGES_FAR) {
        snprintf(c->reason, sizeof c->reason,
                 "actors drift out of lockstep: the steps' periods vary by %.0f%%", mid * 100);
        return;
    }
    double ends = step_period(r, 0) + (n > 1 ? step_period(r, n - 1) : 0);
    double all = 0;
    for (long i = 0; i < n; i++)
        all += step_period(r, i);
    double mean_mid = n > 2 ? (all - ends) / (double)(n - 2) : 0;
    if (n <= 50 && mean_mid > 0 && fabs(ends / 2 - mean_mid) / mean_mid > STAGES_FAR) {
        snprintf(c->reason, sizeof c->reason,
                 "fill and drain: %ld steps, the first and last are %.0f%% of the run", n,
                 all > 0 ? 100 * ends / all : 0);
    }
}

void stages_compare(const struct params *p, const struct model_result *m,
                    const struct sim_result *r, struct stage_cmp *out)
{
    static const char *names[ST_ROWS] = {"S", "Ing", "R", "A", "W", "C", "period", "makespan"};
    static const char *whats[ST_ROWS] = {
        "simulate (stride)",    "ingest into DTL", "retrieve", "analyse",
        "metrics to collector", "metrics back",    "one step", "the run"};
    const struct stages *a = &m->stage, *b = r ? &r->m.stage : NULL;
    double mv[ST_ROWS] = {
        a->S,       a->Ing, a->R, a->A, a->W, a->C, fmax(a->S + a->Ing, a->R + a->A + a->W + a->C),
        m->makespan};
    double sv[ST_ROWS] = {0};
    if (b) {
        sv[ST_S] = b->S, sv[ST_ING] = b->Ing, sv[ST_R] = b->R, sv[ST_A] = b->A;
        sv[ST_W] = b->W, sv[ST_C] = b->C;
        sv[ST_PERIOD] = fmax(b->S + b->Ing, b->R + b->A + b->W + b->C);
        sv[ST_MAKESPAN] = r->m.makespan;
    }
    memset(out, 0, sizeof *out);
    for (int i = 0; i < ST_ROWS; i++) {
        struct stage_row *row = &out->row[i];
        row->name = names[i];
        row->what = whats[i];
        row->model = mv[i];
        row->sim = sv[i];
        row->has_sim = b != NULL;
        if (b && mv[i] > 0) {
            row->delta = (sv[i] - mv[i]) / mv[i];
            /* A stage a thousandth of the period long cannot move the run, whatever its Δ. */
            row->tiny = fabs(sv[i] - mv[i]) <= 1e-3 * mv[ST_PERIOD];
            row->far = fabs(row->delta) > STAGES_FAR && !row->tiny;
        }
        out->nfar += row->far;
    }
    if (r)
        reason(p, r, out);
}
