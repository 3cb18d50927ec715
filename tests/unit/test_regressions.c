/* Regressions found by the fuzzers (tests/fuzz/) and the bad-input corpus (tests/bad/): each test
 * names the input that broke and what was wrong. The CLI-level ones (merge, sweep lists, the
 * simulation child's reason line) are cases of tests/bad/cases.tsv instead. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../engine/model/layout.h"
#include "../../engine/model/params.h"
#include "../../engine/model/platform.h"
#include "../../engine/model/preset.h"
#include "../../engine/model/result.h"
#include "fixtures.h"

static void assert_one_printable_line(const char *err)
{
    cr_assert_neq(err[0], 0, "empty error");
    for (const char *c = err; *c; c++)
        cr_assert((unsigned char)*c >= 0x20 && *c != 0x7f, "control character 0x%02x in '%s'",
                  (unsigned char)*c, err);
}

/* SimGrid 3.32 (and so platform_load) wants the DOCTYPE and a cluster's id, prefix and suffix. */
#define PLATFORM(attrs)                                                                            \
    "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"      \
    "<platform version=\"4.1\"><cluster " attrs "/></platform>\n"
#define GOOD_ATTRS "speed=\"1Gf\" core=\"4\" bw=\"10Gbps\" lat=\"15us\""

/* fuzz_params, tests/fuzz/regressions/params/newline-in-choice: a value holding a newline was
 * quoted as is, so "mapping: 'insit\n...' is not valid" printed two lines. */
Test(regressions, params_error_quotes_control_characters)
{
    struct params p;
    char err[PARAMS_ERR_MAX];
    params_defaults(&p);
    cr_assert_eq(params_set(&p, P_MAPPING, "insit\nu\x1b[31m", err), -1);
    assert_one_printable_line(err);
    cr_assert_not_null(strstr(err, "mapping: 'insit?u?[31m'"), "%s", err);
    cr_assert_eq(params_set(&p, P_STRIDE, "1\r\n2", err), -1);
    assert_one_printable_line(err);
}

/* fuzz_result, tests/fuzz/regressions/result/newline-in-jansson-token: jansson quotes the bad
 * token, newline included, in its error text. */
Test(regressions, result_error_is_one_line)
{
    struct sim_result r;
    char err[RESULT_ERR_MAX];
    const char text[] = "{\"par\\\n\n\n\"y\": 1}";
    cr_assert_eq(result_parse(text, sizeof text - 1, &r, err, sizeof err), -1);
    assert_one_printable_line(err);
    result_free(&r);
}

/* Bad-input corpus generated huge-comment-line.conf: a line longer than the read buffer was read
 * as two lines, and the tail of a long comment ("... ratio = 7") was applied as a setting. */
Test(regressions, preset_long_line_rejected, .init = fixture_dir_make, .fini = fixture_dir_remove)
{
    char path[256], err[1024] = "", text[10000];
    /* Longer than any line a preset needs (a quoted path of PRESET_QUOTED_MAX bytes). */
    snprintf(text, sizeof text, "# %8000s stride = 200\n", "comment");
    fixture_write("long.conf", text, path, sizeof path);
    struct params p, before;
    params_defaults(&p);
    before = p;
    cr_assert_eq(preset_apply(path, &p, err, sizeof err), -1, "accepted");
    cr_assert_not_null(strstr(err, "longer than"), "%s", err);
    cr_assert_eq(p.stride, before.stride);
}

/* Bad-input corpus preset /dev/zero: NUL bytes without a newline were read forever. */
Test(regressions, preset_endless_file_stops)
{
    struct params p;
    char err[1024] = "";
    params_defaults(&p);
    cr_assert_eq(preset_apply("/dev/zero", &p, err, sizeof err), -1, "accepted");
    cr_assert_not_null(strstr(err, "/dev/zero"), "%s", err);
}

/* After the host-lookup fix above: short names ("dahu-2") and the HOST:N form still place the
 * analytics where the hostfile says. */
Test(regressions, hostfile_short_names, .init = fixture_dir_make, .fini = fixture_dir_remove)
{
    char path[256], hosts[256], err[512] = "";
    struct platform pf;
    fixture_write(
        "p.xml",
        PLATFORM(
            "id=\"dahu\" prefix=\"dahu-\" suffix=\".grid5000.fr\" radical=\"1-4\" " GOOD_ATTRS),
        path, sizeof path);
    cr_assert_eq(platform_load(path, &pf, err, sizeof err), 0, "%s", err);
    fixture_write("hosts", "dahu-2 slots=1\ndahu-3.grid5000.fr:2\n", hosts, sizeof hosts);
    int slots[4];
    cr_assert_eq(layout_read_hostfile(hosts, &pf, 0, slots, err, sizeof err), 0, "%s", err);
    cr_assert_eq(slots[0], 0);
    cr_assert_eq(slots[1], 1);
    cr_assert_eq(slots[2], 2);
    platform_free(&pf);
}
