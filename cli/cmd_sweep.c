/* `situ sweep`: the cartesian product of parameter lists, simulated in parallel forked children
 * (or evaluated with the model), written as CSV or JSON lines. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../engine/datadir.h"
#include "../engine/model.h"
#include "../engine/report.h"
#include "../engine/sim.h"
#include "cli.h"

#define SWEEP_MAX_VALUES 4096
#define SWEEP_MAX_RUNS   1000000

struct axis {
    int id;
    int n;
    char **values;
};

struct sweep {
    struct params base;
    struct axis axes[PARAM_COUNT];
    int naxes;
    int jobs;
    bool model_only;
    bool help;
    const char *out;
};

static void usage(void)
{
    printf(
        "usage: situ sweep [--PARAM LIST ...] [--jobs N] [--model] [--out FILE.csv|FILE.jsonl]\n\n"
        "Runs every combination of the listed values (the cartesian product), each in its own\n"
        "simulation process, --jobs at a time (default: the number of cores). --model evaluates\n"
        "the analytic model instead (instant). Without --out, CSV goes to stdout.\n\n"
        "A LIST is values separated by commas, and ranges: A..B (step 1), A..B+S (step S),\n"
        "A..BxF (multiply by F: log steps). Example: --ratio 1,3,7,15,31 --data-scaling "
        "1..1000x10\n\n"
        "parameters:\n");
    params_print_help(stdout);
}

static int push_value(struct axis *a, const char *text)
{
    if (a->n >= SWEEP_MAX_VALUES)
        return -1;
    char **grown = realloc(a->values, sizeof(char *) * (a->n + 1));
    if (!grown)
        return -1;
    a->values = grown;
    a->values[a->n] = strdup(text);
    return a->values[a->n++] ? 0 : -1;
}

/* "1,3,7", "1..8", "0..100+25", "1..1000x10" into the axis; -1 with a message on bad syntax. */
static int parse_list(struct axis *a, const char *list)
{
    const char *key = param_table[a->id].key;
    char *copy = strdup(list), *save = NULL;
    if (!copy)
        return -1;
    int rc = 0;
    for (char *item = strtok_r(copy, ",", &save); item && rc == 0;
         item = strtok_r(NULL, ",", &save)) {
        char *dots = strstr(item, "..");
        if (!dots || param_table[a->id].type == PARAM_PATH ||
            param_table[a->id].type == PARAM_CHOICE) {
            rc = push_value(a, item);
            continue;
        }
        *dots = 0;
        char *end;
        errno = 0;
        double lo = strtod(item, &end), hi, step = 1;
        bool ok = end != item && !*end;
        char *rest = dots + 2;
        hi = strtod(rest, &end);
        ok = ok && end != rest;
        char op = *end ? *end : '+';
        if (*end) {
            char *s = end + 1;
            step = strtod(s, &end);
            ok = ok && end != s && !*end;
        }
        ok = ok && !errno && isfinite(lo) && isfinite(hi) && isfinite(step) && hi >= lo &&
             (op == '+' || op == 'x') && (op == '+' ? step > 0 : step > 1 && lo > 0);
        if (!ok) {
            cli_error("sweep: --%s: '%s..%s' is not a range; expected A..B, A..B+STEP or "
                      "A..BxFACTOR with A <= B",
                      key, item, rest);
            rc = -2;
            break;
        }
        for (double v = lo; v <= hi * (1 + 1e-12) && rc == 0; v = op == '+' ? v + step : v * step) {
            char text[64];
            snprintf(text, sizeof text, "%.15g", v);
            rc = push_value(a, text);
        }
    }
    free(copy);
    if (rc == -1)
        cli_error("sweep: --%s: more than %d values", key, SWEEP_MAX_VALUES);
    return rc < 0 ? -1 : 0;
}

static int parse_sweep(int argc, char **argv, struct sweep *s)
{
    memset(s, 0, sizeof *s);
    params_defaults(&s->base);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    s->jobs = cores > 0 ? (int)cores : 1;
    for (int i = 2; i < argc; i++) {
        const char *arg = argv[i];
        if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
            s->help = true;
            return 0;
        }
        if (!strcmp(arg, "--model")) {
            s->model_only = true;
            continue;
        }
        const char *eq = strchr(arg, '=');
        char key[64];
        size_t klen = eq ? (size_t)(eq - arg) : strlen(arg);
        if (strncmp(arg, "--", 2) || klen - 2 >= sizeof key) {
            cli_error("sweep: unexpected argument '%s'; see 'situ sweep --help'", arg);
            return -1;
        }
        memcpy(key, arg + 2, klen - 2);
        key[klen - 2] = 0;
        const char *value = eq ? eq + 1 : (i + 1 < argc ? argv[++i] : NULL);
        if (!value) {
            cli_error("sweep: missing value after %s", arg);
            return -1;
        }
        if (!strcmp(key, "jobs")) {
            char *end;
            long j = strtol(value, &end, 10);
            if (*end || end == value || j < 1 || j > 256) {
                cli_error("sweep: jobs: '%s' is not valid; expected an integer in [1, 256]", value);
                return -1;
            }
            s->jobs = (int)j;
            continue;
        }
        if (!strcmp(key, "out")) {
            s->out = value;
            continue;
        }
        int id = params_find(key);
        if (id < 0) {
            cli_error("sweep: unknown option '--%s'; see 'situ sweep --help'", key);
            return -1;
        }
        struct axis *a = NULL;
        for (int k = 0; k < s->naxes; k++)
            if (s->axes[k].id == id)
                a = &s->axes[k];
        if (!a) {
            a = &s->axes[s->naxes++];
            a->id = id;
        }
        if (parse_list(a, value) < 0)
            return -1;
    }
    return 0;
}

/* Expands the product into parameter sets, each checked as `situ model` would. */
static int expand(const struct sweep *s, struct sim_job **jobs_out, int *n_out)
{
    long total = 1;
    for (int k = 0; k < s->naxes; k++) {
        total *= s->axes[k].n;
        if (total > SWEEP_MAX_RUNS) {
            cli_error("sweep: more than %d configurations", SWEEP_MAX_RUNS);
            return -1;
        }
    }
    if (total == 0) {
        cli_error("sweep: the product is empty");
        return -1;
    }
    struct sim_job *jobs = calloc(total, sizeof *jobs);
    if (!jobs) {
        cli_error("sweep: out of memory for %ld configurations", total);
        return -1;
    }
    char err[512];
    for (long n = 0; n < total; n++) {
        struct params p = s->base;
        long rest = n;
        for (int k = s->naxes - 1; k >= 0; k--) {
            const struct axis *a = &s->axes[k];
            const char *v = a->values[rest % a->n];
            rest /= a->n;
            if (params_set(&p, a->id, v, err) < 0) {
                cli_error("sweep: %s", err);
                goto fail;
            }
        }
        char resolved[PARAMS_PATH_MAX];
        if (datadir_resolve(p.platform, resolved, sizeof resolved) == 0)
            snprintf(p.platform, sizeof p.platform, "%s", resolved);
        struct model_result m;
        if (model_run(&p, &m, err, sizeof err) < 0) {
            char cfg[256] = "";
            size_t used = 0;
            for (int k = 0; k < s->naxes && used < sizeof cfg; k++) {
                char v[PARAMS_PATH_MAX];
                params_format(&p, s->axes[k].id, v, sizeof v);
                used += snprintf(cfg + used, sizeof cfg - used, " %s=%s",
                                 param_table[s->axes[k].id].key, v);
            }
            cli_error("sweep:%s: %s", cfg, err);
            goto fail;
        }
        jobs[n].p = p;
    }
    *jobs_out = jobs;
    *n_out = (int)total;
    return 0;
fail:
    free(jobs);
    return -1;
}

static void progress(void *ud, int done, int total)
{
    (void)ud;
    bool tty = isatty(STDERR_FILENO);
    if (tty)
        fprintf(stderr, "\rsweep: %d/%d", done, total);
    else if (done == total || done % 50 == 0)
        fprintf(stderr, "sweep: %d/%d\n", done, total);
    if (tty && done == total)
        fputc('\n', stderr);
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
                                          "efficiency",
                                          "scenario",
                                          "wall_seconds",
                                          "activities",
                                          NULL};

static void write_csv_header(FILE *f)
{
    for (int id = 0; id < PARAM_COUNT; id++)
        fprintf(f, "%s,", param_table[id].key);
    for (int k = 0; result_keys[k]; k++)
        fprintf(f, "%s%s", result_keys[k], result_keys[k + 1] ? "," : "\n");
}

static void write_csv_row(FILE *f, const struct params *p, json_t *r)
{
    for (int id = 0; id < PARAM_COUNT; id++) {
        char v[PARAMS_PATH_MAX];
        params_format(p, id, v, sizeof v);
        fprintf(f, "%s,", v);
    }
    json_t *stage = json_object_get(r, "stage");
    for (int k = 0; result_keys[k]; k++) {
        json_t *v = json_object_get(r, result_keys[k]);
        if (!v && stage)
            v = json_object_get(stage, result_keys[k]);
        if (json_is_string(v))
            fprintf(f, "%s", json_string_value(v));
        else if (json_is_integer(v))
            fprintf(f, "%lld", (long long)json_integer_value(v));
        else if (json_is_number(v))
            fprintf(f, "%.12g", json_number_value(v));
        fputc(result_keys[k + 1] ? ',' : '\n', f);
    }
}

int cmd_sweep(int argc, char **argv)
{
    struct sweep s;
    struct sim_job *jobs = NULL;
    int n = 0, rc = EXIT_BAD_INPUT;
    FILE *out = stdout;
    char tmp[PARAMS_PATH_MAX + 16] = "";
    if (parse_sweep(argc, argv, &s) < 0)
        goto done;
    if (s.help) {
        usage();
        rc = 0;
        goto done;
    }
    bool jsonl = s.out && strlen(s.out) > 6 && !strcmp(s.out + strlen(s.out) - 6, ".jsonl");
    if (s.out && !jsonl && !(strlen(s.out) > 4 && !strcmp(s.out + strlen(s.out) - 4, ".csv"))) {
        cli_error("sweep: --out %s: expected a .csv or .jsonl file name", s.out);
        goto done;
    }
    if (expand(&s, &jobs, &n) < 0)
        goto done;
    if (s.out) {
        /* Written beside the destination and renamed over it: complete or absent. */
        snprintf(tmp, sizeof tmp, "%s.tmp%ld", s.out, (long)getpid());
        out = fopen(tmp, "w");
        if (!out) {
            cli_error("sweep: --out %s: cannot write: %s", s.out, strerror(errno));
            out = stdout;
            tmp[0] = 0;
            goto done;
        }
    }
    int failed = 0;
    if (s.model_only) {
        char err[512];
        for (int k = 0; k < n; k++) {
            struct model_result m;
            model_run(&jobs[k].p, &m, err, sizeof err);
            json_t *j = report_result_json(&jobs[k].p, &m);
            jobs[k].output = json_dumps(j, JSON_COMPACT | JSON_REAL_PRECISION(12));
            json_decref(j);
        }
    } else {
        failed = sim_pool_run(jobs, n, s.jobs, progress, NULL);
        if (failed < 0) {
            cli_error("sweep: cannot start simulations");
            rc = EXIT_SIM_FAILED;
            goto done;
        }
    }
    if (!jsonl)
        write_csv_header(out);
    for (int k = 0; k < n; k++) {
        if (jobs[k].rc < 0) {
            cli_error("sweep: configuration %d: %s", k + 1, jobs[k].err);
            continue;
        }
        json_error_t jerr;
        json_t *r = json_loads(jobs[k].output, 0, &jerr);
        if (!r) {
            cli_error("sweep: configuration %d: unreadable result: %s", k + 1, jerr.text);
            failed++;
            continue;
        }
        if (jsonl)
            report_print_json(out, r);
        else
            write_csv_row(out, &jobs[k].p, r);
        json_decref(r);
    }
    rc = failed ? EXIT_SIM_FAILED : 0;
    if (s.out) {
        bool ok = fflush(out) == 0 && fsync(fileno(out)) == 0;
        ok = fclose(out) == 0 && ok;
        out = stdout;
        if (!ok || rename(tmp, s.out) < 0) {
            cli_error("sweep: --out %s: cannot write: %s", s.out, strerror(errno));
            rc = EXIT_BAD_INPUT;
            goto done;
        }
        tmp[0] = 0;
    }
done:
    if (out != stdout)
        fclose(out);
    if (tmp[0])
        unlink(tmp);
    for (int k = 0; k < n; k++)
        free(jobs[k].output);
    free(jobs);
    for (int k = 0; k < s.naxes; k++) {
        for (int v = 0; v < s.axes[k].n; v++)
            free(s.axes[k].values[v]);
        free(s.axes[k].values);
    }
    return rc;
}
