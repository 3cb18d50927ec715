/* A study: a base configuration and axes of values, expanded into their cartesian product and
 * simulated (or modelled) in parallel, with results cached on disk. `situ sweep` and `situ
 * reproduce` are thin layers over it. */
#ifndef SITU_STUDY_H
#define SITU_STUDY_H

#include <jansson.h>
#include <stdbool.h>

#include "../engine/model/grid.h"
#include "../engine/model/params.h"

#define STUDY_MAX_VALUES GRID_MAX_VALUES
#define STUDY_MAX_RUNS   1000000
#define STUDY_MAX_LINKED GRID_MAX_LINKED

struct study {
    struct params base;
    struct grid grid; /* the axes */
    int jobs;
    bool model_only;
    bool quiet;                  /* no progress on stderr */
    const char *label;           /* what the progress says is running; NULL: "sweep" */
    int retries;                 /* failed runs run again up to this many times */
    double time_limit;           /* seconds per simulation before it is killed; 0: none */
    char cache[PARAMS_PATH_MAX]; /* "" = no cache */
    /* filled by study_run */
    int n;
    struct params *configs;
    json_t **results; /* [n], NULL where a run failed */
    char **errors;    /* [n], NULL where it succeeded */
    int ran, cached, failed, retried;
    int interrupted; /* the signal (TERM, INT, HUP) that stopped it; 0 if none */
};

void study_init(struct study *s);
void study_free(struct study *s);

/* Adds an axis (grid_add_axis). -1 with a one-line message. */
int study_add_axis(struct study *s, const char *keys, const char *list, char *err, size_t errlen);

/* Splits argv[*i], "--KEY=VALUE" or "--KEY" "VALUE" (then *i moves past the value): key points
 * to a static buffer. -1 with a message when it is not an option or has no value. */
int study_split(int argc, char **argv, int *i, const char **key, const char **value, char *err,
                size_t errlen);

/* The options of every study command (KEY without its "--"): retry, time-limit, jobs, cache,
 * preset NAME, and any parameter or linked parameters as an axis. -1 with a one-line message. */
int study_option(struct study *s, const char *key, const char *value, char *err, size_t errlen);

/* Expands the product into s->configs, each checked as `situ model` would. -1 with a message. */
int study_expand(struct study *s, char *err, size_t errlen);

/* Runs every configuration (cache first). Returns 0, or -1 if the pool could not run; failed
 * runs are counted in s->failed with their reasons in s->errors. Ctrl-C stops it (interrupted):
 * what finished is cached, the rest is dropped. */
int study_run(struct study *s);

/* Checks a result (a cache entry, a merged line) against what a row needs: every result key,
 * finite and >= 0, makespan > 0, efficiency <= 1, a scenario. -1 with why. */
int study_result_check(json_t *r, char *why, size_t len);

/* "ratio=3 nodes=2": the axis values of configuration i, for messages. */
void study_describe(const struct study *s, int i, char *out, size_t len);

/* The CSV of a study: parameter keys, then result keys (header when header is true). */
void study_csv_header(FILE *out);
void study_csv_row(FILE *out, const struct params *p, json_t *result);

/* Checks an --out path before any work: a .csv or .jsonl name, in a writable directory, with no
 * link or directory there (outfile_check). -1 with a message: bad input. */
int study_check_out(const char *path, char *err, size_t errlen);

/* Writes the results (CSV, or JSON lines if path ends in .jsonl) to path through an outfile, or
 * to stdout (CSV) when path is NULL. -1 with a message on failure, a failed write (exit 1):
 * nothing is left at path then. */
int study_write(const struct study *s, const char *path, char *err, size_t errlen);

#endif
