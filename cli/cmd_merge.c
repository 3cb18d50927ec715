/* `situ merge`: gathers the JSON lines of `situ run --json` commands (run anywhere: GNU parallel,
 * a Slurm job array) into the CSV or JSON lines a local `situ sweep` writes. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/base/flag.h"
#include "../engine/base/infile.h"
#include "../engine/model/report.h"
#include "cli.h"
#include "study.h"

static void usage(void)
{
    printf("usage: situ merge FILE... [--out FILE.csv|FILE.jsonl]\n\n"
           "Reads the JSON lines that 'situ run --json' printed (one result per line; '-' reads\n"
           "standard input) and writes them as one CSV (default, on stdout) or JSON lines file,\n"
           "the same as 'situ sweep' writes. Every line must carry the full configuration of this\n"
           "version of Situ.\n");
}

/* The configuration a result line carries, checked against the parameter table. */
static int config_of(json_t *result, struct params *p, char *err, size_t errlen)
{
    json_t *cfg = json_object_get(result, "config");
    if (!json_is_object(cfg)) {
        snprintf(err, errlen, "no 'config' object: not a 'situ run --json' result");
        return -1;
    }
    return report_params_from_json(cfg, p, err, errlen);
}

static int grow(struct study *s, int cap)
{
    struct params *c = realloc(s->configs, sizeof *c * cap);
    if (c)
        s->configs = c;
    json_t **r = realloc(s->results, sizeof *r * cap);
    if (r)
        s->results = r;
    char **e = realloc(s->errors, sizeof *e * cap);
    if (e)
        s->errors = e;
    return c && r && e ? 0 : -1;
}

/* A result line is at most a few MB (per-step arrays); a longer one is not a result. */
#define MERGE_LINE_MAX (64L << 20)

static int read_file(struct study *s, const char *path, int *cap, char *err, size_t errlen)
{
    /* Standard input may be a pipe; a file named must be a regular one (infile.h). */
    FILE *f = strcmp(path, "-") ? infile_open(path, "results", 0, err, errlen) : stdin;
    if (!f)
        return -1;
    char *line = NULL;
    size_t len = 0;
    int lineno = 0, rc = 0;
    long n;
    while (rc == 0 && (n = infile_line(f, &line, &len, MERGE_LINE_MAX)) != -1) {
        lineno++;
        if (n == -2) {
            snprintf(err, errlen, "%s:%d: line longer than %ld bytes", path, lineno,
                     MERGE_LINE_MAX);
            rc = -1;
            break;
        }
        if (strspn(line, " \t\r\n") == (size_t)n)
            continue;
        json_error_t jerr;
        json_t *r = json_loadb(line, (size_t)n, 0, &jerr); /* a NUL byte is an error, too */
        char why[400];
        if (!r || !json_is_object(r)) {
            snprintf(err, errlen, "%s:%d: not a JSON object%s%s", path, lineno, r ? "" : ": ",
                     r ? "" : jerr.text);
            json_decref(r);
            rc = -1;
            break;
        }
        if (s->n == *cap && grow(s, *cap = *cap ? *cap * 2 : 64) < 0) {
            snprintf(err, errlen, "out of memory");
            json_decref(r);
            rc = -1;
            break;
        }
        if (config_of(r, &s->configs[s->n], why, sizeof why) < 0 ||
            study_result_check(r, why, sizeof why) < 0) {
            snprintf(err, errlen, "%s:%d: %s", path, lineno, why);
            json_decref(r);
            rc = -1;
            break;
        }
        s->results[s->n] = r;
        s->errors[s->n++] = NULL;
    }
    free(line);
    /* A directory opens, then fails to read: that is an error, not an empty file. */
    if (rc == 0 && ferror(f)) {
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        rc = -1;
    }
    if (f != stdin)
        fclose(f);
    return rc;
}

int cmd_merge(int argc, char **argv)
{
    struct study s;
    study_init(&s);
    const char *out = NULL;
    int rc = EXIT_BAD_INPUT, cap = 0, files = 0;
    char err[768];
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage();
            rc = 0;
            goto done;
        }
        if (flag_take(argc, argv, &i, "out", &out)) {
            if (!out) {
                cli_error("merge: missing file after --out");
                goto done;
            }
            if (study_check_out(out, err, sizeof err) < 0) {
                cli_error("merge: --out %s", err);
                goto done;
            }
            continue;
        }
        if (argv[i][0] == '-' && argv[i][1]) {
            cli_error("merge: unknown option '%s'; see 'situ merge --help'", argv[i]);
            goto done;
        }
        files++;
        if (read_file(&s, argv[i], &cap, err, sizeof err) < 0) {
            cli_error("merge: %s", err);
            goto done;
        }
    }
    if (!files) {
        cli_error("merge: expected result files; see 'situ merge --help'");
        goto done;
    }
    if (study_write(&s, out, err, sizeof err) < 0) {
        cli_error("merge: %s", err);
        rc = 1;
        goto done;
    }
    if (out)
        cli_wrote("%s (%d results from %d file%s)", out, s.n, files, files > 1 ? "s" : "");
    rc = 0;
done:
    study_free(&s);
    return rc;
}
