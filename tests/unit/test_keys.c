/* The key tables (tui/state/app_keys.c): one row per binding drives the dispatch, the footer and
 * the help, so these check the table itself: no row is dead (shadowed by an earlier row that always
 * applies with the same key), every binding is documented in the help, every footer key does
 * something, and the per-stage comparison flags what it should. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../tui/state/app.h"
#include "fixtures.h"
#include "../../tui/stages/stages.h"

static const enum app_mode modes[] = {APP_MAIN,        APP_EDIT,  APP_HELP,        APP_PRESETS,
                                      APP_SCRIPT_PATH, APP_ERROR, APP_PRESET_SAVE, APP_ANSWER};

Test(keys, no_row_is_shadowed)
{
    for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
        const struct app_keymap *map = app_keymap(modes[m]);
        cr_assert_not_null(map);
        for (int i = 0; i < map->n; i++) {
            const struct app_keydef *d = &map->defs[i];
            for (int k = 0; d->keys[k]; k++) {
                for (int j = 0; j < i; j++) {
                    const struct app_keydef *e = &map->defs[j];
                    /* e applies whenever d does (its context bits are a subset of d's). */
                    if ((e->ctx & d->ctx) != e->ctx)
                        continue;
                    for (int q = 0; e->keys[q]; q++)
                        cr_assert_neq(e->keys[q], d->keys[k],
                                      "mode %d: row %d's key %d is taken by row %d first",
                                      (int)modes[m], i, d->keys[k], j);
                }
            }
        }
    }
}

Test(keys, every_binding_is_in_the_help)
{
    /* A row the help does not list shares its handler or its key with one it does (j with k,
     * the link view's [ with the scenario panel's). */
    const struct app_keymap *map = app_keymap(APP_MAIN);
    for (int i = 0; i < map->n; i++) {
        const struct app_keydef *d = &map->defs[i];
        if (d->help) {
            cr_assert_not_null(d->names, "row %d has help but no key names", i);
            continue;
        }
        bool documented = false;
        for (int j = 0; j < map->n && !documented; j++) {
            const struct app_keydef *e = &map->defs[j];
            documented = e->help && e->fn == d->fn && e->act == d->act;
            for (int q = 0; e->help && e->keys[q] && !documented; q++)
                documented = e->keys[q] == d->keys[0];
        }
        cr_assert(documented, "row %d (key %d) is in no help line", i, d->keys[0]);
    }
}

/* The cells a key's name takes on screen: "<lr>" and "<ud>" are two arrows, "<enter>" one. */
static int cells(const char *name)
{
    int n = 0;
    for (const char *p = name; *p; n++) {
        if (!strncmp(p, "<enter>", 7))
            p += 7;
        else if (!strncmp(p, "<lr>", 4) || !strncmp(p, "<ud>", 4))
            p += 4, n++;
        else
            p++;
    }
    return n;
}

/* Whether row d of map applies when the context bits `have` hold, and its footer key is not
 * taken by an earlier row that applies too (what the footer shows). */
static bool shown(const struct app_keymap *map, int i, unsigned have)
{
    const struct app_keydef *d = &map->defs[i];
    if (!d->foot_key || (d->ctx & have) != d->ctx)
        return false;
    for (int j = 0; j < i; j++) {
        const struct app_keydef *e = &map->defs[j];
        for (int q = 0; (e->ctx & have) == e->ctx && e->keys[q]; q++)
            if (e->keys[q] == d->keys[0])
                return false;
    }
    return true;
}

Test(keys, footer_rows_have_labels_and_fit_80_columns)
{
    /* The priority-1 rows of the main screen (with and without a lesson) and of every other
     * mode fit 80 columns, so that none is dropped there. */
    const unsigned contexts[] = {APP_CTX_NOLESSON, APP_CTX_LESSON, APP_CTX_LESSON | APP_CTX_DONE};
    for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
        const struct app_keymap *map = app_keymap(modes[m]);
        for (size_t c = 0; c < (modes[m] == APP_MAIN ? 3 : 1); c++) {
            int width = 0;
            for (int i = 0; i < map->n; i++) {
                const struct app_keydef *d = &map->defs[i];
                cr_assert(!d->foot_key || d->foot, "mode %d row %d: a key without a label",
                          (int)modes[m], i);
                if (shown(map, i, modes[m] == APP_MAIN ? contexts[c] : 0) && d->foot_prio == 1)
                    width += cells(d->foot_key) + 1 + (int)strlen(d->foot) + 1;
            }
            cr_assert_leq(width, 78, "mode %d context %zu: the footer needs %d columns",
                          (int)modes[m], c, width);
        }
    }
}

/* A state with a configuration, as the explorer starts. */
static struct app_state *start(void)
{
    struct app_state *s = calloc(1, sizeof *s);
    struct params p;
    params_defaults(&p);
    char err[512] = "";
    cr_assert_eq(app_init(s, &p, "", err, sizeof err), 0, "app_init: %s", err);
    return s;
}

/* E writes its files in the working directory: a scratch one, never the repository. */
Test(keys, every_main_footer_key_does_something, .init = fixture_dir_make,
     .fini = fixture_dir_remove)
{
    const struct app_keymap *map = app_keymap(APP_MAIN);
    char root[4096];
    cr_assert_not_null(getcwd(root, sizeof root));
    for (int i = 0; i < map->n; i++) {
        const struct app_keydef *d = &map->defs[i];
        if (!d->foot_key || (d->ctx & ~APP_CTX_NOLESSON))
            continue;
        struct app_state *s = start();
        cr_assert_eq(chdir(fixture_dir), 0); /* after start: it reads platforms/ from here */
        unsigned f = app_key(s, d->keys[0]);
        cr_assert_neq(f, 0, "footer key '%s' (%s) returned no flags", d->foot_key, d->foot);
        cr_assert_eq(chdir(root), 0);
        app_free(s);
        free(s);
    }
}

Test(keys, dispatch_follows_the_table)
{
    struct app_state *s = start();
    cr_assert_eq(app_key(s, 't'), APP_DIRTY);
    cr_assert_eq(s->pane, APP_PANE_STAGES, "t opens the per-stage table");
    app_key(s, APP_KEY_ESC);
    cr_assert_eq(s->pane, APP_PANE_XOVER, "Esc closes it");
    app_key(s, 'P');
    cr_assert(s->present, "P toggles the presentation");
    app_key(s, '?');
    cr_assert_eq(s->mode, APP_HELP);
    app_key(s, APP_KEY_DOWN);
    cr_assert_eq(s->help_scroll, 1, "the help scrolls");
    app_key(s, APP_KEY_ESC);
    cr_assert_eq(s->mode, APP_MAIN);
    cr_assert_eq(app_key(s, 'q'), APP_QUIT);
    app_free(s);
    free(s);
}

Test(stages, far_deltas_are_flagged_and_tiny_ones_are_not)
{
    struct params p;
    params_defaults(&p);
    struct model_result m = {0};
    m.stage = (struct stages){.S = 10, .Ing = 0, .R = 1, .A = 8, .W = 1e-6, .C = 1e-6};
    m.makespan = 100;
    struct sim_result r = {0};
    r.m = m;
    r.m.stage.S = 10.5;   /* +5%: far */
    r.m.stage.W = 2e-6;   /* +100% of nothing: tiny */
    r.m.makespan = 100.5; /* +0.5% */
    struct stage_cmp c;
    stages_compare(&p, &m, &r, &c);
    cr_assert(c.row[ST_S].far);
    cr_assert_float_eq(c.row[ST_S].delta, 0.05, 1e-9);
    cr_assert_not(c.row[ST_W].far, "a microsecond cannot move a 10 s period");
    cr_assert(c.row[ST_W].tiny);
    cr_assert_not(c.row[ST_MAKESPAN].far);
    cr_assert(c.row[ST_PERIOD].far, "the period follows S + Ing");
    cr_assert_eq(c.nfar, 2);
    stages_compare(&p, &m, NULL, &c);
    cr_assert_not(c.row[ST_S].has_sim);
    cr_assert_eq(c.nfar, 0);
}

Test(stages, fill_and_drain_is_named_at_few_steps)
{
    struct params p;
    params_defaults(&p);
    struct model_result m = {0};
    m.stage = (struct stages){.S = 10, .R = 1, .A = 5};
    m.makespan = 80;
    double sa[8], si[8], aa[8], ai[8];
    for (int i = 0; i < 8; i++)
        sa[i] = 10, si[i] = 0, aa[i] = 6, ai[i] = 4;
    ai[0] = 10; /* the first step: the analytics waits for the first state (fill) */
    sa[7] = 10, si[7] = 6;
    struct sim_result r = {0};
    r.m = m;
    r.m.stage.S = 11;
    r.nsteps = 8;
    r.step_sim_active = sa, r.step_sim_idle = si, r.step_ana_active = aa, r.step_ana_idle = ai;
    struct stage_cmp c;
    stages_compare(&p, &m, &r, &c);
    cr_assert(strstr(c.reason, "fill and drain"), "reason: '%s'", c.reason);
    /* The middle steps varying: the actors drift out of lockstep. */
    si[3] = 3;
    stages_compare(&p, &m, &r, &c);
    cr_assert(strstr(c.reason, "lockstep"), "reason: '%s'", c.reason);
}
