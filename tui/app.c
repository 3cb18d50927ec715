#include "app.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../engine/layout.h"
#include "../engine/sim.h"

static void notice(struct app_state *s, bool error, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void notice(struct app_state *s, bool error, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->notice, sizeof s->notice, fmt, ap);
    va_end(ap);
    s->notice_error = error;
}

int app_focused(const struct app_state *s)
{
    return s->sliders[s->focus];
}

/* ---- configuration changes ------------------------------------------------------------------ */

/* SimGrid reads cand's platform (or routes) in a child, off this thread; app_platform_loaded
 * applies cand when they are cached. Returns 0: nothing changed yet. */
static int load_later(struct app_state *s, const struct params *cand)
{
    s->pf_pending = *cand;
    s->pf_pending_preset = false;
    if (!s->pf_loading)
        s->load_platform(s->load_ud, cand);
    s->pf_loading = true;
    notice(s, false, "SimGrid is reading %.200s", cand->platform);
    return 0;
}

int app_apply(struct app_state *s, const struct params *cand, char *err, size_t errlen)
{
    char perr[PARAMS_ERR_MAX];
    if (params_validate(cand, perr) < 0) {
        snprintf(err, errlen, "%s", perr);
        return -1;
    }
    /* The platform is parsed once per path; a new one replaces the old only if all goes well. */
    struct platform fresh, *pf = &s->pf;
    bool new_pf = !s->pf_loaded || strcmp(s->pf_path, cand->platform);
    if (new_pf && s->load_platform && !platform_cached(cand->platform))
        return load_later(s, cand);
    if (new_pf) {
        if (platform_load(cand->platform, &fresh, err, errlen) < 0)
            return -1;
        pf = &fresh;
    }
    struct layout l;
    int built = layout_build(cand, pf, &l, err, errlen);
    bool later = built == 0 && s->load_platform && platform_layout_routes_missing(pf, &l);
    if (built < 0 || later || platform_need_layout_routes(pf, &l, err, errlen) < 0) {
        layout_free(&l); /* a large platform's routes come lazily: later, off this thread */
        if (new_pf)
            platform_free(&fresh);
        return later ? load_later(s, cand) : -1;
    }
    /* The built-in's model is computed here and now; a Lua file's by the evaluator process
     * (user code never runs on this thread), the old numbers staying up meanwhile. */
    struct model_result m;
    bool lua = cand->analytics[0] != 0;
    if (!lua) {
        struct analytics_profile prof;
        char perr[PARAMS_ERR_MAX];
        if (profile_source_builtin(cand, &l, &prof, perr, sizeof perr) < 0) {
            snprintf(err, errlen, "%s", perr);
            layout_free(&l);
            if (new_pf)
                platform_free(&fresh);
            return -1;
        }
        model_eval(cand, pf, &l, &prof, &m);
        profile_free(&prof);
    }
    layout_free(&l);
    if (new_pf) {
        if (s->pf_loaded)
            platform_free(&s->pf);
        s->pf = fresh;
        s->pf_loaded = true;
        snprintf(s->pf_path, sizeof s->pf_path, "%s", cand->platform);
    }

    char key[RUNNER_KEY_MAX];
    params_canonical(cand, key, sizeof key);
    int changed = strcmp(key, s->key) != 0;
    bool lua_changed = strcmp(cand->analytics, s->p.analytics) != 0;
    s->p = *cand;
    if (!lua) {
        s->model = m;
        s->model_valid = true;
        s->model_pending = false;
        s->analytics_err[0] = 0;
    } else if (changed || lua_changed || !s->model_valid) {
        s->model_pending = true;
        s->model_gen++;
    }
    if (changed) {
        snprintf(s->key, sizeof s->key, "%s", key);
        /* Back on the preset's own configuration (d, or stepping back): no longer modified. */
        if (s->base_key[0] && !strcmp(key, s->base_key))
            s->modified = false;
        result_free(&s->sim);
        s->has_sim = false;
        s->sim_cached = false;
        s->sim_err[0] = 0;
        s->sim_phase = SIM_WAITING;
    }
    xover_rebase(&s->xo, &s->p); /* the curves follow, computed off the key path */
    scaling_rebase(&s->sc, &s->p);
    if (s->adv.open) /* the map follows at once: the model is pure and quick (make bench) */
        advise_map_build(&s->adv, &s->p, &s->pf);
    app_lesson_check(s);
    return changed;
}

int app_init(struct app_state *s, const struct params *p, const char *preset, char *err,
             size_t errlen)
{
    memset(s, 0, sizeof *s);
    advise_map_init(&s->adv);
    s->alert = SIM_ALERT_DEFAULT;
    for (int id = 0; id < PARAM_COUNT; id++) {
        if (!param_table[id].slider)
            continue;
        if (id == P_RATIO)
            s->focus = s->nsliders; /* the paper's first question: how to split the cores */
        s->sliders[s->nsliders++] = id;
    }
    snprintf(s->preset, sizeof s->preset, "%s", preset ? preset : "");
    if (app_apply(s, p, err, errlen) < 0) {
        app_free(s);
        return -1;
    }
    /* Flags that moved away from the preset (or the defaults) show as a modification, as a
     * slider would. */
    struct params def;
    char perr[PARAMS_ERR_MAX + PARAMS_PATH_MAX];
    params_defaults(&def);
    if (s->preset[0])
        preset_apply(s->preset, &def, perr, sizeof perr);
    snprintf(def.platform, sizeof def.platform, "%s", p->platform);
    char a[RUNNER_KEY_MAX], b[RUNNER_KEY_MAX];
    params_canonical(&def, a, sizeof a);
    params_canonical(p, b, sizeof b);
    snprintf(s->base_key, sizeof s->base_key, "%s", a);
    s->modified = strcmp(a, b) != 0;
    app_xover_sync(s);
    return 0;
}

void app_xover_sync(struct app_state *s)
{
    if (!xover_current(&s->xo))
        xover_curves_eval(&s->xo.c, &s->xo.base, s->xo.base_key, &s->pf, profile_source_builtin);
}

unsigned app_on_curves(struct app_state *s, const struct xover_curves *c)
{
    if (strcmp(c->key, s->xo.base_key))
        return 0; /* computed for a configuration the user has already left */
    s->xo.c = *c;
    return APP_DIRTY;
}

void app_scaling_sync(struct app_state *s)
{
    if (!scaling_current(&s->sc))
        scaling_eval(&s->sc.c, &s->sc.base, s->sc.base_key, &s->pf, profile_source_builtin);
}

unsigned app_on_scaling(struct app_state *s, const struct scaling_curves *c)
{
    if (strcmp(c->key, s->sc.base_key))
        return 0;
    s->sc.c = *c;
    return APP_DIRTY;
}

/* The analytics file's name without directory or .lua, for notices. */
static const char *analytics_file_name(const struct app_state *s, char *buf, size_t len)
{
    const char *slash = strrchr(s->p.analytics, '/');
    snprintf(buf, len, "%s", slash ? slash + 1 : s->p.analytics);
    size_t n = strlen(buf);
    if (n > 4 && !strcmp(buf + n - 4, ".lua"))
        buf[n - 4] = 0;
    return buf;
}

unsigned app_on_analytics_changed(struct app_state *s)
{
    /* Same parameters, new content: every result of the old content is stale. */
    s->model_pending = true;
    s->model_gen++;
    result_free(&s->sim);
    s->has_sim = false;
    s->sim_cached = false;
    s->sim_err[0] = 0;
    s->sim_phase = SIM_WAITING;
    memset(s->xo.pstate, 0, sizeof s->xo.pstate);
    s->xo.c.key[0] = 0;
    s->sc.c.key[0] = 0;
    s->reloading = true;
    char name[PARAMS_PATH_MAX];
    notice(s, false, "analytics %s changed: evaluating it",
           analytics_file_name(s, name, sizeof name));
    return APP_DIRTY | APP_CONFIG | APP_RERUN;
}

unsigned app_on_model(struct app_state *s, long gen, const struct model_result *m, const char *err)
{
    if (gen != s->model_gen || !s->model_pending)
        return 0; /* for a configuration the user has already left */
    s->model_pending = false;
    bool reloaded = s->reloading;
    s->reloading = false;
    if (err) {
        snprintf(s->analytics_err, sizeof s->analytics_err, "%s", err);
        s->model_valid = false;
        return APP_DIRTY;
    }
    if (reloaded) {
        char name[PARAMS_PATH_MAX];
        notice(s, false, "analytics %s reloaded", analytics_file_name(s, name, sizeof name));
    }
    s->analytics_err[0] = 0;
    s->model = *m;
    s->model_valid = true;
    app_lesson_check(s); /* against the new model */
    return APP_DIRTY | APP_EVALUATED;
}

bool app_sim_allowed(const struct app_state *s)
{
    return !s->model_pending && s->model_valid;
}

void app_free(struct app_state *s)
{
    app_lesson_close(s);
    app_script_close(s);
    result_free(&s->sim);
    if (s->pf_loaded)
        platform_free(&s->pf);
    s->pf_loaded = false;
}

unsigned app_platform_loaded(struct app_state *s, const char *err)
{
    if (!s->pf_loading)
        return 0;
    s->pf_loading = false;
    if (err) {
        notice(s, true, "%.*s", APP_MSG_MAX - 1, err);
        return APP_DIRTY;
    }
    char why[APP_MSG_MAX];
    struct params cand = s->pf_pending;
    if (s->pf_loaded && !strcmp(s->pf_path, cand.platform)) {
        platform_free(&s->pf); /* read it again from the cache: with the new routes */
        s->pf_loaded = false;
    }
    /* Now or never: without a cache (no HOME) it would be read in the background forever. */
    void (*hook)(void *, const struct params *) = s->load_platform;
    s->load_platform = NULL;
    int rc = app_apply(s, &cand, why, sizeof why);
    s->load_platform = hook;
    if (rc < 0) {
        notice(s, true, "%s", why);
        return APP_DIRTY;
    }
    if (s->pf_pending_preset)
        snprintf(s->base_key, sizeof s->base_key, "%s", s->key);
    s->modified = strcmp(s->key, s->base_key) != 0;
    notice(s, false, "platform %.200s loaded", s->pf_path);
    return APP_DIRTY | (rc > 0 ? APP_CONFIG : 0);
}

/* Applies cand; on success returns the flags of a configuration change, on failure explains. */
static unsigned try_apply(struct app_state *s, const struct params *cand)
{
    char err[APP_MSG_MAX];
    int rc = app_apply(s, cand, err, sizeof err);
    if (rc < 0) {
        notice(s, true, "%s", err);
        return APP_DIRTY;
    }
    if (rc == 0)
        return APP_DIRTY;
    s->modified = strcmp(s->key, s->base_key) != 0;
    return APP_DIRTY | APP_CONFIG;
}

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
        notice(s, true, "%s stays %s: %s", d->key, now, first_err);
    else
        notice(s, false, "%s is at its %s choice (%s)", d->key, dir > 0 ? "last" : "first", now);
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
        notice(s, false, "%s is at its %s (%s)", d->key, steps > 0 ? "maximum" : "minimum", v);
        return APP_DIRTY;
    }
    return try_apply(s, &cand);
}

/* ---- slider positions ----------------------------------------------------------------------- */

/* Ratios move through the realisable values and nodes through the platform's hosts, so their
 * tracks show where they are among what is possible rather than in the table's wide range. */
double app_position(const struct app_state *s, int id)
{
    if (id == P_RATIO) {
        long valid[64];
        int n = params_valid_ratios(s->p.cores_per_node, valid, 64);
        n = n > 64 ? 64 : n;
        for (int i = 0; i < n; i++)
            if (valid[i] >= s->p.ratio)
                return n > 1 ? (double)i / (n - 1) : 0;
        return 1;
    }
    if (id == P_NODES && s->pf_loaded && s->pf.hosts > 1)
        return fmin(1, (double)(s->p.nodes - 1) / (s->pf.hosts - 1));
    return params_position(&s->p, id);
}

static double value_at(const struct app_state *s, int id, double frac)
{
    const struct param_desc *d = &param_table[id];
    frac = frac < 0 ? 0 : frac > 1 ? 1 : frac;
    if (id == P_RATIO) {
        long valid[64];
        int n = params_valid_ratios(s->p.cores_per_node, valid, 64);
        n = n > 64 ? 64 : n;
        return n ? (double)valid[(int)lround(frac * (n - 1))] : (double)s->p.ratio;
    }
    if (id == P_NODES && s->pf_loaded && s->pf.hosts > 1)
        return round(1 + frac * (s->pf.hosts - 1));
    if (d->type == PARAM_CHOICE) {
        int n = 0;
        while (d->choices[n])
            n++;
        return lround(frac * (n - 1));
    }
    double v;
    if (d->scale == SCALE_LOG) {
        double lo = d->min > 0 ? d->min : d->max * 1e-9;
        v = lo * pow(d->max / lo, frac);
    } else {
        v = d->min + frac * (d->max - d->min);
    }
    if (d->type == PARAM_INT)
        v = round(v);
    else /* three significant digits: a click cannot be more precise than that */
        v = v > 0 ? round(v / pow(10, floor(log10(v)) - 2)) * pow(10, floor(log10(v)) - 2) : v;
    return v < d->min ? d->min : v > d->max ? d->max : v;
}

unsigned app_click(struct app_state *s, int index, double frac)
{
    if (index < 0 || index >= s->nsliders || s->mode != APP_MAIN)
        return 0;
    s->focus = index;
    s->notice[0] = 0;
    if (frac < 0)
        return APP_DIRTY;
    int id = s->sliders[index];
    struct params cand = s->p;
    char err[PARAMS_ERR_MAX];
    if (params_set_number(&cand, id, value_at(s, id, frac), err) < 0) {
        notice(s, true, "%s", err);
        return APP_DIRTY;
    }
    return try_apply(s, &cand);
}

/* ---- modes ---------------------------------------------------------------------------------- */

static unsigned edit_begin(struct app_state *s)
{
    s->mode = APP_EDIT;
    s->edit[0] = 0;
    s->edit_len = 0;
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

/* Every prompt's keys: Ctrl-C quits, Esc cancels, Enter commits, the rest edits the line
 * (Backspace, Ctrl-U and printable characters). */
unsigned app_prompt_key(struct app_state *s, int key, unsigned (*commit)(struct app_state *s))
{
    switch (key) {
    case APP_KEY_CTRL_C:
        return APP_QUIT;
    case APP_KEY_ESC:
        s->mode = APP_MAIN;
        return APP_DIRTY;
    case APP_KEY_ENTER:
        return commit(s);
    case APP_KEY_BACKSPACE:
        if (s->edit_len > 0)
            s->edit[--s->edit_len] = 0;
        s->edit_err[0] = 0;
        return APP_DIRTY;
    case APP_KEY_CTRL_U:
        s->edit_len = 0;
        s->edit[0] = 0;
        s->edit_err[0] = 0;
        return APP_DIRTY;
    default:
        if (key >= 0x20 && key < 0x7f && s->edit_len < APP_EDIT_MAX - 1) {
            s->edit[s->edit_len++] = (char)key;
            s->edit[s->edit_len] = 0;
            s->edit_err[0] = 0;
            return APP_DIRTY;
        }
        return 0;
    }
}

static unsigned presets_open(struct app_state *s)
{
    s->npresets = preset_list(s->presets, APP_PRESETS_MAX);
    if (s->npresets > APP_PRESETS_MAX)
        s->npresets = APP_PRESETS_MAX;
    if (s->npresets == 0) {
        notice(s, true, "no presets found (presets/*.conf in the data directories)");
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

static unsigned presets_key(struct app_state *s, int key)
{
    switch (key) {
    case 'q':
    case APP_KEY_CTRL_C:
        return APP_QUIT;
    case APP_KEY_ESC:
    case 'p':
        s->mode = APP_MAIN;
        return APP_DIRTY;
    case APP_KEY_UP:
    case 'k':
        s->preset_sel = s->preset_sel > 0 ? s->preset_sel - 1 : 0;
        return APP_DIRTY;
    case APP_KEY_DOWN:
    case 'j':
        s->preset_sel = s->preset_sel < s->npresets - 1 ? s->preset_sel + 1 : s->preset_sel;
        return APP_DIRTY;
    case APP_KEY_ENTER: {
        const char *name = s->presets[s->preset_sel];
        struct params cand;
        params_defaults(&cand);
        char err[APP_MSG_MAX + PARAMS_PATH_MAX];
        s->mode = APP_MAIN;
        int rc = preset_apply(name, &cand, err, sizeof err);
        if (rc == 0)
            rc = app_apply(s, &cand, err, sizeof err);
        if (rc < 0) {
            notice(s, true, "%.*s", APP_MSG_MAX - 1, err);
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
        notice(s, false, "preset %s loaded", name);
        return APP_DIRTY | (rc > 0 ? APP_CONFIG : 0);
    }
    default:
        return 0;
    }
}

static unsigned reset_focused(struct app_state *s)
{
    int id = app_focused(s);
    struct params def, cand = s->p;
    params_defaults(&def);
    const struct param_desc *d = &param_table[id];
    char err[PARAMS_ERR_MAX];
    if (d->type != PARAM_PATH && params_set_number(&cand, id, d->def, err) < 0) {
        notice(s, true, "%s", err);
        return APP_DIRTY;
    }
    return try_apply(s, &cand);
}

/* The block under the sliders: a view's key shows it, the same key goes back to the lesson
 * (if one is open) or the crossover. */
static unsigned toggle_pane(struct app_state *s, enum app_pane pane)
{
    enum app_pane home = s->lesson.l ? APP_PANE_LESSON : APP_PANE_XOVER;
    s->pane = s->pane == pane ? home : pane;
    return APP_DIRTY;
}

static unsigned main_key(struct app_state *s, int key)
{
    s->notice[0] = 0;
    int id = app_focused(s);
    unsigned advised = app_advise_key(s, key);
    if (advised)
        return advised;
    if (s->lesson.l) {
        /* With a lesson open, h is its hint (the arrows still step), n and b move through it. */
        switch (key) {
        case 'h':
            return app_lesson_hint(s);
        case 'R':
            return app_lesson_restart(s);
        case 'n':
            return app_lesson_goto(s, s->lesson.step + 1);
        case 'b':
            return app_lesson_goto(s, s->lesson.step - 1);
        default:
            break;
        }
    }
    if (s->script.phase != APP_SCRIPT_OFF) {
        /* The scenario panel: x or Esc closes it (cancelling its runs), [ ] scroll it. */
        struct app_script *sp = &s->script;
        switch (key) {
        case 'x':
        case APP_KEY_ESC:
            return app_script_close(s);
        case '[':
            sp->scroll = sp->scroll < sp->nlines - 1 ? sp->scroll + 1 : sp->scroll;
            return APP_DIRTY;
        case ']':
            sp->scroll = sp->scroll > 0 ? sp->scroll - 1 : 0;
            return APP_DIRTY;
        default:
            break;
        }
    }
    if (s->pane == APP_PANE_LINKS && (key == '[' || key == ']')) {
        /* The link view scrolls by [ ] as the scenario panel does; the view clamps the end. */
        int most = s->has_sim && s->sim.nlinks > 0 ? s->sim.nlinks - 1 : 0;
        s->links_scroll += key == ']' ? 1 : -1;
        s->links_scroll = s->links_scroll < 0 ? 0 : s->links_scroll > most ? most : s->links_scroll;
        return APP_DIRTY;
    }
    switch (key) {
    case 'x':
        s->mode = APP_SCRIPT_PATH;
        s->edit[0] = 0;
        s->edit_len = 0;
        s->edit_err[0] = 0;
        return APP_DIRTY;
    case 'u':
        return toggle_pane(s, APP_PANE_LINKS);
    case 's':
        return toggle_pane(s, APP_PANE_SCALING);
    case 'a':
        return app_advise_open(s);
    case 'c': /* with a lesson open, c toggles between the plot and the lesson */
        return toggle_pane(s, APP_PANE_XOVER);
    case 'q':
    case APP_KEY_CTRL_C:
        return APP_QUIT;
    case APP_KEY_UP:
    case 'k':
    case APP_KEY_BTAB:
        s->focus = s->focus > 0 ? s->focus - 1 : 0;
        return APP_DIRTY;
    case APP_KEY_DOWN:
    case 'j':
    case APP_KEY_TAB:
        s->focus = s->focus < s->nsliders - 1 ? s->focus + 1 : s->focus;
        return APP_DIRTY;
    case APP_KEY_HOME:
    case 'g':
        s->focus = 0;
        return APP_DIRTY;
    case APP_KEY_END:
    case 'G':
        s->focus = s->nsliders - 1;
        return APP_DIRTY;
    case APP_KEY_LEFT:
    case 'h':
    case '-':
        return step(s, id, -1, false);
    case APP_KEY_RIGHT:
    case 'l':
    case '+':
        return step(s, id, 1, false);
    case APP_KEY_PGDN:
    case 'H':
        return step(s, id, -1, true);
    case APP_KEY_PGUP:
    case 'L':
        return step(s, id, 1, true);
    case APP_KEY_ENTER:
    case 'e':
        return edit_begin(s);
    case 'm':
        return step_choice(s, P_MAPPING, 1, true);
    case 'd':
        return reset_focused(s);
    case 'C':
        if (s->sim_phase != SIM_WAITING && s->sim_phase != SIM_QUEUED &&
            s->sim_phase != SIM_RUNNING) {
            notice(s, false, "no simulation to cancel");
            return APP_DIRTY;
        }
        s->sim_phase = SIM_CANCELLED;
        notice(s, false, "simulations cancelled: r runs them again");
        return APP_DIRTY | APP_CANCEL;
    case 'r':
        notice(s, false, "simulating this configuration again");
        s->sim_phase = SIM_WAITING; /* the old result stays on screen until the new one lands */
        return APP_DIRTY | APP_RERUN;
    case 'p':
        return presets_open(s);
    case 'w': /* write the configuration as a preset: the prompt asks for its name */
        s->mode = APP_PRESET_SAVE;
        s->edit[0] = 0;
        s->edit_len = 0;
        s->edit_err[0] = 0;
        return APP_DIRTY;
    case '?':
        s->mode = APP_HELP;
        return APP_DIRTY;
    case '!':
        if (!app_error(s, &(const char *){NULL})[0]) {
            notice(s, false, "no error to show");
            return APP_DIRTY;
        }
        s->mode = APP_ERROR;
        return APP_DIRTY;
    case '/':
        notice(s, false, "no search here: %s select a parameter, ? lists every key",
               "up/down (k j)");
        return APP_DIRTY;
    case APP_KEY_ESC: /* closes a view (back to the lesson or the plot), clears the notice */
        if (s->pane == APP_PANE_LINKS || s->pane == APP_PANE_SCALING)
            s->pane = s->lesson.l ? APP_PANE_LESSON : APP_PANE_XOVER;
        return APP_DIRTY;
    default:
        if (key > 0x20 && key < 0x7f) { /* never silent: say the key does nothing here */
            notice(s, false, "%c does nothing here: ? lists the keys", key);
            return APP_DIRTY;
        }
        return 0;
    }
}

unsigned app_key(struct app_state *s, int key)
{
    switch (s->mode) {
    case APP_EDIT:
        return app_prompt_key(s, key, edit_commit);
    case APP_PRESETS:
        return presets_key(s, key);
    case APP_SCRIPT_PATH:
        return app_prompt_key(s, key, app_script_path_commit);
    case APP_PRESET_SAVE:
        return app_prompt_key(s, key, app_preset_save_commit);
    case APP_ERROR:
        if (key == 'q' || key == APP_KEY_CTRL_C)
            return APP_QUIT;
        if (key == '!' || key == APP_KEY_ESC || key == APP_KEY_ENTER) {
            s->mode = APP_MAIN;
            return APP_DIRTY;
        }
        return 0;
    case APP_HELP:
        if (key == 'q' || key == APP_KEY_CTRL_C)
            return APP_QUIT;
        if (key == '?' || key == APP_KEY_ESC) {
            s->mode = APP_MAIN;
            return APP_DIRTY;
        }
        return 0;
    case APP_MAIN:
        break;
    }
    return main_key(s, key);
}

/* ---- results -------------------------------------------------------------------------------- */

static void describe_point(const struct params *p, char *buf, size_t len)
{
    snprintf(buf, len, "%s x%g", p->mapping == MAPPING_INSITU ? "in situ" : "in transit",
             p->data_scaling);
}

unsigned app_on_result(struct app_state *s, const struct params *p, const struct sim_result *r,
                       const char *error, bool cached, double seconds)
{
    unsigned flags = 0;
    char key[RUNNER_KEY_MAX];
    params_canonical(p, key, sizeof key);
    bool current = !strcmp(key, s->key);
    if (current) {
        result_free(&s->sim);
        s->has_sim = false;
        s->sim_cached = cached;
        s->sim_seconds = seconds;
        if (r && result_copy(&s->sim, r) == 0) {
            s->has_sim = true;
            s->sim_phase = SIM_DONE;
            s->sim_err[0] = 0;
            s->last_error[0] = 0; /* the current configuration simulates: old errors are moot */
        } else {
            s->sim_phase = SIM_FAILED;
            snprintf(s->sim_err, sizeof s->sim_err, "%s", error ? error : "out of memory");
        }
        app_lesson_check(s); /* a goal may read the simulation */
        flags |= APP_DIRTY;
    }
    advise_map_seen(&s->adv, p, r);
    if (s->adv.open)
        flags |= APP_DIRTY;
    int m, i;
    if (xover_match(&s->xo, p, &m, &i)) {
        s->xo.pstate[m][i] = r ? XO_PT_DONE : XO_PT_FAILED;
        s->xo.sim[m][i] = r ? r->m.makespan : 0;
        flags |= APP_DIRTY;
    }
    if (error) {
        char what[96];
        if (current)
            snprintf(what, sizeof what, "simulation");
        else
            describe_point(p, what, sizeof what);
        snprintf(s->last_error, sizeof s->last_error, "%.96s: %.*s", what, RUNNER_ERR_MAX - 1,
                 error);
        flags |= APP_DIRTY;
    }
    return flags;
}

unsigned app_set_running_for(struct app_state *s, double seconds)
{
    bool shown = (long)s->sim_running_for != (long)seconds; /* the screen shows whole seconds */
    s->sim_running_for = seconds;
    return shown ? APP_DIRTY : 0;
}

unsigned app_set_jobs(struct app_state *s, int running, int queued, enum sim_phase current)
{
    unsigned flags = 0;
    if (s->running != running || s->queued != queued) {
        s->running = running;
        s->queued = queued;
        flags |= APP_DIRTY;
    }
    bool pending =
        s->sim_phase == SIM_WAITING || s->sim_phase == SIM_QUEUED || s->sim_phase == SIM_RUNNING;
    if (pending && current != SIM_NONE && current != s->sim_phase) {
        s->sim_phase = current;
        flags |= APP_DIRTY;
    }
    return flags;
}

unsigned app_try_apply(struct app_state *s, const struct params *cand)
{
    return try_apply(s, cand);
}
