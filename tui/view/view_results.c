/* The results panel, right of the sliders: model against SimGrid (η, the makespan with eq. 5
 * beside it, the scenario, the cores), the run's idle/active bars and one step's stacked bars
 * with their legend. Which rows show depends on the terminal's height (view_layout). */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "draw.h"
#include "view.h"
#include "../../engine/base/units.h"

#define LABEL_W 13 /* row labels of the results panel */

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

/* The column's heading names the engine behind its numbers ("SimGrid ✓ sampled": sampled full
 * fidelity), then the run under way that refines them: its engine and how long it has run
 * ("full 2 s..."). Shortened to fit w cells: "cached" goes, then the engine's long name, then
 * "SimGrid" (the engine's name says it). */
static void sim_header(const struct screen *s, const struct app_state *a, int w, char *buf,
                       size_t len)
{
    const struct glyphs *g = s->g;
    const char *next =
        param_table[P_FIDELITY].choices[a->sim_next >= 0 ? a->sim_next : app_sim_target(a)];
    char run[48] = "";
    switch (a->sim_phase) {
    case SIM_WAITING:
        snprintf(run, sizeof run, "%s soon", next);
        break;
    case SIM_QUEUED:
        snprintf(run, sizeof run, "%s queued", next);
        break;
    case SIM_RUNNING: /* past a second, how long so far: fidelity full and smpi take a while */
        if (a->sim_running_for >= 1)
            snprintf(run, sizeof run, "%s %.0f s%s", next, a->sim_running_for, g->ellipsis);
        else
            snprintf(run, sizeof run, "%s%s", next, g->ellipsis);
        break;
    case SIM_CANCELLED:
        snprintf(run, sizeof run, "cancelled");
        break;
    case SIM_FAILED:
        snprintf(buf, len, "SimGrid %s failed", g->fail);
        return;
    default:
        break;
    }
    if (!a->has_sim) {
        snprintf(buf, len, "SimGrid %s", run[0] ? run : "");
        return;
    }
    const char *eng = result_engine(&a->sim), *brief = eng;
    if (!strcmp(eng, "full sampled"))
        brief = "sampled"; /* only full fidelity samples */
    /* Each try shorter: {cached shown, engine: 2 long / 1 brief / 0 none, "SimGrid "}. A cached
     * result keeps the word (the status bar names its engine then); at 80 columns a settled
     * result keeps "SimGrid" rather than its engine's name. */
    static const int tries[][3] = {{1, 2, 1}, {1, 1, 1}, {1, 0, 1}, {0, 2, 1},
                                   {0, 1, 1}, {0, 0, 1}, {0, 1, 0}, {0, 0, 0}};
    for (size_t k = 0; k < sizeof tries / sizeof tries[0]; k++) {
        if ((tries[k][0] && !a->sim_cached) ||
            (!tries[k][1] && tries[k][2] && !tries[k][0] && run[0]))
            continue; /* "cached" only for a cached result; a run under way before "SimGrid" */
        const char *e = tries[k][1] == 2 ? eng : tries[k][1] == 1 ? brief : "";
        snprintf(buf, len, "%s%s%s%s%s%s%s", tries[k][2] ? "SimGrid " : "", g->ok,
                 tries[k][0] && a->sim_cached ? " cached" : "", e[0] ? " " : "", e,
                 run[0] ? (e[0] ? ", " : " ") : "", run);
        if (screen_cells(buf) <= w)
            return;
    }
}

static const char *scenario_text(enum scenario sc)
{
    return sc == SCENARIO_IS       ? "simulation waits for the analytics"
           : sc == SCENARIO_IA     ? "analytics waits for the simulation"
           : sc == SCENARIO_INLINE ? "analysis on the ranks: no idle"
                                   : "neither side waits";
}

/* "30 sim + 2 ana, 1 node" ("64 ranks inline, 2 nodes"), shortened until it fits the column. */
static void core_split(const struct model_result *m, int width, char *buf, size_t len)
{
    if (m->scenario == SCENARIO_INLINE) {
        int n = snprintf(buf, len, "%ld ranks inline, %d node%s", m->sim_cores, m->nodes_used,
                         m->nodes_used == 1 ? "" : "s");
        if (n >= width)
            n = snprintf(buf, len, "%ld inline", m->sim_cores);
        if (n >= width)
            snprintf(buf, len, "%ld", m->sim_cores);
        return;
    }
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
    int rows = l->top_y + l->top_h - y; /* the results and the bars */
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
    if (fabs(d) < 0.0005)
        d = 0; /* "-0.0%" would say SimGrid is below the model by nothing */
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

/* Where the two columns are, and what SimGrid's shows while it has no number. */
struct column {
    int mx, mw, sx, sw;
    const char *ph;
    enum colour ph_c;
};

/* A labelled row: the model's value, SimGrid's (NAN: none yet) and the Δ; times or η. */
static void compare_row(const struct screen *s, int y, int x, const char *label,
                        const struct column *c, double model, double sim, bool time)
{
    char v[32];
    draw_text(s, y, x, LABEL_W, COL_TEXT, label);
    if (time)
        units_time_short(model, v, sizeof v);
    else
        snprintf(v, sizeof v, "%.3f", model);
    draw_text(s, y, c->mx, c->mw, time ? COL_VALUE : eta_colour(model), v);
    if (isnan(sim)) {
        draw_text(s, y, c->sx, c->sw, c->ph_c, c->ph);
        return;
    }
    if (time)
        units_time_short(sim, v, sizeof v);
    else
        snprintf(v, sizeof v, "%.3f", sim);
    int n = draw_text(s, y, c->sx, c->sw, time ? COL_VALUE : eta_colour(sim), v);
    draw_delta(s, y, c->sx, n, c->sw, sim, model);
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
    sim_header(s, a, sw, buf, sizeof buf);
    draw_text(s, y, sx, sw, a->sim_phase == SIM_FAILED ? COL_ERROR : COL_HEADING, buf);
    const char *ph = sim_placeholder(a);
    enum colour ph_c = a->sim_phase == SIM_FAILED ? COL_ERROR : COL_MUTED;

    snprintf(buf, sizeof buf, "efficiency%s%s", s->unicode ? " " : "", s->unicode ? g->eta : "");
    struct column c = {mx, colw, sx, sw, ph, ph_c};
    compare_row(s, y + 1, x, buf, &c, m->efficiency, r ? r->efficiency : NAN, false);
    /* The model's best prediction (with the pipeline's fill and drain), against the measured
     * makespan; the paper's eq. 5 beside it, for reference. */
    compare_row(s, y + 2, x, "makespan", &c, m->makespan, r ? r->makespan : NAN, true);
    draw_text(s, y + 3, x, LABEL_W, COL_MUTED, " paper eq.5");
    units_time_short(m->makespan_eq5, t, sizeof t);
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
    if (l->r_scen_text >= 0)
        draw_fmt(s, y + l->r_scen_text, mx, l->right_w - LABEL_W, COL_MUTED, "%s %s", s->g->arrow,
                 m->backpressure ? "back-pressure: the servers are full" /* dtl=staging */
                                 : scenario_text(m->scenario));
    if (l->r_cores < 0)
        return;
    int cy = y + l->r_cores;
    draw_text(s, cy, x, LABEL_W, COL_TEXT, "cores");
    core_split(m, colw - 1, buf, sizeof buf);
    draw_text(s, cy, mx, colw, COL_VALUE, buf);
    if (r) {
        core_split(r, sw - 1, buf, sizeof buf);
        draw_text(s, cy, sx, sw, COL_VALUE, buf);
    } else {
        draw_text(s, cy, sx, sw, ph_c, ph);
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

/* Inline, one core does both: the simulation's row is its whole time, the simulation's share then
 * the analysis' (no idle); the analytics' row the analysis' share alone. */
static void inline_run_bars(const struct screen *s, int y, int x, int w,
                            const struct model_result *m)
{
    double total = m->sim_active + m->ana_active;
    double fs = total > 0 ? m->sim_active / total : 0, fa = total > 0 ? m->ana_active / total : 0;
    struct bar_seg seg[2] = {{fs, COL_SIM, s->g->block}, {fa, COL_ANA, s->g->shade_a}};
    draw_bar(s, y, x, w - 5, seg, 2, s->g->idle);
    draw_fmt(s, y, x + w - 5, 5, COL_TEXT, "%4.0f%%", (fs + fa) * 100);
    draw_bar(s, y + 1, x, w - 5, &seg[1], 1, s->g->idle);
    draw_fmt(s, y + 1, x + w - 5, 5, COL_TEXT, "%4.0f%%", fa * 100);
}

static void draw_run_bars(const struct screen *s, const struct view_layout *l,
                          const struct app_state *a)
{
    int x = l->right_x, y = l->top_y + l->r_run, colw = (l->right_w - LABEL_W) / 2;
    int mx = x + LABEL_W, sx = mx + colw, bw = colw - 1;
    if (!a->model_valid || l->r_run < 0)
        return; /* draw_no_model has the rows */
    draw_text(s, y, x, l->right_w, COL_HEADING, "OVER THE RUN");
    draw_text(s, y, x + 13, l->right_w - 13, COL_MUTED, "one core of each, % of the time active");
    const struct model_result *m = &a->model;
    draw_text(s, y + 1, x, LABEL_W, COL_TEXT, "simulation");
    draw_text(s, y + 2, x, LABEL_W, COL_TEXT,
              m->scenario == SCENARIO_INLINE ? "analysis" : "analytics");
    if (m->scenario == SCENARIO_INLINE) {
        inline_run_bars(s, y + 1, mx, bw, m);
    } else {
        run_bar(s, y + 1, mx, bw, m->sim_active, m->sim_idle, COL_SIM);
        run_bar(s, y + 2, mx, bw, m->ana_active, m->ana_idle, COL_ANA);
    }
    if (a->has_sim && a->sim.m.scenario == SCENARIO_INLINE) {
        inline_run_bars(s, y + 1, sx, bw, &a->sim.m);
    } else if (a->has_sim) {
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
    return c == COL_RETRIEVE ? s->g->shade_r
           : c == COL_ANA    ? s->g->shade_a
           : c == COL_IDLE   ? s->g->idle
                             : s->g->block;
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
        active += cols[i] == COL_IDLE ? 0 : parts[i]; /* inline: the simulation's part, before */
    }
    char t[32];
    units_time_short(active, t, sizeof t);
    draw_bar(s, y, x, w - 8, seg, n, s->g->idle);
    draw_right(s, y, x + w - 8, 8, COL_TEXT, t);
}

static void draw_step_bars(const struct screen *s, const struct view_layout *l,
                           const struct app_state *a)
{
    const struct glyphs *g = s->g;
    int x = l->right_x, y = l->top_y + l->r_step, colw = (l->right_w - LABEL_W) / 2;
    int mx = x + LABEL_W, sx = mx + colw, bw = colw - 1;
    if (!a->model_valid || l->r_step < 0)
        return;
    const struct stages *st = &a->model.stage;
    double sim_side = st->S + st->Ing, ana_side = st->R + st->A + st->W + st->C;
    /* Inline, the analysis follows S on the same cores: the step is both, one after the other. */
    bool inl = a->model.scenario == SCENARIO_INLINE;
    double period = inl ? sim_side + ana_side : fmax(sim_side, ana_side);
    char t[32];
    units_time_short(period, t, sizeof t);
    draw_text(s, y, x, l->right_w, COL_HEADING, "ONE STEP");
    if (l->r_scen_text < 0) /* compact: the scenario's meaning has no row; it goes here */
        draw_fmt(s, y, x + 9, l->right_w - 9, COL_MUTED, "%s, %s: %s", t,
                 model_scenario_name(a->model.scenario),
                 a->model.scenario == SCENARIO_IS       ? "sim waits"
                 : a->model.scenario == SCENARIO_IA     ? "ana waits"
                 : a->model.scenario == SCENARIO_INLINE ? "no idle"
                                                        : "none waits");
    else
        draw_fmt(s, y, x + 9, l->right_w - 9, COL_MUTED, "period %s, active time per step", t);
    draw_text(s, y + 1, x, LABEL_W, COL_TEXT, "simulation");
    draw_text(s, y + 2, x, LABEL_W, COL_TEXT, inl ? "analysis" : "analytics");

    double sim_parts[2] = {sim_side, ana_side};
    double ana_parts[2] = {st->R, st->A + st->W + st->C};
    enum colour sim_cols[2] = {COL_SIM, COL_ANA}, ana_cols[2] = {COL_RETRIEVE, COL_ANA};
    if (inl) { /* the analytics' row: the analysis after the simulation's part */
        ana_parts[0] = sim_side;
        ana_cols[0] = COL_IDLE;
    }
    step_bar(s, y + 1, mx, bw, sim_parts, sim_cols, inl ? 2 : 1, period);
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
        bool sinl = r->m.scenario == SCENARIO_INLINE;
        double speriod = sinl ? sa + aa : fmax(sa + si, aa + ai);
        /* The model's glyph rule for SimGrid too: retrieve (its measured R) in its own glyph,
         * the rest of the analytics' active time as analyse. One rule, or the two bars of one
         * configuration disagree about what the analytics does. Inline: as the model's, the
         * analysis after the simulation's part, on the same core. */
        double rr = fmin(fmax(r->m.stage.R, 0), aa);
        double sp[2] = {sa, aa}, ap[2] = {sinl ? sa : rr, sinl ? aa : aa - rr};
        enum colour ac[2] = {sinl ? COL_IDLE : COL_RETRIEVE, COL_ANA};
        step_bar(s, y + 1, sx, bw, sp, sim_cols, sinl ? 2 : 1, speriod);
        step_bar(s, y + 2, sx, bw, ap, ac, 2, speriod);
    } else {
        draw_text(s, y + 1, sx, bw, COL_MUTED, sim_placeholder(a));
    }

    /* The legend: the bars' own glyphs, each in its own colour. */
    int lx = x;
    /* Wide: the long labels, two spaces apart. Narrower (80 columns): "sim" and one space, so
     * that all four entries still fit. */
    bool wide = l->right_w >= 41;
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

void view_results_draw(const struct screen *s, const struct view_layout *l,
                       const struct app_state *a)
{
    draw_results(s, l, a);
    draw_run_bars(s, l, a);
    draw_step_bars(s, l, a);
}
