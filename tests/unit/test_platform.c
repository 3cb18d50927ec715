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

/* SimGrid 3.32 reads no platform without this DOCTYPE, so neither does Situ. */
#define DOCTYPE "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
#define CLUSTER_OPEN                                                                               \
    "<?xml version='1.0'?>\n" DOCTYPE                                                              \
    "<platform version=\"4.1\">\n<zone id=\"w\" routing=\"Full\">\n"
#define CLUSTER_CLOSE "</zone>\n</platform>\n"
/* A valid cluster but for what the test appends. */
#define GOOD_CLUSTER                                                                               \
    "<cluster id=\"c\" prefix=\"n\" suffix=\"\" radical=\"1-2\" speed=\"1Gf\" core=\"4\" "         \
    "bw=\"1Gbps\" lat=\"1us\""

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

/* Loads `xml`, expecting success; the caller frees pf. */
static void expect_load(const char *xml, struct platform *pf)
{
    char path[256], err[512] = "";
    fixture_write("ok.xml", xml, path, sizeof path);
    cr_assert_eq(platform_load(path, pf, err, sizeof err), 0, "refused (%s): %s", err, xml);
}

Test(platform_units, simgrid_prefixes)
{
    /* SimGrid 3.32 builds its units from prefixes: k..Y and Ki..Yi before bps/Bps, k..Y before f,
     * kilo..yotta before flops (its spelling: "zeta"). */
    double v = 0;
    cr_assert_eq(platform_parse_unit("1PBps", 'b', &v), 0);
    assert_close(v, 1e15, "1PBps");
    cr_assert_eq(platform_parse_unit("2Ybps", 'b', &v), 0);
    assert_close(v, 2e24 / 8, "2Ybps");
    cr_assert_eq(platform_parse_unit("1EiBps", 'b', &v), 0);
    assert_close(v, 1152921504606846976.0, "1EiBps");
    cr_assert_eq(platform_parse_unit("1kBps", 'b', &v), 0);
    assert_close(v, 1e3, "1kBps");
    cr_assert_eq(platform_parse_unit("1.5gigaflops", 'f', &v), 0);
    assert_close(v, 1.5e9, "1.5gigaflops");
    cr_assert_eq(platform_parse_unit("1zetaflops", 'f', &v), 0);
    assert_close(v, 1e21, "1zetaflops");
    cr_assert_eq(platform_parse_unit("1Yf", 'f', &v), 0);
    assert_close(v, 1e24, "1Yf");
    cr_assert_eq(platform_parse_unit("7flops", 'f', &v), 0);
    assert_close(v, 7, "7flops");
    /* 0 needs no unit (SimGrid reads it silently); any other number does. */
    cr_assert_eq(platform_parse_unit("0", 't', &v), 0);
    cr_assert_eq(v, 0);
    cr_assert_eq(platform_parse_unit("-0s", 't', &v), 0);
    cr_assert_eq(v, 0);
    cr_assert(!signbit(v), "-0s read as -0");
    v = 42;
    const char *bad[] = {"1KBps", "1kiBps", "1Kbps", "1gBps", "1bps ", "1e400Ybps"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        cr_assert_eq(platform_parse_unit(bad[i], 'b', &v), -1, "'%s' accepted", bad[i]);
    const char *bad_f[] = {"1Kf", "1Gflops", "1zettaflops", "1kiloflop", "1F"};
    for (size_t i = 0; i < sizeof bad_f / sizeof *bad_f; i++)
        cr_assert_eq(platform_parse_unit(bad_f[i], 'f', &v), -1, "'%s' accepted", bad_f[i]);
    cr_assert_eq(platform_parse_unit("1Ms", 't', &v), -1, "time units take no prefix");
    cr_assert_eq(v, 42, "a rejected value was stored");
}

Test(platform, read_as_simgrid_reads_it, .init = fixture_dir_make, .fini = fixture_dir_remove)
{
    struct platform pf;
    /* pstates: the first is in force; blanks around them and around radical numbers are fine. */
    expect_load(CLUSTER_OPEN "<cluster id=\"c\" prefix=\"n\" suffix=\"\" radical=\" 1 - 3 , 7 \""
                             " speed=\" 2Gf, 1Gf ,500Mf\" core=\"4 \" bw=\"1Gbps\""
                             " lat=\"0\"/>" CLUSTER_CLOSE,
                &pf);
    assert_close(pf.speed, 2e9, "speed (pstate 0)");
    cr_assert_eq(pf.hosts, 4);
    cr_assert_eq(pf.radicals[3], 7);
    cr_assert_eq(pf.cores, 4);
    cr_assert_eq(pf.lat, 0, "lat=\"0\" needs no unit");
    platform_free(&pf);
    /* FULLDUPLEX is SimGrid's old name of SPLITDUPLEX; an empty optional value is no value. */
    expect_load(CLUSTER_OPEN GOOD_CLUSTER " sharing_policy=\"FULLDUPLEX\" bb_bw=\"\" bb_lat=\"\""
                                          " loopback_bw=\"\" loopback_lat=\"\" limiter_link=\"\""
                                          " router_id=\"\" topology=\"FLAT\"/>" CLUSTER_CLOSE,
                &pf);
    cr_assert_eq(pf.split_duplex, 1);
    cr_assert_eq(pf.backbone_bw, 0);
    cr_assert_eq(pf.loopback_bw, 0);
    platform_free(&pf);
    /* A zero loopback bandwidth (and latency) is no loopback, for SimGrid as for the model. */
    expect_load(CLUSTER_OPEN GOOD_CLUSTER " loopback_bw=\"0Bps\" loopback_lat=\"0s\""
                                          " bb_bw=\"0Bps\"/>" CLUSTER_CLOSE,
                &pf);
    cr_assert_eq(pf.loopback_bw, 0);
    cr_assert_eq(pf.loopback_lat, 0);
    platform_free(&pf);
}

Test(platform, structures_simgrid_accepts, .init = fixture_dir_make, .fini = fixture_dir_remove)
{
    struct platform pf;
    /* No zone; the old DOCTYPE address; an encoding; comments and PIs; props. */
    expect_load("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- c -->\n"
                "<!DOCTYPE platform SYSTEM 'http://simgrid.gforge.inria.fr/simgrid/simgrid.dtd'>\n"
                "<platform version=\"4\">" GOOD_CLUSTER "><prop id=\"a\" value=\"b\"/><!-- c -->"
                "</cluster><?pi x?></platform>\n",
                &pf);
    cr_assert_eq(pf.hosts, 2);
    platform_free(&pf);
    /* Nested <AS> and <zone> (any routing, any case); a second cluster: the first is read. */
    expect_load(
        "<?xml version='1.0'?>\n" DOCTYPE "<platform version=\"4.1\">\n"
        "<zone id=\"w\" routing=\"full\"><prop id=\"p\" value=\"v\"/>\n"
        "<AS id=\"a\" routing=\"Floyd\">" GOOD_CLUSTER "/></AS>\n"
        "<cluster id=\"d\" prefix=\"m\" suffix=\"\" radical=\"1-8\" speed=\"1Gf\" bw=\"1Gbps\""
        " lat=\"1us\" router_id=\"r\"/>\n"
        "</zone>\n<zone id=\"empty\" routing=\"None\"/>\n</platform>\n",
        &pf);
    cr_assert_str_eq(pf.cluster_id, "c");
    cr_assert_eq(pf.hosts, 2);
    platform_free(&pf);
}

/* Every case SimGrid 3.32 refuses, or aborts on, that the model used to accept. */
Test(platform, refused_as_simgrid_refuses_them, .init = fixture_dir_make,
     .fini = fixture_dir_remove)
{
#define WITH(attrs) CLUSTER_OPEN GOOD_CLUSTER " " attrs "/>" CLUSTER_CLOSE
#define RADICAL(r)                                                                                 \
    CLUSTER_OPEN "<cluster id=\"c\" prefix=\"n\" suffix=\"\" radical=\"" r "\" speed=\"1Gf\""      \
                 " bw=\"1Gbps\" lat=\"1us\"/>" CLUSTER_CLOSE
    static const char *const cases[][2] = {
        /* the prolog and the version */
        {"<?xml version='1.0'?>\n<platform version=\"4.1\">" GOOD_CLUSTER "/></platform>",
         "<!DOCTYPE platform SYSTEM"},
        {"<!DOCTYPE platform SYSTEM \"simgrid.dtd\">\n<platform version=\"4.1\">" GOOD_CLUSTER
         "/></platform>",
         "<!DOCTYPE platform SYSTEM"},
        {"<?xml version=\"1.0\" standalone=\"yes\"?>\n" DOCTYPE
         "<platform version=\"4.1\">" GOOD_CLUSTER "/></platform>",
         "XML declaration"},
        {"\xEF\xBB\xBF<?xml version='1.0'?>\n" DOCTYPE "<platform version=\"4.1\">" GOOD_CLUSTER
         "/></platform>",
         "byte-order mark"},
        {DOCTYPE "<platform>" GOOD_CLUSTER "/></platform>", "'version'"},
        {DOCTYPE "<platform version=\"5\">" GOOD_CLUSTER "/></platform>", "version=\"5\""},
        {DOCTYPE "<platform version=\"3\">" GOOD_CLUSTER "/></platform>", "simgrid_update_xml"},
        {DOCTYPE "<platform version=\"4.1\" x=\"1\">" GOOD_CLUSTER "/></platform>", "'x'"},
        /* required and unknown attributes, enumerations */
        {CLUSTER_OPEN "<cluster prefix=\"n\" suffix=\"\" radical=\"1-2\" speed=\"1Gf\""
                      " bw=\"1Gbps\" lat=\"1us\"/>" CLUSTER_CLOSE,
         "'id'"},
        {CLUSTER_OPEN "<cluster id=\"c\" suffix=\"\" radical=\"1-2\" speed=\"1Gf\""
                      " bw=\"1Gbps\" lat=\"1us\"/>" CLUSTER_CLOSE,
         "'prefix'"},
        {CLUSTER_OPEN "<cluster id=\"c\" prefix=\"n\" radical=\"1-2\" speed=\"1Gf\""
                      " bw=\"1Gbps\" lat=\"1us\"/>" CLUSTER_CLOSE,
         "'suffix'"},
        {WITH("bogus=\"1\""), "'bogus'"},
        {WITH("xmlns:x=\"urn:x\" x:a=\"1\""), "namespace"},
        {WITH("sharing_policy=\"shared\""), "sharing_policy=\"shared\""},
        {WITH("bb_bw=\"1Gbps\" bb_sharing_policy=\"SPLITDUPLEX\""), "bb_sharing_policy"},
        {WITH("topology=\"FAT_TREE\" topo_parameters=\"2;4,8;1,2;1,2\""), "flat cluster"},
        {WITH("topology=\"STAR\""), "topology=\"STAR\""},
        {WITH("limiter_link=\"5Gbps\""), "limiter_link"},
        /* values SimGrid aborts on at the first message */
        {WITH("loopback_lat=\"1us\""), "loopback_bw"},
        {WITH("loopback_bw=\"0Bps\" loopback_lat=\"1us\""), "loopback_bw"},
        {WITH("bb_lat=\"1us\""), "bb_bw"},
        /* radicals SimGrid refuses or reads otherwise */
        {RADICAL("1-3;5"), "radical"},
        {RADICAL("1-2-3"), "radical"},
        {RADICAL("0-"), "radical"},
        {RADICAL(",1"), "radical"},
        {RADICAL("1-20,10-40"), "'n10' is defined twice"},
        {RADICAL("1,1"), "defined twice"},
        {WITH("speed=\"1Gf,\""), "speed"},
        /* elements, text, structure */
        {CLUSTER_OPEN GOOD_CLUSTER "><host id=\"h\" speed=\"1Gf\"/></cluster>" CLUSTER_CLOSE,
         "only <prop>"},
        {CLUSTER_OPEN GOOD_CLUSTER ">text</cluster>" CLUSTER_CLOSE, "unexpected text"},
        {CLUSTER_OPEN GOOD_CLUSTER "><prop id=\"a\"/></cluster>" CLUSTER_CLOSE, "'value'"},
        {CLUSTER_OPEN GOOD_CLUSTER "><prop id=\"a\" value=\"b\">x</prop></cluster>" CLUSTER_CLOSE,
         "unexpected text"},
        {CLUSTER_OPEN GOOD_CLUSTER "/><prop id=\"a\" value=\"b\"/>" CLUSTER_CLOSE, "before"},
        {CLUSTER_OPEN GOOD_CLUSTER "/><![CDATA[ ]]>" CLUSTER_CLOSE, "CDATA"},
        {CLUSTER_OPEN "&#32;" GOOD_CLUSTER "/>" CLUSTER_CLOSE, "character reference"},
        {CLUSTER_OPEN GOOD_CLUSTER "/><host id=\"h\" speed=\"1Gf\"/>" CLUSTER_CLOSE,
         "<host> is not supported"},
        {DOCTYPE "<platform version=\"4.1\"><config><prop id=\"a\" value=\"b\"/></config>"
                 "<zone id=\"w\" routing=\"Full\">" GOOD_CLUSTER "/></zone></platform>",
         "<config> is not supported"},
        {DOCTYPE "<platform version=\"4.1\"><zone id=\"w\" routing=\"Full\">" GOOD_CLUSTER
                 "/></zone><actor host=\"n1\" function=\"f\"/></platform>",
         "<actor> is not supported"},
        {DOCTYPE "<platform version=\"4.1\"><zone id=\"w\"/>" GOOD_CLUSTER "/></platform>",
         "'routing'"},
        {DOCTYPE "<platform version=\"4.1\"><zone id=\"w\" routing=\"Star\">" GOOD_CLUSTER
                 "/></zone></platform>",
         "routing=\"Star\""},
        /* names SimGrid refuses to give twice */
        {DOCTYPE "<platform version=\"4.1\"><zone id=\"c\" routing=\"Full\">" GOOD_CLUSTER
                 "/></zone></platform>",
         "cluster name 'c' is already the name of a zone"},
        {CLUSTER_OPEN GOOD_CLUSTER "/>" GOOD_CLUSTER "/>" CLUSTER_CLOSE, "cluster name 'c'"},
        {CLUSTER_OPEN GOOD_CLUSTER "/><cluster id=\"d\" prefix=\"n\" suffix=\"\" radical=\"2-3\""
                                   " speed=\"1Gf\" bw=\"1Gbps\" lat=\"1us\"/>" CLUSTER_CLOSE,
         "'n2' is defined twice"},
        {WITH("router_id=\"n1\""), "router name 'n1'"},
        {WITH("router_id=\"w\""), "router name 'w'"},
        {CLUSTER_OPEN GOOD_CLUSTER "/><zone id=\"n1\" routing=\"Full\"/>" CLUSTER_CLOSE,
         "zone name 'n1'"},
        /* only the first top-level element gets the hosts */
        {DOCTYPE "<platform version=\"4.1\"><zone id=\"w\" routing=\"Full\"/>"
                 "<zone id=\"v\" routing=\"Full\">" GOOD_CLUSTER "/></zone></platform>",
         "outside the platform's first zone"},
        {DOCTYPE "<platform version=\"4.1\">" GOOD_CLUSTER "/><cluster id=\"d\" prefix=\"m\""
                 " suffix=\"\" radical=\"1\" speed=\"1Gf\" bw=\"1Gbps\" lat=\"1us\"/></platform>",
         "outside the platform's first zone"},
    };
#undef WITH
#undef RADICAL
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        expect_load_error(cases[i][0], cases[i][1]);
}

Test(platform, errors_name_the_line, .init = fixture_dir_make, .fini = fixture_dir_remove)
{
    char path[256], err[512] = "", want[300];
    fixture_write("l.xml", CLUSTER_OPEN "\n\n" GOOD_CLUSTER " bogus=\"1\"/>" CLUSTER_CLOSE, path,
                  sizeof path);
    struct platform pf;
    cr_assert_eq(platform_load(path, &pf, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s:7: <cluster>: unknown attribute 'bogus'", path);
    cr_assert_eq(strncmp(err, want, strlen(want)), 0, "%s", err);
    /* Values are shown without control characters (a tab by reference) and cut short. */
    fixture_write("t.xml", CLUSTER_OPEN GOOD_CLUSTER " bb_bw=\"&#9;1Gbps&#10;x\"/>" CLUSTER_CLOSE,
                  path, sizeof path);
    cr_assert_eq(platform_load(path, &pf, err, sizeof err), -1);
    cr_assert_not_null(strstr(err, "bb_bw=\"?1Gbps?x\""), "%s", err);
}
