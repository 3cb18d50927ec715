#include "../engine/evaluate.h"
#include "study.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../engine/cache.h"
#include "../engine/datadir.h"
#include "../engine/model.h"
#include "../engine/outfile.h"
#include "../engine/report.h"
#include "../engine/sim.h"
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
    for (int k = 0; k < s->naxes; k++) {
        for (int v = 0; v < s->axes[k].n * s->axes[k].nids; v++)
            free(s->axes[k].values[v]);
        free(s->axes[k].values);
    }
    for (int i = 0; i < s->n; i++) {
        json_decref(s->results ? s->results[i] : NULL);
        free(s->errors ? s->errors[i] : NULL);
    }
    free(s->configs);
    free(s->results);
    free(s->errors);
    s->naxes = s->n = 0;
    s->configs = NULL;
    s->results = NULL;
    s->errors = NULL;
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    char *e = s + strlen(s);
    while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
        *--e = 0;
    return s;
}

static int push_row(struct axis *a, char **row)
{
    if (a->n >= STUDY_MAX_VALUES)
        return -1;
    char **grown = realloc(a->values, sizeof(char *) * (size_t)(a->n + 1) * a->nids);
    if (!grown)
        return -1;
    a->values = grown;
    for (int i = 0; i < a->nids; i++)
        if (!(a->values[a->n * a->nids + i] = strdup(row[i])))
            return -1;
    a->n++;
    return 0;
}

/* "A..B", "A..B+S", "A..BxF" into numbers; false if `item` is not a well-formed range. */
static bool parse_range(char *item, double *lo, double *hi, double *step, char *op)
{
    char *dots = strstr(item, ".."), *end;
    if (!dots)
        return false;
    *dots = 0;
    errno = 0;
    *lo = strtod(item, &end);
    bool ok = end != item && !*end;
    char *rest = dots + 2;
    *hi = strtod(rest, &end);
    ok = ok && end != rest;
    *op = *end ? *end : '+';
    *step = 1;
    if (*end) {
        char *s = end + 1;
        *step = strtod(s, &end);
        ok = ok && end != s && !*end;
    }
    return ok && !errno && isfinite(*lo) && isfinite(*hi) && isfinite(*step) && *hi >= *lo &&
           (*op == '+' ? *step > 0 : *op == 'x' && *step > 1 && *lo > 0);
}

int study_add_axis(struct study *s, const char *keys, const char *list, char *err, size_t errlen)
{
    struct axis fresh = {0};
    char kbuf[256];
    snprintf(kbuf, sizeof kbuf, "%s", keys);
    char *save = NULL;
    for (char *k = strtok_r(kbuf, ":", &save); k; k = strtok_r(NULL, ":", &save)) {
        int id = params_find(k);
        if (id < 0 || fresh.nids == STUDY_MAX_LINKED) {
            snprintf(err, errlen, "unknown parameter '%s'; see 'situ --help'", k);
            return -1;
        }
        /* "ratio:ratio 7:15" would set ratio twice per row and keep only the last value. */
        for (int j = 0; j < fresh.nids; j++)
            if (fresh.ids[j] == id) {
                snprintf(err, errlen, "%s: given twice in '%s'", param_table[id].key, keys);
                return -1;
            }
        fresh.ids[fresh.nids++] = id;
    }
    if (!fresh.nids) {
        snprintf(err, errlen, "empty parameter name");
        return -1;
    }
    for (int k = 0; k < s->naxes; k++)
        for (int i = 0; i < s->axes[k].nids; i++)
            for (int j = 0; j < fresh.nids; j++)
                if (s->axes[k].ids[i] == fresh.ids[j]) {
                    snprintf(err, errlen, "%s: given twice", param_table[fresh.ids[j]].key);
                    return -1;
                }
    char *copy = strdup(list);
    int rc = copy ? 0 : -1;
    save = NULL;
    for (char *item = copy ? strtok_r(copy, ",", &save) : NULL; item && rc == 0;
         item = strtok_r(NULL, ",", &save)) {
        item = trim(item);
        char *row[STUDY_MAX_LINKED];
        if (fresh.nids > 1) { /* linked values "20:1" */
            int n = 0;
            char *vs = NULL;
            /* Count every value: "20:1:5" for two keys is an error, not "20:1". */
            for (char *v = strtok_r(item, ":", &vs); v; v = strtok_r(NULL, ":", &vs))
                if (n++ < fresh.nids)
                    row[n - 1] = v;
            if (n != fresh.nids) {
                snprintf(err, errlen, "%s: '%s' needs %d values joined by ':'", keys, item,
                         fresh.nids);
                rc = -2;
                break;
            }
            rc = push_row(&fresh, row);
            continue;
        }
        enum param_type t = param_table[fresh.ids[0]].type;
        double lo, hi, step;
        char op;
        if (!strstr(item, "..") || t == PARAM_PATH || t == PARAM_CHOICE) {
            row[0] = item;
            rc = push_row(&fresh, row);
            continue;
        }
        char shown[128];
        snprintf(shown, sizeof shown, "%s", item);
        if (!parse_range(item, &lo, &hi, &step, &op)) {
            snprintf(err, errlen,
                     "%s: '%s' is not a range; expected A..B, A..B+STEP or A..BxFACTOR "
                     "with A <= B",
                     keys, shown);
            rc = -2;
            break;
        }
        for (double v = lo; v <= hi * (1 + 1e-12) && rc == 0; v = op == '+' ? v + step : v * step) {
            char text[64];
            snprintf(text, sizeof text, "%.15g", v);
            row[0] = text;
            rc = push_row(&fresh, row);
        }
    }
    free(copy);
    if (rc == 0 && fresh.n == 0) {
        snprintf(err, errlen, "%s: empty list", keys);
        rc = -2;
    }
    if (rc == -1)
        snprintf(err, errlen, "%s: more than %d values", keys, STUDY_MAX_VALUES);
    if (rc < 0) {
        for (int v = 0; v < fresh.n * fresh.nids; v++)
            free(fresh.values[v]);
        free(fresh.values);
        return -1;
    }
    s->axes[s->naxes++] = fresh;
    return 0;
}

static void describe(const struct study *s, const struct params *p, char *out, size_t len)
{
    size_t used = 0;
    out[0] = 0;
    for (int k = 0; k < s->naxes && used < len; k++)
        for (int i = 0; i < s->axes[k].nids && used < len; i++) {
            char v[PARAMS_PATH_MAX];
            int id = s->axes[k].ids[i];
            params_format(p, id, v, sizeof v);
            used += snprintf(out + used, len - used, "%s%s=%s", used ? " " : "",
                             param_table[id].key, v);
        }
}

int study_expand(struct study *s, char *err, size_t errlen)
{
    long total = 1;
    for (int k = 0; k < s->naxes; k++) {
        total *= s->axes[k].n;
        if (total > STUDY_MAX_RUNS) {
            snprintf(err, errlen, "more than %d configurations", STUDY_MAX_RUNS);
            return -1;
        }
    }
    s->configs = calloc(total, sizeof *s->configs);
    s->results = calloc(total, sizeof *s->results);
    s->errors = calloc(total, sizeof *s->errors);
    if (!s->configs || !s->results || !s->errors) {
        snprintf(err, errlen, "out of memory for %ld configurations", total);
        return -1;
    }
    char perr[512];
    for (long n = 0; n < total; n++) {
        struct params p = s->base;
        long rest = n;
        for (int k = s->naxes - 1; k >= 0; k--) {
            const struct axis *a = &s->axes[k];
            int row = (int)(rest % a->n);
            rest /= a->n;
            for (int i = 0; i < a->nids; i++)
                if (params_set(&p, a->ids[i], a->values[row * a->nids + i], perr) < 0) {
                    snprintf(err, errlen, "%s", perr);
                    return -1;
                }
        }
        char resolved[PARAMS_PATH_MAX];
        if (datadir_resolve(p.platform, resolved, sizeof resolved) == 0)
            snprintf(p.platform, sizeof p.platform, "%s", resolved);
        struct model_result m;
        if (evaluate_model(&p, &m, perr, sizeof perr) < 0 ||
            cli_model_check(&p, &m, perr, sizeof perr) < 0) {
            char cfg[256];
            describe(s, &p, cfg, sizeof cfg);
            snprintf(err, errlen, "%s%s%s", cfg, cfg[0] ? ": " : "", perr);
            return -1;
        }
        s->configs[n] = p;
    }
    s->n = (int)total;
    return 0;
}

struct progress {
    struct study *s;
    const int *index; /* job -> configuration */
    const struct sim_job *jobs;
    struct timespec start;
    int offset, total;
    bool tty, quiet;
};

static void progress(void *ud, struct sim_job *job, int done, int total)
{
    struct progress *pr = ud;
    /* Cached as soon as it ends: an interrupted study keeps what finished. */
    if (job->rc == 0 && pr->s->cache[0])
        cache_put(pr->s->cache, &pr->s->configs[pr->index[job - pr->jobs]], job->output);
    if (pr->quiet)
        return;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double t = (now.tv_sec - pr->start.tv_sec) + (now.tv_nsec - pr->start.tv_nsec) * 1e-9;
    double rate = t > 0 ? done / t : 0;
    double eta = rate > 0 ? (total - done) / rate : 0;
    int all = pr->offset + done, width = 30, fill = total ? width * done / total : width;
    if (pr->tty) {
        char bar[64];
        for (int i = 0; i < width; i++)
            bar[i] = i < fill ? '#' : '.';
        bar[width] = 0;
        fprintf(stderr, "\rsweep [%s] %d/%d  %.1f runs/s  ETA %.0f s ", bar, all, pr->total, rate,
                eta);
        if (done == total)
            fputc('\n', stderr);
    } else if (done == total || (total >= 10 && done % (total / 10) == 0)) {
        fprintf(stderr, "sweep: %d/%d done, %.1f runs/s, ETA %.0f s\n", all, pr->total, rate, eta);
    }
}

static void on_interrupt(int sig)
{
    sim_pool_stop = sig;
}

int study_run(struct study *s)
{
    struct sim_job *jobs = calloc(s->n ? s->n : 1, sizeof *jobs);
    int *index = calloc(s->n ? s->n : 1, sizeof *index);
    if (!jobs || !index) {
        free(jobs);
        free(index);
        return -1;
    }
    int todo = 0;
    char err[512];
    for (int i = 0; i < s->n; i++) {
        char *hit = NULL;
        if (s->model_only) {
            struct model_result m;
            evaluate_model(&s->configs[i], &m, err, sizeof err);
            s->results[i] = report_result_json(&s->configs[i], &m);
            continue;
        }
        if (s->cache[0] && cache_get(s->cache, &s->configs[i], &hit) == 0) {
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
    return rc == -1 ? -1 : 0;
}

void study_describe(const struct study *s, int i, char *out, size_t len)
{
    describe(s, &s->configs[i], out, len);
    if (!out[0])
        snprintf(out, len, "configuration %d", i + 1);
}

static const char *const result_keys[] = {"particles",
                                          "sim_cores",
                                          "analytics_cores",
                                          "steps",
                                          "S",
                                          "Ing",
                                          "R",
                                          "A",
                                          "W",
                                          "C",
                                          "sim_active",
                                          "sim_idle",
                                          "analytics_active",
                                          "analytics_idle",
                                          "makespan",
                                          "makespan_eq5",
                                          "efficiency",
                                          "scenario",
                                          "wall_seconds",
                                          "activities",
                                          NULL};

/* A result's value for one of result_keys: at the top, or in "stage" (S, Ing, R, A, W, C). */
static json_t *result_get(json_t *r, const char *key)
{
    json_t *v = json_object_get(r, key);
    return v ? v : json_object_get(json_object_get(r, "stage"), key);
}

void study_csv_header(FILE *f)
{
    for (int id = 0; id < PARAM_COUNT; id++)
        fprintf(f, "%s,", param_table[id].key);
    for (int k = 0; result_keys[k]; k++)
        fprintf(f, "%s%s", result_keys[k], result_keys[k + 1] ? "," : "\n");
}

void study_csv_row(FILE *f, const struct params *p, json_t *r)
{
    for (int id = 0; id < PARAM_COUNT; id++) {
        char v[PARAMS_PATH_MAX];
        params_format(p, id, v, sizeof v);
        report_csv_field(f, v);
        fputc(',', f);
    }
    for (int k = 0; result_keys[k]; k++) {
        json_t *v = result_get(r, result_keys[k]);
        if (json_is_string(v))
            report_csv_field(f, json_string_value(v));
        else if (json_is_integer(v))
            fprintf(f, "%lld", (long long)json_integer_value(v));
        else if (json_is_number(v))
            fprintf(f, "%.12g", json_number_value(v));
        fputc(result_keys[k + 1] ? ',' : '\n', f);
    }
}

int study_result_check(json_t *r, char *why, size_t len)
{
    /* Every key a row is made of (result_keys): a result without one writes a row with holes.
     * Only what a simulation measures may be absent: a model's result has no wall time. */
    for (int k = 0; result_keys[k]; k++) {
        const char *key = result_keys[k];
        json_t *v = result_get(r, key);
        /* Each engine has keys of its own: a simulation's wall time, a model's eq. 5. A model's
         * result without eq. 5 comes from a version whose makespan was eq. 5: refused. */
        bool sim = json_object_get(r, "wall_seconds") != NULL;
        bool measured = !strcmp(key, "wall_seconds") || !strcmp(key, "activities");
        if (!v && (measured || (sim && !strcmp(key, "makespan_eq5"))))
            continue;
        bool text = !strcmp(key, "scenario");
        if (text ? !json_is_string(v) : !json_is_number(v)) {
            snprintf(why, len, "'%s' %s: not a complete result", key,
                     !v     ? "missing"
                     : text ? "is not a string"
                            : "is not a number");
            return -1;
        }
        double x = text ? 0 : json_number_value(v);
        if (!isfinite(x) || x < 0) {
            snprintf(why, len, "'%s' is %g: expected a finite number >= 0", key, x);
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
