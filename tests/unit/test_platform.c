/* The platform reader: SimGrid units, the <cluster> attributes, and its error messages. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../engine/params.h"
#include "../../engine/platform.h"
#include "fixtures.h"

#define CLUSTER_OPEN                                                                               \
    "<?xml version='1.0'?>\n<platform version=\"4.1\">\n<zone id=\"w\" routing=\"Full\">\n"
#define CLUSTER_CLOSE "</zone>\n</platform>\n"

static void assert_close(double actual, double expected, const char *what)
{
    cr_assert(fabs(actual - expected) <= 1e-12 * fabs(expected), "%s = %.17g, expected %.17g", what,
              actual, expected);
}

Test(platform_units, bandwidth)
{
    double v = 0;
    cr_assert_eq(platform_parse_unit("10Gbps", 'b', &v), 0);
    assert_close(v, 1.25e9, "10Gbps");
    cr_assert_eq(platform_parse_unit("20.16GBps", 'b', &v), 0);
    assert_close(v, 20.16e9, "20.16GBps");
    cr_assert_eq(platform_parse_unit("1Mbps", 'b', &v), 0);
    assert_close(v, 1.25e5, "1Mbps");
    cr_assert_eq(platform_parse_unit("1MiBps", 'b', &v), 0);
    assert_close(v, 1048576, "1MiBps");
    cr_assert_eq(platform_parse_unit("1Gibps", 'b', &v), 0);
    assert_close(v, 1073741824.0 / 8, "1Gibps");
    cr_assert_eq(platform_parse_unit("8bps", 'b', &v), 0);
    assert_close(v, 1, "8bps");
    cr_assert_eq(platform_parse_unit("125Bps", 'b', &v), 0);
    assert_close(v, 125, "125Bps");
}

Test(platform_units, time)
{
    double v = 0;
    cr_assert_eq(platform_parse_unit("0.72us", 't', &v), 0);
    assert_close(v, 0.72e-6, "0.72us");
    cr_assert_eq(platform_parse_unit("15us", 't', &v), 0);
    assert_close(v, 15e-6, "15us");
    cr_assert_eq(platform_parse_unit("2ms", 't', &v), 0);
    assert_close(v, 2e-3, "2ms");
    cr_assert_eq(platform_parse_unit("3ns", 't', &v), 0);
    assert_close(v, 3e-9, "3ns");
    cr_assert_eq(platform_parse_unit("1.5s", 't', &v), 0);
    assert_close(v, 1.5, "1.5s");
    cr_assert_eq(platform_parse_unit("2m", 't', &v), 0);
    assert_close(v, 120, "2m");
    cr_assert_eq(platform_parse_unit("1h", 't', &v), 0);
    assert_close(v, 3600, "1h");
    cr_assert_eq(platform_parse_unit("0s", 't', &v), 0);
    cr_assert_eq(v, 0);
}

Test(platform_units, speed)
{
    double v = 0;
    cr_assert_eq(platform_parse_unit("1Gf", 'f', &v), 0);
    assert_close(v, 1e9, "1Gf");
    cr_assert_eq(platform_parse_unit("2.5Mf", 'f', &v), 0);
    assert_close(v, 2.5e6, "2.5Mf");
    cr_assert_eq(platform_parse_unit("3Tf", 'f', &v), 0);
    assert_close(v, 3e12, "3Tf");
    cr_assert_eq(platform_parse_unit("100f", 'f', &v), 0);
    assert_close(v, 100, "100f");
}

Test(platform_units, rejects)
{
    double v = 42;
    const char *bad_bw[] = {"10", "", "Gbps", "10 Gbps", "10Gb", "10gbps", "-1Gbps", "10us"};
    for (size_t i = 0; i < sizeof bad_bw / sizeof *bad_bw; i++)
        cr_assert_eq(platform_parse_unit(bad_bw[i], 'b', &v), -1, "'%s' accepted as bandwidth",
                     bad_bw[i]);
    const char *bad_t[] = {"15", "15uss", "15Gbps", "nanus", "infs"};
    for (size_t i = 0; i < sizeof bad_t / sizeof *bad_t; i++)
        cr_assert_eq(platform_parse_unit(bad_t[i], 't', &v), -1, "'%s' accepted as time", bad_t[i]);
    cr_assert_eq(platform_parse_unit("1G", 'f', &v), -1);
    cr_assert_eq(platform_parse_unit("1Gbps", 'f', &v), -1);
    cr_assert_eq(v, 42, "a rejected value was stored");
}

Test(platform, dahu, .init = fixture_dir_make, .fini = fixture_dir_remove)
{
    /* The same attributes as platforms/dahu.xml, in a file of our own so the test does not depend
     * on the working directory. */
    char path[256], err[512] = "";
    fixture_write("dahu.xml",
                  CLUSTER_OPEN
                  "<cluster id=\"dahu\" prefix=\"dahu-\" suffix=\".grid5000.fr\" radical=\"1-32\"\n"
                  " speed=\"1Gf\" core=\"32\" bw=\"10Gbps\" lat=\"15us\"\n"
                  " loopback_bw=\"20.16GBps\" loopback_lat=\"0.72us\"/>\n" CLUSTER_CLOSE,
                  path, sizeof path);
    struct platform pf;
    cr_assert_eq(platform_load(path, &pf, err, sizeof err), 0, "%s", err);
    cr_assert_str_eq(pf.cluster_id, "dahu");
    cr_assert_eq(pf.hosts, 32);
    cr_assert_eq(pf.cores, 32);
    assert_close(pf.speed, 1e9, "speed");
    assert_close(pf.bw, 1.25e9, "bw");
    assert_close(pf.lat, 15e-6, "lat");
    assert_close(pf.loopback_bw, 20.16e9, "loopback_bw");
    assert_close(pf.loopback_lat, 0.72e-6, "loopback_lat");
    cr_assert_eq(pf.backbone_bw, 0);
    cr_assert_eq(pf.backbone_lat, 0);
    cr_assert_eq(pf.split_duplex, 1, "SimGrid's default cluster sharing policy is SPLITDUPLEX");
    char name[128];
    platform_host_name(&pf, 0, name, sizeof name);
    cr_assert_str_eq(name, "dahu-1.grid5000.fr");
    platform_host_name(&pf, 31, name, sizeof name);
    cr_assert_str_eq(name, "dahu-32.grid5000.fr");
    cr_assert_eq(platform_host_index(&pf, "dahu-1.grid5000.fr"), 0);
    cr_assert_eq(platform_host_index(&pf, "dahu-7.grid5000.fr"), 6);
    cr_assert_eq(platform_host_index(&pf, "dahu-32.grid5000.fr"), 31);
    cr_assert_eq(platform_host_index(&pf, "dahu-33.grid5000.fr"), -1);
    cr_assert_eq(platform_host_index(&pf, "dahu-0.grid5000.fr"), -1);
    /* A short name, as in an MPI hostfile, names the same host; a wrong suffix does not. */
    cr_assert_eq(platform_host_index(&pf, "dahu-1"), 0);
    cr_assert_eq(platform_host_index(&pf, "dahu-32"), 31);
    cr_assert_eq(platform_host_index(&pf, "dahu-33"), -1);
    cr_assert_eq(platform_host_index(&pf, "dahu-1.example.org"), -1);
    cr_assert_eq(platform_host_index(&pf, "dahu-x.grid5000.fr"), -1);
    cr_assert_eq(platform_host_index(&pf, "taurus-1.grid5000.fr"), -1);
    platform_free(&pf);
    cr_assert_null(pf.radicals);
}

Test(platform, radicals_backbone_and_policy, .init = fixture_dir_make, .fini = fixture_dir_remove)
{
    char path[256], err[512] = "";
    fixture_write("c.xml",
                  CLUSTER_OPEN
                  "<cluster id=\"c\" prefix=\"n\" suffix=\"\" radical=\"0-1,5,8-9\" speed=\"2Gf\"\n"
                  " core=\"4\" bw=\"1Gbps\" lat=\"10us\" bb_bw=\"2Gbps\" bb_lat=\"1us\"\n"
                  " sharing_policy=\"SHARED\"/>\n" CLUSTER_CLOSE,
                  path, sizeof path);
    struct platform pf;
    cr_assert_eq(platform_load(path, &pf, err, sizeof err), 0, "%s", err);
    cr_assert_eq(pf.hosts, 5);
    int expected[] = {0, 1, 5, 8, 9};
    for (int i = 0; i < 5; i++)
        cr_assert_eq(pf.radicals[i], expected[i]);
    cr_assert_eq(platform_host_index(&pf, "n5"), 2);
    cr_assert_eq(platform_host_index(&pf, "n4"), -1);
    cr_assert_eq(pf.cores, 4);
    assert_close(pf.speed, 2e9, "speed");
    assert_close(pf.backbone_bw, 2.5e8, "bb_bw");
    assert_close(pf.backbone_lat, 1e-6, "bb_lat");
    cr_assert_eq(pf.loopback_bw, 0, "no loopback_bw given");
    cr_assert_eq(pf.split_duplex, 0);
    platform_free(&pf);
}

Test(platform, core_defaults_to_one, .init = fixture_dir_make, .fini = fixture_dir_remove)
{
    char path[256], err[512] = "";
    fixture_write("one.xml",
                  CLUSTER_OPEN
                  "<cluster id=\"c\" prefix=\"n\" suffix=\"\" radical=\"1-2\" speed=\"1Gf\""
                  " bw=\"1Gbps\" lat=\"1us\"/>\n" CLUSTER_CLOSE,
                  path, sizeof path);
    struct platform pf;
    cr_assert_eq(platform_load(path, &pf, err, sizeof err), 0, "%s", err);
    cr_assert_eq(pf.cores, 1);
    platform_free(&pf);
}

/* Loads `xml` from a file and expects an error naming the file and containing `needle`. */
static void expect_load_error(const char *xml, const char *needle)
{
    char path[256], err[512] = "";
    fixture_write("bad.xml", xml, path, sizeof path);
    struct platform pf;
    cr_assert_eq(platform_load(path, &pf, err, sizeof err), -1, "accepted: %s", xml);
    cr_assert_not_null(strstr(err, path), "error does not name the file: %s", err);
    cr_assert_not_null(strstr(err, needle), "error '%s' lacks '%s'", err, needle);
    cr_assert_null(strchr(err, '\n'), "error is not one line: %s", err);
    cr_assert_null(pf.radicals, "radicals leaked on error");
}

Test(platform, malformed_xml_names_the_file, .init = fixture_dir_make, .fini = fixture_dir_remove)
{
    expect_load_error("<platform><cluster id=\"a\"\n", "malformed");
    expect_load_error("<platform><cluster></platform>", "malformed");
    expect_load_error("", "malformed");
}

Test(platform, missing_attribute, .init = fixture_dir_make, .fini = fixture_dir_remove)
{
    expect_load_error(CLUSTER_OPEN "<cluster id=\"c\" prefix=\"n\" suffix=\"\" radical=\"1-2\""
                                   " speed=\"1Gf\" core=\"4\" lat=\"1us\"/>" CLUSTER_CLOSE,
                      "'bw'");
    expect_load_error(CLUSTER_OPEN "<cluster id=\"c\" prefix=\"n\" suffix=\"\" radical=\"1-2\""
                                   " core=\"4\" bw=\"1Gbps\" lat=\"1us\"/>" CLUSTER_CLOSE,
                      "'speed'");
    expect_load_error(CLUSTER_OPEN "<cluster id=\"c\" prefix=\"n\" suffix=\"\" radical=\"1-2\""
                                   " speed=\"1Gf\" core=\"4\" bw=\"1Gbps\"/>" CLUSTER_CLOSE,
                      "'lat'");
    expect_load_error(CLUSTER_OPEN "<cluster id=\"c\" prefix=\"n\" suffix=\"\" speed=\"1Gf\""
                                   " core=\"4\" bw=\"1Gbps\" lat=\"1us\"/>" CLUSTER_CLOSE,
                      "radical");
}

Test(platform, bad_attribute_values, .init = fixture_dir_make, .fini = fixture_dir_remove)
{
    expect_load_error(CLUSTER_OPEN
                      "<cluster id=\"c\" prefix=\"n\" suffix=\"\" radical=\"1-2\""
                      " speed=\"1Gf\" core=\"4\" bw=\"10\" lat=\"1us\"/>" CLUSTER_CLOSE,
                      "bw=\"10\"");
    expect_load_error(CLUSTER_OPEN
                      "<cluster id=\"c\" prefix=\"n\" suffix=\"\" radical=\"1-2\""
                      " speed=\"0Gf\" core=\"4\" bw=\"1Gbps\" lat=\"1us\"/>" CLUSTER_CLOSE,
                      "speed");
    expect_load_error(CLUSTER_OPEN
                      "<cluster id=\"c\" prefix=\"n\" suffix=\"\" radical=\"1-2\""
                      " speed=\"1Gf\" core=\"four\" bw=\"1Gbps\" lat=\"1us\"/>" CLUSTER_CLOSE,
                      "core");
    expect_load_error(CLUSTER_OPEN
                      "<cluster id=\"c\" prefix=\"n\" suffix=\"\" radical=\"5-2\""
                      " speed=\"1Gf\" core=\"4\" bw=\"1Gbps\" lat=\"1us\"/>" CLUSTER_CLOSE,
                      "radical");
    expect_load_error(CLUSTER_OPEN "<cluster id=\"c\" prefix=\"n\" suffix=\"\" radical=\"1-2\""
                                   " speed=\"1Gf\" core=\"4\" bw=\"1Gbps\" lat=\"1us\""
                                   " loopback_bw=\"fast\"/>" CLUSTER_CLOSE,
                      "loopback_bw");
}

Test(platform, no_cluster_or_wrong_root, .init = fixture_dir_make, .fini = fixture_dir_remove)
{
    expect_load_error(CLUSTER_OPEN "<host id=\"h\" speed=\"1Gf\"/>" CLUSTER_CLOSE, "<cluster>");
    expect_load_error("<?xml version='1.0'?>\n<zone id=\"z\"/>\n", "<platform>");
}

Test(platform, directory_and_missing_file, .init = fixture_dir_make, .fini = fixture_dir_remove)
{
    char err[512] = "";
    struct platform pf;
    cr_assert_eq(platform_load(fixture_dir, &pf, err, sizeof err), -1);
    cr_assert_not_null(strstr(err, fixture_dir), "%s", err);
    cr_assert_not_null(strstr(err, "not a regular file"), "%s", err);
    char missing[256];
    snprintf(missing, sizeof missing, "%s/nope.xml", fixture_dir);
    cr_assert_eq(platform_load(missing, &pf, err, sizeof err), -1);
    cr_assert_not_null(strstr(err, missing), "%s", err);
    cr_assert_not_null(strstr(err, "cannot read"), "%s", err);
}

Test(platform, valid_ratios_of_a_32_core_node)
{
    long out[8];
    long expected[] = {1, 3, 7, 15, 31};
    cr_assert_eq(params_valid_ratios(32, out, 8), 5);
    for (int i = 0; i < 5; i++)
        cr_assert_eq(out[i], expected[i]);
    cr_assert_eq(params_valid_ratios(12, out, 8), 5); /* 1 2 3 5 11 */
    cr_assert_eq(out[3], 5);
    cr_assert_eq(out[4], 11);
}
