/* The main screen: header, parameter sliders, model-vs-SimGrid results and bars, the info line,
 * the status line and the key bar. The crossover block and overlays live in their own files. */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "draw.h"
#include "view.h"

#define NAME_W  15
#define VALUE_W 9
#define UNIT_W  9
#define LABEL_W 13 /* row labels of the results panel */

void view_layout(int rows, int cols, struct view_layout *l)
{
    memset(l, 0, sizeof *l);
    l->rows = rows;
    l->cols = cols;
    l->too_small = rows < VIEW_MIN_ROWS || cols < VIEW_MIN_COLS;
    l->top_y = 1;
    l->top_h = 15;
    l->left_x = 0;
    l->left_w = cols >= 100 ? (cols * 42 / 100 > 46 ? cols * 42 / 100 : 46) : 42;
    l->right_x = l->left_w + 2;
    l->right_w = cols - l->right_x - 1;
    l->slider_y = l->top_y + 1;
    l->track_x = 2 + NAME_W + 1 + VALUE_W + 1 + UNIT_W + 1;
    l->track_w = l->left_w - l->track_x;
    l->info_y = l->top_y + l->top_h;
    l->xo_y = l->info_y + 1;
    l->status_y = rows - 2;
    l->keys_y = rows - 1;
    l->xo_h = l->status_y - l->xo_y;
}

bool view_hit(const struct view_layout *l, const struct app_state *a, int y, int x, int *index,
              double *frac)
{
    if (l->too_small || a->mode != APP_MAIN || x < 0 || x >= l->left_w)
        return false;
    int i = y - l->slider_y;
    if (i < 0 || i >= a->nsliders)
        return false;
    *index = i;
    *frac = -1;
    if (l->track_w > 1 && x >= l->track_x)
        *frac = (double)(x - l->track_x) / (l->track_w - 1);
    return true;
}

/* ---- header --------------------------------------------------------------------------------- */

static void draw_header(const struct screen *s, const struct view_layout *l,
                        const struct app_state *a)
{
    const struct glyphs *g = s->g;
    draw_fill(s, 0, 0, l->cols, COL_TITLE, " ");
    const char *slash = strrchr(a->pf_path, '/');
    const char *pf_name = slash ? slash + 1 : a->pf_path;
    char text[512], summary[160];
    platform_summary(&a->pf, summary, sizeof summary);
    snprintf(text, sizeof text, " Situ %s preset %s%s %s %.60s: %s", g->vline,
             a->preset[0] ? a->preset : "defaults", a->modified ? " (modified)" : "", g->vline,
             pf_name, summary);
    draw_text(s, 0, 0, l->cols - 9, COL_TITLE, text);
    draw_right(s, 0, l->cols - 9, 8, COL_TITLE, "? help");
}

/* ---- sliders -------------------------------------------------------------------------------- */

static void draw_sliders(const struct screen *s, const struct view_layout *l,
                         const struct app_state *a)
{
    int vx = 2 + NAME_W + 1, ux = vx + VALUE_W + 1;
    draw_text(s, l->top_y, 2, NAME_W, COL_HEADING, "PARAMETERS");
    draw_right(s, l->top_y, vx, VALUE_W, COL_MUTED, "value");
    draw_text(s, l->top_y, ux, UNIT_W, COL_MUTED, "unit");
    if (l->track_w > 4)
        draw_text(s, l->top_y, l->track_x, l->track_w, COL_MUTED, "range");
    for (int i = 0; i < a->nsliders; i++) {
        int id = a->sliders[i], y = l->slider_y + i;
        bool focused = i == a->focus;
        const struct param_desc *d = &param_table[id];
        char value[64];
        params_format(&a->p, id, value, sizeof value);
        enum colour name_c = focused ? COL_FOCUS : COL_TEXT;
        if (focused)
            draw_fill(s, y, 0, l->track_x - 1, COL_FOCUS, " ");
        draw_text(s, y, 0, 1, name_c, focused ? s->g->focus : " ");
        draw_text(s, y, 2, NAME_W, name_c, d->key);
        draw_right(s, y, 2 + NAME_W + 1, VALUE_W, focused ? COL_FOCUS : COL_VALUE, value);
        draw_text(s, y, 2 + NAME_W + 1 + VALUE_W + 1, UNIT_W, focused ? COL_FOCUS : COL_MUTED,
                  d->unit);
        if (l->track_w > 1)
            draw_track(s, y, l->track_x, l->track_w, app_position(a, id));
    }
    /* What the sliders do not move, so the configuration on screen is complete: the files
     * first (they change the numbers most), wrapped over the rows left. */
    int fy = l->slider_y + a->nsliders, bottom = l->top_y + l->top_h, w = l->left_w - 2;
    char line[256];
    size_t used = (size_t)snprintf(line, sizeof line, "fixed:");
    for (int k = -2; k < PARAM_COUNT && fy < bottom && w > 8; k++) {
        int id = k == -2 ? P_ANALYTICS : k == -1 ? P_HOSTFILE : k;
        char v[PARAMS_PATH_MAX], item[96];
        /* The platform is in the header already. */
        if (param_table[id].slider || id == P_PLATFORM ||
            (k >= 0 && (id == P_ANALYTICS || id == P_HOSTFILE)))
            continue;
        params_format(&a->p, id, v, sizeof v);
        if (!v[0]) /* an unset path (hostfile, analytics) says nothing */
            continue;
        const char *base = strrchr(v, '/');
        int n = snprintf(item, sizeof item, " %s=%.40s", param_table[id].key, base ? base + 1 : v);
        if (used + (size_t)n > (size_t)w && used > 6) {
            draw_text(s, fy++, 2, w, COL_MUTED, line);
            used = (size_t)snprintf(line, sizeof line, "      ");
        }
        used += (size_t)snprintf(line + used, sizeof line - used, "%s", item);
    }
    if (fy < bottom)
        draw_text(s, fy, 2, w, COL_MUTED, line);
    for (int y = l->top_y; y < l->top_y + l->top_h; y++)
        draw_text(s, y, l->left_w + 1, 1, COL_BORDER, s->g->vline);
}

/* ---- results -------------------------------------------------------------------------------- */

static enum colour eta_colour(double eta)
{
    return eta >= 0.9 ? COL_GOOD : eta >= 0.6 ? COL_WARN : COL_BAD;
}

/* What the SimGrid column shows while there is no number. */
static const char *sim_placeholder(const struct app_state *a)
{
    switch (a->sim_phase) {
    case SIM_WAITING:
    case SIM_QUEUED:
    case SIM_RUNNING:
        return "...";
    case SIM_FAILED:
        return "failed";
    case SIM_CANCELLED:
        return "cancelled";
    default:
        return "-";
    }
}

static void sim_header(const struct screen *s, const struct app_state *a, char *buf, size_t len)
{
    const struct glyphs *g = s->g;
    switch (a->sim_phase) {
    case SIM_WAITING:
        snprintf(buf, len, "SimGrid %s", a->has_sim ? "(re-run soon)" : "soon");
        break;
    case SIM_QUEUED:
        snprintf(buf, len, "SimGrid queued");
        break;
    case SIM_RUNNING: /* past a second, how long so far: fidelity full and smpi take a while */
        if (a->sim_running_for >= 1)
            snprintf(buf, len, "SimGrid %.0f s%s", a->sim_running_for, g->ellipsis);
        else
            snprintf(buf, len, "SimGrid running%s", g->ellipsis);
        break;
    case SIM_DONE:
        /* How long the simulation took is not a result of it: the status bar says it, with a
         * label ("last run took ... (smpi)"); the column says only that the numbers are in. */
        snprintf(buf, len, "SimGrid %s%s", g->ok, a->sim_cached ? " cached" : "");
        break;
    case SIM_CANCELLED:
        snprintf(buf, len, "SimGrid cancelled");
        break;
    case SIM_FAILED:
        snprintf(buf, len, "SimGrid %s failed", g->fail);
        break;
    default:
        snprintf(buf, len, "SimGrid");
    }
}

static const char *scenario_text(enum scenario sc)
{
    return sc == SCENARIO_IS   ? "simulation waits for the analytics"
           : sc == SCENARIO_IA ? "analytics waits for the simulation"
                               : "neither side waits";
}

/* "30 sim + 2 ana, 1 node", shortened until it fits the column. */
static void core_split(const struct model_result *m, int width, char *buf, size_t len)
{
    int n = snprintf(buf, len, "%ld sim + %ld ana, %d node%s", m->sim_cores, m->ana_cores,
                     m->nodes_used, m->nodes_used == 1 ? "" : "s");
    if (n >= width)
        n = snprintf(buf, len, "%ld sim + %ld ana", m->sim_cores, m->ana_cores);
    if (n >= width)
        snprintf(buf, len, "%ld+%ld", m->sim_cores, m->ana_cores);
}

/* In place of the numbers and bars: why a Lua analytics gives none, whole (wrapped over the
 * rows of the results), or that it is being evaluated. */
static void draw_no_model(const struct screen *s, const struct view_layout *l,
                          const struct app_state *a)
{
    int x = l->right_x, y = l->top_y + 1, w = l->right_w - 1;
    if (!a->analytics_err[0]) {
        draw_text(s, y, x, w, COL_MUTED, "evaluating the analytics...");
        return;
    }
    char lines[16][256];
    int rows = l->top_y + 15 - y; /* the results and both blocks of bars */
    int n = draw_wrap(a->analytics_err, w, lines, 16);
    draw_fmt(s, y, x, w, COL_ERROR, "%s the analytics gives no numbers:", s->g->fail);
    for (int i = 0; i < n && i < 16 && i + 1 < rows; i++)
        draw_text(s, y + 1 + i, x, w, COL_ERROR, lines[i]);
    draw_text(s, y + (n + 1 < rows ? n + 1 : rows - 1), x, w, COL_MUTED,
              "no simulation runs until the file is fixed");
}

/* A measured value against the model's: a Δ within DELTA_NEAR is muted, one beyond it is drawn
 * to stand out and marked with '!' (not by colour alone). Shortened until it fits w cells after
 * a value n cells wide at x. */
#define DELTA_NEAR 0.02
static void draw_delta(const struct screen *s, int y, int x, int n, int w, double measured,
                       double model)
{
    if (!(model > 0))
        return;
    double d = (measured - model) / model;
    bool far = fabs(d) > DELTA_NEAR;
    const char *mark = far ? "!" : "";
    char buf[48];
    const char *delta = s->g->delta;
    /* Δ is one cell, however many bytes. */
    int cells =
        snprintf(buf, sizeof buf, "  %s %+.1f%%%s%s", delta, d * 100, far ? " " : "", mark) -
        (int)strlen(delta) + 1;
    if (n + cells > w)
        cells = snprintf(buf, sizeof buf, " %+.1f%%%s", d * 100, mark);
    if (n + cells > w)
        snprintf(buf, sizeof buf, " %+.0f%%%s", d * 100, mark);
    draw_text(s, y, x + n, w - n, far ? COL_WARN : COL_MUTED, buf);
}

static void draw_results(const struct screen *s, const struct view_layout *l,
                         const struct app_state *a)
{
    const struct glyphs *g = s->g;
    int x = l->right_x, y = l->top_y, colw = (l->right_w - LABEL_W) / 2;
    /* Narrow: the model's values are short ("0.725", "327 s"); the SimGrid column, which also
     * carries the Δ, gets the rest. */
    if (colw < 16)
        colw = 8;
    int mx = x + LABEL_W, sx = mx + colw, sw = l->right_w - LABEL_W - colw;
    const struct model_result *m = &a->model, *r = a->has_sim ? &a->sim.m : NULL;
    char buf[128], t[32];

    draw_text(s, y, x, LABEL_W, COL_HEADING, "RESULTS");
    if (!a->model_valid) {
        draw_no_model(s, l, a);
        return;
    }
    draw_text(s, y, mx, colw, COL_HEADING, a->model_pending ? "model, evaluating" : "model");
    sim_header(s, a, buf, sizeof buf);
    draw_text(s, y, sx, sw, a->sim_phase == SIM_FAILED ? COL_ERROR : COL_HEADING, buf);
    const char *ph = sim_placeholder(a);
    enum colour ph_c = a->sim_phase == SIM_FAILED ? COL_ERROR : COL_MUTED;

    snprintf(buf, sizeof buf, "efficiency%s%s", s->unicode ? " " : "", s->unicode ? g->eta : "");
    draw_text(s, y + 1, x, LABEL_W, COL_TEXT, buf);
    draw_fmt(s, y + 1, mx, colw, eta_colour(m->efficiency), "%.3f", m->efficiency);
    if (r) {
        int n = draw_fmt(s, y + 1, sx, sw, eta_colour(r->efficiency), "%.3f", r->efficiency);
        draw_delta(s, y + 1, sx, n, sw, r->efficiency, m->efficiency);
    } else {
        draw_text(s, y + 1, sx, sw, ph_c, ph);
    }

    /* The model's best prediction (with the pipeline's fill and drain), against the measured
     * makespan; the paper's eq. 5 beside it, for reference. */
    draw_text(s, y + 2, x, LABEL_W, COL_TEXT, "makespan");
    draw_time(m->makespan, t, sizeof t);
    draw_text(s, y + 2, mx, colw, COL_VALUE, t);
    if (r) {
        draw_time(r->makespan, t, sizeof t);
        int n = draw_text(s, y + 2, sx, sw, COL_VALUE, t);
        draw_delta(s, y + 2, sx, n, sw, r->makespan, m->makespan);
    } else {
        draw_text(s, y + 2, sx, sw, ph_c, ph);
    }
    draw_text(s, y + 3, x, LABEL_W, COL_MUTED, " paper eq.5");
    draw_time(m->makespan_eq5, t, sizeof t);
    draw_text(s, y + 3, mx, colw, COL_MUTED, t);
    if (sw >= 30)
        draw_text(s, y + 3, sx, sw, COL_MUTED, "(above: model's best, fill/drain)");
    else if (sw >= 12)
        draw_text(s, y + 3, sx, sw, COL_MUTED, "(above: best)");

    draw_text(s, y + 4, x, LABEL_W, COL_TEXT, "scenario");
    draw_text(s, y + 4, mx, colw, COL_VALUE, model_scenario_name(m->scenario));
    if (r)
        draw_text(s, y + 4, sx, sw, COL_VALUE, model_scenario_name(r->scenario));
    else
        draw_text(s, y + 4, sx, sw, ph_c, ph);
    draw_fmt(s, y + 5, mx, l->right_w - LABEL_W, COL_MUTED, "%s %s", s->g->arrow,
             scenario_text(m->scenario));

    draw_text(s, y + 6, x, LABEL_W, COL_TEXT, "cores");
    core_split(m, colw - 1, buf, sizeof buf);
    draw_text(s, y + 6, mx, colw, COL_VALUE, buf);
    if (r) {
        core_split(r, sw - 1, buf, sizeof buf);
        draw_text(s, y + 6, sx, sw, COL_VALUE, buf);
    } else {
        draw_text(s, y + 6, sx, sw, ph_c, ph);
    }
}

/* ---- bars ----------------------------------------------------------------------------------- */

static void run_bar(const struct screen *s, int y, int x, int w, double active, double idle,
                    enum colour c)
{
    double total = active + idle;
    double f = total > 0 ? active / total : 0;
    struct bar_seg seg = {f, c, c == COL_ANA ? s->g->shade_a : s->g->block};
    draw_bar(s, y, x, w - 5, &seg, 1, s->g->idle);
    draw_fmt(s, y, x + w - 5, 5, COL_TEXT, "%4.0f%%", f * 100);
}

static void draw_run_bars(const struct screen *s, const struct view_layout *l,
                          const struct app_state *a)
{
    int x = l->right_x, y = l->top_y + 7, colw = (l->right_w - LABEL_W) / 2;
    int mx = x + LABEL_W, sx = mx + colw, bw = colw - 1;
    if (!a->model_valid)
        return; /* draw_no_model has the rows */
    draw_text(s, y, x, l->right_w, COL_HEADING, "OVER THE RUN");
    draw_text(s, y, x + 13, l->right_w - 13, COL_MUTED, "one core of each, % of the time active");
    const struct model_result *m = &a->model;
    draw_text(s, y + 1, x, LABEL_W, COL_TEXT, "simulation");
    draw_text(s, y + 2, x, LABEL_W, COL_TEXT, "analytics");
    run_bar(s, y + 1, mx, bw, m->sim_active, m->sim_idle, COL_SIM);
    run_bar(s, y + 2, mx, bw, m->ana_active, m->ana_idle, COL_ANA);
    if (a->has_sim) {
        const struct model_result *r = &a->sim.m;
        run_bar(s, y + 1, sx, bw, r->sim_active, r->sim_idle, COL_SIM);
        run_bar(s, y + 2, sx, bw, r->ana_active, r->ana_idle, COL_ANA);
    } else {
        draw_text(s, y + 1, sx, bw, COL_MUTED, sim_placeholder(a));
    }
}

/* Each stage its own glyph, in colour too: colour alone must not carry the meaning (a colour-
 * blind reader, a projector that washes colours out, a grey-scale printout of the screen). */
static const char *glyph_for(const struct screen *s, enum colour c)
{
    return c == COL_RETRIEVE ? s->g->shade_r : c == COL_ANA ? s->g->shade_a : s->g->block;
}

/* One step as a stacked bar scaled to the step's period, then the active time. */
static void step_bar(const struct screen *s, int y, int x, int w, const double *parts,
                     const enum colour *cols, int n, double period)
{
    struct bar_seg seg[3];
    double active = 0;
    for (int i = 0; i < n; i++) {
        seg[i] =
            (struct bar_seg){period > 0 ? parts[i] / period : 0, cols[i], glyph_for(s, cols[i])};
        active += parts[i];
    }
    char t[32];
    draw_time(active, t, sizeof t);
    draw_bar(s, y, x, w - 8, seg, n, s->g->idle);
    draw_right(s, y, x + w - 8, 8, COL_TEXT, t);
}

static void draw_step_bars(const struct screen *s, const struct view_layout *l,
                           const struct app_state *a)
{
    const struct glyphs *g = s->g;
    int x = l->right_x, y = l->top_y + 11, colw = (l->right_w - LABEL_W) / 2;
    int mx = x + LABEL_W, sx = mx + colw, bw = colw - 1;
    if (!a->model_valid)
        return;
    const struct stages *st = &a->model.stage;
    double sim_side = st->S + st->Ing, ana_side = st->R + st->A + st->W + st->C;
    double period = fmax(sim_side, ana_side);
    char t[32];
    draw_time(period, t, sizeof t);
    draw_text(s, y, x, l->right_w, COL_HEADING, "ONE STEP");
    draw_fmt(s, y, x + 9, l->right_w - 9, COL_MUTED, "period %s, active time per step", t);
    draw_text(s, y + 1, x, LABEL_W, COL_TEXT, "simulation");
    draw_text(s, y + 2, x, LABEL_W, COL_TEXT, "analytics");

    double sim_parts[1] = {sim_side};
    double ana_parts[2] = {st->R, st->A + st->W + st->C};
    enum colour sim_cols[1] = {COL_SIM}, ana_cols[2] = {COL_RETRIEVE, COL_ANA};
    step_bar(s, y + 1, mx, bw, sim_parts, sim_cols, 1, period);
    step_bar(s, y + 2, mx, bw, ana_parts, ana_cols, 2, period);

    if (a->has_sim) {
        /* The simulation's mean step when it reports steps, else its run spread evenly. */
        const struct sim_result *r = &a->sim;
        double steps = r->m.steps > 0 ? (double)r->m.steps : 1;
        double sa = result_step_mean(r, r->step_sim_active);
        double si = result_step_mean(r, r->step_sim_idle);
        double aa = result_step_mean(r, r->step_ana_active);
        double ai = result_step_mean(r, r->step_ana_idle);
        if (sa < 0) {
            sa = r->m.sim_active / steps;
            si = r->m.sim_idle / steps;
            aa = r->m.ana_active / steps;
            ai = r->m.ana_idle / steps;
        }
        double speriod = fmax(sa + si, aa + ai);
        double sp[1] = {sa}, ap[1] = {aa};
        enum colour ac[1] = {COL_ANA};
        step_bar(s, y + 1, sx, bw, sp, sim_cols, 1, speriod);
        step_bar(s, y + 2, sx, bw, ap, ac, 1, speriod);
    } else {
        draw_text(s, y + 1, sx, bw, COL_MUTED, sim_placeholder(a));
    }

    /* The legend: the bars' own glyphs, each in its own colour. */
    int lx = x;
    bool wide = l->right_w >= 41; /* the whole legend; at 80 columns a shorter one, all of it */
    const struct {
        enum colour c;
        const char *label;
    } legend[] = {{COL_SIM, wide ? "simulate" : "sim"},
                  {COL_RETRIEVE, "retrieve"},
                  {COL_ANA, "analyse"},
                  {COL_IDLE, "idle"}};
    for (size_t i = 0; i < sizeof legend / sizeof legend[0]; i++) {
        draw_text(s, y + 3, lx, 1, legend[i].c,
                  legend[i].c == COL_IDLE ? g->idle : glyph_for(s, legend[i].c));
        lx += 1 + draw_fmt(s, y + 3, lx + 1, l->right_w - (lx - x) - 1, COL_MUTED,
                           wide ? " %s  " : " %s ", legend[i].label);
    }
}

/* ---- info, status, keys --------------------------------------------------------------------- */

static void edit_hint(const struct app_state *a, char *buf, size_t len)
{
    int id = app_focused(a);
    const struct param_desc *d = &param_table[id];
    char now[64];
    params_format(&a->p, id, now, sizeof now);
    size_t used = (size_t)snprintf(buf, len, "now %s; ", now);
    if (id == P_RATIO) {
        long valid[64];
        int n = params_valid_ratios(a->p.cores_per_node, valid, 64);
        used += (size_t)snprintf(buf + used, len - used, "realisable:");
        for (int i = 0; i < n && i < 64 && used < len; i++)
            used += (size_t)snprintf(buf + used, len - used, " %ld", valid[i]);
    } else if (d->type == PARAM_CHOICE) {
        used += (size_t)snprintf(buf + used, len - used, "one of");
        for (int c = 0; d->choices[c] && used < len; c++)
            used += (size_t)snprintf(buf + used, len - used, " %s", d->choices[c]);
    } else if (d->type == PARAM_INT) {
        snprintf(buf + used, len - used, "an integer in [%.0f, %.0f]", d->min, d->max);
    } else {
        snprintf(buf + used, len - used, "a number in [%g, %g]", d->min, d->max);
    }
}

static void draw_info(const struct screen *s, const struct view_layout *l,
                      const struct app_state *a)
{
    const struct glyphs *g = s->g;
    int y = l->info_y, id = app_focused(a);
    if (a->mode == APP_EDIT) {
        int n = draw_fmt(s, y, 1, l->cols - 2, COL_HEADING, "%s = ", param_table[id].key);
        n += draw_text(s, y, 1 + n, l->cols - 2 - n, COL_VALUE, a->edit);
        draw_text(s, y, 1 + n, 1, COL_FOCUS, " ");
        n += 3;
        char hint[256];
        if (a->edit_err[0]) {
            n += 1 + draw_text(s, y, 1 + n, l->cols - 2 - n, COL_ERROR, g->fail);
            draw_text(s, y, 1 + n, l->cols - 2 - n, COL_ERROR, a->edit_err);
        } else {
            edit_hint(a, hint, sizeof hint);
            draw_text(s, y, 1 + n, l->cols - 2 - n, COL_MUTED, hint);
        }
        return;
    }
    if (a->mode == APP_PRESET_SAVE) {
        int n = draw_text(s, y, 1, l->cols - 2, COL_HEADING, "save as preset: ");
        n += draw_text(s, y, 1 + n, l->cols - 2 - n, COL_VALUE, a->edit);
        draw_text(s, y, 1 + n, 1, COL_FOCUS, " ");
        n += 2;
        if (a->edit_err[0])
            draw_text(s, y, 1 + n, l->cols - 2 - n, COL_ERROR, a->edit_err);
        else
            draw_text(s, y, 1 + n, l->cols - 2 - n, COL_MUTED, "NAME [description]");
        return;
    }
    if (a->notice[0]) {
        enum colour c = a->notice_error ? COL_ERROR : COL_TEXT;
        int n = 1 + draw_text(s, y, 1, l->cols - 2, c, a->notice_error ? g->fail : g->dot);
        draw_text(s, y, 1 + n, l->cols - 2 - n, c, a->notice);
        return;
    }
    int n = draw_fmt(s, y, 1, l->cols - 2, COL_HEADING, "%s: ", param_table[id].key);
    draw_text(s, y, 1 + n, l->cols - 2 - n, COL_MUTED, param_table[id].help);
}

static void draw_status(const struct screen *s, const struct view_layout *l,
                        const struct app_state *a, int max_jobs)
{
    const struct glyphs *g = s->g;
    int y = l->status_y;
    enum colour c = a->running ? COL_WARN : COL_GOOD;
    draw_text(s, y, 1, 1, c, g->point);
    int n = 3;
    n += draw_fmt(s, y, n, l->cols - n, COL_TEXT, "SimGrid %d running, %d queued (max %d)",
                  a->running, a->queued, max_jobs);
    /* What each level costs: the last run's wall time, with its level; C while one runs. */
    if (a->sim_phase == SIM_DONE && !a->sim_cached && l->cols >= 90) {
        char t[32];
        draw_time(a->sim_seconds, t, sizeof t);
        n += draw_fmt(s, y, n, l->cols - n, COL_MUTED, ", last run took %s (%s)", t,
                      param_table[P_FIDELITY].choices[a->p.fidelity]);
    } else if (a->sim_phase == SIM_RUNNING && a->sim_running_for >= 1) {
        n += draw_fmt(s, y, n, l->cols - n, COL_MUTED, ", %s: C cancels",
                      param_table[P_FIDELITY].choices[a->p.fidelity]);
    }
    n += draw_text(s, y, n, l->cols - n, COL_TEXT, " ");
    draw_text(s, y, n, 1, COL_BORDER, g->vline);
    n += 2;
    const char *what, *error = app_error(a, &what); /* the same one ! shows in full */
    if (error[0]) {
        n += 1 + draw_text(s, y, n, l->cols - n, COL_ERROR, g->fail);
        n += draw_text(s, y, n, l->cols - n, COL_ERROR, what);
        int room = l->cols - n - 1;
        if (room > 0 && screen_cells(error) > room) { /* cut: point at the key that shows it */
            draw_text(s, y, n, room - 9, COL_ERROR, error);
            draw_text(s, y, n + room - 9, 9, COL_MUTED, " (! full)");
        } else {
            draw_text(s, y, n, l->cols - n, COL_ERROR, error);
        }
    } else {
        draw_text(s, y, n, l->cols - n, COL_MUTED, "no errors");
    }
}

static void draw_keys(const struct screen *s, const struct view_layout *l,
                      const struct app_state *a)
{
    const struct glyphs *g = s->g;
    const char *main_keys[][2] = {{g->arrows_lr, "step"}, {g->enter, "type"}, {"m", "mapping"},
                                  {"a", "advise"},        {"r", "re-run"},    {"u", "links"},
                                  {"s", "scaling"},       {"p", "presets"},   {"?", "help"},
                                  {"q", "quit"}};
    char arrows[32];
    snprintf(arrows, sizeof arrows, "%s%s", g->arrows_lr, g->arrows_ud);
    const char *advise_keys[][2] = {{arrows, "move"}, {"X Y", "axes"}, {"o", "objective"},
                                    {"*", "best"},    {"a", "close"},  {"?", "help"},
                                    {"q", "quit"}};
    const char *lesson_keys[][2] = {{g->arrows_lr, "step"}, {"n", "next"}, {"b", "back"},
                                    {"h", "hint"},          {"c", "plot"}, {"u", "links"},
                                    {"s", "scaling"},       {"?", "help"}, {"q", "quit"}};
    if (a->lesson.done) { /* the summary: restarting is what a student looks for */
        lesson_keys[0][0] = "R";
        lesson_keys[0][1] = "restart";
    }
    const char *edit_keys[][2] = {
        {g->enter, "apply"}, {"Esc", "cancel"}, {"Ctrl-U", "clear"}, {"Ctrl-C", "quit"}};
    const char *help_keys[][2] = {{"?/Esc", "close help"}, {"q", "quit"}};
    const char *error_keys[][2] = {{"!/Esc", "close"}, {"q", "quit"}};
    const char *preset_keys[][2] = {
        {g->arrows_ud, "choose"}, {g->enter, "load"}, {"Esc", "cancel"}, {"q", "quit"}};
    const char *(*keys)[2] = main_keys;
    int n = sizeof main_keys / sizeof main_keys[0];
    if (a->mode == APP_MAIN && a->adv.open)
        keys = advise_keys, n = sizeof advise_keys / sizeof advise_keys[0];
    else if (a->mode == APP_MAIN && a->lesson.l)
        keys = lesson_keys, n = sizeof lesson_keys / sizeof lesson_keys[0];
    else if (a->mode == APP_EDIT || a->mode == APP_PRESET_SAVE)
        keys = edit_keys, n = sizeof edit_keys / sizeof edit_keys[0];
    else if (a->mode == APP_HELP)
        keys = help_keys, n = sizeof help_keys / sizeof help_keys[0];
    else if (a->mode == APP_ERROR)
        keys = error_keys, n = sizeof error_keys / sizeof error_keys[0];
    else if (a->mode == APP_PRESETS)
        keys = preset_keys, n = sizeof preset_keys / sizeof preset_keys[0];
    /* The last two (help, quit) always show, at the right end; the rest fill what is left. */
    int width[16], right = l->cols - 1;
    for (int i = 0; i < n; i++)
        width[i] = screen_cells(keys[i][0]) + 2 + screen_cells(keys[i][1]) + 3;
    for (int i = n - 2; i < n; i++)
        right -= width[i];
    for (int i = 0, x = 1; i < n; i++) {
        if (i < n - 2 && x + width[i] > right)
            continue;
        if (i == n - 2)
            x = right;
        x += draw_fmt(s, l->keys_y, x, l->cols - x, COL_KEY, " %s ", keys[i][0]);
        x += draw_fmt(s, l->keys_y, x, l->cols - x, COL_TEXT, " %s ", keys[i][1]) + 1;
    }
}

void view_draw(const struct screen *s, const struct view_layout *l, const struct app_state *a,
               int max_jobs)
{
    erase();
    if (l->too_small) {
        view_small_draw(s, l);
        return;
    }
    draw_header(s, l, a);
    draw_sliders(s, l, a);
    if (a->adv.open) {
        view_advise_draw(s, l, a);
    } else {
        draw_results(s, l, a);
        draw_run_bars(s, l, a);
        draw_step_bars(s, l, a);
    }
    draw_info(s, l, a);
    switch (a->pane) {
    case APP_PANE_LESSON:
        view_lesson_draw(s, l, a);
        break;
    case APP_PANE_LINKS:
        view_links_draw(s, l, a);
        break;
    case APP_PANE_SCALING:
        view_scaling_draw(s, l, a);
        break;
    default:
        view_xover_draw(s, l, a);
    }
    draw_status(s, l, a, max_jobs);
    draw_keys(s, l, a);
    if (a->mode == APP_HELP)
        view_help_draw(s, l, max_jobs);
    else if (a->mode == APP_PRESETS)
        view_presets_draw(s, l, a);
    /* APP_ERROR's box is drawn by the caller, after the scenario panel it may be about. */
}
