/* `situ reproduce`: the paper's studies (Fig. 7, 8, 9) and a static-scaling view, each as a CSV,
 * a figure (PNG and SVG) and a short text summary of the finding. Here: the arguments, running
 * each study and writing its files; the figures themselves are in reproduce_figures.c. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../engine/base/flag.h"
#include "../engine/base/outfile.h"
#include "../engine/model/preset.h"
#include "../engine/model/report.h"
#include "../plot/chart.h"
#include "cli.h"
#include "reproduce_figures.h"
#include "reproduce_strategies.h"
#include "study.h"

static void usage(void)
{
    printf(
        "usage: situ reproduce fig7|fig8|fig9|scaling|posthoc|all [--out DIR] [--jobs N]\n"
        "                      [--alert U] [--cache DIR | --no-cache] [--PARAM VALUE ...]\n\n"
        "Runs the preset of a study (the Sim-Situ paper's, and the strategies') and writes into\n"
        "DIR (default ./situ-reproduce): NAME.csv, NAME.png, NAME.svg and NAME.txt, a summary of\n"
        "the finding.\n"
        "  fig7     efficiency of four (stride, analytics cost) pairs against cores, R = 15, 31\n"
        "  fig8     active/idle time per component against the ratio, per node count\n"
        "  fig9     in situ vs in transit as the data grows, with the crossover and link load\n"
        "  scaling  static scaling: time-to-solution against rate, per node count\n"
        "  posthoc  post hoc against in situ and in transit as the data grows, with and without\n"
        "           4:1 compression (the model; strategies this build lacks are skipped, and "
        "said)\n"
        "--alert U flags links whose mean utilisation is above U "
        "(default " REPORT_ALERT_DEFAULT_TEXT ").\n"
        "--PARAM VALUE changes the study's base configuration (its sweep axes still vary), e.g.\n"
        "  situ reproduce fig7 --analytics thermo   (no fixed cost per analysis: the four\n"
        "                                            pairs tie; the preset's overhead parts "
        "them)\n");
}

/* Parameter flags given to reproduce, re-applied over each study's preset. */
struct overrides {
    int argc;
    char **argv;
    int n, at[PARAM_MAX * 2]; /* where each flag starts in argv */
    int id[PARAM_MAX * 2];    /* and the parameter it sets */
};

/* The parameter of a "--key value" or "--key=value" flag. */
static int flag_param(const char *arg)
{
    char key[64];
    return flag_name(arg, key, sizeof key) ? params_find(key) : -1;
}

/* Applies the flags to the study's base; a key the study sweeps is refused (the axis would
 * silently win). */
static int apply_overrides(const struct overrides *o, struct study *s, char *err, size_t errlen)
{
    for (int k = 0; k < o->n; k++) {
        int i = o->at[k];
        char perr[PARAMS_ERR_MAX];
        if (params_parse_flag(&s->base, o->argc, o->argv, &i, perr) != 1) {
            snprintf(err, errlen, "%s", perr);
            return -1;
        }
        for (int a = 0; a < s->grid.naxes; a++)
            for (int j = 0; j < s->grid.axes[a].nids; j++)
                if (o->id[k] == s->grid.axes[a].ids[j]) {
                    snprintf(err, errlen, "%s is one of this study's axes: it cannot be set",
                             param_table[s->grid.axes[a].ids[j]].key);
                    return -1;
                }
    }
    char verr[PARAMS_ERR_MAX];
    if (params_validate(&s->base, verr) < 0) {
        snprintf(err, errlen, "%s", verr);
        return -1;
    }
    return 0;
}

/* A study's preset: its axes, and its strategies (`sweep.strategy`, reproduce_strategies.c),
 * kept until the base is final: which strategies apply depends on it. */
struct reading {
    struct study *s;
    char strategies[1024];
};

static int add_axis(void *ud, const char *keys, const char *list, char *err, size_t errlen)
{
    struct reading *r = ud;
    if (strcmp(keys, "strategy"))
        return study_add_axis(r->s, keys, list, err, errlen);
    snprintf(r->strategies, sizeof r->strategies, "%s", list);
    return 0;
}

/* One study: checked only (everything that is bad input, before anything is created or run), or
 * run and written. Bad input is exit 2, a failed write exit 1. */
static int reproduce_one(const struct figure *f, const char *dir, int jobs, const char *cache,
                         double alert, const struct overrides *o, bool check_only)
{
    struct study s;
    study_init(&s);
    int rc = EXIT_BAD_INPUT;
    char err[OUTFILE_ERR_MAX], path[PATH_MAX];
    s.jobs = jobs;
    char label[64];
    snprintf(label, sizeof label, "reproduce %s: SimGrid", f->name);
    s.label = label;
    if (cache)
        snprintf(s.cache, sizeof s.cache, "%s", cache);
    struct reading rd = {.s = &s};
    if (preset_read(f->preset, &s.base, add_axis, &rd, err, sizeof err) < 0 ||
        apply_overrides(o, &s, err, sizeof err) < 0 ||
        (rd.strategies[0] && reproduce_strategies_axis(&s, rd.strategies, err, sizeof err) < 0) ||
        study_expand(&s, err, sizeof err) < 0) {
        cli_error("reproduce %s: %s", f->name, err);
        goto done;
    }
    rc = 0;
    if (check_only)
        goto done;
    if (study_run(&s) < 0 || s.interrupted) {
        cli_error("reproduce %s: %s", f->name, s.interrupted ? "interrupted" : "cannot run");
        rc = s.interrupted ? 128 + s.interrupted : EXIT_SIM_FAILED;
        goto done;
    }
    if (s.failed) {
        for (int i = 0; i < s.n; i++)
            if (s.errors[i]) {
                cli_error("reproduce %s: %s", f->name, s.errors[i]);
                break;
            }
        rc = EXIT_SIM_FAILED;
        goto done;
    }
    if (f->refine && f->refine(&s, err, sizeof err) < 0) {
        cli_error("reproduce %s: %s", f->name, err);
        rc = s.interrupted ? 128 + s.interrupted : EXIT_SIM_FAILED;
        goto done;
    }
    /* A figure's files are one set (outset): all of them, or DIR as it was. Each figure is its
     * own set: `all` keeps the figures that finished should a later one fail. */
    rc = 1;
    struct drawing d = {&s, alert};
    struct outfile txt;
    struct outset set;
    char name[64];
    if (outset_open(&set, dir, err, sizeof err) < 0)
        goto failed;
    snprintf(name, sizeof name, "%s.csv", f->name);
    if (study_write(&s, outset_path(&set, name, path, sizeof path), err, sizeof err) < 0)
        goto unwritten;
    if (chart_write(outset_path(&set, f->name, path, sizeof path), f->width, f->height, f->draw, &d,
                    err, sizeof err) < 0)
        goto unwritten;
    snprintf(name, sizeof name, "%s.txt", f->name);
    if (outfile_open(&txt, outset_path(&set, name, path, sizeof path), err, sizeof err) < 0)
        goto unwritten;
    f->summary(&s, txt.f, alert);
    if (outfile_commit(&txt, err, sizeof err) < 0)
        goto unwritten;
    if (outset_commit(&set, err, sizeof err) < 0)
        goto failed;
    cli_wrote("%s/%s.csv .png .svg .txt (%d runs: %d simulated, %d from the cache)", dir, f->name,
              s.n, s.ran, s.cached);
    f->summary(&s, stdout, alert);
    rc = 0;
    goto done;
unwritten:
    outset_fail(&set, err, sizeof err);
failed:
    cli_error("reproduce %s: %s", f->name, err);
done:
    study_free(&s);
    return rc;
}

int cmd_reproduce(int argc, char **argv)
{
    const char *dir = "situ-reproduce", *which = NULL, *cache = NULL;
    char nocache[1] = "";
    int jobs = 0;
    double alert = REPORT_ALERT_DEFAULT;
    struct overrides o = {.argc = argc, .argv = argv};
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        struct params probe;
        char perr[PARAMS_ERR_MAX];
        params_defaults(&probe);
        int start = i, is_param = params_parse_flag(&probe, argc, argv, &i, perr);
        if (is_param < 0) {
            cli_error("reproduce: %s", perr);
            return EXIT_BAD_INPUT;
        }
        if (is_param > 0) {
            if (o.n == (int)(sizeof o.at / sizeof o.at[0])) {
                cli_error("reproduce: too many parameter flags");
                return EXIT_BAD_INPUT;
            }
            o.id[o.n] = flag_param(argv[start]);
            o.at[o.n++] = start;
            i--; /* the loop's i++ moves past the flag's value */
            continue;
        }
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage();
            return 0;
        }
        if (!strcmp(a, "--no-cache")) {
            cache = nocache;
            continue;
        }
        static const char *const takes[] = {"out", "cache", "jobs", "alert"};
        const char *v = NULL;
        int flag = 0;
        while (flag < 4 && !flag_take(argc, argv, &i, takes[flag], &v))
            flag++;
        if (flag < 4 && !v) {
            cli_error("reproduce: missing value after %s", a);
            return EXIT_BAD_INPUT;
        }
        char *end, err[PARAMS_ERR_MAX];
        if (flag == 0)
            dir = v;
        else if (flag == 1)
            cache = v;
        else if (flag == 2) {
            jobs = (int)strtol(v, &end, 10);
            if (end == v || *end || jobs < 1 || jobs > 256) {
                cli_error("reproduce: jobs: '%s' is not valid; expected an integer in [1, 256]", v);
                return EXIT_BAD_INPUT;
            }
        } else if (flag == 3) {
            if (report_alert_parse(v, &alert, err, sizeof err) < 0) {
                cli_error("reproduce: %s", err);
                return EXIT_BAD_INPUT;
            }
        } else if (a[0] == '-' || which) {
            cli_error("reproduce: unexpected argument '%s'; see 'situ reproduce --help'", a);
            return EXIT_BAD_INPUT;
        } else
            which = a;
    }
    bool all = which && !strcmp(which, "all");
    int chosen = -1;
    for (int k = 0; which && !all && k < reproduce_nfigures; k++)
        if (!strcmp(which, reproduce_figures[k].name))
            chosen = k;
    if (!all && chosen < 0) {
        cli_error("reproduce: %s%s%s; expected fig7, fig8, fig9, scaling, posthoc or all",
                  which ? "unknown study '" : "which study?", which ? which : "", which ? "'" : "");
        return EXIT_BAD_INPUT;
    }
    if (jobs == 0) {
        struct study probe;
        study_init(&probe);
        jobs = probe.jobs;
    }
    /* Everything that is bad input first, so that exit 2 leaves nothing behind. */
    char err[OUTFILE_ERR_MAX], names[4 * 8][64];
    const char *files[4 * 8 + 1];
    int nfiles = 0;
    static const char *const suffixes[] = {"csv", "png", "svg", "txt"};
    for (int k = 0; k < reproduce_nfigures && nfiles + 4 < (int)(sizeof files / sizeof *files); k++)
        for (int x = 0; (all || k == chosen) && x < 4; x++) {
            snprintf(names[nfiles], sizeof names[nfiles], "%s.%s", reproduce_figures[k].name,
                     suffixes[x]);
            files[nfiles] = names[nfiles];
            nfiles++;
        }
    files[nfiles] = NULL;
    if (outfile_check_dir(dir, files, err, sizeof err) < 0) {
        cli_error("reproduce: --out %s", err);
        return EXIT_BAD_INPUT;
    }
    for (int k = 0; k < reproduce_nfigures; k++)
        if ((all || k == chosen) &&
            reproduce_one(&reproduce_figures[k], dir, jobs, cache, alert, &o, true))
            return EXIT_BAD_INPUT;
    int rc = 0;
    for (int k = 0; k < reproduce_nfigures && rc == 0; k++)
        if (all || k == chosen)
            rc = reproduce_one(&reproduce_figures[k], dir, jobs, cache, alert, &o, false);
    return rc;
}
