/* The crossover block: makespan of both mappings against data_scaling on log-log axes, the
 * model's curves as Braille lines, SimGrid's points on top, the crossover marked, and a side
 * panel with the verdict, the legend and the values at the current data_scaling. */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../engine/model/crossover.h"
#include "draw.h"
#include "plot.h"
#include "view.h"

#define YLABEL_W 8

static const enum colour curve_colour[XO_MAPPINGS] = {COL_INSITU, COL_INTRANSIT, COL_INLINE};
static const char *const curve_name[XO_MAPPINGS] = {"in situ", "in transit", "inline"};
static const char *const ascii_curve[XO_MAPPINGS] = {"*", "+", "~"};

/* The point SimGrid's runs leave on mapping m's curve. */
static const char *point_of(const struct glyphs *g, int m)
{
    return m == XO_INSITU ? g->point : m == XO_INTRANSIT ? g->point2 : g->point3;
}

struct axes {
    double llo, lhi; /* log10 of the makespan range */
    int dots_x, dots_y;
};

static bool y_range(const struct xover *xo, struct axes *ax)
{
    double lo = INFINITY, hi = -INFINITY;
    for (int m = 0; m < XO_MAPPINGS; m++) {
        for (int i = 0; xo->c.ok[m] && i < XO_SAMPLES; i++) {
            lo = fmin(lo, xo->c.model[m][i]);
            hi = fmax(hi, xo->c.model[m][i]);
        }
        for (int i = 0; i < XO_POINTS; i++) {
            if (xo->pstate[m][i] == XO_PT_DONE && xo->sim[m][i] > 0) {
                lo = fmin(lo, xo->sim[m][i]);
                hi = fmax(hi, xo->sim[m][i]);
            }
        }
    }
    if (!(lo > 0) || !isfinite(hi))
        return false;
    ax->llo = log10(lo);
    ax->lhi = log10(hi);
    if (ax->lhi - ax->llo < 0.02) { /* a flat curve still needs a scale */
        ax->llo -= 0.01;
        ax->lhi += 0.01;
    }
    return true;
}

static int dot_x(const struct axes *ax, double x)
{
    return (int)lround(log10(x / XO_MIN) / log10(XO_MAX / XO_MIN) * (ax->dots_x - 1));
}

static int dot_y(const struct axes *ax, double y)
{
    return (int)lround((ax->lhi - log10(y)) / (ax->lhi - ax->llo) * (ax->dots_y - 1));
}

static void draw_plot(const struct screen *s, const struct app_state *a, int y0, int x0, int pw,
                      int ph)
{
    const struct glyphs *g = s->g;
    const struct xover *xo = &a->xo;
    struct axes ax;
    struct plot p;
    if (ph < 1 || pw < 10 || !y_range(xo, &ax) || plot_init(&p, pw, ph, s->unicode) < 0)
        return;
    ax.dots_x = pw * p.sx;
    ax.dots_y = ph * p.sy;
    /* In transit is dashed in colour too: the two curves must differ by more than a hue. */
    if (s->unicode) {
        plot_set_dash(&p, XO_INTRANSIT, 2);
        plot_set_dash(&p, XO_INLINE, 1);
    }
    for (int m = 0; m < XO_MAPPINGS; m++) {
        if (!xo->c.ok[m])
            continue;
        for (int i = 1; i < XO_SAMPLES; i++)
            plot_line(&p, dot_x(&ax, xo->c.xs[i - 1]), dot_y(&ax, xo->c.model[m][i - 1]),
                      dot_x(&ax, xo->c.xs[i]), dot_y(&ax, xo->c.model[m][i]), m);
    }
    /* Cells: curves, then the crossover line where the curves leave room, then the points. */
    int cross_col = xo->c.ncross ? dot_x(&ax, xo->c.cross_x) / p.sx : -1;
    for (int r = 0; r < ph; r++) {
        for (int c = 0; c < pw; c++) {
            int layer = p.layer[r * pw + c];
            if (layer >= 0) {
                char cell[4];
                if (s->unicode)
                    plot_braille(&p, r, c, cell);
                else
                    snprintf(cell, sizeof cell, "%s", ascii_curve[layer]);
                draw_text(s, y0 + r, x0 + c, 1, curve_colour[layer], cell);
            } else if (c == cross_col) {
                draw_text(s, y0 + r, x0 + c, 1, COL_CROSS, g->cross_line);
            }
        }
    }
    for (int m = 0; m < XO_MAPPINGS; m++) {
        for (int i = 0; i < XO_POINTS; i++) {
            int st = xo->pstate[m][i];
            if (st == XO_PT_NONE)
                continue;
            double v = st == XO_PT_DONE ? xo->sim[m][i] : xover_model_at(&xo->c, m, xo->px[i]);
            if (!(v > 0))
                continue;
            int c = dot_x(&ax, xo->px[i]) / p.sx, r = dot_y(&ax, v) / p.sy;
            if (r >= 0 && r < ph && c >= 0 && c < pw)
                draw_text(s, y0 + r, x0 + c, 1, st == XO_PT_DONE ? curve_colour[m] : COL_ERROR,
                          st != XO_PT_DONE ? g->fail : point_of(g, m));
        }
    }

    /* The y axis: the range's ends and its (geometric) middle. */
    char t[32];
    for (int r = 0; r < ph; r++) {
        bool label = r == 0 || r == ph - 1 || (ph >= 5 && r == ph / 2);
        if (label) {
            double ly = r == 0 ? ax.lhi : r == ph - 1 ? ax.llo : (ax.lhi + ax.llo) / 2;
            draw_time_as(pow(10, ly), pow(10, ax.lhi), t, sizeof t);
            draw_right(s, y0 + r, x0 - YLABEL_W, YLABEL_W - 1, COL_MUTED, t);
        }
        draw_text(s, y0 + r, x0 - 1, 1, COL_BORDER, label ? g->tick_y : g->vline);
    }
    /* The x axis with decade ticks, the crossover and the current data_scaling. */
    int ay = y0 + ph;
    draw_text(s, ay, x0 - 1, 1, COL_BORDER, g->corner);
    draw_fill(s, ay, x0, pw, COL_BORDER, g->hline);
    for (double x = XO_MIN; x <= XO_MAX * 1.0001; x *= 10) {
        int c = dot_x(&ax, x) / p.sx;
        draw_text(s, ay, x0 + c, 1, COL_BORDER, g->tick_x);
        char lab[16];
        snprintf(lab, sizeof lab, "%g%s", x, g->times);
        int lw = screen_cells(lab);
        int lx = c + lw > pw ? pw - lw : c;
        draw_text(s, ay + 1, x0 + lx, lw, COL_MUTED, lab);
    }
    if (cross_col >= 0)
        draw_text(s, ay, x0 + cross_col, 1, COL_CROSS, g->cross_line);
    double now = a->p.data_scaling;
    if (now >= XO_MIN && now <= XO_MAX)
        draw_text(s, ay, x0 + dot_x(&ax, now) / p.sx, 1, COL_KNOB, g->here);
    plot_free(&p);
}

/* The side panel: most important first, so a short terminal keeps the verdict. */
static void draw_side(const struct screen *s, const struct app_state *a, int y, int x, int w, int h)
{
    const struct glyphs *g = s->g;
    const struct xover *xo = &a->xo;
    char line[8][160];
    enum colour col[8];
    int n = 0;
    if (!xo->c.ok[XO_INSITU] || !xo->c.ok[XO_INTRANSIT]) {
        int bad = xo->c.ok[XO_INSITU] ? XO_INTRANSIT : XO_INSITU;
        snprintf(line[n], sizeof line[n], "no %s curve:", curve_name[bad]);
        col[n++] = COL_WARN;
        snprintf(line[n], sizeof line[n], "%.*s", (int)sizeof line[n] - 1, xo->c.err[bad]);
        col[n++] = COL_MUTED;
    } else if (xo->c.ncross) {
        char at[32];
        crossover_format(xo->c.cross_x, at, sizeof at);
        snprintf(line[n], sizeof line[n], "crossover %s %s%s", g->approx, g->times, at);
        col[n++] = COL_CROSS;
        snprintf(line[n], sizeof line[n], "below: %s is faster", curve_name[xo->c.faster_below]);
        col[n++] = COL_TEXT;
        snprintf(line[n], sizeof line[n], "above: %s is faster", curve_name[!xo->c.faster_below]);
        col[n++] = COL_TEXT;
        if (xo->c.ncross > 1) {
            snprintf(line[n], sizeof line[n], "(and %d more crossings)", xo->c.ncross - 1);
            col[n++] = COL_MUTED;
        }
    } else {
        snprintf(line[n], sizeof line[n], "no crossover in %s1-%s1000", g->times, g->times);
        col[n++] = COL_VALUE;
        snprintf(line[n], sizeof line[n], "%s faster throughout", curve_name[xo->c.faster_below]);
        col[n++] = COL_TEXT;
    }
    /* Inline against the best of the other two at the current data_scaling. */
    double here[XO_MAPPINGS];
    int best = -1;
    for (int m = 0; m < XO_MAPPINGS; m++) {
        here[m] = xover_model_at(&xo->c, m, a->p.data_scaling);
        if (here[m] > 0 && (best < 0 || here[m] < here[best]))
            best = m;
    }
    if (best >= 0 && here[XO_INLINE] > 0 && n < 7) {
        snprintf(line[n], sizeof line[n], "fastest at %s%g: %s", g->times, a->p.data_scaling,
                 curve_name[best]);
        col[n++] = best == XO_INLINE ? COL_INLINE : COL_TEXT;
    }
    int done = 0, failed = 0;
    for (int m = 0; m < XO_MAPPINGS; m++)
        for (int i = 0; i < XO_POINTS; i++)
            done += xo->pstate[m][i] == XO_PT_DONE, failed += xo->pstate[m][i] == XO_PT_FAILED;
    for (int i = 0; i < n && i < h; i++)
        draw_text(s, y + i, x, w, col[i], line[i]);
    int r = n;
    for (int m = 0; m < XO_MAPPINGS && r < h; m++, r++) {
        /* The curve as drawn (solid or dashed) and the point SimGrid's runs leave on it. */
        const char *sample = !s->unicode         ? ascii_curve[m]
                             : m == XO_INTRANSIT ? g->curve2
                             : m == XO_INLINE    ? g->curve3
                                                 : g->curve;
        draw_text(s, y + r, x, 2, curve_colour[m], sample);
        draw_text(s, y + r, x + 2, 1, curve_colour[m], point_of(g, m));
        char v[32];
        double at = xover_model_at(&xo->c, m, a->p.data_scaling);
        draw_time(at, v, sizeof v);
        draw_fmt(s, y + r, x + 4, w - 4, COL_TEXT, "%-10s %s at %s%g", curve_name[m],
                 xo->c.ok[m] ? v : "-", g->times, a->p.data_scaling);
    }
    if (r < h) {
        for (int m = 0; m < XO_MAPPINGS; m++)
            draw_text(s, y + r, x + m, 1, curve_colour[m], point_of(g, m));
        if (failed)
            draw_fmt(s, y + r, x + 4, w - 4, COL_TEXT, "SimGrid %d/%d, %d failed", done,
                     XO_MAPPINGS * XO_POINTS, failed);
        else
            draw_fmt(s, y + r, x + 4, w - 4, COL_TEXT, "SimGrid %d/%d points", done,
                     XO_MAPPINGS * XO_POINTS);
        r++;
    }
    if (r < h && a->p.mapping == MAPPING_HOSTFILE)
        draw_text(s, y + r++, x, w, COL_MUTED, "(your hostfile mapping: not shown)");
}

void view_xover_draw(const struct screen *s, const struct view_layout *l, const struct app_state *a)
{
    int y = l->xo_y, side_w = l->cols >= 100 ? 34 : 30;
    int n = draw_text(s, y, 1, l->cols - 2, COL_HEADING, "IN SITU vs IN TRANSIT vs INLINE");
    /* At which node count the curves are drawn, and why when it is not the configuration's:
     * that stays; the description goes first when the row is short. */
    char at[128];
    if (a->xo.bumped)
        snprintf(at, sizeof at, "  at %ld nodes, not your %ld: in transit needs %s 2",
                 a->xo.base.nodes, a->p.nodes, s->g->ge);
    else
        snprintf(at, sizeof at, "  at %ld nodes", a->xo.base.nodes);
    const char *what = "  makespan against data_scaling, log-log";
    if (n + draw_width(what) + draw_width(at) <= l->cols - 2)
        n += draw_text(s, y, 1 + n, l->cols - 2 - n, COL_MUTED, what);
    n += draw_text(s, y, 1 + n, l->cols - 2 - n, a->xo.bumped ? COL_WARN : COL_MUTED, at);
    if (!xover_current(&a->xo))
        draw_fmt(s, y, 1 + n, l->cols - 2 - n, COL_MUTED, "  updating%s", s->g->ellipsis);
    int ph = l->xo_h - 3; /* title, x axis, x labels */
    int x0 = YLABEL_W + 1, pw = l->cols - x0 - side_w - 2;
    draw_plot(s, a, y + 1, x0, pw, ph);
    draw_side(s, a, y + 1, l->cols - side_w, side_w - 1, l->xo_h - 1);
}
