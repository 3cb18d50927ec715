/* `situ sweep`: a study from the command line (or a preset), written as CSV or JSON lines, or
 * emitted as self-contained `situ run` commands for GNU parallel or a Slurm job array. */
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../engine/model/preset.h"
#include "../engine/base/datadir.h"
#include "cli.h"
#include "study.h"

static void usage(void)
{
    printf(
        "usage: situ sweep [--PARAM LIST ...] [--A:B LIST] [--preset NAME] [--jobs N] [--model]\n"
        "                  [--out FILE.csv|FILE.jsonl] [--cache DIR | --no-cache]\n"
        "                  [--emit-commands]\n\n"
        "Runs every combination of the listed values (the cartesian product), each simulation\n"
        "in its own process, --jobs at a time (default: the number of cores). --model evaluates\n"
        "the analytic model instead (instant). Without --out, CSV goes to stdout; with it the\n"
        "file is written whole or not at all. Results are cached by configuration (default\n"
        "$XDG_CACHE_HOME/situ): a repeated or interrupted sweep only runs what is missing.\n\n"
        "A LIST is values separated by commas, and ranges: A..B (step 1), A..B+S (step S),\n"
        "A..BxF (multiply by F: log steps). --A:B moves two parameters together:\n"
        "  situ sweep --stride:compute-scaling 20:1,200:10 --ratio 1,3,7,15,31 --nodes 1..8x2\n"
        "--emit-commands prints one self-contained 'situ run --json' command per configuration\n"
        "instead of running them (for GNU parallel or a job array); 'situ merge' gathers their\n"
        "output into the same CSV or JSON lines.\n\n"
        "parameters:\n");
    params_print_help(stdout);
}

/* Prints `value` quoted for a POSIX shell. */
static void shell_quote(FILE *out, const char *value)
{
    if (value[0] && !strpbrk(value, " \t\n'\"\\$`*?[]{}()<>|&;#~!^")) {
        fputs(value, out);
        return;
    }
    fputc('\'', out);
    for (const char *c = value; *c; c++) {
        if (*c == '\'')
            fputs("'\\''", out);
        else
            fputc(*c, out);
    }
    fputc('\'', out);
}

/* The value of parameter id as a command gives it: paths absolute, so that it runs from
 * anywhere. */
static void command_value(const struct params *p, int id, char *v, size_t len)
{
    char absolute[PATH_MAX];
    params_format(p, id, v, len);
    if (v[0] && param_table[id].type == PARAM_PATH && realpath(v, absolute))
        snprintf(v, len, "%s", absolute);
}

static bool has_control(const char *text)
{
    for (const unsigned char *c = (const unsigned char *)text; *c; c++)
        if (*c < 0x20 || *c == 0x7f)
            return true;
    return false;
}

/* One line per configuration is the contract with parallel and sbatch --array: a newline in a
 * path would split a command in two, and no quoting keeps a line-based reader from splitting
 * it. So a control character anywhere is refused, before anything is printed. -1 with why. */
static int emit_check(const struct study *s, const char *self, char *err, size_t errlen)
{
    if (has_control(self)) {
        snprintf(err, errlen, "the path of situ itself holds a control character");
        return -1;
    }
    for (int i = 0; i < s->n; i++)
        for (int id = 0; id < PARAM_COUNT; id++) {
            char v[PATH_MAX];
            command_value(&s->configs[i], id, v, sizeof v);
            if (has_control(v)) {
                snprintf(err, errlen,
                         "%s: the path holds a control character (a newline?): it cannot be "
                         "one line of --emit-commands",
                         param_table[id].key);
                return -1;
            }
        }
    return 0;
}

static void emit_commands(const struct study *s, const char *self)
{
    for (int i = 0; i < s->n; i++) {
        shell_quote(stdout, self);
        fputs(" run --json", stdout);
        for (int id = 0; id < PARAM_COUNT; id++) {
            char flag[64], v[PATH_MAX];
            command_value(&s->configs[i], id, v, sizeof v);
            if (!v[0])
                continue;
            snprintf(flag, sizeof flag, "%s", param_table[id].key);
            for (char *c = flag; *c; c++)
                *c = *c == '_' ? '-' : *c;
            printf(" --%s ", flag);
            shell_quote(stdout, v);
        }
        fputc('\n', stdout);
    }
}

int cmd_sweep(int argc, char **argv)
{
    struct study s;
    study_init(&s);
    const char *out = NULL;
    bool emit = false;
    int rc = EXIT_BAD_INPUT;
    char err[768];
    for (int i = 2; i < argc; i++) {
        const char *arg = argv[i];
        if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
            usage();
            rc = 0;
            goto done;
        }
        if (!strcmp(arg, "--model") || !strcmp(arg, "--no-cache") ||
            !strcmp(arg, "--emit-commands")) {
            s.model_only = s.model_only || arg[2] == 'm';
            emit = emit || arg[2] == 'e';
            if (arg[2] == 'n')
                s.cache[0] = 0;
            continue;
        }
        const char *key, *value;
        if (study_split(argc, argv, &i, &key, &value, err, sizeof err) < 0) {
            cli_error("sweep: %s; see 'situ sweep --help'", err);
            goto done;
        }
        if (!strcmp(key, "out"))
            out = value;
        else if (study_option(&s, key, value, err, sizeof err) < 0) {
            cli_error("sweep: %s", err);
            goto done;
        }
    }
    /* Before any simulation: a destination that cannot be written is bad input now, not a
     * failure after hours of work. */
    if (out && study_check_out(out, err, sizeof err) < 0) {
        cli_error("sweep: --out %s", err);
        goto done;
    }
    if (study_expand(&s, err, sizeof err) < 0) {
        cli_error("sweep: %s", err);
        goto done;
    }
    if (emit) {
        char self[PATH_MAX];
        datadir_self(self, sizeof self); /* "situ" if the kernel cannot tell */
        if (emit_check(&s, self, err, sizeof err) < 0) {
            cli_error("sweep: --emit-commands: %s", err);
            goto done;
        }
        emit_commands(&s, self);
        rc = 0; /* main checks that stdout took them */
        goto done;
    }
    if (study_run(&s) < 0) {
        cli_error("sweep: cannot start the simulations");
        rc = EXIT_SIM_FAILED;
        goto done;
    }
    if (s.interrupted) {
        cli_error("sweep: interrupted; %d of %d results are cached, run again to finish",
                  s.ran + s.cached, s.n);
        rc = 128 + s.interrupted;
        goto done;
    }
    for (int i = 0; i < s.n; i++)
        if (s.errors[i]) {
            char what[256];
            study_describe(&s, i, what, sizeof what);
            cli_error("sweep: %s: %s", what, s.errors[i]);
        }
    if (study_write(&s, out, err, sizeof err) < 0) {
        cli_error("sweep: %s", err);
        rc = 1;
        goto done;
    }
    /* What happened to each configuration, counted where it happened: the model neither reads
     * the cache nor fails a row (a configuration it cannot evaluate stops the sweep first). */
    char counts[128];
    if (s.model_only)
        snprintf(counts, sizeof counts, "%d modelled", s.ran);
    else
        snprintf(counts, sizeof counts, "%d simulated, %d from the cache, %d failed", s.ran,
                 s.cached, s.failed);
    if (out)
        cli_wrote("%s (%d rows of %d configurations: %s)", out, s.n - s.failed, s.n, counts);
    else if (!s.quiet && isatty(STDERR_FILENO))
        fprintf(stderr, "sweep: %d configurations, %s\n", s.n, counts);
    rc = s.failed ? EXIT_SIM_FAILED : 0;
done:
    study_free(&s);
    return rc;
}
