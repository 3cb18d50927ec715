/* Strategies (engine/model/strategy.c): names from the parameter table, a configuration per
 * strategy, and who is fastest where on curves whose crossings are known exactly. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "../../engine/model/strategy.h"

Test(strategy, names_come_from_the_tables_choices)
{
    struct strategy s;
    char err[PARAMS_ERR_MAX];
    /* Every mapping and every DTL the table has, whatever they are, make a strategy. */
    const char *const *maps = param_table[P_MAPPING].choices, *const *dtls =
                                                                  param_table[P_DTL].choices;
    for (int m = 0; maps[m]; m++) {
        for (int d = 0; dtls[d]; d++) {
            char name[STRATEGY_NAME_MAX];
            snprintf(name, sizeof name, "%s:%s", maps[m], dtls[d]);
            cr_assert_eq(strategy_parse(name, &s, err, sizeof err), 0, "%s: %s", name, err);
            cr_assert_eq(s.mapping, m);
            cr_assert_eq(s.dtl, d);
            cr_assert_str_eq(s.name, name);
        }
    }
    cr_assert_eq(strategy_parse("intransit", &s, err, sizeof err), 0);
    cr_assert_eq(s.dtl, -1, "no DTL named: the configuration's");
    cr_assert_eq(strategy_parse("intrnsit", &s, err, sizeof err), -1);
    cr_assert(strstr(err, "unknown mapping 'intrnsit'") && strstr(err, "'intransit'?"), "%s", err);
    cr_assert_eq(strategy_parse(":queue", &s, err, sizeof err), -1);
    cr_assert(strstr(err, "expected MAPPING[:DTL][+cRATIO]"), "%s", err);
    cr_assert_eq(strategy_parse("insitu:", &s, err, sizeof err), -1);
}

Test(strategy, compression_only_where_the_table_has_it)
{
    struct strategy s;
    char err[PARAMS_ERR_MAX];
    int cid = params_find("compression");
    int rc = strategy_parse("insitu:mailbox+c4", &s, err, sizeof err);
    if (cid < 0) { /* this build: refused with one line */
        cr_assert_eq(rc, -1);
        cr_assert(strstr(err, "no compression parameter"), "%s", err);
        return;
    }
    cr_assert_eq(rc, 0, "%s", err);
    cr_assert_float_eq(s.compression, 4, 1e-12);
    struct params p;
    params_defaults(&p);
    cr_assert_eq(strategy_apply(&s, &p, err), 0, "%s", err);
    cr_assert_float_eq(params_get_number(&p, cid), 4, 1e-12);
    cr_assert_eq(strategy_parse("insitu+c0.5", &s, err, sizeof err), -1);
    cr_assert_eq(strategy_parse("insitu+x4", &s, err, sizeof err), -1);
}

Test(strategy, apply_sets_what_it_names_and_drops_what_the_mapping_cannot_use)
{
    struct strategy s;
    struct params p;
    char err[PARAMS_ERR_MAX];
    params_defaults(&p);
    p.dtl = DTL_MAILBOX;
    snprintf(p.analytics_zone, sizeof p.analytics_zone, "zone");
    cr_assert_eq(strategy_parse("intransit:queue", &s, err, sizeof err), 0);
    struct params q = p;
    cr_assert_eq(strategy_apply(&s, &q, err), 0);
    cr_assert_eq(q.mapping, MAPPING_INTRANSIT);
    cr_assert_eq(q.dtl, DTL_QUEUE);
    cr_assert_str_eq(q.analytics_zone, "zone", "in transit keeps its zone");
    cr_assert_eq(strategy_parse("inline", &s, err, sizeof err), 0);
    q = p;
    cr_assert_eq(strategy_apply(&s, &q, err), 0);
    cr_assert_eq(q.dtl, DTL_MAILBOX, "no DTL named: the configuration's");
    cr_assert_str_eq(q.analytics_zone, "");
}

Test(strategy, lists_defaults_and_joins)
{
    struct strategy v[STRATEGIES_MAX];
    char err[PARAMS_ERR_MAX], out[256];
    cr_assert_eq(
        strategy_parse_list("insitu,intransit:queue,inline", v, STRATEGIES_MAX, err, sizeof err),
        3);
    strategy_join(v, 3, out, sizeof out);
    cr_assert_str_eq(out, "insitu,intransit:queue,inline");
    cr_assert_eq(strategy_parse_list("insitu,insitu", v, STRATEGIES_MAX, err, sizeof err), -1);
    cr_assert(strstr(err, "named twice"), "%s", err);
    cr_assert_eq(strategy_parse_list("insitu,,inline", v, STRATEGIES_MAX, err, sizeof err), -1);
    cr_assert_eq(strategy_parse_list("insitu,inline", v, 1, err, sizeof err), -1);
    /* The defaults: every mapping of the table but hostfile, in order. */
    int n = strategy_defaults(v, STRATEGIES_MAX), want = 0;
    for (int m = 0; param_table[P_MAPPING].choices[m]; m++)
        want += m != MAPPING_HOSTFILE;
    cr_assert_eq(n, want < STRATEGIES_MAX ? want : STRATEGIES_MAX);
    for (int k = 0; k < n; k++)
        cr_assert_neq(v[k].mapping, MAPPING_HOSTFILE);
    cr_assert_eq(v[0].mapping, MAPPING_INSITU);
    cr_assert_eq(v[1].mapping, MAPPING_INTRANSIT);
}

/* Three curves in log x = t: a = 10 + t rises, b = 12 is flat, c = 18 - t falls. Fastest: a
 * until t = 2 (a meets b), b until t = 6 (c meets b), then c; the crossings are exact. */
static double curve(void *ud, int k, double x)
{
    (void)ud;
    double t = log(x);
    return k == 0 ? 10 + t : k == 1 ? 12 : 18 - t;
}

Test(strategy, fastest_ranges_and_crossings_known_exactly)
{
    enum { N = 31 };
    double xs[N], y[3 * N];
    for (int i = 0; i < N; i++) {
        xs[i] = exp(8.0 * i / (N - 1));
        for (int k = 0; k < 3; k++)
            y[k * N + i] = curve(NULL, k, xs[i]);
    }
    bool ok[3] = {true, true, true};
    struct strategy_ranges r;
    strategy_fastest(xs, N, y, 3, ok, curve, NULL, 1e-9, &r);
    cr_assert_eq(r.n, 3);
    cr_assert_eq(r.who[0], 0);
    cr_assert_eq(r.who[1], 1);
    cr_assert_eq(r.who[2], 2);
    cr_assert_float_eq(r.to[0], exp(2), 1e-6 * exp(2));
    cr_assert_float_eq(r.to[1], exp(6), 1e-6 * exp(6));
    cr_assert_float_eq(r.from[0], xs[0], 1e-12);
    cr_assert_float_eq(r.to[2], xs[N - 1], 1e-9);
    /* Without an evaluator the crossings are interpolated: exact here, the curves being linear
     * in log x. */
    strategy_fastest(xs, N, y, 3, ok, NULL, NULL, 1e-9, &r);
    cr_assert_float_eq(r.to[1], exp(6), 1e-6 * exp(6));
    /* A strategy left out is never fastest. */
    ok[1] = false;
    strategy_fastest(xs, N, y, 3, ok, curve, NULL, 1e-9, &r);
    cr_assert_eq(r.n, 2);
    cr_assert_float_eq(r.to[0], exp(4), 1e-6 * exp(4), "a meets c at t = 4");
}

Test(strategy, equal_curves_do_not_flicker)
{
    double xs[4] = {1, 10, 100, 1000}, y[8] = {5, 5, 5, 5, 5, 5 * (1 - 1e-12), 5, 5};
    bool ok[2] = {true, true};
    struct strategy_ranges r;
    strategy_fastest(xs, 4, y, 2, ok, NULL, NULL, 1e-6, &r);
    cr_assert_eq(r.n, 1, "ties within the dead band keep the first winner");
}
