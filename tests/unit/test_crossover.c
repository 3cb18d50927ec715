/* The crossover search (engine/model/crossover.c) on curves whose crossing is known exactly. */
#include <criterion/criterion.h>
#include <math.h>

#include "../../engine/model/crossover.h"

/* In situ grows with log x, in transit is flat: they cross where log x = 2, at e^2. Linear in
 * log x, so the interpolation is exact once the bracket holds the crossing. */
static double insitu(double x)
{
    return 10 + log(x);
}
static double intransit(double x)
{
    (void)x;
    return 12;
}

static enum crossover_state eval_round(struct crossover *c)
{
    for (int i = 0; i < c->n; i++)
        c->a[i] = insitu(c->xs[i]), c->b[i] = intransit(c->xs[i]);
    return crossover_take(c);
}

static struct crossover search(int scan, int per_round, double tol, enum crossover_state *end)
{
    struct crossover c;
    crossover_begin(&c, 1, 1000, scan, per_round, tol);
    enum crossover_state st;
    while ((st = eval_round(&c)) == CROSSOVER_MORE)
        ;
    *end = st;
    return c;
}

Test(crossover, finds_a_known_crossing_whatever_the_round_size)
{
    for (int per_round = 1; per_round <= 8; per_round++) {
        enum crossover_state st;
        struct crossover c = search(5, per_round, 1e-4, &st);
        cr_assert_eq(st, CROSSOVER_FOUND, "per_round %d", per_round);
        cr_assert(c.lo <= exp(2) && exp(2) <= c.hi, "bracket [%g, %g]", c.lo, c.hi);
        cr_assert(c.hi / c.lo <= 1 + 1e-4);
        cr_assert_float_eq(crossover_at(&c), exp(2), 1e-9 * exp(2), "got %.12g", crossover_at(&c));
        cr_assert(crossover_insitu_faster_below(&c));
    }
}

Test(crossover, more_points_a_round_means_fewer_rounds)
{
    enum crossover_state st;
    int rounds[2];
    for (int k = 0; k < 2; k++) {
        struct crossover c;
        crossover_begin(&c, 1, 1000, 5, k ? 8 : 1, 1e-6);
        rounds[k] = 0;
        while ((st = eval_round(&c)) == CROSSOVER_MORE)
            rounds[k]++;
    }
    cr_assert_lt(rounds[1], rounds[0] / 2, "%d vs %d rounds", rounds[1], rounds[0]);
}

Test(crossover, no_change_of_sign_is_none)
{
    struct crossover c;
    crossover_begin(&c, 1, 5, 9, 1, 1e-3); /* log 5 < 2: in situ stays the faster */
    cr_assert_eq(eval_round(&c), CROSSOVER_NONE);
    crossover_begin(&c, 1, 1000, 9, 1, 1e-3);
    for (int i = 0; i < c.n; i++)
        c.a[i] = c.b[i] = 7; /* equal plateaus cross nowhere */
    cr_assert_eq(crossover_take(&c), CROSSOVER_NONE);
}

Test(crossover, sampled_curves_skip_ties_and_count_every_change)
{
    double a[] = {1, 2, 2, 4, 1, 5}, b[] = {2, 2, 2, 2, 2, 2};
    int from, count, first;
    int at = crossover_first_change(a, b, 6, &from, &count, &first);
    cr_assert_eq(at, 3, "the tie at 1 and 2 is skipped: the bracket is 0..3");
    cr_assert_eq(from, 0);
    cr_assert_eq(count, 3);
    cr_assert_eq(first, -1);
    cr_assert_float_eq(crossover_interpolate(1, -1, 100, 1), 10, 1e-12);
}

Test(crossover, a_bracket_already_narrow_is_found_at_once)
{
    struct crossover c;
    cr_assert_eq(crossover_begin_bracket(&c, 10, -1, 10.0001, 1, 1, 1e-3), CROSSOVER_FOUND);
    cr_assert_eq(crossover_begin_bracket(&c, 1, -1, 100, 1, 1, 1e-3), CROSSOVER_MORE);
    cr_assert_eq(c.n, 1);
    cr_assert_float_eq(c.xs[0], 10, 1e-9, "the geometric middle: a bisection in log x");
}

/* Equal makespans at the bracket's middle (a plateau within the dead band): the bracket closes
 * there instead of asking for the same point forever (the explorer once hung on quit so). */
static double flat_above_10(double x)
{
    return x >= 10 ? 12 : 12 - log(10 / x);
}

Test(crossover, a_tie_inside_the_bracket_is_the_crossing)
{
    struct crossover c;
    enum crossover_state st = crossover_begin_bracket(&c, 1, -log(10), 100, 1e-3, 1, 1e-9);
    int rounds = 0;
    while (st == CROSSOVER_MORE && rounds++ < 1000) {
        c.a[0] = flat_above_10(c.xs[0]), c.b[0] = 12;
        st = crossover_take(&c);
    }
    cr_assert_eq(st, CROSSOVER_FOUND, "after %d rounds", rounds);
    cr_assert_lt(rounds, 100);
    cr_assert_float_eq(crossover_at(&c), 10, 1e-9);
}

/* One rounding for every front end (the explorer, its export, situ reproduce): two significant
 * digits, without trailing zeros that would claim a third. */
Test(crossover, the_value_shown_has_two_significant_digits)
{
    const struct {
        double x;
        const char *shown;
    } cases[] = {{16.97, "17"},  {16.2, "16"},      {9.96, "10"},   {1.234, "1.2"},
                 {123.4, "120"}, {0.0456, "0.046"}, {999.6, "1000"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char out[32];
        crossover_format(cases[i].x, out, sizeof out);
        cr_assert_str_eq(out, cases[i].shown, "%g shown as %s", cases[i].x, out);
    }
}
