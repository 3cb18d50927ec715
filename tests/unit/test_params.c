/* The parameter table: defaults, ranges, flag parsing and every validation error path. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../engine/model/params.h"

/* Sets parameter `key` from text and expects it to fail with a message naming the parameter. */
static void expect_set_error(const char *key, const char *text)
{
    struct params p;
    char err[PARAMS_ERR_MAX] = "";
    params_defaults(&p);
    struct params before;
    memcpy(&before, &p, sizeof p);
    int id = params_find(key);
    cr_assert_geq(id, 0, "unknown key %s", key);
    cr_assert_eq(params_set(&p, id, text, err), -1, "%s='%s' was accepted", key, text);
    cr_assert_not_null(strstr(err, key), "error for %s='%s' does not name it: %s", key, text, err);
    cr_assert_null(strchr(err, '\n'), "error is not one line: %s", err);
    cr_assert_eq(memcmp(&p, &before, sizeof p), 0, "a rejected %s='%s' changed the params", key,
                 text);
}

static void expect_set_ok(const char *key, const char *text, double expected)
{
    struct params p;
    char err[PARAMS_ERR_MAX] = "";
    params_defaults(&p);
    int id = params_find(key);
    cr_assert_geq(id, 0, "unknown key %s", key);
    cr_assert_eq(params_set(&p, id, text, err), 0, "%s='%s' rejected: %s", key, text, err);
    cr_assert_eq(params_get_number(&p, id), expected, "%s='%s' gave %g, expected %g", key, text,
                 params_get_number(&p, id), expected);
}

/* Validates p and expects an error containing every string of `needles` (NULL-terminated). */
static void expect_invalid(const struct params *p, const char *const *needles)
{
    char err[PARAMS_ERR_MAX] = "";
    cr_assert_eq(params_validate(p, err), -1, "configuration was accepted");
    cr_assert_null(strchr(err, '\n'), "error is not one line: %s", err);
    for (int i = 0; needles[i]; i++)
        cr_assert_not_null(strstr(err, needles[i]), "error '%s' lacks '%s'", err, needles[i]);
}

Test(params, defaults_are_the_papers_case)
{
    struct params p;
    memset(&p, 0x5a, sizeof p);
    params_defaults(&p);
    cr_assert_eq(p.nodes, 1);
    cr_assert_eq(p.cores_per_node, 32);
    cr_assert_eq(p.ratio, 15);
    cr_assert_eq(p.stride, 20);
    cr_assert_eq(p.iterations, 8000);
    cr_assert_eq(p.region, 70);
    cr_assert_eq(p.sim_cost, 8.2e-7);
    cr_assert_eq(p.halo_period, 20);
    cr_assert_eq(p.analytics_cost, 7.93e-7);
    cr_assert_eq(p.compute_scaling, 1.0);
    cr_assert_eq(p.data_size, 100.0);
    cr_assert_eq(p.data_scaling, 1.0);
    cr_assert_eq(p.mapping, MAPPING_INSITU);
    cr_assert_str_eq(p.hostfile, "");
    cr_assert_eq(p.dtl, DTL_MAILBOX);
    cr_assert_str_eq(p.platform, "platforms/dahu.xml");
    cr_assert_eq(p.fidelity, FIDELITY_FAST);
    char err[PARAMS_ERR_MAX] = "";
    cr_assert_eq(params_validate(&p, err), 0, "defaults invalid: %s", err);
}

Test(params, table_is_consistent)
{
    struct params p;
    params_defaults(&p);
    for (int id = 0; id < PARAM_COUNT; id++) {
        const struct param_desc *d = &param_table[id];
        cr_assert_not_null(d->key);
        cr_assert_not_null(d->help);
        cr_assert_gt(strlen(d->help), 0, "%s has no help", d->key);
        cr_assert_eq(params_find(d->key), id, "%s does not find itself", d->key);
        if (d->type == PARAM_PATH)
            continue;
        cr_assert_leq(d->min, d->def, "%s: default below min", d->key);
        cr_assert_leq(d->def, d->max, "%s: default above max", d->key);
        cr_assert_eq(params_get_number(&p, id), d->def, "%s: default not applied", d->key);
    }
}

Test(params, ranges_accept_bounds_and_reject_beyond)
{
    for (int id = 0; id < PARAM_COUNT; id++) {
        const struct param_desc *d = &param_table[id];
        if (d->type == PARAM_PATH)
            continue;
        struct params p;
        char err[PARAMS_ERR_MAX];
        params_defaults(&p);
        cr_assert_eq(params_set_number(&p, id, d->min, err), 0, "%s: min rejected", d->key);
        cr_assert_eq(params_get_number(&p, id), d->min);
        cr_assert_eq(params_set_number(&p, id, d->max, err), 0, "%s: max rejected", d->key);
        cr_assert_eq(params_get_number(&p, id), d->max);
        double below = d->type == PARAM_REAL && d->min > 0 ? d->min / 2 : d->min - 1;
        double above = d->type == PARAM_REAL ? d->max * 2 : d->max + 1;
        cr_assert_eq(params_set_number(&p, id, below, err), -1, "%s: below min accepted", d->key);
        cr_assert_not_null(strstr(err, d->key));
        cr_assert_eq(params_set_number(&p, id, above, err), -1, "%s: above max accepted", d->key);
        cr_assert_not_null(strstr(err, d->key));
        cr_assert_eq(params_get_number(&p, id), d->max, "%s: rejected value stored", d->key);
    }
}

Test(params, specific_ranges)
{
    expect_set_ok("stride", "1", 1);
    expect_set_ok("stride", "100000000", 1e8);
    expect_set_error("stride", "100000001");
    expect_set_ok("ratio", "1023", 1023);
    expect_set_error("ratio", "1024");
    expect_set_error("ratio", "0");
    expect_set_ok("cores_per_node", "1", 1); /* one rank, inline */
    expect_set_error("cores_per_node", "0");
    expect_set_ok("analytics_cost", "0", 0);
    expect_set_error("analytics_cost", "1.5");
    expect_set_error("sim_cost", "0");
    expect_set_ok("sim_cost", "1e-12", 1e-12);
    expect_set_error("region", "2001");
    expect_set_error("nodes", "1025");
}

Test(params, find_accepts_dash_and_underscore)
{
    cr_assert_eq(params_find("data_scaling"), P_DATA_SCALING);
    cr_assert_eq(params_find("data-scaling"), P_DATA_SCALING);
    cr_assert_eq(params_find("cores-per-node"), P_CORES_PER_NODE);
    cr_assert_eq(params_find("halo-period"), P_HALO_PERIOD);
    cr_assert_eq(params_find("nodes"), P_NODES);
    cr_assert_eq(params_find("node"), -1);
    cr_assert_eq(params_find("nodes2"), -1);
    cr_assert_eq(params_find("Nodes"), -1);
    cr_assert_eq(params_find("data scaling"), -1);
    cr_assert_eq(params_find(""), -1);
}

Test(params, linked_names_follow_the_same_spelling)
{
    int ids[4];
    char err[256];
    cr_assert_eq(params_find_linked("stride:compute-scaling", ids, 4, err, sizeof err), 2, "%s",
                 err);
    cr_assert(ids[0] == P_STRIDE && ids[1] == P_COMPUTE_SCALING);
    cr_assert_eq(params_find_linked("cores_per_node", ids, 4, err, sizeof err), 1);
    cr_assert_eq(ids[0], P_CORES_PER_NODE);
    cr_assert_eq(params_find_n("ratio:stride", 5), P_RATIO);
    cr_assert_eq(params_find_linked("stride:bogus", ids, 4, err, sizeof err), -1);
    cr_assert(strstr(err, "unknown parameter 'bogus'"), "%s", err);
    cr_assert_eq(params_find_linked("stride::ratio", ids, 4, err, sizeof err), -1);
    cr_assert_eq(params_find_linked("stride:", ids, 4, err, sizeof err), -1);
    cr_assert_eq(params_find_linked("compute_scaling:compute-scaling", ids, 4, err, sizeof err),
                 -1);
    cr_assert(strstr(err, "given twice"), "%s", err);
    cr_assert_eq(params_find_linked("nodes:ratio:stride", ids, 2, err, sizeof err), -1);
}

Test(params, parse_flag_all_spellings)
{
    struct params p;
    char err[PARAMS_ERR_MAX] = "";
    char *argv[] = {"situ",
                    "--stride",
                    "200",
                    "--data-scaling=3.5",
                    "--compute_scaling",
                    "10",
                    "--halo_period=7",
                    "--mapping",
                    "intransit",
                    "--sim-cost",
                    "1e-6",
                    NULL};
    int argc = 11;
    params_defaults(&p);
    int i = 1;
    cr_assert_eq(params_parse_flag(&p, argc, argv, &i, err), 1, "%s", err);
    cr_assert_eq(i, 3);
    cr_assert_eq(p.stride, 200);
    cr_assert_eq(params_parse_flag(&p, argc, argv, &i, err), 1, "%s", err);
    cr_assert_eq(i, 4);
    cr_assert_eq(p.data_scaling, 3.5);
    cr_assert_eq(params_parse_flag(&p, argc, argv, &i, err), 1, "%s", err);
    cr_assert_eq(i, 6);
    cr_assert_eq(p.compute_scaling, 10);
    cr_assert_eq(params_parse_flag(&p, argc, argv, &i, err), 1, "%s", err);
    cr_assert_eq(i, 7);
    cr_assert_eq(p.halo_period, 7);
    cr_assert_eq(params_parse_flag(&p, argc, argv, &i, err), 1, "%s", err);
    cr_assert_eq(i, 9);
    cr_assert_eq(p.mapping, MAPPING_INTRANSIT);
    cr_assert_eq(params_parse_flag(&p, argc, argv, &i, err), 1, "%s", err);
    cr_assert_eq(i, 11);
    cr_assert_eq(p.sim_cost, 1e-6);
    /* Untouched parameters keep their defaults. */
    cr_assert_eq(p.ratio, 15);
    cr_assert_eq(p.iterations, 8000);
}

Test(params, parse_flag_not_a_parameter)
{
    struct params p;
    char err[PARAMS_ERR_MAX] = "";
    char *argv[] = {"situ", "--bogus", "1", "plain", "--json", "--", NULL};
    params_defaults(&p);
    for (int at = 1; at < 6; at++) {
        int i = at;
        cr_assert_eq(params_parse_flag(&p, 6, argv, &i, err), 0, "'%s' taken as a parameter",
                     argv[at]);
        cr_assert_eq(i, at, "'%s' advanced the index", argv[at]);
    }
}

Test(params, parse_flag_missing_value)
{
    struct params p;
    char err[PARAMS_ERR_MAX] = "";
    char *argv[] = {"situ", "--stride", NULL};
    params_defaults(&p);
    int i = 1;
    cr_assert_eq(params_parse_flag(&p, 2, argv, &i, err), -1);
    cr_assert_not_null(strstr(err, "stride"), "%s", err);
    cr_assert_not_null(strstr(err, "missing value"), "%s", err);
    cr_assert_eq(p.stride, 20);
}

Test(params, parse_flag_bad_value_is_an_error)
{
    struct params p;
    char err[PARAMS_ERR_MAX] = "";
    char *argv[] = {"situ", "--stride=abc", "--ratio", "-3", NULL};
    params_defaults(&p);
    int i = 1;
    cr_assert_eq(params_parse_flag(&p, 4, argv, &i, err), -1);
    cr_assert_not_null(strstr(err, "stride"), "%s", err);
    cr_assert_not_null(strstr(err, "abc"), "%s", err);
    i = 2;
    cr_assert_eq(params_parse_flag(&p, 4, argv, &i, err), -1);
    cr_assert_not_null(strstr(err, "ratio"), "%s", err);
    cr_assert_not_null(strstr(err, "-3"), "%s", err);
    cr_assert_eq(p.stride, 20);
    cr_assert_eq(p.ratio, 15);
}

Test(params, non_numeric)
{
    expect_set_error("stride", "abc");
    expect_set_error("stride", "12abc");
    expect_set_error("stride", "");
    expect_set_error("stride", "1.5");
    expect_set_error("stride", "1e3");
    expect_set_error("nodes", "two");
    expect_set_error("sim_cost", "fast");
    expect_set_error("sim_cost", "1e-6s");
    expect_set_error("data_scaling", "");
    expect_set_error("iterations", "99999999999999999999999");
}

Test(params, negative)
{
    expect_set_error("stride", "-1");
    expect_set_error("nodes", "-2");
    expect_set_error("iterations", "-8000");
    expect_set_error("sim_cost", "-1e-6");
    expect_set_error("analytics_cost", "-7.93e-7");
    expect_set_error("compute_scaling", "-1");
    expect_set_error("data_size", "-100");
    expect_set_error("data_scaling", "-0.5");
}

Test(params, zero_stride)
{
    expect_set_error("stride", "0");
    expect_set_error("halo_period", "0");
    expect_set_error("iterations", "0");
    struct params p;
    char err[PARAMS_ERR_MAX] = "";
    params_defaults(&p);
    cr_assert_eq(params_set_number(&p, P_STRIDE, 0, err), -1);
    cr_assert_not_null(strstr(err, "stride"), "%s", err);
}

Test(params, nan_and_inf)
{
    const char *bad[] = {"nan", "NaN", "inf", "-inf", "infinity", "1e999"};
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        expect_set_error("sim_cost", bad[k]);
        expect_set_error("compute_scaling", bad[k]);
        expect_set_error("data_scaling", bad[k]);
        expect_set_error("stride", bad[k]);
    }
    struct params p;
    char err[PARAMS_ERR_MAX] = "";
    params_defaults(&p);
    cr_assert_eq(params_set_number(&p, P_COMPUTE_SCALING, NAN, err), -1);
    cr_assert_eq(params_set_number(&p, P_COMPUTE_SCALING, INFINITY, err), -1);
    cr_assert_eq(params_set_number(&p, P_ITERATIONS, INFINITY, err), -1);
    cr_assert_eq(p.compute_scaling, 1.0);
    cr_assert_eq(p.iterations, 8000);
}

Test(params, integer_parameters_reject_fractions)
{
    struct params p;
    char err[PARAMS_ERR_MAX] = "";
    params_defaults(&p);
    cr_assert_eq(params_set_number(&p, P_NODES, 2.5, err), -1);
    cr_assert_not_null(strstr(err, "nodes"), "%s", err);
    cr_assert_eq(params_set_number(&p, P_MAPPING, 0.5, err), -1);
    cr_assert_eq(params_set_number(&p, P_NODES, 4, err), 0);
    cr_assert_eq(p.nodes, 4);
}

Test(params, stride_larger_than_iterations)
{
    struct params p;
    params_defaults(&p);
    p.iterations = 100;
    p.stride = 101;
    expect_invalid(&p, (const char *const[]){"stride", "101", "100", NULL});
    p.stride = 100;
    char err[PARAMS_ERR_MAX] = "";
    cr_assert_eq(params_validate(&p, err), 0, "stride == iterations rejected: %s", err);
}

Test(params, unknown_key)
{
    struct params p;
    char err[PARAMS_ERR_MAX] = "";
    char *argv[] = {"situ", "--strid", "20", NULL};
    params_defaults(&p);
    int i = 1;
    cr_assert_eq(params_find("strid"), -1);
    cr_assert_eq(params_find("ratios"), -1);
    cr_assert_eq(params_parse_flag(&p, 3, argv, &i, err), 0);
    cr_assert_eq(i, 1);
}

Test(params, choices)
{
    expect_set_ok("mapping", "insitu", MAPPING_INSITU);
    expect_set_ok("mapping", "intransit", MAPPING_INTRANSIT);
    expect_set_ok("mapping", "hostfile", MAPPING_HOSTFILE);
    expect_set_ok("dtl", "queue", DTL_QUEUE);
    expect_set_ok("dtl", "mailbox", DTL_MAILBOX);
    expect_set_ok("fidelity", "full", FIDELITY_FULL);
    expect_set_error("dtl", "tcp");
    expect_set_error("fidelity", "");
}

Test(params, unknown_mapping)
{
    struct params p;
    char err[PARAMS_ERR_MAX] = "";
    params_defaults(&p);
    cr_assert_eq(params_set(&p, P_MAPPING, "in-situ", err), -1);
    cr_assert_not_null(strstr(err, "mapping"), "%s", err);
    cr_assert_not_null(strstr(err, "in-situ"), "%s", err);
    /* The message lists what is accepted. */
    cr_assert_not_null(strstr(err, "insitu"), "%s", err);
    cr_assert_not_null(strstr(err, "intransit"), "%s", err);
    cr_assert_not_null(strstr(err, "hostfile"), "%s", err);
    cr_assert_eq(params_set(&p, P_MAPPING, "INSITU", err), -1);
    cr_assert_eq(p.mapping, MAPPING_INSITU);
}

Test(params, paths)
{
    struct params p;
    char err[PARAMS_ERR_MAX] = "";
    params_defaults(&p);
    cr_assert_eq(params_set(&p, P_HOSTFILE, "hosts.txt", err), 0, "%s", err);
    cr_assert_str_eq(p.hostfile, "hosts.txt");
    char longpath[PARAMS_PATH_MAX + 10];
    memset(longpath, 'a', sizeof longpath - 1);
    longpath[sizeof longpath - 1] = 0;
    cr_assert_eq(params_set(&p, P_PLATFORM, longpath, err), -1);
    cr_assert_not_null(strstr(err, "platform"), "%s", err);
    cr_assert_str_eq(p.platform, "platforms/dahu.xml");
    p.platform[0] = 0;
    cr_assert_eq(params_validate(&p, err), -1);
    cr_assert_not_null(strstr(err, "platform"), "%s", err);
}

Test(params, unrealisable_ratio_names_nearest_valid)
{
    struct params p;
    params_defaults(&p);
    p.ratio = 5;
    expect_invalid(&p, (const char *const[]){"ratio", "5", "32", "3 or 7", NULL});
    p.ratio = 2;
    expect_invalid(&p, (const char *const[]){"ratio", "1 or 3", NULL});
    p.ratio = 20;
    expect_invalid(&p, (const char *const[]){"ratio", "15 or 31", NULL});
    p.ratio = 32;
    expect_invalid(&p, (const char *const[]){"ratio", "nearest valid: 31", NULL});
    p.cores_per_node = 24; /* valid: 1 2 3 5 7 11 23 */
    p.ratio = 9;
    expect_invalid(&p, (const char *const[]){"ratio", "24-core", "7 or 11", NULL});
    char err[PARAMS_ERR_MAX] = "";
    long valid[] = {1, 3, 7, 15, 31};
    p.cores_per_node = 32;
    for (int k = 0; k < 5; k++) {
        p.ratio = valid[k];
        cr_assert_eq(params_validate(&p, err), 0, "ratio %ld rejected: %s", valid[k], err);
    }
}

Test(params, valid_ratios_for_32_cores)
{
    long out[16];
    cr_assert_eq(params_valid_ratios(32, out, 16), 5);
    long expected[] = {1, 3, 7, 15, 31};
    for (int k = 0; k < 5; k++)
        cr_assert_eq(out[k], expected[k], "valid[%d] = %ld, expected %ld", k, out[k], expected[k]);
    /* Fewer slots than ratios: the count is still the full one, only max are written. */
    long two[3] = {-1, -1, -1};
    cr_assert_eq(params_valid_ratios(32, two, 2), 5);
    cr_assert_eq(two[0], 1);
    cr_assert_eq(two[1], 3);
    cr_assert_eq(two[2], -1);
    cr_assert_eq(params_valid_ratios(2, out, 16), 1);
    cr_assert_eq(out[0], 1);
    cr_assert_eq(params_valid_ratios(7, out, 16), 1); /* prime: only 6/1 */
    cr_assert_eq(out[0], 6);
}

Test(params, hostfile_mapping_without_hostfile)
{
    struct params p;
    params_defaults(&p);
    p.mapping = MAPPING_HOSTFILE;
    expect_invalid(&p, (const char *const[]){"hostfile", NULL});
    snprintf(p.hostfile, sizeof p.hostfile, "hosts");
    char err[PARAMS_ERR_MAX] = "";
    cr_assert_eq(params_validate(&p, err), 0, "%s", err);
}

Test(params, intransit_with_one_node)
{
    struct params p;
    params_defaults(&p);
    p.mapping = MAPPING_INTRANSIT;
    p.nodes = 1;
    expect_invalid(&p, (const char *const[]){"nodes", "intransit", NULL});
    p.nodes = 2;
    char err[PARAMS_ERR_MAX] = "";
    cr_assert_eq(params_validate(&p, err), 0, "%s", err);
}

Test(params, format_and_canonical)
{
    struct params p;
    char buf[PARAMS_PATH_MAX];
    params_defaults(&p);
    params_format(&p, P_RATIO, buf, sizeof buf);
    cr_assert_str_eq(buf, "15");
    params_format(&p, P_ANALYTICS_COST, buf, sizeof buf);
    cr_assert_str_eq(buf, "7.93e-07");
    params_format(&p, P_MAPPING, buf, sizeof buf);
    cr_assert_str_eq(buf, "insitu");
    params_format(&p, P_PLATFORM, buf, sizeof buf);
    cr_assert_str_eq(buf, "platforms/dahu.xml");
    char a[PARAMS_CANONICAL_MAX], b[PARAMS_CANONICAL_MAX];
    params_canonical(&p, a, sizeof a);
    const char *head = "nodes=1;cores_per_node=32;ratio=15;stride=20;iterations=8000;";
    cr_assert_eq(strncmp(a, head, strlen(head)), 0, "%s", a);
    cr_assert_not_null(strstr(a, ";mapping=insitu;"), "%s", a);
    p.compute_scaling = 1 + 1e-15; /* a real differs in the last digits: the key differs */
    params_canonical(&p, b, sizeof b);
    cr_assert_str_neq(a, b);
}

/* Two configurations never share a key: paths with the separators in them, the longest paths. */
Test(params, canonical_keys_are_unambiguous_and_whole)
{
    struct params p, q;
    char a[PARAMS_CANONICAL_MAX], b[PARAMS_CANONICAL_MAX];
    params_defaults(&p);
    params_defaults(&q);
    /* Without escaping, both would read "...hostfile=h;platform=x;..." */
    snprintf(p.hostfile, sizeof p.hostfile, "h;platform=x");
    snprintf(p.platform, sizeof p.platform, "y");
    snprintf(q.hostfile, sizeof q.hostfile, "h");
    snprintf(q.platform, sizeof q.platform, "x;platform=y");
    params_canonical(&p, a, sizeof a);
    params_canonical(&q, b, sizeof b);
    cr_assert_str_neq(a, b);
    cr_assert_not_null(strstr(a, "hostfile=h%3Bplatform%3Dx;"), "%s", a);

    /* Three paths of the longest, all separators: the key still ends with the last parameter. */
    memset(p.hostfile, ';', PARAMS_PATH_MAX - 1);
    memset(p.platform, '=', PARAMS_PATH_MAX - 1);
    memset(p.analytics, '%', PARAMS_PATH_MAX - 1);
    p.hostfile[PARAMS_PATH_MAX - 1] = p.platform[PARAMS_PATH_MAX - 1] =
        p.analytics[PARAMS_PATH_MAX - 1] = 0;
    params_canonical(&p, a, sizeof a);
    char last[128];
    snprintf(last, sizeof last, ";%s=", param_table[PARAM_COUNT - 1].key);
    cr_assert_not_null(strstr(a, last), "the key was cut short (%zu bytes)", strlen(a));
    q = p;
    q.ratio = 7;
    params_canonical(&q, b, sizeof b);
    cr_assert_str_neq(a, b);

    /* -0 is 0: the same configuration, the same key. */
    params_defaults(&p);
    params_defaults(&q);
    char err[PARAMS_ERR_MAX];
    cr_assert_eq(params_set(&p, P_DATA_SCALING, "-0", err), 0, "%s", err);
    cr_assert_eq(params_set(&q, P_DATA_SCALING, "0", err), 0, "%s", err);
    params_canonical(&p, a, sizeof a);
    params_canonical(&q, b, sizeof b);
    cr_assert_str_eq(a, b);
    /* Underflow is said as such, not as a range miss. */
    cr_assert_eq(params_set(&p, P_DATA_SCALING, "1e-999", err), -1);
    cr_assert_not_null(strstr(err, "data_scaling: '1e-999' is beyond what a double can hold"), "%s",
                       err);
}

Test(params, step_ratio_walks_valid_ratios)
{
    struct params p;
    params_defaults(&p);
    p.ratio = 1;
    long seen[] = {3, 7, 15, 31};
    for (int k = 0; k < 4; k++) {
        cr_assert_eq(params_step(&p, P_RATIO, 1, false), 1);
        cr_assert_eq(p.ratio, seen[k]);
    }
    cr_assert_eq(params_step(&p, P_RATIO, 1, false), 0, "moved past the last valid ratio");
    cr_assert_eq(p.ratio, 31);
    cr_assert_eq(params_step(&p, P_RATIO, -1, false), 1);
    cr_assert_eq(p.ratio, 15);
    p.ratio = 5; /* unrealisable: snaps to the neighbour in the direction of travel */
    cr_assert_eq(params_step(&p, P_RATIO, 1, false), 1);
    cr_assert_eq(p.ratio, 7);
    p.ratio = 5;
    cr_assert_eq(params_step(&p, P_RATIO, -1, false), 1);
    cr_assert_eq(p.ratio, 3);
}

Test(params, step_other_sliders)
{
    struct params p;
    params_defaults(&p);
    cr_assert_eq(params_step(&p, P_STRIDE, 1, false), 1);
    cr_assert_eq(p.stride, 40); /* log slider, step x2 */
    cr_assert_eq(params_step(&p, P_NODES, 1, false), 1);
    cr_assert_eq(p.nodes, 2);
    cr_assert_eq(params_step(&p, P_NODES, -5, false), 1);
    cr_assert_eq(p.nodes, 1);
    cr_assert_eq(params_step(&p, P_NODES, -1, false), 0, "moved below min");
    cr_assert_eq(params_step(&p, P_MAPPING, 1, false), 1);
    cr_assert_eq(p.mapping, MAPPING_INTRANSIT);
    cr_assert_eq(params_step(&p, P_MAPPING, 2, false), 1);
    cr_assert_eq(p.mapping, MAPPING_INLINE);
    cr_assert_eq(params_step(&p, P_MAPPING, 1, false), 1);
    cr_assert_eq(p.mapping, MAPPING_POSTHOC);
    cr_assert_eq(params_step(&p, P_MAPPING, 1, false), 1); /* choices cycle */
    cr_assert_eq(p.mapping, MAPPING_INSITU);
    p.compute_scaling = 0; /* a log slider at zero moves up to something positive */
    cr_assert_eq(params_step(&p, P_COMPUTE_SCALING, 1, false), 1);
    cr_assert_gt(p.compute_scaling, 0);
}

Test(params, position)
{
    struct params p;
    params_defaults(&p);
    p.nodes = 1;
    cr_assert_float_eq(params_position(&p, P_NODES), 0.0, 1e-12);
    p.nodes = 1024;
    cr_assert_float_eq(params_position(&p, P_NODES), 1.0, 1e-12);
    p.stride = 10000; /* log scale over [1, 1e8]: 1e4 is half way */
    cr_assert_float_eq(params_position(&p, P_STRIDE), 0.5, 1e-12);
}

Test(params, help_lists_every_flag)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    cr_assert_not_null(f);
    params_print_help(f);
    fclose(f);
    const char *want[] = {"--nodes ",
                          "--cores-per-node",
                          "--ratio ",
                          "--stride ",
                          "--iterations ",
                          "--region ",
                          "--sim-cost ",
                          "--halo-period ",
                          "--analytics-cost ",
                          "--compute-scaling ",
                          "--data-size ",
                          "--data-scaling ",
                          "--mapping ",
                          "--hostfile ",
                          "--dtl ",
                          "--platform ",
                          "--fidelity ",
                          "[default 20]",
                          "[default 7.93e-07]",
                          "[default platforms/dahu.xml]",
                          "[no default]",
                          "an integer in [1, 100000000], unit iter",
                          "a file path",
                          "one of insitu, intransit, hostfile"};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        cr_assert_not_null(strstr(text, want[i]), "--help lacks '%s'", want[i]);
    cr_assert_null(strstr(text, "[0, 0]"), "a path shown with a numeric range");
    cr_assert_null(strstr(text, " ]"), "a stray space before ']'");
    free(text);
}

Test(params, ratios_max_holds_every_node_size_in_range)
{
    int id = params_find("cores_per_node"), most = 0;
    long out[PARAMS_RATIOS_MAX];
    for (long c = (long)param_table[id].min; c <= (long)param_table[id].max; c++) {
        int n = params_valid_ratios(c, out, PARAMS_RATIOS_MAX);
        most = n > most ? n : most;
    }
    cr_assert_leq(most, PARAMS_RATIOS_MAX, "%d ratios on some node", most);
    cr_assert_eq(most, 31, "720 and 840 cores have 32 divisors, 31 ratios");
}
