/* The in-situ/in-transit crossover, one search for the explorer, Lua and `situ reproduce`.
 *
 * Over data scaling x, compare a(x) = makespan in situ with b(x) = makespan in transit. A scan
 * of log-spaced points finds the first change of sign of a - b; rounds of points inside that
 * bracket narrow it until hi/lo <= 1 + tolerance; the answer interpolates a - b linearly in
 * log x. The caller evaluates each round's points however suits it (the model on the spot, or
 * simulations in parallel children, across coroutine yields), so this file only decides where
 * to look. Pure: no I/O, no globals. */
#ifndef SITU_CROSSOVER_H
#define SITU_CROSSOVER_H

#include <stdbool.h>
#include <stddef.h>

#define CROSSOVER_POINTS_MAX 64

enum crossover_state { CROSSOVER_MORE, CROSSOVER_FOUND, CROSSOVER_NONE };

struct crossover {
    int n;                           /* points in the round to evaluate */
    double xs[CROSSOVER_POINTS_MAX]; /* the round's points: the caller reads them */
    double a[CROSSOVER_POINTS_MAX];  /* makespan in situ at xs[i]: the caller writes them */
    double b[CROSSOVER_POINTS_MAX];  /* makespan in transit at xs[i] */
    int evals;                       /* points evaluated so far */
    /* The search's own state. */
    bool refining;
    int per_round;
    double tol;
    double lo, hi, dlo, dhi; /* the bracket and a - b at its ends, once found */
    int rounds;              /* narrowing rounds so far, bounded by CROSSOVER_ROUNDS_MAX */
};

/* More rounds than any tolerance above 1e-15 needs with one point a round (a bisection in log x
 * of six decades halves 1e-15 in about 55): a guarantee that every search ends. */
#define CROSSOVER_ROUNDS_MAX 200

/* Starts a search over [from, to] (0 < from < to): a first round of `scan` log-spaced points
 * (2..CROSSOVER_POINTS_MAX), then rounds of per_round points (1..CROSSOVER_POINTS_MAX; 1 is a
 * bisection in log x) until hi/lo <= 1 + tol. */
void crossover_begin(struct crossover *c, double from, double to, int scan, int per_round,
                     double tol);

/* Starts from a known bracket [lo, hi] where a - b is dlo and dhi, of opposite signs:
 * CROSSOVER_MORE with the first round in xs[0..n), or FOUND if it is already narrow enough. */
enum crossover_state crossover_begin_bracket(struct crossover *c, double lo, double dlo, double hi,
                                             double dhi, int per_round, double tol);

/* Takes in the round's a[] and b[]: CROSSOVER_MORE with the next round in xs[0..n), FOUND, or
 * NONE when the scan saw no change of sign. */
enum crossover_state crossover_take(struct crossover *c);

/* Once FOUND: where a - b crosses zero, interpolated in log x, and whether in situ is the
 * faster mapping below it. */
double crossover_at(const struct crossover *c);
bool crossover_insitu_faster_below(const struct crossover *c);

/* Sign of a - b with a dead band relative to the makespans: equal plateaus are no crossing. */
int crossover_sign(double a, double b);

/* Over n sampled points: the index k of the first change of sign of a - b (zero signs skipped;
 * it lies between sample *from and k), or -1. *count, if not NULL, gets every change of sign,
 * *first_sign the first non-zero sign (0 if a and b are equal throughout). */
int crossover_first_change(const double *a, const double *b, int n, int *from, int *count,
                           int *first_sign);

/* Where a - b, d0 at x0 and d1 at x1 (opposite signs), reaches zero, linearly in log x. */
double crossover_interpolate(double x0, double d0, double x1, double d1);

/* How every front end shows a crossover's data scaling (the explorer, its export, `situ
 * reproduce`): rounded to CROSSOVER_DIGITS significant digits, as "17" or "1.2" or "120". Two
 * digits: a simulated crossover is bracketed to a few percent, and the model's and SimGrid's
 * agree to about that. */
#define CROSSOVER_DIGITS 2
void crossover_format(double x, char *out, size_t len);
/* A range's bound: a crossing as crossover_format, an end of the axis (axis_end) as it is ("1",
 * "1000"): it was chosen, not found. */
void crossover_format_bound(double x, bool axis_end, char *out, size_t len);

#endif
