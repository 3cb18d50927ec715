/* Step sampling at fidelity=full (--sampling auto). A workflow's steps repeat: once the drift of
 * its actors has settled, every further step costs SimGrid the same work and says nothing new.
 * The collector calls sim_sampling_step at the end of each step (when every rank's metric of the
 * step is in); once the per-step measures are stationary by the test below, the run is cut short:
 * the ranks put the state of the next step, then jump over the skipped steps' iterations to the
 * tail (sim_rank_actor), so the run's last step and its drain are simulated as in the whole run.
 * sim_sampling_extrapolate then fills the skipped steps of every actor's per-step arrays with the
 * stationary window, repeated, and adds the window's mean period for each skipped step to the
 * makespan, its mean traffic per step to each link.
 *
 * The test, at the end of step j (n = j + 1 steps measured): a window of W steps, W = n / 3
 * within [SAMPLING_MIN_WINDOW, SAMPLING_MAX_WINDOW], rounded up to a whole number of halo cycles
 * (the halo pattern repeats every c = H / gcd(H, T) steps), so that at least a third of the steps
 * so far are warm-up. For each measure (the step's period, one simulation core's active and idle
 * time, one analytics core's active and idle time, the retrieval R and the analysis A), the mean
 * over the last W steps and the mean over the W before differ by at most SAMPLING_EPS of the
 * last window's mean (or of SAMPLING_FLOOR of the period, for a measure near zero), plus
 * SAMPLING_Z standard errors of their difference (from batch means: noise is no trend). A trend, a
 * drift still growing, shows as a difference of the two means; the window growing with the run
 * lets a slow drift be seen against a longer warm-up. Where the test never passes every step is
 * simulated. Its failure cases: a drift that stalls for two windows and then resumes (the two
 * means agree while it stalls); a pattern longer than a window that is not the halo cycle (e.g.
 * analytics actors whose rounds repeat every 3 steps with W = 8 would show as noise and, if the
 * means happen to agree, be extrapolated with the wrong phase); analytics whose cost or bytes
 * change at a step not yet reached (guarded: only steps from the first one whose inputs stay
 * the same to the end may be in the windows). The error estimate is the remaining steps times
 * the larger of the two means' difference and the last window's standard error, relative to
 * each total (makespan, simulation and analytics active time), the largest; a stop needs it at
 * most SAMPLING_MAX_ERROR. docs/model.md has the measured accuracy. */
#include <math.h>
#include <simgrid/engine.h>
#include <stdlib.h>
#include <string.h>
#include <xbt/log.h>

#include "sim_internal.h"

XBT_LOG_NEW_DEFAULT_SUBCATEGORY(situ_sim_sampling, situ_sim,
                                "step sampling at fidelity=full: the stationarity test");

#define SAMPLING_MIN_WINDOW 8
#define SAMPLING_MAX_WINDOW 64
#define SAMPLING_RING       (SAMPLING_MAX_WINDOW + 1) /* link snapshots: a window back */
#define SAMPLING_EPS        5e-4
#define SAMPLING_FLOOR      0.01
#define SAMPLING_Z          3 /* standard errors two windows' means may differ by, as noise */
#define SAMPLING_BATCHES    8
#define SAMPLING_MAX_ERROR  1e-3 /* the error estimate a stop may have, relative */

enum { M_PERIOD, M_SIM_ACTIVE, M_SIM_IDLE, M_ANA_ACTIVE, M_ANA_IDLE, M_R, M_A, MEASURES };

static long gcd(long a, long b)
{
    while (b) {
        long t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static bool same_inputs(const struct engine *e, long i, long k)
{
    return e->chunk_flops[i] == e->chunk_flops[k] && e->chunk_bytes[i] == e->chunk_bytes[k] &&
           e->av[i].pattern == e->av[k].pattern &&
           e->av[i].exchange_bytes == e->av[k].exchange_bytes &&
           (!e->step_sim || !memcmp(&e->step_sim[i], &e->step_sim[k], sizeof *e->step_sim));
}

int sim_sampling_init(struct engine *e)
{
    struct sim_sampling *s = &e->samp;
    memset(s, 0, sizeof *s);
    s->decided = -1;
    e->run_steps = e->steps;
    /* Fast mode keeps the actors in step and costs little, but sends its states rank by rank
     * (engine.dtl_per_rank) as full does, and its actors drift as full's: it samples too. smpi's
     * ranks are the application's. Files (sim_file.c) and dtl=staging's servers (sim_staging.c)
     * hold what the sampler does not carry (the disks' queues, the servers' memory and waits):
     * every step is simulated. */
    bool actors_drift = e->p.fidelity == FIDELITY_FULL || e->dtl_per_rank;
    if (e->p.sampling != SAMPLING_AUTO || !actors_drift || e->files || e->p.dtl == DTL_STAGING ||
        e->steps < 3 * SAMPLING_MIN_WINDOW + 2)
        return 0;
    /* The ranks' halo period: the profile's, the last steps' where it reads ctx.step. */
    long H = e->step_sim ? e->step_sim[e->steps - 1].halo_period : e->sim.halo_period;
    long T = e->p.stride;
    s->cycle = H < e->p.iterations ? H / gcd(H, T) : 1;
    if (s->cycle > SAMPLING_MAX_WINDOW)
        return 0;
    s->first = e->steps - 1;
    while (s->first > 0 && same_inputs(e, s->first - 1, e->steps - 1))
        s->first--;
    s->series = calloc((size_t)e->steps * MEASURES, sizeof *s->series);
    s->end = calloc(e->steps, sizeof *s->end);
    s->snap = calloc(SAMPLING_RING, sizeof *s->snap);
    s->snap_n = calloc(SAMPLING_RING, sizeof *s->snap_n);
    if (!s->series || !s->end || !s->snap || !s->snap_n)
        return -1;
    s->on = true;
    return 0;
}

/* The step's measures, as summarise (sim.c) weighs the groups: one core of each component. */
static void measure(struct engine *e, long j, double *x)
{
    const struct layout *l = &e->l;
    for (int k = 0; k < e->nsims; k++) {
        const struct sim_group *g = &e->sims[k];
        double w = (double)g->ranks / l->sim_cores;
        x[M_SIM_ACTIVE] += w * g->active[j];
        x[M_SIM_IDLE] += w * g->idle[j];
    }
    for (int k = 0; k < e->nanas; k++) {
        const struct ana_group *a = &e->anas[k];
        double w = (double)a->actors / l->ana_cores;
        x[M_ANA_ACTIVE] +=
            w * (a->share_R * a->R[j] + a->share_A * (a->A[j] - a->X[j])) + a->X[j] / l->ana_cores;
        x[M_ANA_IDLE] += w * a->idle[j];
        x[M_R] += w * a->R[j];
        x[M_A] += w * a->A[j];
    }
}

static double block_mean(const struct sim_sampling *s, long from, long n, int k)
{
    double sum = 0;
    for (long i = from; i < from + n; i++)
        sum += s->series[i * MEASURES + k];
    return sum / n;
}

/* The standard error of the mean of n steps from `from`, by batch means (up to
 * SAMPLING_BATCHES batches of whole halo cycles, so that neighbouring steps that move together
 * do not pass for independent ones); 0 with fewer than two batches. */
static double block_error(const struct sim_sampling *s, long from, long n, int k)
{
    long c = s->cycle, cycles = n / c;
    long batches = cycles < SAMPLING_BATCHES ? cycles : SAMPLING_BATCHES;
    if (batches < 2)
        return 0;
    long len = cycles / batches * c;
    double mean = block_mean(s, from, batches * len, k), ss = 0;
    for (long b = 0; b < batches; b++) {
        double d = block_mean(s, from + b * len, len, k) - mean;
        ss += d * d;
    }
    return sqrt(ss / (batches - 1) / batches);
}

static bool stationary(struct engine *e, long j)
{
    struct sim_sampling *s = &e->samp;
    long n = j + 1, c = s->cycle;
    long W = n / 3 < SAMPLING_MIN_WINDOW ? SAMPLING_MIN_WINDOW : n / 3;
    W = (W + c - 1) / c * c;
    if (W > SAMPLING_MAX_WINDOW)
        W = SAMPLING_MAX_WINDOW / c * c;
    /* A third of the steps so far are warm-up; the windows lie where the inputs stay the same; the
     * skipped steps are whole halo cycles (the tail's halos then fall where the run's do). */
    if (3 * W > n || n - 2 * W < s->first || j + 2 >= e->steps || (e->steps - j - 2) % c)
        return false;
    long b1 = n - 2 * W, b2 = n - W;
    double period = block_mean(s, b2, W, M_PERIOD);
    double remaining = (double)(e->steps - j - 2), error = 0;
    for (int k = 0; k < MEASURES; k++) {
        double m1 = block_mean(s, b1, W, k), m2 = block_mean(s, b2, W, k);
        double se1 = block_error(s, b1, W, k), se2 = block_error(s, b2, W, k);
        double scale = fmax(fabs(m2), SAMPLING_FLOOR * period);
        if (!(fabs(m2 - m1) <= SAMPLING_EPS * scale + SAMPLING_Z * sqrt(se1 * se1 + se2 * se2)))
            return false;
        if (k != M_PERIOD && k != M_SIM_ACTIVE && k != M_ANA_ACTIVE)
            continue;
        /* Relative to the total as extrapolated: the sum so far and the remaining steps. */
        double total = block_mean(s, 0, n, k) * n + remaining * m2;
        if (total > 0)
            error = fmax(error, remaining * fmax(fabs(m2 - m1), se2) / total);
    }
    if (!(error <= SAMPLING_MAX_ERROR))
        return false;
    s->error = error;
    s->window = W;
    s->period = period;
    return true;
}

void sim_sampling_step(struct engine *e, long j)
{
    struct sim_sampling *s = &e->samp;
    if (!s->on || s->decided >= 0 || j >= e->steps)
        return;
    double now = simgrid_get_clock();
    double *x = &s->series[j * MEASURES];
    s->end[j] = now;
    x[M_PERIOD] = j ? now - s->end[j - 1] : now;
    measure(e, j, x);
    int slot = (int)(j % SAMPLING_RING);
    double *copy = realloc(s->snap[slot], sizeof *copy * (e->links.count ? e->links.count : 1));
    if (!copy)
        abort();
    memcpy(copy, e->links.bytes, sizeof *copy * e->links.count);
    s->snap[slot] = copy;
    s->snap_n[slot] = e->links.count;
    if (!stationary(e, j))
        return;
    /* No rank is past the state of step j + 1: each waits there for step j's metrics. */
    s->decided = j;
    e->run_steps = j + 2;
    XBT_VERB("steps stationary at step %ld (window %ld, period %.6f s): simulating %ld of %ld "
             "steps, error estimate %.2e",
             j, s->window, s->period, e->run_steps, e->steps, s->error);
}

/* a[] of the whole run from the sampled one: the last simulated step is the run's last; the
 * ones between repeat the window, in phase with the halo cycle. */
static void fill(const struct engine *e, double *a)
{
    const struct sim_sampling *s = &e->samp;
    long S = e->steps, last = e->run_steps - 1, W = s->window, b0 = s->decided - W + 1;
    a[S - 1] = a[last];
    for (long i = last; i < S - 1; i++)
        a[i] = a[b0 + (i - b0) % W];
}

void sim_sampling_extrapolate(struct engine *e)
{
    struct sim_sampling *s = &e->samp;
    if (!s->on || s->decided < 0)
        return;
    for (int k = 0; k < e->nsims; k++) {
        fill(e, e->sims[k].active);
        fill(e, e->sims[k].idle);
        fill(e, e->sims[k].halo_time);
    }
    for (int k = 0; k < e->nanas; k++) {
        struct ana_group *a = &e->anas[k];
        double *arrays[] = {a->active, a->idle, a->R, a->A, a->X};
        for (size_t i = 0; i < sizeof arrays / sizeof *arrays; i++)
            fill(e, arrays[i]);
    }
    double skipped = (double)(e->steps - e->run_steps);
    s->skipped_time = skipped * s->period;
    /* Each link's traffic of a step, as the window carried it. */
    long j = s->decided, W = s->window;
    const double *now = s->snap[j % SAMPLING_RING], *then = s->snap[(j - W) % SAMPLING_RING];
    int n_now = s->snap_n[j % SAMPLING_RING], n_then = s->snap_n[(j - W) % SAMPLING_RING];
    for (int k = 0; k < n_now; k++)
        e->links.bytes[k] += skipped * (now[k] - (k < n_then ? then[k] : 0)) / W;
}
