/* The core of the explorer's state: a configuration applied (validated, laid out, its model
 * computed) and what comes back for it (simulated results, a Lua analytics' model, curves,
 * platforms read off the UI thread). The other app_*.c build on these calls and nothing here
 * calls them: a change a lesson's goal depends on only marks the goal stale (app_goal_recheck). */
#include "app.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../../engine/model/layout.h"
#include "../../engine/model/report.h"

void app_notice(struct app_state *s, bool error, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->notice, sizeof s->notice, fmt, ap);
    va_end(ap);
    s->notice_error = error;
}

void app_goal_recheck(struct app_state *s)
{
    struct app_lesson *ls = &s->lesson;
    if (!ls->l)
        return;
    if (!lesson_step_has_goal(ls->l, ls->step)) {
        ls->goal = LESSON_NO_GOAL;
        ls->msg[0] = 0;
        ls->goal_pending = false;
        return;
    }
    ls->goal_pending = true;
    ls->goal_gen++;
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
    app_notice(s, false, "SimGrid is reading %.200s", cand->platform);
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
    bool lua = params_user_lua(cand);
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
    xover_rebase(&s->xo, &s->p, &s->pf); /* the curves follow, computed off the key path */
    scaling_rebase(&s->sc, &s->p);
    if (s->adv.open) /* the map follows at once: the model is pure and quick (make bench) */
        advise_map_build(&s->adv, &s->p, &s->pf);
    app_goal_recheck(s);
    return changed;
}

void app_xover_sync(struct app_state *s)
{
    /* A Lua analytics' curves come from its evaluator process (the loop asks): the built-in
     * source here would give curves of NaN that look current and are never asked for again. */
    if (!xover_current(&s->xo) && !params_user_lua(&s->p))
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
    if (!scaling_current(&s->sc) && !params_user_lua(&s->p)) /* as app_xover_sync */
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
    app_notice(s, false, "analytics %s changed: evaluating it",
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
        app_notice(s, false, "analytics %s reloaded", analytics_file_name(s, name, sizeof name));
    }
    s->analytics_err[0] = 0;
    s->model = *m;
    s->model_valid = true;
    app_goal_recheck(s); /* against the new model */
    return APP_DIRTY | APP_EVALUATED;
}

bool app_sim_allowed(const struct app_state *s)
{
    return !s->model_pending && s->model_valid;
}

unsigned app_platform_loaded(struct app_state *s, const char *err)
{
    if (!s->pf_loading)
        return 0;
    s->pf_loading = false;
    if (err) {
        app_notice(s, true, "%.*s", APP_MSG_MAX - 1, err);
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
        app_notice(s, true, "%s", why);
        return APP_DIRTY;
    }
    if (s->pf_pending_preset)
        snprintf(s->base_key, sizeof s->base_key, "%s", s->key);
    s->modified = strcmp(s->key, s->base_key) != 0;
    app_notice(s, false, "platform %.200s loaded", s->pf_path);
    return APP_DIRTY | (rc > 0 ? APP_CONFIG : 0);
}

unsigned app_try_apply(struct app_state *s, const struct params *cand)
{
    char err[APP_MSG_MAX];
    int rc = app_apply(s, cand, err, sizeof err);
    if (rc < 0) {
        app_notice(s, true, "%s", err);
        return APP_DIRTY;
    }
    if (rc == 0)
        return APP_DIRTY;
    s->modified = strcmp(s->key, s->base_key) != 0;
    return APP_DIRTY | APP_CONFIG;
}

/* ---- slider positions ----------------------------------------------------------------------- */

/* The ratios the node's cores can be split into, in order: the ratio slider's stops. */
static int realisable_ratios(const struct app_state *s, long valid[PARAMS_RATIOS_MAX])
{
    int n = params_valid_ratios(s->p.cores_per_node, valid, PARAMS_RATIOS_MAX);
    return n > PARAMS_RATIOS_MAX ? PARAMS_RATIOS_MAX : n;
}

/* Ratios move through the realisable values and nodes through the platform's hosts, so their
 * tracks show where they are among what is possible rather than in the table's wide range. */
double app_position(const struct app_state *s, int id)
{
    if (id == P_RATIO) {
        long valid[PARAMS_RATIOS_MAX];
        int n = realisable_ratios(s, valid);
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
        long valid[PARAMS_RATIOS_MAX];
        int n = realisable_ratios(s, valid);
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
        app_notice(s, true, "%s", err);
        return APP_DIRTY;
    }
    return app_try_apply(s, &cand);
}

/* ---- results -------------------------------------------------------------------------------- */

static void describe_point(const struct params *p, char *buf, size_t len)
{
    char dtl[32];
    params_format(p, P_DTL, dtl, sizeof dtl);
    snprintf(buf, len, "%s:%s x%g", param_table[P_MAPPING].choices[p->mapping], dtl,
             p->data_scaling);
}

int app_sim_target(const struct app_state *s)
{
    if (!s->refine)
        return s->p.fidelity;
    return s->p.fidelity == FIDELITY_SMPI ? FIDELITY_SMPI : FIDELITY_FULL;
}

int app_sim_first(const struct app_state *s)
{
    return s->refine ? FIDELITY_FAST : s->p.fidelity;
}

void app_at_fidelity(const struct params *p, int f, struct params *out)
{
    *out = *p;
    out->fidelity = f;
}

/* How faithful a result of p is: what it says, else what was asked for. */
static int fidelity_of(const struct params *p, const struct sim_result *r)
{
    int f = r ? result_fidelity(r) : -1;
    return f >= 0 ? f : p->fidelity;
}

unsigned app_on_result(struct app_state *s, const struct params *p, const struct sim_result *r,
                       const char *error, bool cached, double seconds)
{
    unsigned flags = 0;
    /* A configuration is one whatever the engine: p as the screen names it (its fidelity and
     * sampling those of the screen) is this configuration, or an earlier one (stale: ignored). */
    struct params q = *p;
    q.fidelity = s->p.fidelity;
    q.sampling = s->p.sampling;
    char key[RUNNER_KEY_MAX];
    params_canonical(&q, key, sizeof key);
    int fid = fidelity_of(p, r);
    bool current = !strcmp(key, s->key);
    /* A less faithful result (a fast run that ends after full, its cached copy) never hides a
     * more faithful one: the more faithful stays. */
    if (current && s->has_sim && fid < s->sim_fid)
        current = false;
    if (current) {
        result_free(&s->sim);
        s->has_sim = false;
        s->sim_cached = cached;
        s->sim_seconds = seconds;
        bool last = fid >= app_sim_target(s); /* else refinement goes on */
        if (r && result_copy(&s->sim, r) == 0) {
            s->has_sim = true;
            s->sim_fid = fid;
            s->sim_phase = last ? SIM_DONE : SIM_WAITING;
            s->sim_err[0] = 0;
            s->last_error[0] = 0; /* the current configuration simulates: old errors are moot */
        } else {
            s->sim_phase = SIM_FAILED;
            snprintf(s->sim_err, sizeof s->sim_err, "%s", error ? error : "out of memory");
        }
        app_goal_recheck(s); /* a goal may read the simulation */
        flags |= APP_DIRTY;
    }
    advise_map_seen(&s->adv, &q, r);
    if (s->adv.open)
        flags |= APP_DIRTY;
    q.fidelity = s->xo.base.fidelity; /* a point's refinements answer for the base's point */
    q.sampling = s->xo.base.sampling;
    if (xover_take(&s->xo, &q, r != NULL, r ? r->m.makespan : 0, fid))
        flags |= APP_DIRTY;
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

unsigned app_refine_toggle(struct app_state *s)
{
    s->refine = !s->refine;
    if (s->has_sim && s->sim_fid >= app_sim_target(s))
        s->sim_phase = SIM_DONE; /* what refinement still ran goes (the loop drops it) */
    else if (s->sim_phase != SIM_QUEUED && s->sim_phase != SIM_RUNNING)
        s->sim_phase = SIM_WAITING;
    app_notice(s, false, "%s",
               s->refine ? "refinement on: fast, then full fidelity once the setting stays"
                         : "refinement off: the fidelity parameter's run alone (f: on again)");
    return APP_DIRTY | APP_REFINE;
}

unsigned app_set_running_for(struct app_state *s, double seconds)
{
    bool shown = (long)s->sim_running_for != (long)seconds; /* the screen shows whole seconds */
    s->sim_running_for = seconds;
    return shown ? APP_DIRTY : 0;
}

unsigned app_set_jobs(struct app_state *s, int running, int queued, enum sim_phase current,
                      int next)
{
    unsigned flags = 0;
    if (s->running != running || s->queued != queued) {
        s->running = running;
        s->queued = queued;
        flags |= APP_DIRTY;
    }
    bool pending =
        s->sim_phase == SIM_WAITING || s->sim_phase == SIM_QUEUED || s->sim_phase == SIM_RUNNING;
    if (pending && current != SIM_NONE && (current != s->sim_phase || next != s->sim_next)) {
        s->sim_phase = current;
        s->sim_next = next;
        flags |= APP_DIRTY;
    }
    return flags;
}
