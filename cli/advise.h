/* `situ advise`: the advisor's command line. The search is engine/model/advise.c; the SimGrid check
 * of the best candidates is a study (study.h) of them; this header joins the two for the table, the
 * JSON lines and the files of --out (advise_out.c). */
#ifndef SITU_CLI_ADVISE_H
#define SITU_CLI_ADVISE_H

#include <jansson.h>
#include <stdbool.h>

#include "../engine/model/advise.h"

/* A candidate that SimGrid ran. */
struct advise_check {
    long cand;         /* grid point */
    json_t *result;    /* the simulation's result, NULL if it failed */
    const char *error; /* why it failed */
    struct advise_metrics sim;
    int sim_rank; /* 0-based among the checked ones by SimGrid's value; -1 if it failed */
};

/* The heatmap's axes: indices into the grid's axes, -1 for none (one row or one column). */
struct advise_view {
    int x, y;
};

/* Writes DIR/advise.csv, DIR/heatmap.{png,svg} and DIR/pareto.{png,svg} (each whole or absent).
 * -1 with "FILE: cannot write: why". advise_out_files names them (NULL-terminated), for the
 * check before any work (outfile_check_dir). */
extern const char *const advise_out_files[];
int advise_write_dir(const struct advise *a, const struct advise_check *chk, int nchk,
                     struct advise_view v, const char *dir, char *err, size_t errlen);

#endif
