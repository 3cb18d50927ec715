/* The small things a workshop trips on (issue 12), as state: the mapping slider stops at its ends
 * (m still cycles), "(modified)" goes once the configuration is the preset's again, no printable
 * key is silent, ! opens the error the status bar shows (a scenario's included), the link view's
 * scroll stays within the links, q's command line, and w's presets. Run from the repository
 * root. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../tui/state/app.h"
#include "../../tui/view/draw.h"
#include "../../engine/base/units.h"

static struct app_state *start_nodes(int nodes, const char *preset)
{
    struct app_state *s = calloc(1, sizeof *s);
    cr_assert_not_null(s);
    struct params p;
    params_defaults(&p);
    p.nodes = nodes;
    char err[512] = "";
    cr_assert_eq(app_init(s, &p, preset, err, sizeof err), 0, "app_init: %s", err);
    return s;
}

static void stop(struct app_state *s)
{
    app_free(s);
    free(s);
}

static void focus_on(struct app_state *s, int id)
{
    for (int i = 0; i < s->nsliders; i++)
        if (s->sliders[i] == id)
            s->focus = i;
    cr_assert_eq(app_focused(s), id);
}

Test(workshop, mapping_slider_stops_at_its_ends_and_m_cycles)
{
    struct app_state *s = start_nodes(16, "");
    focus_on(s, P_MAPPING);
    unsigned f = app_key(s, APP_KEY_LEFT);
    cr_assert_not(f & APP_CONFIG, "left of the first choice: no wrap to the last");
    cr_assert_eq(s->p.mapping, MAPPING_INSITU);
    cr_assert(strstr(s->notice, "first choice"), "%s", s->notice);
    f = app_key(s, APP_KEY_RIGHT);
    cr_assert(f & APP_CONFIG);
    cr_assert_eq(s->p.mapping, MAPPING_INTRANSIT);
    f = app_key(s, APP_KEY_RIGHT); /* hostfile needs a file: skipped */
    cr_assert(f & APP_CONFIG);
    cr_assert_eq(s->p.mapping, MAPPING_INLINE);
    f = app_key(s, APP_KEY_RIGHT); /* posthoc needs disks, which dahu has not: it says so */
    cr_assert_not(f & APP_CONFIG);
    cr_assert_eq(s->p.mapping, MAPPING_INLINE);
    cr_assert(strstr(s->notice, "no disks"), "%s", s->notice);
    app_key(s, 'm'); /* the toggle key still cycles */
    cr_assert_eq(s->p.mapping, MAPPING_INSITU);
    stop(s);
}

Test(workshop, modified_goes_when_d_brings_the_preset_back)
{
    struct app_state *s = start_nodes(1, "");
    cr_assert_not(s->modified);
    focus_on(s, P_STRIDE);
    app_key(s, APP_KEY_RIGHT);
    cr_assert(s->modified);
    app_key(s, 'd');
    cr_assert_not(s->modified, "d restored the defaults: nothing is modified");
    app_key(s, APP_KEY_RIGHT);
    focus_on(s, P_RATIO);
    app_key(s, APP_KEY_RIGHT);
    app_key(s, 'd');
    cr_assert(s->modified, "the stride still differs");
    stop(s);
}

Test(workshop, no_printable_key_is_silent)
{
    struct app_state *s = start_nodes(1, "");
    cr_assert(app_key(s, '/') & APP_DIRTY);
    cr_assert(strstr(s->notice, "no search"), "%s", s->notice);
    cr_assert(app_key(s, 'z') & APP_DIRTY);
    cr_assert(strstr(s->notice, "z does nothing here"), "%s", s->notice);
    stop(s);
}

Test(workshop, bang_shows_the_error_the_status_bar_shows)
{
    struct app_state *s = start_nodes(1, "");
    const char *what;
    app_key(s, '!');
    cr_assert_eq(s->mode, APP_MAIN, "no error: nothing to open");
    cr_assert(strstr(s->notice, "no error"), "%s", s->notice);
    /* A scenario that failed is an error too: the status bar must not say "no errors". */
    s->script.phase = APP_SCRIPT_FAILED;
    snprintf(s->script.err, sizeof s->script.err, "x.lua:3: boom");
    cr_assert_str_eq(app_error(s, &what), "x.lua:3: boom");
    cr_assert_str_eq(what, "scenario: ");
    /* The configuration on screen failing comes before it. */
    app_on_result(s, &s->p, NULL, "the simulation crashed", false, 0);
    cr_assert_str_eq(app_error(s, &what), "the simulation crashed");
    cr_assert_str_eq(what, "simulation: ");
    app_key(s, '!');
    cr_assert_eq(s->mode, APP_ERROR);
    cr_assert(app_key(s, APP_KEY_RIGHT) == 0 && s->p.ratio == 15, "keys do nothing under it");
    app_key(s, APP_KEY_ESC);
    cr_assert_eq(s->mode, APP_MAIN);
    s->script.phase = APP_SCRIPT_OFF;
    stop(s);
}

Test(workshop, link_view_scrolls_within_its_links)
{
    struct app_state *s = start_nodes(1, "");
    s->has_sim = true;
    s->sim.nlinks = 3;
    app_key(s, ']');
    cr_assert_eq(s->links_scroll, 0, "] scrolls the link view only");
    app_key(s, 'u');
    cr_assert_eq(s->pane, APP_PANE_LINKS);
    for (int i = 0; i < 5; i++)
        app_key(s, ']');
    cr_assert_eq(s->links_scroll, 2, "stops at the last link");
    for (int i = 0; i < 5; i++)
        app_key(s, '[');
    cr_assert_eq(s->links_scroll, 0);
    s->has_sim = false;
    s->sim.nlinks = 0;
    stop(s);
}

Test(workshop, command_line_says_what_differs_from_the_defaults)
{
    struct app_state *s = start_nodes(1, "");
    char cmd[4096];
    snprintf(s->p.platform, sizeof s->p.platform, "platforms/dahu.xml");
    cr_assert_eq(app_command_line(s, cmd, sizeof cmd), 0);
    cr_assert_str_eq(cmd, "situ run", "the defaults (the default platform by a relative name too)");
    focus_on(s, P_RATIO);
    app_key(s, APP_KEY_RIGHT);
    focus_on(s, P_STRIDE);
    app_key(s, APP_KEY_RIGHT);
    char want[64];
    snprintf(want, sizeof want, "situ run --ratio 31 --stride %ld", s->p.stride);
    cr_assert_eq(app_command_line(s, cmd, sizeof cmd), 0);
    cr_assert_str_eq(cmd, want);
    snprintf(s->p.hostfile, sizeof s->p.hostfile, "it's a file");
    cr_assert_eq(app_command_line(s, cmd, sizeof cmd), 0);
    cr_assert(strstr(cmd, " --hostfile 'it'\\''s a file'"), "quoted for a shell: %s", cmd);
    cr_assert_eq(app_command_line(s, cmd, 12), -1, "too small: says so, never a cut line");
    s->p.hostfile[0] = 0;
    stop(s);
}

Test(workshop, w_saves_a_preset_the_picker_lists_and_loads)
{
    char dir[] = "/tmp/situ-presets-XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    setenv("XDG_CONFIG_HOME", dir, 1);
    struct app_state *s = start_nodes(2, "");
    focus_on(s, P_RATIO);
    app_key(s, APP_KEY_RIGHT);
    cr_assert_eq(s->p.ratio, 31);
    app_key(s, 'w');
    cr_assert_eq(s->mode, APP_PRESET_SAVE);
    for (const char *c = "default"; *c; c++)
        app_key(s, *c);
    app_key(s, APP_KEY_ENTER);
    cr_assert_eq(s->mode, APP_PRESET_SAVE, "an installed preset's name is refused");
    cr_assert(strstr(s->edit_err, "installed"), "%s", s->edit_err);
    app_key(s, APP_KEY_CTRL_U);
    for (const char *c = "my-r31 ratio 31 on two nodes"; *c; c++)
        app_key(s, *c);
    app_key(s, APP_KEY_ENTER);
    cr_assert_eq(s->mode, APP_MAIN, "%s", s->edit_err);
    cr_assert_str_eq(s->preset, "my-r31");
    cr_assert_not(s->modified);
    char path[1024];
    snprintf(path, sizeof path, "%s/situ/presets/my-r31.conf", dir);
    cr_assert_eq(access(path, R_OK), 0, "saved in $XDG_CONFIG_HOME/situ/presets");
    /* Elsewhere, then back through the picker: listed with its description, and it loads. */
    app_key(s, APP_KEY_LEFT);
    cr_assert_eq(s->p.ratio, 15);
    app_key(s, 'p');
    cr_assert_eq(s->mode, APP_PRESETS);
    int at = -1;
    for (int i = 0; i < s->npresets; i++)
        if (!strcmp(s->presets[i], "my-r31"))
            at = i;
    cr_assert_geq(at, 0, "the picker lists the saved preset");
    cr_assert_str_eq(s->preset_desc[at], "ratio 31 on two nodes");
    s->preset_sel = at;
    app_key(s, APP_KEY_ENTER);
    cr_assert_eq(s->p.ratio, 31);
    cr_assert_eq(s->p.nodes, 2);
    unlink(path);
    snprintf(path, sizeof path, "%s/situ/presets", dir);
    rmdir(path);
    snprintf(path, sizeof path, "%s/situ", dir);
    rmdir(path);
    rmdir(dir);
    stop(s);
}

/* One axis, one unit (issue 30): the crossover's y labels in the unit of the axis' top. */
Test(workshop, axis_labels_share_one_unit)
{
    char t[32];
    units_time_as(32738, 907200, t, sizeof t);
    cr_assert_str_eq(t, "9.09 h");
    units_time_as(151, 45276, t, sizeof t);
    cr_assert_str_eq(t, "151 s");
    units_time_as(0.5, 0.9, t, sizeof t);
    cr_assert_str_eq(t, "500 ms");
    units_time_short(32738, t, sizeof t);
    cr_assert_str_eq(t, "32738 s", "units_time_short alone would mix the units");
}

/* A student's place in the log (issue 30): their last step and goals met in this lesson, not
 * another student's nor another lesson's; a restart clears what came before. */
Test(workshop, lesson_log_place_is_the_students_own)
{
    struct app_state *s = start_nodes(1, "");
    char dir[] = "/tmp/situ-unit-log.XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    snprintf(s->lesson_log, sizeof s->lesson_log, "%s/class.log", dir);
    snprintf(s->lesson.student, sizeof s->lesson.student, "bob");
    struct lesson *l = lesson_load("efficiency", s->notice, sizeof s->notice);
    cr_assert_not_null(l, "%s", s->notice);
    FILE *f = fopen(s->lesson_log, "w");
    cr_assert_not_null(f);
    fprintf(
        f,
        "{\"event\":\"start\",\"lesson\":\"%1$s\",\"seconds\":0,\"student\":\"bob\"}\n"
        "{\"event\":\"step\",\"lesson\":\"%1$s\",\"seconds\":5,\"student\":\"bob\",\"step\":2}\n"
        "{\"event\":\"goal met\",\"lesson\":\"%1$s\",\"seconds\":9,\"student\":\"bob\","
        "\"step\":2}\n"
        "{\"event\":\"step\",\"lesson\":\"%1$s\",\"seconds\":12,\"student\":\"bob\",\"step\":3}\n"
        "{\"event\":\"step\",\"lesson\":\"%1$s\",\"seconds\":30,\"student\":\"eve\",\"step\":4}\n"
        "{\"event\":\"step\",\"lesson\":\"other.lua\",\"seconds\":40,\"student\":\"bob\","
        "\"step\":4}\n"
        "not json: skipped here (the report names it)\n",
        lesson_path(l));
    fclose(f);
    char err[512];
    cr_assert_geq(app_lesson_open(s, l, err, sizeof err), 0, "%s", err);
    cr_assert_eq(s->lesson.step, 2, "bob resumes at step 3");
    cr_assert_eq(s->lesson.met, 2ULL, "with step 2's goal met");
    cr_assert_geq(app_lesson_seconds(s), 12, "his clock goes on");
    cr_assert(strstr(s->notice, "welcome back: step 3"), "%s", s->notice);
    /* The open appended its own start line: the place is unchanged by it. */
    int step;
    unsigned long long met;
    double sec;
    cr_assert_eq(app_lesson_log_place(s, &step, &met, &sec), 1);
    cr_assert_eq(step, 2);
    app_lesson_restart(s);
    cr_assert_eq(app_lesson_log_place(s, &step, &met, &sec), 1);
    cr_assert_eq(step, 0, "a restart starts the place over");
    cr_assert_eq(met, 0ULL);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
    stop(s);
}
