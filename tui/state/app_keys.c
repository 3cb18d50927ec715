/* The key tables: one per mode, each row a binding with its keys, its line in the help (?), its
 * label in the footer and its handler. app_key dispatches through them and the views draw the
 * footer and the help from them, so what a key does and what the screen says it does are one
 * fact. The handlers are here too (they are what the rows point at); the state they change is
 * app.c's. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "app.h"

/* A choice moves to the next one this configuration can take, skipping the others. A slider stops
 * at its ends as the numeric ones do (wrap false); m, a toggle, cycles (wrap true). */
static unsigned step_choice(struct app_state *s, int id, int dir, bool wrap)
{
    const struct param_desc *d = &param_table[id];
    int n = 0;
    while (d->choices[n])
        n++;
    int at = (int)params_get_number(&s->p, id);
    char first_err[APP_MSG_MAX] = "";
    for (int k = 1; k < n; k++) {
        int to = at + k * dir;
        if (wrap)
            to = ((to % n) + n) % n;
        else if (to < 0 || to >= n)
            break;
        struct params cand = s->p;
        char err[APP_MSG_MAX];
        if (params_set_number(&cand, id, to, NULL) < 0)
            continue;
        int rc = app_apply(s, &cand, err, sizeof err);
        if (rc >= 0) {
            s->modified = strcmp(s->key, s->base_key) != 0;
            return APP_DIRTY | (rc > 0 ? APP_CONFIG : 0);
        }
        if (!first_err[0])
            snprintf(first_err, sizeof first_err, "%s", err);
    }
    char now[64];
    params_format(&s->p, id, now, sizeof now);
    if (first_err[0])
        app_notice(s, true, "%s stays %s: %s", d->key, now, first_err);
    else
        app_notice(s, false, "%s is at its %s choice (%s)", d->key, dir > 0 ? "last" : "first",
                   now);
    return APP_DIRTY;
}

static unsigned step(struct app_state *s, int id, int steps, bool coarse)
{
    const struct param_desc *d = &param_table[id];
    struct params cand = s->p;
    if (d->type == PARAM_CHOICE)
        return step_choice(s, id, steps > 0 ? 1 : -1, false);
    if (!params_step(&cand, id, steps, coarse)) {
        char v[64];
        params_format(&s->p, id, v, sizeof v);
        app_notice(s, false, "%s is at its %s (%s)", d->key, steps > 0 ? "maximum" : "minimum", v);
        return APP_DIRTY;
    }
    return app_try_apply(s, &cand);
}

/* ---- modes ---------------------------------------------------------------------------------- */

static unsigned edit_begin(struct app_state *s)
{
    s->mode = APP_EDIT;
    s->edit[0] = 0;
    s->edit_len = 0;
    s->edit_prefilled = false;
    s->edit_err[0] = 0;
    s->notice[0] = 0;
    return APP_DIRTY;
}

static unsigned edit_commit(struct app_state *s)
{
    int id = app_focused(s);
    if (s->edit_len == 0) { /* nothing typed: nothing to change */
        s->mode = APP_MAIN;
        return APP_DIRTY;
    }
    struct params cand = s->p;
    char err[APP_MSG_MAX];
    if (params_set(&cand, id, s->edit, err) < 0) {
        snprintf(s->edit_err, sizeof s->edit_err, "%s", err);
        return APP_DIRTY;
    }
    int rc = app_apply(s, &cand, err, sizeof err);
    if (rc < 0) {
        snprintf(s->edit_err, sizeof s->edit_err, "%s", err);
        return APP_DIRTY;
    }
    s->mode = APP_MAIN;
    s->modified = strcmp(s->key, s->base_key) != 0;
    return APP_DIRTY | (rc > 0 ? APP_CONFIG : 0);
}

static unsigned presets_open(struct app_state *s)
{
    s->npresets = preset_list(s->presets, APP_PRESETS_MAX);
    if (s->npresets > APP_PRESETS_MAX)
        s->npresets = APP_PRESETS_MAX;
    if (s->npresets == 0) {
        app_notice(s, true, "no presets found (presets/*.conf in the data directories)");
        return APP_DIRTY;
    }
    s->preset_sel = 0;
    for (int i = 0; i < s->npresets; i++) {
        if (!strcmp(s->presets[i], s->preset))
            s->preset_sel = i;
        preset_description(s->presets[i], s->preset_desc[i], sizeof s->preset_desc[i]);
    }
    s->mode = APP_PRESETS;
    return APP_DIRTY;
}

static unsigned reset_focused(struct app_state *s)
{
    int id = app_focused(s);
    struct params def, cand = s->p;
    params_defaults(&def);
    const struct param_desc *d = &param_table[id];
    char err[PARAMS_ERR_MAX];
    if (d->type != PARAM_PATH && params_set_number(&cand, id, d->def, err) < 0) {
        app_notice(s, true, "%s", err);
        return APP_DIRTY;
    }
    return app_try_apply(s, &cand);
}

/* ---- handlers: (state, key, the row's arg) -> APP_* flags ----------------------------------- */

static unsigned k_quit(struct app_state *s, int key, int arg)
{
    (void)arg;
    if (s->mode == APP_MAIN && s->lesson.l) /* a lesson's q asks first; Ctrl-C does not */
        return key == 'q' ? app_lesson_quit(s) : (app_lesson_log(s, "quit", -1, NULL), APP_QUIT);
    return APP_QUIT;
}

/* Back to the main screen (Esc in a box, the key that opened it). */
static unsigned k_close(struct app_state *s, int key, int arg)
{
    (void)key, (void)arg;
    s->mode = APP_MAIN;
    return APP_DIRTY;
}

static unsigned k_focus(struct app_state *s, int key, int arg)
{
    (void)key;
    /* arg: -1 / +1 one up or down; -2 the first, +2 the last */
    int to = arg == -2 ? 0 : arg == 2 ? s->nsliders - 1 : s->focus + arg;
    s->focus = to < 0 ? 0 : to > s->nsliders - 1 ? s->nsliders - 1 : to;
    return APP_DIRTY;
}

static unsigned k_step(struct app_state *s, int key, int arg)
{
    (void)key;
    /* arg: -1 / +1 a step, -2 / +2 a coarse one */
    return step(s, app_focused(s), arg > 0 ? 1 : -1, arg == 2 || arg == -2);
}

static unsigned k_mapping(struct app_state *s, int key, int arg)
{
    (void)key, (void)arg;
    return step_choice(s, P_MAPPING, 1, true);
}

static unsigned k_rerun(struct app_state *s, int key, int arg)
{
    (void)key, (void)arg;
    app_notice(s, false, "simulating this configuration again");
    s->sim_phase = SIM_WAITING; /* the old result stays on screen until the new one lands */
    return APP_DIRTY | APP_RERUN;
}

/* A prompt (arg: its mode) starts empty, or with what it last ran (the scenario's path). */
/* C: the simulation of the configuration on screen (and the curve's points) dropped. */
static unsigned k_cancel(struct app_state *s, int key, int arg)
{
    (void)key, (void)arg;
    if (s->sim_phase != SIM_WAITING && s->sim_phase != SIM_QUEUED && s->sim_phase != SIM_RUNNING) {
        app_notice(s, false, "no simulation to cancel");
        return APP_DIRTY;
    }
    s->sim_phase = SIM_CANCELLED;
    app_notice(s, false, "simulations cancelled: r runs them again");
    return APP_DIRTY | APP_CANCEL;
}

static unsigned k_prompt(struct app_state *s, int key, int arg)
{
    (void)key;
    s->mode = (enum app_mode)arg;
    s->edit[0] = 0;
    if (arg == APP_SCRIPT_PATH)
        snprintf(s->edit, sizeof s->edit, "%.*s", APP_EDIT_MAX - 1, s->last_script);
    s->edit_len = (int)strlen(s->edit);
    s->edit_prefilled = s->edit_len > 0;
    s->edit_err[0] = 0;
    return APP_DIRTY;
}

static unsigned k_mode(struct app_state *s, int key, int arg)
{
    (void)key;
    s->mode = (enum app_mode)arg;
    if (s->mode == APP_HELP)
        s->help_scroll = 0;
    return APP_DIRTY;
}

static unsigned k_error(struct app_state *s, int key, int arg)
{
    (void)key, (void)arg;
    char caution[APP_ERR_LONG];
    if (!app_error(s, &(const char *){NULL})[0] && !app_caution(s, caution, sizeof caution)[0]) {
        app_notice(s, false, "no error or caution to show");
        return APP_DIRTY;
    }
    s->mode = APP_ERROR;
    return APP_DIRTY;
}

static unsigned k_search(struct app_state *s, int key, int arg)
{
    (void)key, (void)arg;
    app_notice(s, false, "no search here: up/down (k j) select a parameter, ? lists every key");
    return APP_DIRTY;
}

/* The block under the sliders: a view's key shows it, the same key goes back to the lesson (if
 * one is open) or the crossover. */
static unsigned k_pane(struct app_state *s, int key, int arg)
{
    (void)key;
    enum app_pane home = s->lesson.l ? APP_PANE_LESSON : APP_PANE_XOVER;
    s->pane = s->pane == (enum app_pane)arg ? home : (enum app_pane)arg;
    return APP_DIRTY;
}

/* Esc: closes a view (back to the lesson or the plot), clears the notice. */
static unsigned k_escape(struct app_state *s, int key, int arg)
{
    (void)key, (void)arg;
    if (s->pane != APP_PANE_XOVER && s->pane != APP_PANE_LESSON)
        s->pane = s->lesson.l ? APP_PANE_LESSON : APP_PANE_XOVER;
    return APP_DIRTY;
}

static unsigned k_present(struct app_state *s, int key, int arg)
{
    (void)key, (void)arg;
    s->present = !s->present;
    app_notice(s, false, "presentation %s (P toggles)", s->present ? "on: big plot" : "off");
    return APP_DIRTY;
}

static unsigned k_theme(struct app_state *s, int key, int arg)
{
    (void)key, (void)arg;
    s->theme = (s->theme + 1) % THEME_COUNT;
    app_notice(s, false, "theme %s (T: the next; P turns contrast on too)", theme_names[s->theme]);
    return APP_DIRTY;
}

/* arg: -1 / +1 a cell left / right, -2 / +2 down / up. */
static unsigned k_advise_move(struct app_state *s, int key, int arg)
{
    (void)key;
    return arg == -1 || arg == 1 ? app_advise_move(s, arg, 0) : app_advise_move(s, 0, arg / 2);
}

static unsigned k_advise_axis(struct app_state *s, int key, int arg)
{
    (void)arg;
    return app_advise_axis(s, key);
}

static unsigned k_lesson_restart(struct app_state *s, int key, int arg)
{
    (void)key, (void)arg;
    s->text_scroll = 0;
    return app_lesson_restart(s);
}

/* The scenario panel's output, `lines` towards the newest (negative: older). */
static unsigned script_scroll(struct app_script *sp, int lines)
{
    int to = sp->scroll - lines; /* scroll counts lines up from the newest */
    int most = sp->nlines > 0 ? sp->nlines - 1 : 0;
    sp->scroll = to < 0 ? 0 : to > most ? most : to;
    return APP_DIRTY;
}

/* PgUp / PgDn over the lesson's text or the scenario's output: arg -1 up, +1 down, by pages of
 * a few lines; the lesson's stops at its end (text_most, from the last frame). */
static unsigned k_text_scroll(struct app_state *s, int key, int arg)
{
    (void)key;
    if (s->script.phase != APP_SCRIPT_OFF)
        return script_scroll(&s->script, arg * 5);
    s->text_scroll += arg * 5;
    s->text_scroll = s->text_scroll > s->text_most ? s->text_most : s->text_scroll;
    if (s->text_scroll < 0)
        s->text_scroll = 0;
    return APP_DIRTY;
}

/* [ ] scroll the scenario panel (arg -1: older), the lesson's text (by a few lines) or the link
 * view (-1: back to the top; the view clamps the end). One handler: one help line for all. */
static unsigned k_bracket_scroll(struct app_state *s, int key, int arg)
{
    (void)key;
    if (s->script.phase != APP_SCRIPT_OFF)
        return script_scroll(&s->script, arg);
    if (s->pane == APP_PANE_LESSON && s->lesson.l)
        return k_text_scroll(s, key, arg);
    int most = s->has_sim && s->sim.nlinks > 0 ? s->sim.nlinks - 1 : 0;
    s->links_scroll += arg;
    s->links_scroll = s->links_scroll < 0 ? 0 : s->links_scroll > most ? most : s->links_scroll;
    return APP_DIRTY;
}

/* Never silent: a key no row holds says so. */
static unsigned main_other(struct app_state *s, int key)
{
    if (key > 0x20 && key < 0x7f) {
        app_notice(s, false, "%c does nothing here: ? lists the keys", key);
        return APP_DIRTY;
    }
    return 0;
}

/* ---- the tables ------------------------------------------------------------------------------ */

#define K(...)                                                                                     \
    {                                                                                              \
        __VA_ARGS__, 0                                                                             \
    }
#define L           APP_CTX_LESSON
#define DO(fn, arg) fn, arg, NULL /* a handler given the key and the row's argument */
#define ACT(act)    NULL, 0, act  /* an action of the state alone */

/* The main screen. Order matters twice: the first active row with the key wins (with a lesson
 * open, h is its hint, not a step left), and the footer lists its rows in this order. */
static const struct app_keydef main_keys[] = {
    /* The advisor view (a): its keys first, while it is open. */
    {APP_CTX_ADVISE, K(APP_KEY_LEFT, 'h'), "<lr><ud>  hjkl", "advisor: move on the heatmap",
     "<lr><ud>", "move", 1, DO(k_advise_move, -1)},
    {APP_CTX_ADVISE, K(APP_KEY_RIGHT, 'l'), NULL, NULL, NULL, NULL, 0, DO(k_advise_move, 1)},
    {APP_CTX_ADVISE, K(APP_KEY_UP, 'k'), NULL, NULL, NULL, NULL, 0, DO(k_advise_move, 2)},
    {APP_CTX_ADVISE, K(APP_KEY_DOWN, 'j'), NULL, NULL, NULL, NULL, 0, DO(k_advise_move, -2)},
    {APP_CTX_ADVISE, K('X', 'Y'), "X Y", "advisor: the next parameter on an axis", "X Y", "axes", 1,
     DO(k_advise_axis, 0)},
    {APP_CTX_ADVISE, K('o'), "o", "advisor: the next objective", "o", "objective", 1,
     ACT(app_advise_objective)},
    {APP_CTX_ADVISE, K('*'), "*", "advisor: to the best cell", "*", "best", 1,
     ACT(app_advise_best)},
    {APP_CTX_ADVISE, K('a', APP_KEY_ESC), NULL, NULL, "a", "close", 1, ACT(app_advise_open)},
    /* The lesson's keys are none of the explorer's (h stays a step left). */
    {L, K('n'), "n", "lesson: next step (on an unmet goal it asks first)", "n", "next", 1,
     ACT(app_lesson_next)},
    {L, K('b'), "b", "lesson: back a step, as it was set up (y: your changes)", "b", "back", 1,
     ACT(app_lesson_back)},
    {L, K(APP_KEY_LESSON_HINT), "i", "lesson: a hint; again for more (the last resort asks)", "i",
     "hint", 1, ACT(app_lesson_hint)},
    {L, K(APP_KEY_LESSON_YOURS), "y", "lesson: your changes back (after b or R), and again", NULL,
     NULL, 0, ACT(app_lesson_yours)},
    {L, K('A'), "A", "lesson: answer the step's question", NULL, NULL, 0,
     ACT(app_lesson_answer_begin)},
    {L | APP_CTX_DONE, K(APP_KEY_LESSON_RESET), "R",
     "lesson: reset the step to its setup (at the end: restart the lesson)", "R", "restart", 1,
     DO(k_lesson_restart, 0)},
    {L, K(APP_KEY_LESSON_RESET), NULL, NULL, "R", "reset", 2, ACT(app_lesson_reset_step)},
    {APP_CTX_SCRIPT, K('x', APP_KEY_ESC), "x  Esc", "scenario panel: close it (cancels its runs)",
     NULL, NULL, 0, ACT(app_script_close)},
    /* [ ] scroll text; PgUp PgDn stay the coarse step everywhere. */
    {APP_CTX_TEXT, K('['), "[ ]", "scroll the lesson's text, the scenario panel, the link view",
     NULL, NULL, 0, DO(k_bracket_scroll, -1)},
    {APP_CTX_TEXT, K(']'), NULL, NULL, NULL, NULL, 0, DO(k_bracket_scroll, 1)},
    {APP_CTX_LINKS, K('['), NULL, NULL, NULL, NULL, 0, DO(k_bracket_scroll, -1)},
    {APP_CTX_LINKS, K(']'), NULL, NULL, NULL, NULL, 0, DO(k_bracket_scroll, 1)},
    {0, K(APP_KEY_UP, 'k', APP_KEY_BTAB), "<ud>  k j  Tab", "select a parameter", NULL, NULL, 0,
     DO(k_focus, -1)},
    {0, K(APP_KEY_DOWN, 'j', APP_KEY_TAB), NULL, NULL, NULL, NULL, 0, DO(k_focus, 1)},
    {0, K(APP_KEY_HOME, 'g'), "Home End  g G", "first / last parameter", NULL, NULL, 0,
     DO(k_focus, -2)},
    {0, K(APP_KEY_END, 'G'), NULL, NULL, NULL, NULL, 0, DO(k_focus, 2)},
    {0, K(APP_KEY_LEFT, 'h', '-'), "<lr>  h l  - +", "step it (ratios: realisable values only)",
     "<lr>", "step", 1, DO(k_step, -1)},
    {0, K(APP_KEY_RIGHT, 'l', '+'), NULL, NULL, NULL, NULL, 0, DO(k_step, 1)},
    {0, K(APP_KEY_PGDN, 'H'), "PgUp PgDn  L H", "coarse step", NULL, NULL, 0, DO(k_step, -2)},
    {0, K(APP_KEY_PGUP, 'L'), NULL, NULL, NULL, NULL, 0, DO(k_step, 2)},
    {0, K(APP_KEY_ENTER, 'e'), "<enter>  e", "type an exact value (Esc cancels)", "<enter>", "type",
     1, ACT(edit_begin)},
    {0, K('d'), "d", "reset the parameter to its default", NULL, NULL, 0, ACT(reset_focused)},
    {APP_CTX_NOLESSON, K('m'), "m", "switch the mapping (in situ, in transit)", "m", "map", 1,
     DO(k_mapping, 0)},
    {L, K('m'), NULL, NULL, NULL, NULL, 0, DO(k_mapping, 0)},
    {0, K('r'), "r", "simulate the current configuration again", "r", "rerun", 2, DO(k_rerun, 0)},
    {0, K('C'), "C", "cancel the simulations in progress (r runs them again)", NULL, NULL, 0,
     DO(k_cancel, 0)},
    {0, K('f'), "f", "refine on/off: fast, then full fidelity once the setting stays", "f",
     "refine", 2, ACT(app_refine_toggle)},
    {L, K('c'), "c", "crossover plot (again: back to the lesson)", "c", "plot", 2,
     DO(k_pane, APP_PANE_XOVER)},
    {0, K('c'), NULL, NULL, NULL, NULL, 0, DO(k_pane, APP_PANE_XOVER)},
    {0, K('t'), "t", "per-stage table: model against SimGrid", "t", "stages", 2,
     DO(k_pane, APP_PANE_STAGES)},
    {0, K('u'), "u  [ ]", "link utilisation; scroll it (Esc closes)", "u", "links", 1,
     DO(k_pane, APP_PANE_LINKS)},
    {0, K('s'), "s", "static scaling: rate against time (Esc closes)", "s", "scale", 1,
     DO(k_pane, APP_PANE_SCALING)},
    {0, K('P'), "P", "presentation: big plot, one slider, high contrast", NULL, NULL, 0,
     DO(k_present, 0)},
    {0, K('T'), "T", "theme: dark, high contrast, light (--theme, SITU_THEME)", NULL, NULL, 0,
     DO(k_theme, 0)},
    {APP_CTX_NOLESSON, K('a'), "a", "advisor heatmap (a or Esc closes it)", "a", "advise", 1,
     ACT(app_advise_open)},
    {L, K('a'), NULL, NULL, "a", "advise", 2, ACT(app_advise_open)},
    {APP_CTX_NOLESSON, K('p'), "p  w", "presets: load one; save this configuration as one", "p",
     "preset", 1, ACT(presets_open)},
    {L, K('p'), NULL, NULL, NULL, NULL, 0, ACT(presets_open)},
    {0, K('w'), NULL, NULL, "w", "save", 2, DO(k_prompt, APP_PRESET_SAVE)},
    {0, K('E'), "E", "export this view: JSON, CSV, SVG, PNG", "E", "export", 2, ACT(app_export)},
    {0, K('x'), "x", "run a Lua scenario in a panel (prefilled: the last)", NULL, NULL, 0,
     DO(k_prompt, APP_SCRIPT_PATH)},
    {0, K('!'), "!", "the last error (or caution) in full", NULL, NULL, 0, DO(k_error, 0)},
    {0, K('/'), "/", "(no search: the arrows select a parameter)", NULL, NULL, 0, DO(k_search, 0)},
    {0, K(APP_KEY_ESC), "Esc", "close a view (back to the lesson or the plot)", NULL, NULL, 0,
     DO(k_escape, 0)},
    {0, K('?'), "?", "this help (scrolls with the arrows)", "?", "keys", 1, DO(k_mode, APP_HELP)},
    {0, K('q', APP_KEY_CTRL_C), "q  Ctrl-C", "quit (prints the situ run command line)", "q", "quit",
     1, DO(k_quit, 0)},
};

static unsigned help_scroll(struct app_state *s, int key, int arg)
{
    (void)key;
    s->help_scroll += arg;
    if (s->help_scroll < 0)
        s->help_scroll = 0; /* the view clamps the end */
    return APP_DIRTY;
}

static const struct app_keydef help_keys[] = {
    {0, K(APP_KEY_UP, 'k', APP_KEY_PGUP), "<ud>", "scroll", "<ud>", "scroll", 1,
     DO(help_scroll, -1)},
    {0, K(APP_KEY_DOWN, 'j', APP_KEY_PGDN), NULL, NULL, NULL, NULL, 0, DO(help_scroll, 1)},
    {0, K('?', APP_KEY_ESC), "?  Esc", "close the help", "?/Esc", "close help", 1, DO(k_close, 0)},
    {0, K('q', APP_KEY_CTRL_C), "q", "quit", "q", "quit", 1, DO(k_quit, 0)},
};

static const struct app_keydef error_keys[] = {
    {0, K('!', APP_KEY_ESC, APP_KEY_ENTER), "!  Esc", "close", "!/Esc", "close", 1, DO(k_close, 0)},
    {0, K('q', APP_KEY_CTRL_C), "q", "quit", "q", "quit", 1, DO(k_quit, 0)},
};

static unsigned preset_move(struct app_state *s, int key, int arg)
{
    (void)key;
    int to = s->preset_sel + arg;
    s->preset_sel = to < 0 ? 0 : to > s->npresets - 1 ? s->npresets - 1 : to;
    return APP_DIRTY;
}

static unsigned preset_load(struct app_state *s, int key, int arg)
{
    (void)key, (void)arg;
    const char *name = s->presets[s->preset_sel];
    struct params cand;
    params_defaults(&cand);
    char err[APP_MSG_MAX + PARAMS_PATH_MAX];
    s->mode = APP_MAIN;
    int rc = preset_apply(name, &cand, err, sizeof err);
    if (rc == 0)
        rc = app_apply(s, &cand, err, sizeof err);
    if (rc < 0) {
        app_notice(s, true, "%.*s", APP_MSG_MAX - 1, err);
        return APP_DIRTY;
    }
    if (s->pf_loading) { /* its platform is being read: the preset lands with it */
        s->pf_pending_preset = true;
        snprintf(s->preset, sizeof s->preset, "%s", name);
        return APP_DIRTY;
    }
    snprintf(s->preset, sizeof s->preset, "%s", name);
    snprintf(s->base_key, sizeof s->base_key, "%s", s->key);
    s->modified = false;
    app_notice(s, false, "preset %s loaded", name);
    return APP_DIRTY | (rc > 0 ? APP_CONFIG : 0);
}

static const struct app_keydef preset_keys[] = {
    {0, K(APP_KEY_UP, 'k'), "<ud>", "choose", "<ud>", "choose", 1, DO(preset_move, -1)},
    {0, K(APP_KEY_DOWN, 'j'), NULL, NULL, NULL, NULL, 0, DO(preset_move, 1)},
    {0, K(APP_KEY_ENTER), "<enter>", "load", "<enter>", "load", 1, DO(preset_load, 0)},
    {0, K(APP_KEY_ESC, 'p'), "Esc", "cancel", "Esc", "cancel", 1, DO(k_close, 0)},
    {0, K('q', APP_KEY_CTRL_C), "q", "quit", "q", "quit", 1, DO(k_quit, 0)},
};

/* ---- prompts: the value editor, the preset's name, the scenario's path ---------------------- */

static unsigned prompt_backspace(struct app_state *s, int key, int arg)
{
    (void)key, (void)arg;
    s->edit_prefilled = false; /* editing the last value, not replacing it */
    if (s->edit_len > 0)
        s->edit[--s->edit_len] = 0;
    s->edit_err[0] = 0;
    return APP_DIRTY;
}

static unsigned prompt_clear(struct app_state *s, int key, int arg)
{
    (void)key, (void)arg;
    s->edit_len = 0;
    s->edit[0] = 0;
    s->edit_err[0] = 0;
    return APP_DIRTY;
}

static unsigned prompt_type(struct app_state *s, int key)
{
    if (key >= 0x20 && key < 0x7f && s->edit_prefilled) /* a new value replaces the last */
        s->edit_len = 0, s->edit[0] = 0;
    s->edit_prefilled = false;
    if (key >= 0x20 && key < 0x7f && s->edit_len < APP_EDIT_MAX - 1) {
        s->edit[s->edit_len++] = (char)key;
        s->edit[s->edit_len] = 0;
        s->edit_err[0] = 0;
        return APP_DIRTY;
    }
    return 0;
}

#define PROMPT_KEYS(commit, label)                                                                 \
    {0, K(APP_KEY_ENTER), "<enter>", label, "<enter>", label, 1, ACT(commit)},                     \
        {0, K(APP_KEY_ESC), "Esc", "cancel", "Esc", "cancel", 1, DO(k_close, 0)},                  \
        {0, K(APP_KEY_BACKSPACE), NULL, NULL, NULL, NULL, 0, DO(prompt_backspace, 0)},             \
        {0, K(APP_KEY_CTRL_U), "Ctrl-U", "clear", "Ctrl-U", "clear", 1, DO(prompt_clear, 0)},      \
    {                                                                                              \
        0, K(APP_KEY_CTRL_C), "Ctrl-C", "quit", "Ctrl-C", "quit", 1, DO(k_quit, 0)                 \
    }

static const struct app_keydef edit_keys[] = {PROMPT_KEYS(edit_commit, "apply")};
static const struct app_keydef save_keys[] = {PROMPT_KEYS(app_preset_save_commit, "save")};
static const struct app_keydef script_keys[] = {PROMPT_KEYS(app_script_path_commit, "run")};

static const struct app_keydef answer_keys[] = {PROMPT_KEYS(app_lesson_answer_commit, "answer")};

#define MAP(t, title, other)                                                                       \
    {                                                                                              \
        t, (int)(sizeof t / sizeof t[0]), title, other                                             \
    }

const struct app_keymap *app_keymap(enum app_mode m)
{
    static const struct app_keymap maps[] = {
        [APP_MAIN] = MAP(main_keys, "Keys", main_other),
        [APP_EDIT] = MAP(edit_keys, "Typing a value", prompt_type),
        [APP_HELP] = MAP(help_keys, "Help", NULL),
        [APP_PRESETS] = MAP(preset_keys, "Presets", NULL),
        [APP_SCRIPT_PATH] = MAP(script_keys, "Scenario", prompt_type),
        [APP_ERROR] = MAP(error_keys, "Last error", NULL),
        [APP_PRESET_SAVE] = MAP(save_keys, "Saving a preset", prompt_type),
        [APP_ANSWER] = MAP(answer_keys, "Answering", prompt_type),
    };
    return &maps[m];
}

bool app_keydef_active(const struct app_state *s, const struct app_keydef *d)
{
    unsigned have = 0;
    if (s->lesson.l)
        have |= APP_CTX_LESSON | (s->lesson.done ? APP_CTX_DONE : 0);
    else
        have |= APP_CTX_NOLESSON;
    if (s->script.phase != APP_SCRIPT_OFF)
        have |= APP_CTX_SCRIPT | APP_CTX_TEXT;
    if (s->pane == APP_PANE_LINKS)
        have |= APP_CTX_LINKS;
    if (s->adv.open)
        have |= APP_CTX_ADVISE;
    if (s->pane == APP_PANE_LESSON && s->lesson.l)
        have |= APP_CTX_TEXT;
    return (d->ctx & have) == d->ctx;
}

bool app_keydef_shadowed(const struct app_state *s, const struct app_keymap *map, int i)
{
    for (int j = 0; j < i; j++) {
        const struct app_keydef *e = &map->defs[j];
        if (!app_keydef_active(s, e))
            continue;
        for (int k = 0; e->keys[k]; k++)
            if (e->keys[k] == map->defs[i].keys[0])
                return true;
    }
    return false;
}

unsigned app_key(struct app_state *s, int key)
{
    const struct app_keymap *map = app_keymap(s->mode);
    if (s->mode == APP_MAIN) {
        s->notice[0] = 0;                 /* a notice answers the key before */
        s->confirm_prev = s->confirm_key; /* a key that asked: pressed again, it acts */
        s->confirm_key = 0;
    }
    for (int i = 0; i < map->n; i++) {
        const struct app_keydef *d = &map->defs[i];
        if (!app_keydef_active(s, d))
            continue;
        for (int k = 0; d->keys[k]; k++)
            if (d->keys[k] == key)
                return d->fn ? d->fn(s, key, d->arg) : d->act(s);
    }
    return map->other ? map->other(s, key) : 0;
}
