/* `situ advise`: searches a grid of configurations with the model, ranks it by an objective
 * under constraints, re-runs the best few with SimGrid (in parallel, cached like a sweep), and
 * prints the ranking side by side with the Pareto front of makespan against core-hours. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../engine/lua/analytics.h"
#include "../engine/base/outfile.h"
#include "../engine/model/report.h"
#include "advise.h"
#include "cli.h"
#include "study.h"

#define EXIT_NO_ADVICE 4 /* valid input, but no candidate meets the constraints */

static void usage(void)
{
    printf(
        "usage: situ advise [--PARAM LIST ...] [--A:B LIST] [--preset NAME]\n"
        "                   [--objective efficiency|makespan|core-hours|balance]\n"
        "                   [--max-makespan S] [--max-nodes N] [--min-efficiency E]\n"
        "                   [--verify K] [--top N] [--json] [--out DIR] [--heatmap X,Y]\n"
        "                   [--jobs N] [--cache DIR | --no-cache] [--time-limit S]\n\n"
        "Searches every combination of the listed values (the axes of 'situ sweep': lists, ranges\n"
        "A..B, A..B+S, A..BxF, linked axes --stride:compute-scaling 20:1,200:10) with the model,\n"
        "ranks the candidates that meet the constraints by the objective, and re-runs the best\n"
        "--verify K (default 5; 0: none) with SimGrid at full fidelity, step-sampled (--fidelity\n"
        "fast: the quick engine), --jobs at a time, cached like a sweep.\n"
        "It prints the ranking with the model's and SimGrid's numbers side by side, says when\n"
        "SimGrid changes the order, and prints the Pareto front of makespan against core-hours.\n\n"
        "objectives:\n"
        "  efficiency  eta, the paper's eq. 6 (the default; higher is better)\n"
        "  makespan    seconds (lower is better)\n"
        "  core-hours  nodes x cores_per_node x makespan / 3600 (lower is better)\n"
        "  balance     the paper's sweet spot (Fig. 8), where both components' active times are\n"
        "              high and close (higher is better). With u_s and u_a the share of the run\n"
        "              the simulation's and the analytics' cores compute (active / makespan):\n"
        "                busy    = (sim_cores u_s + analytics_cores u_a) / all cores\n"
        "                balance = busy x min(u_s, u_a) / max(u_s, u_a)\n"
        "              Idle time is weighed by the cores that idle: thirty simulation cores\n"
        "              waiting for one analytics core score below the reverse, where eta may "
        "not.\n\n"
        "--json prints one JSON object per ranked candidate instead of the tables. --out DIR\n"
        "writes advise.csv (every candidate), heatmap.png/.svg (the best objective over two\n"
        "axes, --heatmap X,Y; default ratio,nodes or the first two axes) and pareto.png/.svg,\n"
        "each with the chosen candidate marked. Exit status: 0, 2 on bad input, 3 when a\n"
        "simulation failed, 4 when no candidate meets the constraints.\n\n"
        "  situ advise --stride:compute-scaling 20:1,200:10,500:25,1000:50 \\\n"
        "              --ratio 1,3,7,15,31 --nodes 1..8 --mapping insitu,intransit\n\n"
        "parameters:\n");
    params_print_help(stdout);
}

struct opts {
    struct study s; /* base, axes, jobs, cache, time limit */
    int verify, top;
    bool json;
    const char *out;
    const char *heatmap;
    struct advise a;
};

/* A number option in [lo, hi] (integer when whole); -1 with a message. */
static int number(const char *key, const char *value, double lo, double hi, bool whole, double *v,
                  const char *expected, char *err, size_t errlen)
{
    char *end;
    errno = 0;
    *v = strtod(value, &end);
    if (end == value || *end || errno || !(*v >= lo && *v <= hi) || (whole && *v != floor(*v))) {
        snprintf(err, errlen, "%s: '%s' is not valid; expected %s", key, value, expected);
        return -1;
    }
    return 0;
}

static int option(struct opts *o, const char *key, const char *value, char *err, size_t errlen)
{
    double v;
    if (!strcmp(key, "objective")) {
        int k = advise_objective_find(value);
        if (k < 0)
            snprintf(err, errlen,
                     "objective: '%s' is not known; expected efficiency, makespan, core-hours "
                     "or balance",
                     value);
        o->a.objective = k;
        return k < 0 ? -1 : 0;
    }
    if (!strcmp(key, "max-makespan"))
        return number(key, value, 1e-9, 1e12, false, &o->a.limits.max_makespan, "seconds > 0", err,
                      errlen);
    if (!strcmp(key, "min-efficiency"))
        return number(key, value, 1e-12, 1, false, &o->a.limits.min_efficiency,
                      "a number in (0, 1]", err, errlen);
    if (!strcmp(key, "max-nodes")) {
        if (number(key, value, 1, 1e6, true, &v, "an integer >= 1", err, errlen) < 0)
            return -1;
        o->a.limits.max_nodes = (long)v;
        return 0;
    }
    if (!strcmp(key, "verify") || !strcmp(key, "top")) {
        bool top = key[0] == 't';
        if (number(key, value, top, top ? 1e6 : 1000, true, &v,
                   top ? "an integer >= 1" : "an integer in [0, 1000]", err, errlen) < 0)
            return -1;
        *(top ? &o->top : &o->verify) = (int)v;
        return 0;
    }
    if (!strcmp(key, "out") || !strcmp(key, "heatmap")) {
        *(key[0] == 'o' ? &o->out : &o->heatmap) = value;
        return 0;
    }
    return study_option(&o->s, key, value, err, errlen);
}

/* The axis one name of --heatmap means: any of its parameters, or several of them linked by ':'
 * (in any order), spelt as everywhere else (params_find_linked). -1 with err. */
static int find_axis(const struct grid *g, const char *name, char *err, size_t errlen)
{
    int ids[GRID_MAX_LINKED], n = params_find_linked(name, ids, GRID_MAX_LINKED, err, errlen);
    if (n < 0)
        return -1;
    for (int k = 0; k < g->naxes; k++) {
        int on = 0;
        for (int j = 0; j < n; j++)
            for (int i = 0; i < g->axes[k].nids; i++)
                on += g->axes[k].ids[i] == ids[j];
        if (on == n)
            return k;
    }
    snprintf(err, errlen, "heatmap: '%s' is not one of the axes given", name);
    return -1;
}

static int heatmap_axes(const struct opts *o, struct advise_view *v, char *err, size_t errlen)
{
    const struct grid *g = &o->a.grid;
    *v = (struct advise_view){-1, -1};
    if (o->heatmap) {
        char buf[512];
        snprintf(buf, sizeof buf, "%s", o->heatmap);
        char *comma = strchr(buf, ',');
        if (!comma || strchr(comma + 1, ',')) {
            snprintf(err, errlen, "heatmap: '%s' is not valid; expected two axes, X,Y", o->heatmap);
            return -1;
        }
        *comma = 0;
        char why[256];
        if ((v->x = find_axis(g, buf, why, sizeof why)) < 0 ||
            (v->y = find_axis(g, comma + 1, why, sizeof why)) < 0) {
            snprintf(err, errlen, "%s%s", strncmp(why, "heatmap: ", 9) ? "heatmap: " : "", why);
            return -1;
        }
        if (v->x == v->y) {
            snprintf(err, errlen, "heatmap: '%s' names one axis twice", o->heatmap);
            return -1;
        }
        return 0;
    }
    /* The paper's view, ratio across and nodes up, when both vary; else the first two axes
     * with more than one value. */
    char why[256];
    int r = find_axis(g, "ratio", why, sizeof why), n = find_axis(g, "nodes", why, sizeof why);
    if (r >= 0 && n >= 0 && g->axes[r].n > 1 && g->axes[n].n > 1) {
        *v = (struct advise_view){r, n};
        return 0;
    }
    for (int k = 0; k < g->naxes; k++)
        if (g->axes[k].n > 1) {
            if (v->x < 0)
                v->x = k;
            else if (v->y < 0)
                v->y = k;
        }
    return 0;
}

/* ---- the SimGrid check ---- */

/* The fidelity the check runs at: full (step-sampled, --sampling auto) unless --fidelity chose
 * one; -1 then (each candidate's own). The model ranked the candidates: the check is worth most
 * from the faithful engine, which step sampling makes quick enough to be the default. */
static bool axis_given(const struct advise *a, int id)
{
    for (int k = 0; k < a->grid.naxes; k++)
        for (int j = 0; j < a->grid.axes[k].nids; j++)
            if (a->grid.axes[k].ids[j] == id)
                return true;
    return false;
}

static int verify_fidelity(const struct advise *a)
{
    return axis_given(a, P_FIDELITY) ? -1 : FIDELITY_FULL;
}

static int verify(struct opts *o, struct advise_check *chk, int k, struct study *v)
{
    const struct advise *a = &o->a;
    v->n = k;
    v->configs = calloc(k, sizeof *v->configs);
    v->results = calloc(k, sizeof *v->results);
    v->errors = calloc(k, sizeof *v->errors);
    if (!v->configs || !v->results || !v->errors)
        return -1;
    char err[PARAMS_ERR_MAX];
    int fid = verify_fidelity(a);
    for (int i = 0; i < k; i++) {
        advise_params(a, a->ranked[i], &v->configs[i], err); /* ran in the search: valid */
        if (fid >= 0)
            v->configs[i].fidelity = fid;
    }
    if (study_run(v) < 0)
        return -1;
    long idx[k > 0 ? k : 1];
    double value[k > 0 ? k : 1];
    int ok = 0;
    for (int i = 0; i < k; i++) {
        chk[i] = (struct advise_check){.cand = a->ranked[i], .sim_rank = -1};
        json_t *r = v->results[i];
        chk[i].result = r;
        chk[i].error = v->errors[i];
        if (!r)
            continue;
        const struct params *p = &v->configs[i];
        struct advise_metrics *m = &chk[i].sim;
        *m = (struct advise_metrics){
            .makespan = json_number_value(json_object_get(r, "makespan")),
            .efficiency = json_number_value(json_object_get(r, "efficiency")),
            .sim_active = json_number_value(json_object_get(r, "sim_active")),
            .ana_active = json_number_value(json_object_get(r, "analytics_active")),
            .sim_cores = (long)json_number_value(json_object_get(r, "sim_cores")),
            .ana_cores = (long)json_number_value(json_object_get(r, "analytics_cores")),
            .nodes = p->nodes,
            .cores_per_node = p->cores_per_node};
        advise_metrics_finish(m);
        value[i] = advise_value(m, a->objective);
        idx[ok++] = i;
    }
    if (advise_order(idx, ok, value, advise_maximise(a->objective)) < 0)
        return -1;
    for (int j = 0; j < ok; j++)
        chk[idx[j]].sim_rank = j;
    return 0;
}

/* ---- output ---- */

static void describe(const struct advise *a, long i, char *out, size_t len)
{
    size_t used = 0;
    out[0] = 0;
    for (int k = 0; k < a->grid.naxes && used < len; k++) {
        if (a->grid.axes[k].n < 2)
            continue;
        char name[256], value[256];
        grid_axis_name(&a->grid.axes[k], name, sizeof name);
        grid_axis_value(&a->grid.axes[k], grid_row(&a->grid, i, k), value, sizeof value);
        used += snprintf(out + used, len - used, "%s%s=%s", used ? " " : "", name, value);
    }
    if (!out[0])
        snprintf(out, len, "the base configuration");
}

/* The objective's value as the table shows it. */
static void show(char *out, size_t len, enum advise_objective o, double v)
{
    if (o == ADVISE_EFFICIENCY || o == ADVISE_BALANCE)
        snprintf(out, len, "%.3f", v);
    else
        snprintf(out, len, "%.1f", v);
}

static void print_table(const struct opts *o, const struct advise_check *chk, int nchk)
{
    const struct advise *a = &o->a;
    const struct grid *g = &a->grid;
    enum advise_objective ob = a->objective;
    const char *on = advise_objective_names[ob];
    /* The second number: makespan, or eta when the makespan is the objective. */
    bool second_eta = ob == ADVISE_MAKESPAN;
    int w[PARAM_COUNT];
    int fid = verify_fidelity(a);
    if (nchk > 0) /* the engine behind the SimGrid columns */
        printf("SimGrid checks the best %d at fidelity %s%s.\n", nchk,
               fid >= 0 ? param_table[P_FIDELITY].choices[fid] : "as given",
               fid == FIDELITY_FULL && a->base.sampling == SAMPLING_AUTO &&
                       !axis_given(a, P_SAMPLING)
                   ? ", step-sampled"
                   : "");
    printf("%4s", "#");
    for (int k = 0; k < g->naxes; k++) {
        char name[256], value[256];
        grid_axis_name(&g->axes[k], name, sizeof name);
        w[k] = (int)strlen(name);
        for (int r = 0; r < g->axes[k].n; r++) {
            grid_axis_value(&g->axes[k], r, value, sizeof value);
            w[k] = w[k] > (int)strlen(value) ? w[k] : (int)strlen(value);
        }
        if (g->axes[k].n > 1)
            printf("  %-*s", w[k], name);
    }
    printf("  | model %10s %10s | SimGrid %10s %10s %4s\n", on, second_eta ? "eta" : "makespan s",
           on, second_eta ? "eta" : "makespan s", "#");
    long rows = a->nranked < o->top ? a->nranked : o->top;
    rows = rows > nchk ? rows : nchk;
    for (long j = 0; j < rows; j++) {
        long i = a->ranked[j];
        const struct advise_cand *c = &a->cands[i];
        printf("%4ld", j + 1);
        for (int k = 0; k < g->naxes; k++) {
            char value[256];
            grid_axis_value(&g->axes[k], grid_row(g, i, k), value, sizeof value);
            if (g->axes[k].n > 1)
                printf("  %-*s", w[k], value);
        }
        char mv[32], sv[32] = "", s2[32] = "", sr[16] = "";
        show(mv, sizeof mv, ob, advise_value(&c->model, ob));
        printf("  | %16s %10.*f |", mv, second_eta ? 3 : 1,
               second_eta ? c->model.efficiency : c->model.makespan);
        if (j < nchk && chk[j].result) {
            show(sv, sizeof sv, ob, advise_value(&chk[j].sim, ob));
            snprintf(s2, sizeof s2, "%.*f", second_eta ? 3 : 1,
                     second_eta ? chk[j].sim.efficiency : chk[j].sim.makespan);
            snprintf(sr, sizeof sr, "%d", chk[j].sim_rank + 1);
        } else if (j < nchk) {
            snprintf(sv, sizeof sv, "failed");
        }
        printf(" %18s %10s %4s\n", sv, s2, sr);
    }
    if (a->nranked > rows)
        printf("   ... %ld more (--top N shows more; --json or --out lists them all)\n",
               a->nranked - rows);
    for (int j = 0; j < nchk; j++)
        if (!chk[j].result)
            printf("SimGrid failed on #%d: %s\n", j + 1, chk[j].error ? chk[j].error : "?");
}

/* Whether SimGrid ranks the checked candidates as the model does, said in a sentence. */
static void print_order(const struct advise *a, const struct advise_check *chk, int nchk)
{
    int ok = 0, best = -1;
    bool same = true;
    for (int j = 0; j < nchk; j++) {
        if (chk[j].sim_rank < 0)
            continue;
        same = same && chk[j].sim_rank == ok; /* ok counts apart: && would skip it */
        ok++;
        if (chk[j].sim_rank == 0)
            best = j;
    }
    if (ok < 2 || best < 0) {
        if (ok == 1)
            printf("SimGrid ran the best candidate only.\n");
        return;
    }
    if (same) {
        printf("SimGrid keeps the model's order of the top %d.\n", ok);
        return;
    }
    char what[512];
    describe(a, chk[best].cand, what, sizeof what);
    printf("SimGrid changes the order: ");
    for (int r = 0; r < ok; r++)
        for (int j = 0; j < nchk; j++)
            if (chk[j].sim_rank == r)
                printf("%s#%d", r ? " " : "by SimGrid ", j + 1);
    if (best == 0)
        printf("; the best stays #1.\n");
    else
        printf("; its best is #%d (%s).\n", best + 1, what);
}

/* The paper's contradiction (Fig. 8) when it is in the answer: eta's best candidate is not the
 * balance's (the sweet spot), among those that meet the constraints. */
static void print_contradiction(const struct advise *a)
{
    long e = -1, b = -1;
    for (long k = 0; k < a->nranked; k++) {
        long i = a->ranked[k];
        if (e < 0 || a->cands[i].model.efficiency > a->cands[e].model.efficiency)
            e = i;
        if (b < 0 || a->cands[i].model.balance > a->cands[b].model.balance)
            b = i;
    }
    if (e < 0 || e == b)
        return;
    char we[512], wb[512];
    describe(a, e, we, sizeof we);
    describe(a, b, wb, sizeof wb);
    printf("eta and the balance disagree (the paper's Fig. 8): eta is best at %s (%.3f), the "
           "sweet spot at %s (balance %.3f, eta %.3f)\n",
           we, a->cands[e].model.efficiency, wb, a->cands[b].model.balance,
           a->cands[b].model.efficiency);
}

static void print_front(const struct advise *a)
{
    printf("\nPareto front, makespan against core-hours (%ld of %ld candidates):\n", a->nfront,
           a->nranked);
    printf("  %12s %10s  %s\n", "makespan s", "core-hours", "configuration");
    long shown = a->nfront <= 12 ? a->nfront : 10;
    for (long k = 0; k < shown; k++) {
        long i = a->front[k];
        char what[512];
        describe(a, i, what, sizeof what);
        printf("  %12.1f %10.2f  %s%s\n", a->cands[i].model.makespan, a->cands[i].model.core_hours,
               what, a->cands[i].rank == 0 ? "  <- chosen" : "");
    }
    if (shown < a->nfront)
        printf("  ... %ld more (--json or --out lists them all)\n", a->nfront - shown);
    if (a->nranked && !a->cands[a->ranked[0]].pareto)
        printf("  the chosen candidate is not on the front: another is as fast and cheaper, or "
               "faster and as cheap\n");
}

static json_t *metrics_json(const struct advise_metrics *m, enum advise_objective o)
{
    return json_pack("{s:f, s:f, s:f, s:f, s:f}", "objective", advise_value(m, o), "makespan",
                     m->makespan, "efficiency", m->efficiency, "core_hours", m->core_hours,
                     "balance", m->balance);
}

static int print_json(const struct advise *a, const struct advise_check *chk, int nchk)
{
    for (long j = 0; j < a->nranked; j++) {
        long i = a->ranked[j];
        struct params p;
        char err[PARAMS_ERR_MAX];
        advise_params(a, i, &p, err);
        json_t *sim = json_null(), *sim_rank = json_null();
        if (j < nchk && chk[j].result) {
            sim = metrics_json(&chk[j].sim, a->objective);
            /* Which engine checked it (full by default), and how many steps it simulated. */
            json_object_set(sim, "fidelity", json_object_get(chk[j].result, "fidelity"));
            json_t *smp = json_object_get(chk[j].result, "sampling");
            if (smp)
                json_object_set(sim, "sampling", smp);
            sim_rank = json_integer(chk[j].sim_rank + 1);
        } else if (j < nchk) {
            sim = json_pack("{s:s}", "error", chk[j].error ? chk[j].error : "failed");
        }
        json_t *line =
            json_pack("{s:I, s:s, s:o, s:o, s:o, s:o, s:b}", "rank", (json_int_t)j + 1, "objective",
                      advise_objective_names[a->objective], "config", report_params_json(&p),
                      "model", metrics_json(&a->cands[i].model, a->objective), "simgrid", sim,
                      "simgrid_rank", sim_rank, "pareto", a->cands[i].pareto);
        int rc = report_print_json(stdout, line);
        json_decref(line);
        if (rc < 0)
            return -1;
    }
    return 0;
}

/* Messages for the parts of the answer that are not the ranking: what was left out. */
static void print_header(const struct opts *o, double seconds, double cpu)
{
    const struct advise *a = &o->a;
    FILE *f = o->json ? stderr : stdout;
    if (!o->json) /* the CPU time too: on a shared machine the wall time counts the others */
        printf("advise: %ld candidates by the model in %.4g ms (%.4g ms of CPU); %ld meet the "
               "constraints; objective %s (%s is better)\n",
               a->n, seconds * 1e3, cpu * 1e3, a->nranked, advise_objective_names[a->objective],
               advise_maximise(a->objective) ? "higher" : "lower");
    if (a->invalid)
        fprintf(f, "advise: %ld candidates the model cannot evaluate are left out, e.g. %s\n",
                a->invalid, a->invalid_why);
    long repeats = 0;
    for (long i = 0; i < a->n; i++)
        repeats += a->cands[i].repeat;
    if (repeats)
        fprintf(f,
                "advise: mapping=inline ignores the ratio: %ld inline candidates that differ by "
                "it alone are ranked once, at the first ratio\n",
                repeats);
}

static int run(struct opts *o)
{
    char err[OUTFILE_ERR_MAX];
    struct advise *a = &o->a;
    struct advise_view view;
    if (heatmap_axes(o, &view, err, sizeof err) < 0) {
        cli_error("advise: %s", err);
        return EXIT_BAD_INPUT;
    }
    if (o->out && outfile_check_dir(o->out, advise_out_files, err, sizeof err) < 0) {
        cli_error("advise: --out %s", err);
        return EXIT_BAD_INPUT;
    }
    struct timespec t0, t1, c0, c1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0); /* the search runs on this thread */
    if (advise_run(a, analytics_profile, err, sizeof err) < 0) {
        cli_error("advise: %s", err);
        return EXIT_BAD_INPUT;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
    print_header(o, (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9,
                 (c1.tv_sec - c0.tv_sec) + (c1.tv_nsec - c0.tv_nsec) * 1e-9);
    if (!a->nranked) {
        cli_error("advise: none of the %ld candidates meets the constraints", a->n - a->invalid);
        return EXIT_NO_ADVICE;
    }
    int k = o->verify < a->nranked ? o->verify : (int)a->nranked;
    struct advise_check *chk = calloc(k ? k : 1, sizeof *chk);
    struct study v;
    study_init(&v);
    v.jobs = o->s.jobs;
    v.retries = o->s.retries;
    v.time_limit = o->s.time_limit;
    snprintf(v.cache, sizeof v.cache, "%s", o->s.cache);
    char label[64];
    snprintf(label, sizeof label, "advise: SimGrid checks the best %d", k);
    v.label = label;
    int rc = 0;
    fflush(stdout); /* the header before the simulations' progress */
    if (!chk || (k && verify(o, chk, k, &v) < 0)) {
        cli_error("advise: cannot start the simulations");
        rc = EXIT_SIM_FAILED;
        goto done;
    }
    if (v.interrupted) {
        cli_error("advise: interrupted; run again to finish (what finished is cached)");
        rc = 128 + v.interrupted;
        goto done;
    }
    if (o->json) {
        rc = print_json(a, chk, k) < 0 ? 1 : 0;
    } else {
        print_table(o, chk, k);
        print_order(a, chk, k);
        print_contradiction(a);
        print_front(a);
    }
    if (rc == 0 && o->out) { /* one set: all its files, or DIR as it was (outset) */
        struct outset set;
        int w = outset_open(&set, o->out, err, sizeof err);
        if (w == 0 && advise_write_dir(a, chk, k, view, set.tmp, err, sizeof err) < 0) {
            outset_fail(&set, err, sizeof err);
            w = -1;
        } else if (w == 0) {
            w = outset_commit(&set, err, sizeof err);
        }
        if (w < 0) {
            cli_error("advise: %s", err);
            rc = 1;
        } else {
            cli_wrote("%s/: advise.csv (%ld candidates), heatmap.png .svg, pareto.png .svg", o->out,
                      a->n - a->invalid);
        }
    }
    if (rc == 0 && v.failed)
        rc = EXIT_SIM_FAILED;
done:
    study_free(&v);
    free(chk);
    return rc;
}

int cmd_advise(int argc, char **argv)
{
    static struct opts o; /* big (the study's axes): not on the stack */
    memset(&o, 0, sizeof o);
    study_init(&o.s);
    advise_init(&o.a);
    o.verify = 5;
    o.top = 10;
    int rc = EXIT_BAD_INPUT;
    char err[768];
    for (int i = 2; i < argc; i++) {
        const char *arg = argv[i], *key, *value;
        if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
            usage();
            rc = 0;
            goto done;
        }
        if (!strcmp(arg, "--json") || !strcmp(arg, "--no-cache")) {
            o.json = o.json || arg[2] == 'j';
            if (arg[2] == 'n')
                o.s.cache[0] = 0;
            continue;
        }
        if (study_split(argc, argv, &i, &key, &value, err, sizeof err) < 0) {
            cli_error("advise: %s; see 'situ advise --help'", err);
            goto done;
        }
        if (option(&o, key, value, err, sizeof err) < 0) {
            cli_error("advise: %s", err);
            goto done;
        }
    }
    o.a.base = o.s.base;
    o.a.grid = o.s.grid; /* the advisor owns the axes now */
    memset(&o.s.grid, 0, sizeof o.s.grid);
    rc = run(&o);
done:
    advise_free(&o.a);
    study_free(&o.s);
    return rc;
}
