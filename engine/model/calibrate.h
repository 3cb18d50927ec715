/* Calibration: measured runs of a code (LAMMPS logs, or a CSV of any code's runs) set the cost
 * parameters of the model by least squares. The runs are read into configurations of Situ's own
 * parameters (calib_read_*), the costs are found through the parameter table (every parameter
 * whose unit starts with "s/"), and the model itself is the forward function: the fit asks it
 * for each configuration with each cost alone, so whatever the model does with a cost (per rank,
 * per step, per analysis) the fit inherits, and nothing here repeats its arithmetic.
 * Pure: numbers and text in, numbers out; the forward function is the caller's. */
#ifndef SITU_CALIBRATE_H
#define SITU_CALIBRATE_H

#include <stdbool.h>
#include <stddef.h>

#include "params.h"

#define CALIB_MAX_COSTS  8
#define CALIB_MAX_PHASES 8
#define CALIB_CODE_MAX   288 /* "lammps units U, lattice L, pair_style P" whole (calib_read.c) */
#define CALIB_LABEL_MAX  160
#define CALIB_ERR_MAX    (PARAMS_PATH_MAX + 256)

/* One measured run: where its measure was read, which code ran, the configuration as Situ's
 * parameters, and the seconds measured (in total, and per phase when the input has them). */
struct calib_run {
    char file[PARAMS_PATH_MAX];
    int line;
    char code[CALIB_CODE_MAX];
    char label[CALIB_LABEL_MAX]; /* the configuration in the input's own words */
    struct params p;
    double total;
    /* LAMMPS's "CPU use" of the run, as a fraction (NAN when the input has none): the loop
     * time times it is the time the run's ranks computed, which a machine whose cores are
     * shared with other jobs does not stretch (calib_measure_cpu). */
    double cpu_use;
    int nphases;
    char phase_name[CALIB_MAX_PHASES][16];
    double phase[CALIB_MAX_PHASES];
};

struct calib_runs {
    struct calib_run *run;
    int n, cap;
};

void calib_runs_free(struct calib_runs *r);

/* Replaces each run's total by total x cpu_use: what the run took on cores of its own, where
 * the machine's other jobs took cores from it. -1 with "FILE:LINE: ..." for a run without a
 * CPU use (a CSV's, a log cut short). */
int calib_measure_cpu(struct calib_runs *runs, char *err, size_t errlen);

/* A run on `ranks` MPI ranks of one node, its analysis (if any) inline on the ranks' own cores:
 * nodes 1, cores_per_node = ranks, mapping inline. */
void calib_set_ranks(struct params *p, long ranks);

/* Reads a LAMMPS log (each "Loop time of T on P procs for S steps with N atoms" is one run:
 * region from the atoms of the FCC melt, ranks from the procs, iterations from the steps,
 * halo_period from neigh_modify every, stride from an ave/time fix of an rdf compute, else no
 * analysis) on top of base, appending to runs. -1 with one line "FILE:LINE: why" in err. */
int calib_read_lammps(const char *path, const struct params *base, struct calib_runs *runs,
                      char *err, size_t errlen);

/* Reads a CSV of runs: a header of parameter names (either spelling), the pseudo-parameter
 * `ranks` (calib_set_ranks) and an optional `code`, then `total` (seconds), then optional phase
 * columns (seconds); one run per row, # comment lines and blank lines skipped. -1 with err. */
int calib_read_csv(const char *path, const struct params *base, struct calib_runs *runs, char *err,
                   size_t errlen);

/* The cost parameters of the table (unit "s/..."), in table order: ids into out (at most max).
 */
int calib_cost_params(int *out, int max);

/* The model's seconds for configuration p: 0, or -1 with err. */
typedef int (*calib_forward)(void *ud, const struct params *p, double *seconds, char *err,
                             size_t errlen);

enum calib_reduce { CALIB_MIN, CALIB_MEDIAN, CALIB_MEAN };

struct calib_options {
    enum calib_reduce reduce;
    double threshold; /* relative residual above which a linear cost is said not to fit */
};

/* One configuration: its repeated runs reduced to one measure. */
struct calib_group {
    int first;                 /* its first run in calib_runs */
    int best;                  /* its fastest run (whose phases the report shows) */
    int nrep;                  /* runs of it */
    double measured;           /* the reduced measure */
    double lo, hi;             /* the least and most of its runs */
    double base;               /* the model with every fitted cost at 0 */
    double x[CALIB_MAX_COSTS]; /* the model's seconds per unit of each fitted cost */
    double predicted;          /* the model at the fitted costs */
    double residual;           /* (measured - predicted) / measured */
    double loo;                /* the same, predicted from a fit without this configuration */
};

struct calib_fit {
    int ncost;
    int cost_id[CALIB_MAX_COSTS];
    /* false: no run exercises it, it cannot be separated from another, or it fitted below its
     * least value (then held there) */
    bool fitted[CALIB_MAX_COSTS];
    double value[CALIB_MAX_COSTS];
    double sigma[CALIB_MAX_COSTS]; /* standard uncertainty; NAN without degrees of freedom */
    int ngroups;
    struct calib_group *group;
    int dof;
    double rms;   /* root mean square relative residual */
    double worst; /* largest |relative residual| */
    int worst_group;
    bool fits;         /* worst <= threshold */
    bool linear;       /* the model was linear in the costs (checked at one more point) */
    char note[8][256]; /* what the reader must know, plain sentences */
    int nnotes;
};

/* Groups the runs by configuration, reduces repeats, builds the design from forward and fits
 * the costs of cost_id (relative least squares: each configuration's residual counts relative
 * to its measure, so long and short runs weigh alike). base: the configuration the costs not
 * fitted keep their values from. -1 with err (fewer configurations than costs, a forward
 * failure, runs of different codes). */
int calib_fit(const struct calib_runs *runs, const int *cost_id, int ncost, calib_forward forward,
              void *ud, const struct calib_options *o, struct calib_fit *fit, char *err,
              size_t errlen);

/* Whether every run of runs is of first's first run's code: -1 with "FILE:LINE: runs of another
 * code (...) than FILE:LINE's (...)" naming the first that is not. */
int calib_same_code(const struct calib_runs *first, const struct calib_runs *runs, char *err,
                    size_t errlen);

/* Held-out runs predicted with the fitted costs: grouped and reduced as the fit's, each
 * group's predicted and residual set (loo NAN), rms, worst and fits (against the threshold)
 * too. The runs must be of the fit's code (the caller checks with calib_same_code). */
int calib_check(const struct calib_runs *runs, const struct calib_fit *fit, calib_forward forward,
                void *ud, const struct calib_options *o, struct calib_fit *check, char *err,
                size_t errlen);

/* The fitted costs written into p. */
void calib_apply(const struct calib_fit *fit, struct params *p);

void calib_fit_free(struct calib_fit *fit);

const char *calib_reduce_name(enum calib_reduce r);

#endif
