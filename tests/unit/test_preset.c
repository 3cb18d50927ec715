/* Presets written and read with one quoting rule (preset_quote, preset_unquote): a value saved
 * with w in the explorer (preset_save) loads back the same, whatever it holds: '#', quotes,
 * backslashes, '=', blanks at either end, line breaks, control bytes, non-ASCII. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../engine/model/preset.h"
#include "fixtures.h"

/* Every byte a path can hold that a preset line gives a meaning to, alone and together. */
static const char *const special[] = {
    "a#b",        "#lead",        "trail#",
    "a\"b",       "\"quoted\"",   "a\\b",
    "a\\",        "\\x41",        "a=b",
    "=",          " lead",        "trail ",
    "\ttab",      "two  gaps",    "a\nb",
    "a\r\nb",     "\x01\x1f\x7f", "caf\xc3\xa9",
    "\xff\xfe",   "'single'",     "a # b = \"c\" \\ d\n",
    "\"",         "\\",           "#",
    "x\"#\\n\"y",
};

static void round_trip(const char *value)
{
    char q[PRESET_QUOTED_MAX], back[PARAMS_PATH_MAX], why[128] = "";
    cr_assert_eq(preset_quote(value, q, sizeof q), 0);
    cr_assert_null(strchr(q, '\n'), "a line break was written as one");
    cr_assert_eq(preset_unquote(q, back, sizeof back, why, sizeof why), 0, "%s: %s", q, why);
    cr_assert_str_eq(back, value, "'%s' came back as '%s'", q, back);
    /* As the reader meets it: after "key =", a blank, and maybe a comment after it. */
    char line[PRESET_QUOTED_MAX + 32];
    snprintf(line, sizeof line, "  %s   # a comment\n", q);
    cr_assert_eq(preset_unquote(line, back, sizeof back, why, sizeof why), 0, "%s: %s", line, why);
    cr_assert_str_eq(back, value, "'%s' came back as '%s'", line, back);
}

Test(preset, quote_round_trips_every_special_character)
{
    for (size_t i = 0; i < sizeof special / sizeof *special; i++)
        round_trip(special[i]);
    char every[256];
    for (int b = 1; b < 256; b++)
        every[b - 1] = (char)b;
    every[255] = 0;
    round_trip(every);
}

Test(preset, plain_values_stay_bare)
{
    char q[PRESET_QUOTED_MAX];
    const char *plain[] = {"platforms/dahu.xml", "/home/a b/x.lua", "7.93e-07", "insitu"};
    for (size_t i = 0; i < sizeof plain / sizeof *plain; i++) {
        cr_assert_eq(preset_quote(plain[i], q, sizeof q), 0);
        cr_assert_str_eq(q, plain[i]);
    }
}

Test(preset, broken_quoting_is_refused_with_a_reason)
{
    char out[64], why[128];
    const char *bad[] = {"\"open", "\"a\" b", "\"bad \\q\"", "\"\\x0\"", "\"\\x00\"", "\"a\\"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        why[0] = 0;
        cr_assert_eq(preset_unquote(bad[i], out, sizeof out, why, sizeof why), -1, "%s", bad[i]);
        cr_assert_neq(why[0], 0, "%s: no reason", bad[i]);
    }
    cr_assert_eq(preset_unquote("\"0123456789\"", out, 8, why, sizeof why), -1);
    cr_assert_eq(preset_unquote("0123456789", out, 8, why, sizeof why), -1);
}

/* What w does, then what p and --preset do: every path parameter holding each special value. */
Test(preset, saved_preset_loads_back, .init = fixture_dir_make, .fini = fixture_dir_remove)
{
    setenv("XDG_CONFIG_HOME", fixture_dir, 1);
    for (size_t i = 0; i < sizeof special / sizeof *special; i++) {
        struct params p, q;
        params_defaults(&p);
        char err[1024], path[1024], name[32];
        snprintf(p.analytics, sizeof p.analytics, "/tmp/%s.lua", special[i]);
        snprintf(p.analytics_zone, sizeof p.analytics_zone, "%s", special[i]);
        snprintf(p.hostfile, sizeof p.hostfile, "%s/hosts %s", fixture_dir, special[i]);
        p.ratio = 7;
        snprintf(name, sizeof name, "special-%zu", i);
        cr_assert_eq(preset_save(name, &p, "a description\nwith # a line break", path, sizeof path,
                                 err, sizeof err),
                     0, "%s", err);
        params_defaults(&q);
        cr_assert_eq(preset_apply(name, &q, err, sizeof err), 0, "'%s': %s", special[i], err);
        cr_assert_str_eq(q.analytics, p.analytics);
        cr_assert_str_eq(q.analytics_zone, p.analytics_zone);
        cr_assert_str_eq(q.hostfile, p.hostfile);
        cr_assert_eq(q.ratio, 7);
        char desc[256];
        preset_description(name, desc, sizeof desc);
        cr_assert_str_eq(desc, "a description with # a line break");
    }
}

/* Hand-written presets keep working: bare values, comments after them, '=' in a value. */
Test(preset, bare_values_and_comments, .init = fixture_dir_make, .fini = fixture_dir_remove)
{
    char path[512], err[1024];
    fixture_write("hand.conf",
                  "# a preset\n"
                  "ratio = 7   # the ratio\n"
                  "  # an indented comment = with an equals sign\n"
                  "analytics_zone = a=b\n"
                  "analytics = \"/tmp/x # y.lua\" # quoted, then a comment\n",
                  path, sizeof path);
    struct params p;
    params_defaults(&p);
    cr_assert_eq(preset_apply(path, &p, err, sizeof err), 0, "%s", err);
    cr_assert_eq(p.ratio, 7);
    cr_assert_str_eq(p.analytics_zone, "a=b");
    cr_assert_str_eq(p.analytics, "/tmp/x # y.lua");
    fixture_write("broken.conf", "ratio = 7\nanalytics = \"/tmp/open\n", path, sizeof path);
    params_defaults(&p);
    cr_assert_eq(preset_apply(path, &p, err, sizeof err), -1);
    cr_assert(strstr(err, "broken.conf:2: analytics: ") && strstr(err, "closing quote"), "%s", err);
    cr_assert_eq(p.ratio, 15, "a rejected preset changed the parameters");
}
