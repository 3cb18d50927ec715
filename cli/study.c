#include "study.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../engine/base/csv.h"
#include "../engine/run/cache.h"
#include "../engine/base/datadir.h"
#include "../engine/base/flag.h"
#include "../engine/lua/analytics.h"
#include "../engine/model/advise_models.h"
#include "../engine/model/model.h"
#include "../engine/base/outfile.h"
#include "../engine/model/preset.h"
#include "../engine/model/report.h"
#include "../engine/run/sim_pool.h"
#include "cli.h"

void study_init(struct study *s)
{
    memset(s, 0, sizeof *s);
    params_defaults(&s->base);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    s->jobs = cores > 0 ? (int)cores : 1;
    if (cache_default_dir(s->cache, sizeof s->cache) < 0)
        s->cache[0] = 0;
}

void study_free(struct study *s)
{
    grid_free(&s->grid);
    for (int i = 0; i < s->n; i++) {
        json_decref(s->results ? s->results[i] : NULL);
        free(s->errors ? s->errors[i] : NULL);
    }
    free(s->configs);
    free(s->results);
    free(s->errors);
    s->n = 0;
    s->configs = NULL;
    s->results = NULL;
    s->errors = NULL;
}

int study_add_axis(struct study *s, const char *keys, const char *list, char *err, size_t errlen)
{
    return grid_add_axis(&s->grid, keys, list, err, errlen);
}

int study_split(int argc, char **argv, int *i, const char **key, const char **value, char *err,
                size_t errlen)
{
    static char kbuf[256];
    const char *arg = argv[*i];
    if (!flag_name(arg, kbuf, sizeof kbuf)) {
        snprintf(err, errlen, "unexpected argument '%s'", arg);
        return -1;
    }
    *key = kbuf;
    if (!(*value = flag_value(argc, argv, i))) {
        snprintf(err, errlen, "missing value after %s", arg);
        return -1;
    }
    return 0;
}

static int add_axis(void *ud, const char *keys, const char *list, char *err, size_t errlen)
{
    return study_add_axis(ud, keys, list, err, errlen);
}

int study_option(struct study *s, const char *key, const char *value, char *err, size_t errlen)
{
    char *end;
    if (!strcmp(key, "retry") || !strcmp(key, "time-limit")) {
        double v = strtod(value, &end);
        bool retry = key[0] == 'r';
        if (*end || end == value || !(v >= 0 && v <= (retry ? 10 : 1e6)) ||
            (retry && v != (int)v)) {
            snprintf(err, errlen, "%s: '%s' is not valid; expected %s", key, value,
                     retry ? "an integer in [0, 10]" : "seconds in [0, 1e6] (0: no limit)");
            return -1;
        }
        if (retry)
            s->retries = (int)v;
        else
            s->time_limit = v;
        return 0;
    }
    if (!strcmp(key, "jobs")) {
        long j = strtol(value, &end, 10);
        if (*end || end == value || j < 1 || j > 256) {
            snprintf(err, errlen, "jobs: '%s' is not valid; expected an integer in [1, 256]",
                     value);
            return -1;
        }
        s->jobs = (int)j;
        return 0;
    }
    if (!strcmp(key, "cache")) {
        snprintf(s->cache, sizeof s->cache, "%s", value);
        return 0;
    }
    if (!strcmp(key, "preset"))
        return preset_read(value, &s->base, add_axis, s, err, errlen);
    return study_add_axis(s, key, value, err, errlen);
}

/* One line on a terminal that a study's progress rewrites: "LABEL [####......] DONE/TOTAL
 * RATE UNIT/s  ETA S s", a newline once all are done. The simulations' and the model's. */
static void progress_draw(const char *label, int done, int total, double rate, const char *unit)
{
    char bar[64];
    int width = 30, fill = total ? (int)((long)width * done / total) : width;
    for (int i = 0; i < width; i++)
        bar[i] = i < fill ? '#' : '.';
    bar[width] = 0;
    double eta = rate > 0 ? (total - done) / rate : 0;
    fprintf(stderr, "\r%s [%s] %d/%d  %.1f %s/s  ETA %.0f s ", label, bar, done, total, rate, unit,
            eta);
    if (done == total)
        fputc('\n', stderr);
}

static double seconds_since(const struct timespec *t0)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (now.tv_sec - t0->tv_sec) + (now.tv_nsec - t0->tv_nsec) * 1e-9;
}

/* The model's pass over a grid: on a terminal only (a pipe or a log gets no line, and `--out`'s
 * one line stays alone), and only once it has lasted STUDY_MODEL_QUIET_SECONDS: the model of
 * most grids takes less, and a bar that flashes for a few milliseconds is noise. */
#define STUDY_MODEL_QUIET_SECONDS  0.5
#define STUDY_MODEL_REDRAW_SECONDS 0.1
struct model_progress {
    const char *label;
    bool tty;
    struct timespec start;
    double drawn; /* seconds since start when last drawn; < 0: never */
};

static void model_progress(struct model_progress *pr, long done, long total)
{
    if (!pr->tty) /* (the clock every row: a hundredth of a row's model) */
        return;
    double t = seconds_since(&pr->start);
    if (t < STUDY_MODEL_QUIET_SECONDS ||
        (pr->drawn >= 0 && done != total && t - pr->drawn < STUDY_MODEL_REDRAW_SECONDS))
        return;
    if (done == total && pr->drawn < 0)
        return; /* done before it was ever shown */
    pr->drawn = t;
    progress_draw(pr->label, (int)done, (int)total, done / t, "rows");
}

/* Configuration n's axis values for a message, then a colon: "ratio=3 nodes=2: ". */
static void expand_fail(const struct study *s, const struct params *p, const char *why, char *err,
                        size_t errlen)
{
    char cfg[256];
    grid_describe(&s->grid, p, cfg, sizeof cfg);
    snprintf(err, errlen, "%s%s%s", cfg, cfg[0] ? ": " : "", why);
}

/* Every configuration against its platform (advise_model_check), before any is evaluated: a grid
 * whose last row asks for more hosts than the platform has is refused at once, not after the
 * model (or a Lua analytics) of every row before it. */
static int expand_check(struct study *s, struct advise_models *models, long total, char *err,
                        size_t errlen)
{
    char perr[512];
    struct params p = s->base; /* the last point's values: the next sets those that change */
    for (long n = 0; n < total; n++) {
        if (grid_apply_from(&s->grid, n, n - 1, &p, perr) < 0) {
            snprintf(err, errlen, "%s", perr);
            return -1;
        }
        if (advise_model_check(models, &p, perr, sizeof perr) < 0) {
            expand_fail(s, &p, perr, err, errlen);
            return -1;
        }
        s->configs[n] = p;
    }
    return 0;
}

/* The model of every configuration, checked as `situ model` checks it (cli_model_check): the
 * results of a --model study, the check of a simulated one before any simulation. */
static int expand_model(struct study *s, struct advise_models *models, char *err, size_t errlen)
{
    char perr[512];
    char label[96]; /* the model's pass apart from the simulations' bar that may follow */
    snprintf(label, sizeof label, "%s (model)", s->label ? s->label : "sweep");
    struct model_progress pr = {
        .label = label, .tty = !s->quiet && isatty(STDERR_FILENO), .drawn = -1};
    clock_gettime(CLOCK_MONOTONIC, &pr.start);
    for (int n = 0; n < s->n; n++) {
        struct model_result m;
        struct params *p = &s->configs[n];
        if (advise_model_eval(models, p, &m, perr, sizeof perr) < 0 ||
            cli_model_check(p, &m, perr, sizeof perr) < 0) {
            if (pr.drawn >= 0)
                fputc('\n', stderr); /* the message on a line of its own */
            expand_fail(s, p, perr, err, errlen);
            return -1;
        }
        if (s->model_only && !(s->results[n] = report_result_json(p, &m))) {
            snprintf(err, errlen, "out of memory for %d results", s->n);
            return -1;
        }
        model_progress(&pr, n + 1, s->n);
    }
    return 0;
}

int study_expand(struct study *s, char *err, size_t errlen)
{
    long total = grid_size(&s->grid, STUDY_MAX_RUNS);
    if (total < 0) {
        snprintf(err, errlen, "more than %d configurations", STUDY_MAX_RUNS);
        return -1;
    }
    s->configs = calloc(total, sizeof *s->configs);
    s->results = calloc(total, sizeof *s->results);
    s->errors = calloc(total, sizeof *s->errors);
    /* The advisor's path (advise_models.h): each platform read once, not once a row. */
    struct advise_models *models = advise_models_new(analytics_profile);
    int rc = -1;
    if (!s->configs || !s->results || !s->errors || !models)
        snprintf(err, errlen, "out of memory for %ld configurations", total);
    else if (expand_check(s, models, total, err, errlen) == 0) {
        s->n = (int)total; /* from here study_free frees the results */
        rc = expand_model(s, models, err, errlen);
    }
    advise_models_free(models);
    return rc;
}

struct progress {
    struct study *s;
    const struct cache_inputs *inputs; /* each configuration's input files before its run */
    const int *index;                  /* job -> configuration */
    const struct sim_job *jobs;
    struct timespec start;
    int offset, total;
    bool tty, quiet;
};

static void progress(void *ud, struct sim_job *job, int done, int total)
{
    struct progress *pr = ud;
    /* Cached as soon as it ends, if its input files still hold what they held before it
     * started: an interrupted study keeps what finished, an edited file keeps it out. */
    int i = pr->index[job - pr->jobs];
    if (job->rc == 0 && pr->s->cache[0])
        cache_put(pr->s->cache, &pr->s->configs[i], &pr->inputs[i], job->output, NULL, 0);
    if (pr->quiet)
        return;
    double t = seconds_since(&pr->start);
    double rate = t > 0 ? done / t : 0;
    double eta = rate > 0 ? (total - done) / rate : 0;
    int all = pr->offset + done;
    const char *label = pr->s->label ? pr->s->label : "sweep";
    if (pr->tty)
        progress_draw(label, all, pr->total, rate, "runs");
    else if (done == total || (total >= 10 && done % (total / 10) == 0))
        fprintf(stderr, "%s: %d/%d done, %.1f runs/s, ETA %.0f s\n", label, all, pr->total, rate,
                eta);
}

static void on_interrupt(int sig)
{
    sim_pool_stop = sig;
}

int study_run(struct study *s)
{
    struct sim_job *jobs = calloc(s->n ? s->n : 1, sizeof *jobs);
    int *index = calloc(s->n ? s->n : 1, sizeof *index);
    struct cache_inputs *inputs = calloc(s->n ? s->n : 1, sizeof *inputs);
    if (!jobs || !index || !inputs) {
        free(jobs);
        free(index);
        free(inputs);
        return -1;
    }
    int todo = 0;
    for (int i = 0; i < s->n; i++) {
        char *hit = NULL;
        if (s->model_only) { /* study_expand evaluated it */
            s->ran += s->results[i] != NULL;
            continue;
        }
        cache_inputs_take(&s->configs[i], &inputs[i]); /* before the run: what it will read */
        if (s->cache[0] && cache_get(s->cache, &s->configs[i], &inputs[i], &hit) == 0) {
            json_error_t jerr;
            char why[256];
            s->results[i] = json_loads(hit, 0, &jerr);
            free(hit);
            /* An entry that is not a whole result (edited, written by another version) is run
             * again, and the run replaces it. */
            if (s->results[i] && study_result_check(s->results[i], why, sizeof why) == 0) {
                s->cached++;
                continue;
            }
            json_decref(s->results[i]);
            s->results[i] = NULL;
        }
        jobs[todo].p = s->configs[i];
        index[todo++] = i;
    }
    struct progress pr = {.s = s,
                          .inputs = inputs,
                          .index = index,
                          .jobs = jobs,
                          .offset = s->cached,
                          .total = s->n,
                          .tty = isatty(STDERR_FILENO),
                          .quiet = s->quiet || todo == 0};
    clock_gettime(CLOCK_MONOTONIC, &pr.start);
    struct sigaction sa = {.sa_handler = on_interrupt}, old_int, old_term, old_hup;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    sigaction(SIGHUP, &sa, &old_hup);
    sim_pool_stop = 0;
    int rc = 0;
    for (int attempt = 0; todo > 0; attempt++) {
        rc = sim_pool_run(jobs, todo, s->jobs, s->time_limit, progress, &pr);
        if (rc == -1 || rc == -2)
            break;
        /* Keep what succeeded; what failed runs again while retries are left. */
        int again = 0;
        for (int k = 0; k < todo; k++) {
            int i = index[k];
            if (jobs[k].rc == 0) /* parsed and checked by the child wrapper, once */
                s->results[i] = json_incref(jobs[k].json);
            sim_jobs_clear(&jobs[k], 1);
            if (s->results[i]) {
                s->ran++;
            } else if (attempt < s->retries) {
                s->retried++;
                jobs[again] = jobs[k];
                index[again++] = i;
            } else {
                s->failed++;
                s->errors[i] = strdup(jobs[k].err);
            }
        }
        todo = again;
        pr.offset = s->cached + s->ran + s->failed;
        clock_gettime(CLOCK_MONOTONIC, &pr.start);
    }
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    sigaction(SIGHUP, &old_hup, NULL);
    s->interrupted = rc == -2 ? (int)sim_pool_stop : 0;
    if (rc < 0)
        sim_jobs_clear(jobs, todo);
    free(jobs);
    free(index);
    free(inputs);
    return rc == -1 ? -1 : 0;
}

void study_describe(const struct study *s, int i, char *out, size_t len)
{
    grid_describe(&s->grid, &s->configs[i], out, len);
    if (!out[0])
        snprintf(out, len, "configuration %d", i + 1);
}

void study_csv_header(FILE *f)
{
    for (int id = 0; id < PARAM_COUNT; id++)
        fprintf(f, "%s,", param_table[id].key);
    for (int k = 0; report_columns[k].name; k++)
        fprintf(f, "%s%s", report_columns[k].name, report_columns[k + 1].name ? "," : "\n");
}

void study_csv_row(FILE *f, const struct params *p, json_t *r)
{
    for (int id = 0; id < PARAM_COUNT; id++) {
        char v[PARAMS_PATH_MAX];
        params_format(p, id, v, sizeof v);
        csv_field(f, v);
        fputc(',', f);
    }
    for (int k = 0; report_columns[k].name; k++) {
        report_csv_value(f, report_column_get(r, &report_columns[k]));
        fputc(report_columns[k + 1].name ? ',' : '\n', f);
    }
}

int study_result_check(json_t *r, char *why, size_t len)
{
    /* Every column a row is made of (report_columns): a result without one writes a row with
     * holes. Only what applies to some results may be absent (a model's result has no wall
     * time, a simulation's no eq. 5). A model's result without eq. 5 comes from a version whose
     * makespan was eq. 5: refused. */
    bool sim = json_object_get(r, "wall_seconds") != NULL;
    for (int k = 0; report_columns[k].name; k++) {
        const struct report_column *c = &report_columns[k];
        json_t *v = report_column_get(r, c);
        if (!v && (c->presence == REPORT_OPTIONAL || (sim && c->presence == REPORT_MODELLED)))
            continue;
        bool ok = c->kind == REPORT_TEXT   ? json_is_string(v)
                  : c->kind == REPORT_BOOL ? json_is_boolean(v)
                                           : json_is_number(v);
        if (!ok) {
            snprintf(why, len, "'%s' %s: not a complete result", c->name,
                     !v                         ? "missing"
                     : c->kind == REPORT_NUMBER ? "is not a number"
                     : c->kind == REPORT_TEXT   ? "is not a string"
                                                : "is not true or false");
            return -1;
        }
        double x = c->kind == REPORT_NUMBER ? json_number_value(v) : 0;
        if (!isfinite(x) || x < 0) {
            snprintf(why, len, "'%s' is %g: expected a finite number >= 0", c->name, x);
            return -1;
        }
    }
    double makespan = json_number_value(json_object_get(r, "makespan"));
    double eff = json_number_value(json_object_get(r, "efficiency"));
    if (!(makespan > 0)) {
        snprintf(why, len, "'makespan' is %g: expected > 0", makespan);
        return -1;
    }
    if (!(eff <= 1)) {
        snprintf(why, len, "'efficiency' is %g: expected 0 <= efficiency <= 1", eff);
        return -1;
    }
    return 0;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n > m && !strcmp(s + n - m, suffix);
}

int study_check_out(const char *path, char *err, size_t errlen)
{
    if (!ends_with(path, ".jsonl") && !ends_with(path, ".csv")) {
        snprintf(err, errlen, "%s: expected a .csv or .jsonl file name", path);
        return -1;
    }
    return outfile_check(path, err, errlen);
}

int study_write(const struct study *s, const char *path, char *err, size_t errlen)
{
    bool jsonl = path && ends_with(path, ".jsonl");
    struct outfile out;
    if (outfile_open(&out, path, err, errlen) < 0)
        return -1;
    if (!jsonl)
        study_csv_header(out.f);
    for (int i = 0; i < s->n; i++) {
        if (!s->results[i])
            continue;
        if (!jsonl) {
            study_csv_row(out.f, &s->configs[i], s->results[i]);
            continue;
        }
        char *line = json_dumps(s->results[i], JSON_COMPACT | JSON_REAL_PRECISION(12));
        if (!line) {
            outfile_abort(&out);
            snprintf(err, errlen, "%s: cannot write: a result cannot be written as JSON",
                     path ? path : "standard output");
            return -1;
        }
        size_t len = strlen(line);
        line[len] = '\n'; /* over the NUL: one write for the line and its end */
        outfile_write(&out, line, len + 1);
        free(line);
    }
    return outfile_commit(&out, err, errlen);
}
