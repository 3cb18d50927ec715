/* situ calibrate: measured runs (LAMMPS logs, a CSV of any code's runs) -> the cost parameters
 * of the model, fitted by least squares with the model itself as the design (calibrate.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/base/flag.h"
#include "../engine/lua/evaluate.h"
#include "../engine/model/calibrate.h"
#include "../engine/model/report.h"
#include "cli.h"

#define DEFAULT_THRESHOLD 0.10

static void usage(void)
{
    printf(
        "usage: situ calibrate FILE... [--check FILE]... [--out NAME] [--repeats min|median|mean]\n"
        "                      [--measure loop|cpu] [--threshold PCT] [--json] [--PARAM VALUE "
        "...]\n\n"
        "Fits the cost parameters (those whose unit is s/...: sim_cost, analytics_cost, and a\n"
        "simulation profile's own) to measured runs by least squares, the analytic model being\n"
        "the design: each run's configuration is evaluated with each cost alone, so the fit\n"
        "holds wherever the model is linear in the costs (it says when it is not).\n\n"
        "FILE: a LAMMPS log (each 'Loop time of T on P procs for S steps with N atoms' is a\n"
        "run: region from N = 4 region^3, P ranks on one node (nodes 1, cores_per_node P, the\n"
        "analysis inline on the ranks), iterations S, halo_period from neigh_modify every, stride\n"
        "from the ave/time fix of a compute rdf, else no analysis: compute_scaling 0), or a .csv\n"
        "of any code's runs (docs/calibrate.md): a header of parameter names, 'ranks' and 'code'\n"
        "optional, then 'total' (seconds), then optional phase columns; one run per row.\n\n"
        "Repeated runs of one configuration are reduced to their minimum (--repeats): machine\n"
        "noise only adds time. Each configuration counts relative to its own time.\n"
        "  --check FILE      runs held out of the fit: predicted with the fitted costs\n"
        "  --measure cpu     each run's loop time times its CPU use (LAMMPS's 'N%% CPU use'):\n"
        "                    the time its ranks computed, which other jobs on shared cores do\n"
        "                    not stretch (default: loop, the loop time as measured)\n"
        "  --out NAME        writes the calibrated configuration as preset NAME (the explorer's\n"
        "                    and --preset NAME's): the flags given here, the fitted costs\n"
        "  --threshold PCT   relative residual above which a linear cost is said not to fit\n"
        "                    (default %.0f)\n"
        "  --json            one JSON object\n"
        "Other flags set the configuration the runs are mapped onto (platform, dtl, ...).\n"
        "Exit status: 0 (whatever the fit's quality: the report says), 2 for bad input, 1 when\n"
        "the preset cannot be written.\n",
        100 * DEFAULT_THRESHOLD);
}

static int forward(void *ud, const struct params *p, double *seconds, char *err, size_t errlen)
{
    (void)ud;
    struct model_result m;
    if (evaluate_model(p, &m, err, errlen) < 0)
        return -1;
    *seconds = m.makespan;
    return 0;
}

static int read_file(const char *path, const struct params *base, struct calib_runs *runs,
                     char *err, size_t errlen)
{
    size_t n = strlen(path);
    if (n > 4 && !strcmp(path + n - 4, ".csv"))
        return calib_read_csv(path, base, runs, err, errlen);
    return calib_read_lammps(path, base, runs, err, errlen);
}

static json_t *number_or_null(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

static json_t *groups_json(const struct calib_runs *runs, const struct calib_fit *f)
{
    json_t *a = json_array();
    for (int g = 0; g < f->ngroups; g++) {
        const struct calib_group *G = &f->group[g];
        const struct calib_run *r = &runs->run[G->first], *best = &runs->run[G->best];
        json_t *phases = json_object(); /* the fastest run's, as measured (loop time's parts) */
        for (int k = 0; k < best->nphases; k++)
            json_object_set_new(phases, best->phase_name[k], json_real(best->phase[k]));
        json_array_append_new(
            a, json_pack("{s:s, s:s, s:i, s:i, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "label",
                         r->label, "file", r->file, "line", r->line, "runs", G->nrep, "measured",
                         number_or_null(G->measured), "min", number_or_null(G->lo), "max",
                         number_or_null(G->hi), "spread", number_or_null(G->hi / G->lo - 1),
                         "predicted", number_or_null(G->predicted), "error",
                         number_or_null(-G->residual), "loo_error", number_or_null(-G->loo),
                         "config", report_params_json(&r->p)));
        json_object_set_new(json_array_get(a, json_array_size(a) - 1), "phases", phases);
    }
    return a;
}

static json_t *fit_json(const struct calib_runs *runs, const struct calib_runs *held,
                        const struct calib_fit *f, const struct calib_fit *c,
                        const struct calib_options *o, const char *measure, const char *preset)
{
    json_t *costs = json_object();
    for (int j = 0; j < f->ncost; j++)
        json_object_set_new(costs, param_table[f->cost_id[j]].key,
                            json_pack("{s:o, s:o, s:b}", "value", number_or_null(f->value[j]),
                                      "uncertainty", number_or_null(f->sigma[j]), "fitted",
                                      f->fitted[j]));
    json_t *notes = json_array();
    for (int i = 0; i < f->nnotes; i++)
        json_array_append_new(notes, json_string(f->note[i]));
    json_t *j = json_pack(
        "{s:s, s:s, s:s, s:o, s:o, s:i, s:i, s:o, s:o, s:b, s:b, s:o, s:o}", "code",
        runs->run[0].code, "measure", measure, "repeats", calib_reduce_name(o->reduce), "threshold",
        json_real(o->threshold), "costs", costs, "runs", runs->n, "dof", f->dof, "rms_error",
        number_or_null(f->rms), "worst_error", number_or_null(f->worst), "fits", f->fits, "linear",
        f->linear, "notes", notes, "configurations", groups_json(runs, f));
    if (held->n) {
        json_object_set_new(j, "check",
                            json_pack("{s:o, s:o, s:b, s:o}", "rms_error", json_real(c->rms),
                                      "worst_error", json_real(c->worst), "within", c->fits,
                                      "configurations", groups_json(held, c)));
    }
    if (preset)
        json_object_set_new(j, "preset", json_string(preset));
    return j;
}

static void pct(char *buf, size_t len, double v)
{
    if (isfinite(v))
        snprintf(buf, len, "%+.1f%%", 100 * v);
    else
        snprintf(buf, len, "-");
}

static void groups_table(FILE *out, const struct calib_runs *runs, const struct calib_fit *f,
                         bool loo)
{
    fprintf(out, "  %-46s %4s %7s %9s %9s %7s%s\n", "configuration", "runs", "spread", "measured",
            "predicted", "error", loo ? "  loo error" : "");
    for (int g = 0; g < f->ngroups; g++) {
        const struct calib_group *G = &f->group[g];
        char spread[16], e[16], l[16];
        pct(spread, sizeof spread, G->hi / G->lo - 1);
        pct(e, sizeof e, -G->residual);
        pct(l, sizeof l, -G->loo);
        fprintf(out, "  %-46.46s %4d %7s %8.4gs %8.4gs %7s", runs->run[G->first].label, G->nrep,
                spread, G->measured, G->predicted, e);
        if (loo)
            fprintf(out, "  %9s", l);
        fprintf(out, "\n");
    }
}

static void fit_table(FILE *out, const struct calib_runs *runs, const struct calib_runs *held,
                      const struct calib_fit *f, const struct calib_fit *c,
                      const struct calib_options *o, bool cpu)
{
    fprintf(out, "situ calibrate: %d runs in %d configurations of %s\n", runs->n, f->ngroups,
            runs->run[0].code);
    fprintf(out,
            "measure: %s\nrepeats: the %s of each configuration's runs (spread: the most over "
            "the least, -1)\n\n",
            cpu ? "loop time x CPU use (the time the ranks computed)" : "the time each run took",
            calib_reduce_name(o->reduce));
    fprintf(out, "  %-18s %-12s %-12s %s\n", "cost", "value", "uncertainty", "unit");
    for (int j = 0; j < f->ncost; j++) {
        const struct param_desc *d = &param_table[f->cost_id[j]];
        char sigma[32] = "-";
        if (f->fitted[j] && isfinite(f->sigma[j]))
            snprintf(sigma, sizeof sigma, "%.2g (%.1f%%)", f->sigma[j],
                     100 * f->sigma[j] / fabs(f->value[j]));
        fprintf(out, "  %-18s %-12.4g %-12s %s%s\n", d->key, f->value[j], sigma, d->unit,
                f->fitted[j] ? "" : "  (not fitted)");
    }
    fprintf(out, "\n");
    groups_table(out, runs, f, true);
    fprintf(out, "\n  fit: rms error %.1f%%, worst %.1f%% (%s); %s\n", 100 * f->rms, 100 * f->worst,
            runs->run[f->group[f->worst_group].first].label,
            f->fits ? "a linear cost fits" : "a linear cost does NOT fit these runs");
    fprintf(out, "       (threshold %.0f%%; %d degrees of freedom)\n", 100 * o->threshold, f->dof);
    for (int i = 0; i < f->nnotes; i++)
        fprintf(out, "  note: %s\n", f->note[i]);
    if (held->n) {
        fprintf(out, "\nheld-out runs (--check), predicted with the fitted costs:\n");
        groups_table(out, held, c, false);
        fprintf(out, "\n  check: rms error %.1f%%, worst %.1f%% (%s)\n", 100 * c->rms,
                100 * c->worst, held->run[c->group[c->worst_group].first].label);
    }
}

/* Every fitted cost a finite value, and with --out one the parameter takes (its range), so
 * that what is reported is a number and what is written loads back: -1 with why, naming the
 * cost. Runs the model cannot fit a cost to are bad input, like a bad value in a file. */
static int fit_usable(const struct calib_fit *f, const struct params *base, bool out, char *err,
                      size_t errlen)
{
    for (int j = 0; j < f->ncost; j++) {
        const char *key = param_table[f->cost_id[j]].key;
        struct params p = *base;
        char perr[PARAMS_ERR_MAX];
        if (!isfinite(f->value[j])) {
            snprintf(err, errlen,
                     "calibrate: these runs fit %s to %g, no cost at all; expected runs whose "
                     "times the model can follow",
                     key, f->value[j]);
            return -1;
        }
        if (out && params_set_number(&p, f->cost_id[j], f->value[j], perr) < 0) {
            snprintf(err, errlen, "calibrate: the fitted %s cannot be a preset's (%s)", key, perr);
            return -1;
        }
    }
    return 0;
}

struct calib_args {
    const char **fit, **check;
    int nfit, ncheck;
    const char *out;
    bool cpu; /* --measure cpu */
    struct calib_options o;
    char **rest; /* argv for cli_parse */
    int nrest;
};

/* Takes calibrate's own flags and files out of argv; the rest (parameters, --preset, --json,
 * --help) goes to cli_parse. -1 after an error message. */
static int take_args(int argc, char **argv, struct calib_args *a)
{
    a->o = (struct calib_options){CALIB_MIN, DEFAULT_THRESHOLD};
    a->fit = calloc((size_t)argc, sizeof *a->fit);
    a->check = calloc((size_t)argc, sizeof *a->check);
    a->rest = calloc((size_t)argc + 1, sizeof *a->rest);
    if (!a->fit || !a->check || !a->rest)
        return -1;
    a->rest[a->nrest++] = argv[0];
    a->rest[a->nrest++] = argv[1];
    for (int i = 2; i < argc; i++) {
        const char *v;
        if (flag_take(argc, argv, &i, "check", &v)) {
            if (!v || !*v) {
                cli_error("calibrate: missing file after --check");
                return -1;
            }
            a->check[a->ncheck++] = v;
        } else if (flag_take(argc, argv, &i, "out", &v)) {
            if (!v || !*v) {
                cli_error("calibrate: missing preset name after --out");
                return -1;
            }
            a->out = v;
        } else if (flag_take(argc, argv, &i, "repeats", &v)) {
            static const char *const names[] = {"min", "median", "mean"};
            int k = 0;
            while (k < 3 && (!v || strcmp(v, names[k])))
                k++;
            if (k == 3) {
                cli_error("calibrate: --repeats '%s': expected min, median or mean", v ? v : "");
                return -1;
            }
            a->o.reduce = (enum calib_reduce)k;
        } else if (flag_take(argc, argv, &i, "measure", &v)) {
            if (!v || (strcmp(v, "loop") && strcmp(v, "cpu"))) {
                cli_error("calibrate: --measure '%s': expected loop or cpu", v ? v : "");
                return -1;
            }
            a->cpu = !strcmp(v, "cpu");
        } else if (flag_take(argc, argv, &i, "threshold", &v)) {
            char *end;
            double t = v ? strtod(v, &end) : 0;
            if (!v || !*v || *end || !(t > 0 && t <= 1000)) {
                cli_error("calibrate: --threshold '%s': expected a percentage in (0, 1000]",
                          v ? v : "");
                return -1;
            }
            a->o.threshold = t / 100;
        } else if (argv[i][0] != '-' || !argv[i][1]) {
            a->fit[a->nfit++] = argv[i];
        } else {
            a->rest[a->nrest++] = argv[i];
            /* a parameter's value follows it unless given as --key=value */
            if (!strchr(argv[i], '=') && strcmp(argv[i], "--json") && strcmp(argv[i], "--help") &&
                strcmp(argv[i], "-h") && strcmp(argv[i], "--stats") && i + 1 < argc)
                a->rest[a->nrest++] = argv[++i];
        }
    }
    return 0;
}

int cmd_calibrate(int argc, char **argv)
{
    struct calib_args a = {0};
    struct cli_opts o;
    struct calib_runs runs = {0}, held = {0};
    struct calib_fit fit = {0}, check = {0};
    int rc = EXIT_BAD_INPUT;
    char err[CALIB_ERR_MAX + 256], path[PARAMS_PATH_MAX * 2] = "";
    if (take_args(argc, argv, &a) < 0 || cli_parse(a.nrest, a.rest, 2, &o) < 0)
        goto done;
    if (o.help) {
        cli_help_buffer();
        usage();
        rc = 0;
        goto done;
    }
    if (!a.nfit) {
        cli_error("calibrate: expected LAMMPS logs or a .csv of runs; see 'situ calibrate --help'");
        goto done;
    }
    for (int i = 0; i < a.nfit; i++)
        if (read_file(a.fit[i], &o.p, &runs, err, sizeof err) < 0) {
            cli_error("%s", err);
            goto done;
        }
    for (int i = 0; i < a.ncheck; i++)
        if (read_file(a.check[i], &o.p, &held, err, sizeof err) < 0) {
            cli_error("%s", err);
            goto done;
        }
    if (a.cpu && (calib_measure_cpu(&runs, err, sizeof err) < 0 ||
                  calib_measure_cpu(&held, err, sizeof err) < 0)) {
        cli_error("%s", err);
        goto done;
    }
    int costs[CALIB_MAX_COSTS];
    int ncost = calib_cost_params(costs, CALIB_MAX_COSTS);
    ncost = ncost < CALIB_MAX_COSTS ? ncost : CALIB_MAX_COSTS;
    if (calib_fit(&runs, costs, ncost, forward, NULL, &a.o, &fit, err, sizeof err) < 0 ||
        calib_same_code(&runs, &held, err, sizeof err) < 0 ||
        calib_check(&held, &fit, forward, NULL, &a.o, &check, err, sizeof err) < 0) {
        cli_error("%s", err);
        goto done;
    }
    if (fit_usable(&fit, &o.p, a.out, err, sizeof err) < 0) {
        cli_error("%s", err);
        goto done;
    }
    if (a.out) {
        struct params p = o.p;
        calib_apply(&fit, &p);
        if (params_validate(&p, err) < 0) {
            cli_error("calibrate: the calibrated configuration cannot be a preset: %s", err);
            goto done;
        }
        char desc[CALIB_CODE_MAX + 96];
        snprintf(desc, sizeof desc,
                 "calibrated by situ calibrate on %d runs of %s (rms error %.1f%%)", runs.n,
                 runs.run[0].code, 100 * fit.rms);
        if (preset_save(a.out, &p, desc, path, sizeof path, err, sizeof err) < 0) {
            cli_error("%s", err);
            rc = strstr(err, "is not a name") || strstr(err, "installed preset") ? EXIT_BAD_INPUT
                                                                                 : 1;
            goto done;
        }
        cli_wrote("%s (preset %s: situ --preset %s, or p in the explorer)", path, a.out, a.out);
    }
    if (o.json) {
        json_t *j =
            fit_json(&runs, &held, &fit, &check, &a.o, a.cpu ? "cpu" : "loop", a.out ? path : NULL);
        int w = report_print_json(stdout, j);
        json_decref(j);
        if (w < 0 && !ferror(stdout)) {
            cli_error("calibrate: the result cannot be written as JSON");
            rc = 1;
            goto done;
        }
    } else {
        fit_table(stdout, &runs, &held, &fit, &check, &a.o, a.cpu);
    }
    rc = 0;
done:
    calib_fit_free(&fit);
    calib_fit_free(&check);
    calib_runs_free(&runs);
    calib_runs_free(&held);
    free(a.fit);
    free(a.check);
    free(a.rest);
    return rc;
}
