/* The static scaling / rate view (after the performance spectrum): for region 20..100, the
 * model's rate (particle-iterations per second) against its time to solution, one curve per node
 * count, log-log. The axes follow the spectrum's convention, rate up and time across, so that a
 * configuration that scales, whose rate does not move as the problem grows, is a flat line; the
 * side panel says which are. */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../view/draw.h"
#include "../view/plot.h"
#include "../view/view.h"
#include "../../engine/base/units.h"

#define YLABEL_W 8
#define SIDE_W   34

/* Five Okabe-Ito hues, none repeated (screen.h). */
static const enum colour curve_colour[SC_CURVES] = {COL_KNOB, COL_INSITU, COL_INTRANSIT, COL_GOOD,
                                                    COL_RETRIEVE};
static const char *const ascii_curve[SC_CURVES] = {"@", "*", "+", "o", "x"};
/* Each curve ends in its own mark and has its own dash, in colour too, so that the legend can be
 * read without telling the colours apart. */
static const char *const unicode_mark[SC_CURVES] = {"●", "◆", "■", "▲", "✚"};

static const char *mark_of(const struct screen *s, int k)
{
    return s->unicode ? unicode_mark[k] : ascii_curve[k];
}

struct range {
    double lo, hi; /* log10 */
};

static bool range_of(const struct scaling_curves *c, bool rate, struct range *r)
{
    double lo = INFINITY, hi = -INFINITY;
    for (int k = 0; k < c->ncurves; k++)
        for (int i = 0; c->ok[k] && i < SC_REGIONS; i++) {
            double v = rate ? c->rate[k][i] : c->time[k][i];
            if (v > 0 && isfinite(v))
                lo = fmin(lo, v), hi = fmax(hi, v);
        }
    if (!(lo > 0) || !isfinite(hi))
        return false;
    r->lo = log10(lo);
    r->hi = log10(hi);
    if (r->hi - r->lo < 0.3) { /* a flat line must look flat, not fill the height */
        double mid = (r->hi + r->lo) / 2;
        r->lo = mid - 0.15;
        r->hi = mid + 0.15;
    }
    return true;
}

static int to_dot(const struct range *r, double v, int dots, bool flip)
{
    double f = (log10(v) - r->lo) / (r->hi - r->lo);
    return (int)lround((flip ? 1 - f : f) * (dots - 1));
}

static void rate_label(double v, char *buf, size_t len)
{
    const char *unit[] = {"", "k", "M", "G", "T", "P"};
    int u = 0;
    while (v >= 1000 && u < 5)
        v /= 1000, u++;
    snprintf(buf, len, "%.3g%s", v, unit[u]);
}

static void draw_plot(const struct screen *s, const struct scaling_curves *c, int y0, int x0,
                      int pw, int ph)
{
    const struct glyphs *g = s->g;
    struct range rx, ry;
    struct plot p;
    if (ph < 1 || pw < 10 || !range_of(c, false, &rx) || !range_of(c, true, &ry) ||
        plot_init(&p, pw, ph, s->unicode) < 0)
        return;
    int dx = pw * p.sx, dy = ph * p.sy;
    for (int k = 0; k < c->ncurves; k++) {
        if (!c->ok[k])
            continue;
        if (s->unicode)
            plot_set_dash(&p, k, k);
        int px = -1, py = -1;
        for (int i = 0; i < SC_REGIONS; i++) {
            if (!(c->time[k][i] > 0) || !(c->rate[k][i] > 0))
                continue;
            int x = to_dot(&rx, c->time[k][i], dx, false), y = to_dot(&ry, c->rate[k][i], dy, true);
            if (px >= 0)
                plot_line(&p, px, py, x, y, k);
            else
                plot_dot(&p, x, y, k);
            px = x, py = y;
        }
    }
    for (int r = 0; r < ph; r++)
        for (int col = 0; col < pw; col++) {
            int layer = p.layer[r * pw + col];
            if (layer < 0)
                continue;
            char cell[4];
            if (s->unicode)
                plot_braille(&p, r, col, cell);
            else
                snprintf(cell, sizeof cell, "%s", ascii_curve[layer]);
            draw_text(s, y0 + r, x0 + col, 1, curve_colour[layer], cell);
        }
    for (int k = 0; k < c->ncurves; k++) { /* the marks, at each curve's last point */
        for (int i = SC_REGIONS - 1; c->ok[k] && i >= 0; i--) {
            if (!(c->time[k][i] > 0) || !(c->rate[k][i] > 0))
                continue;
            int col = to_dot(&rx, c->time[k][i], dx, false) / p.sx;
            int row = to_dot(&ry, c->rate[k][i], dy, true) / p.sy;
            draw_text(s, y0 + row, x0 + col, 1, curve_colour[k], mark_of(s, k));
            break;
        }
    }
    char t[32];
    for (int r = 0; r < ph; r++) {
        bool label = r == 0 || r == ph - 1;
        if (label) {
            rate_label(pow(10, r == 0 ? ry.hi : ry.lo), t, sizeof t);
            draw_right(s, y0 + r, x0 - YLABEL_W, YLABEL_W - 1, COL_MUTED, t);
        }
        draw_text(s, y0 + r, x0 - 1, 1, COL_BORDER, label ? g->tick_y : g->vline);
    }
    int ay = y0 + ph;
    draw_text(s, ay, x0 - 1, 1, COL_BORDER, g->corner);
    draw_fill(s, ay, x0, pw, COL_BORDER, g->hline);
    units_time_short(pow(10, rx.lo), t, sizeof t);
    draw_text(s, ay + 1, x0, 10, COL_MUTED, t);
    /* The axis' name between its two end values, never running into them ("(log)821 s"). */
    const char *name = pw >= 46 ? "time to solution (log)" : "time (log)";
    int nw = draw_width(name), nx = x0 + (pw - nw) / 2;
    if (nx >= x0 + 11 && nx + nw <= x0 + pw - 11)
        draw_text(s, ay + 1, nx, nw, COL_MUTED, name);
    units_time_short(pow(10, rx.hi), t, sizeof t);
    draw_right(s, ay + 1, x0 + pw - 10, 10, COL_MUTED, t);
    plot_free(&p);
}

/* The legend lists the curves as they stand in the plot, top first: by their mean log rate. */
static void legend_order(const struct scaling_curves *c, int order[SC_CURVES])
{
    double at[SC_CURVES];
    for (int k = 0; k < c->ncurves; k++) {
        double sum = 0;
        int n = 0;
        for (int i = 0; c->ok[k] && i < SC_REGIONS; i++)
            if (c->rate[k][i] > 0)
                sum += log10(c->rate[k][i]), n++;
        at[k] = n ? sum / n : -INFINITY; /* a curve that does not fit goes last */
        order[k] = k;
    }
    for (int i = 1; i < c->ncurves; i++) /* insertion sort: five curves at most */
        for (int j = i; j > 0 && at[order[j]] > at[order[j - 1]]; j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
}

void view_scaling_draw(const struct screen *s, const struct view_layout *l,
                       const struct app_state *a)
{
    const struct scaling_curves *c = &a->sc.c;
    int y = l->xo_y, w = l->cols - 2;
    int n = draw_text(s, y, 1, w, COL_HEADING, "STATIC SCALING");
    n += draw_fmt(s, y, 1 + n, w - n, COL_MUTED,
                  "  rate (particle-iterations/s) against time to solution, region %d-%d, model",
                  SC_REGION_MIN, SC_REGION_MAX);
    if (!scaling_current(&a->sc)) {
        draw_fmt(s, y, 1 + n, w - n, COL_MUTED, "  updating%s", s->g->ellipsis);
        if (!c->key[0])
            return;
    }
    int ph = l->xo_h - 3, x0 = YLABEL_W + 1, pw = l->cols - x0 - SIDE_W - 2;
    draw_plot(s, c, y + 1, x0, pw, ph);
    int sx = l->cols - SIDE_W, sw = SIDE_W - 1, row = y + 1;
    int flat = 0, shown = 0, order[SC_CURVES];
    legend_order(c, order);
    for (int j = 0; j < c->ncurves && row < y + l->xo_h - 1; j++, row++) {
        int k = order[j];
        draw_text(s, row, sx, 1, curve_colour[k], s->unicode ? (k ? "╍" : "━") : "-");
        draw_text(s, row, sx + 1, 1, curve_colour[k], mark_of(s, k));
        char what[64];
        if (!c->ok[k])
            snprintf(what, sizeof what, "does not fit");
        else if (scaling_flat(c, k))
            snprintf(what, sizeof what, "flat (%.0f%%): scales", c->spread[k] * 100);
        else
            snprintf(what, sizeof what, "rate moves %.0f%%", c->spread[k] * 100);
        draw_fmt(s, row, sx + 3, sw - 3, k == 0 ? COL_VALUE : COL_TEXT, "%2ld node%s%s %s",
                 c->nodes[k], c->nodes[k] == 1 ? " " : "s", k == 0 ? "*" : " ", what);
        flat += scaling_flat(c, k);
        shown += c->ok[k];
    }
    if (row < y + l->xo_h) {
        const char *verdict = shown == 0      ? "no curve fits this platform"
                              : flat == shown ? "all lines flat: it scales"
                              : flat == 0     ? "no line is flat: it does not scale"
                                              : "some lines flat: scales at those counts";
        draw_text(s, row, sx, sw, flat == shown && shown ? COL_GOOD : COL_WARN, verdict);
    }
}
