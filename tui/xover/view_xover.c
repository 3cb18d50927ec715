/* The crossover block: makespan of each strategy compared against data_scaling on log-log axes,
 * the model's curves as Braille lines, SimGrid's points on top, a line where the fastest changes,
 * and a side panel with who is fastest in each range, the legend and the values at the current
 * data_scaling. */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../engine/model/crossover.h"
#include "../view/draw.h"
#include "../view/plot.h"
#include "../view/view.h"
#include "../../engine/base/units.h"

#define YLABEL_W 8

/* Six looks, one a strategy: a colour, a dash (the curves differ by more than a hue), a point. */
static const enum colour curve_colour[XO_STRATEGIES] = {COL_INSITU,   COL_INTRANSIT, COL_INLINE,
                                                        COL_RETRIEVE, COL_UTIL_HIGH, COL_BORDER};
static const int curve_dash[XO_STRATEGIES] = {0, 2, 1, 3, 0, 2};
static const char *const ascii_curve[XO_STRATEGIES] = {"*", "+", "~", "=", "%", "&"};
static const char *const more_point[2][XO_STRATEGIES - 3] = {{"^", "v", "@"}, {"▲", "▼", "★"}};
static const char *const more_sample[XO_STRATEGIES - 3] = {"╌╌", "━━", "╍╍"};

/* The point SimGrid's runs leave on strategy m's curve. */
static const char *point_of(const struct screen *s, int m)
{
    const struct glyphs *g = s->g;
    return m == 0   ? g->point
           : m == 1 ? g->point2
           : m == 2 ? g->point3
                    : more_point[s->unicode][m - 3];
}

/* The curve as the legend shows it (solid or dashed). */
static const char *sample_of(const struct screen *s, int m)
{
    const struct glyphs *g = s->g;
    if (!s->unicode)
        return ascii_curve[m];
    return m == 0 ? g->curve : m == 1 ? g->curve2 : m == 2 ? g->curve3 : more_sample[m - 3];
}

/* A strategy in words: "in situ", "in transit:queue", "posthoc:file+c4". */
static void strategy_words(const char *name, char *out, size_t len)
{
    const char *rest = name + strcspn(name, ":+");
    size_t mlen = (size_t)(rest - name);
    const char *words = !strncmp(name, "insitu", mlen) && mlen == 6      ? "in situ"
                        : !strncmp(name, "intransit", mlen) && mlen == 9 ? "in transit"
                                                                         : NULL;
    if (words)
        snprintf(out, len, "%s%s", words, rest);
    else
        snprintf(out, len, "%s", name);
}

struct axes {
    double llo, lhi; /* log10 of the makespan range */
    int dots_x, dots_y;
};

static bool y_range(const struct xover *xo, struct axes *ax)
{
    double lo = INFINITY, hi = -INFINITY;
    for (int m = 0; m < xo->c.n; m++) {
        for (int i = 0; xo->c.ok[m] && i < XO_SAMPLES; i++) {
            lo = fmin(lo, xo->c.model[m][i]);
            hi = fmax(hi, xo->c.model[m][i]);
        }
        for (int i = 0; m < xo->n && i < XO_POINTS; i++) {
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
    if (s->unicode)
        for (int m = 0; m < xo->c.n; m++)
            plot_set_dash(&p, m, curve_dash[m]);
    for (int m = 0; m < xo->c.n; m++) {
        if (!xo->c.ok[m])
            continue;
        for (int i = 1; i < XO_SAMPLES; i++)
            plot_line(&p, dot_x(&ax, xo->c.xs[i - 1]), dot_y(&ax, xo->c.model[m][i - 1]),
                      dot_x(&ax, xo->c.xs[i]), dot_y(&ax, xo->c.model[m][i]), m);
    }
    /* Cells: curves, then a line where the fastest changes (the curves leave it room), then the
     * points. */
    int cross_col[STRATEGY_RANGES_MAX], ncol = 0;
    for (int j = 0; j + 1 < xo->c.fastest.n; j++)
        cross_col[ncol++] = dot_x(&ax, xo->c.fastest.to[j]) / p.sx;
    for (int r = 0; r < ph; r++) {
        for (int c = 0; c < pw; c++) {
            int layer = p.layer[r * pw + c];
            bool cross = false;
            for (int j = 0; j < ncol; j++)
                cross = cross || c == cross_col[j];
            if (layer >= 0) {
                char cell[4];
                if (s->unicode)
                    plot_braille(&p, r, c, cell);
                else
                    snprintf(cell, sizeof cell, "%s", ascii_curve[layer]);
                draw_text(s, y0 + r, x0 + c, 1, curve_colour[layer], cell);
            } else if (cross) {
                draw_text(s, y0 + r, x0 + c, 1, COL_CROSS, g->cross_line);
            }
        }
    }
    for (int m = 0; m < xo->n && m < xo->c.n; m++) {
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
                          st != XO_PT_DONE ? g->fail : point_of(s, m));
        }
    }

    /* The y axis: the range's ends and its (geometric) middle. */
    char t[32];
    for (int r = 0; r < ph; r++) {
        bool label = r == 0 || r == ph - 1 || (ph >= 5 && r == ph / 2);
        if (label) {
            double ly = r == 0 ? ax.lhi : r == ph - 1 ? ax.llo : (ax.lhi + ax.llo) / 2;
            units_time_as(pow(10, ly), pow(10, ax.lhi), t, sizeof t);
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
    for (int j = 0; j < ncol; j++)
        draw_text(s, ay, x0 + cross_col[j], 1, COL_CROSS, g->cross_line);
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
    const struct xover_curves *c = &xo->c;
    const struct strategy_ranges *f = &c->fastest;
    char words[XO_STRATEGIES][STRATEGY_NAME_MAX + 8];
    for (int m = 0; m < c->n; m++)
        strategy_words(c->name[m], words[m], sizeof words[m]);
    int r = 0, legend = c->n + 1; /* the legend's rows and SimGrid's, kept below the verdict */
    int bad = -1;
    for (int m = 0; m < c->n && bad < 0; m++)
        bad = c->ok[m] ? -1 : m;
    if (bad >= 0 && r < h) { /* a strategy the user chose that does not apply: say why */
        draw_fmt(s, y + r++, x, w, COL_WARN, "no %s curve:", words[bad]);
        if (r < h - legend)
            draw_text(s, y + r++, x, w, COL_MUTED, c->err[bad]);
    }
    if (f->n == 1 && r < h) {
        draw_fmt(s, y + r++, x, w, COL_VALUE, "no crossover in %s1-%s1000", g->times, g->times);
        if (r < h)
            draw_fmt(s, y + r++, x, w, COL_TEXT, "%s %s throughout", words[f->who[0]],
                     c->n > 2 ? "fastest" : "faster");
    } else if (f->n > 1 && r < h) {
        char first[32];
        crossover_format(f->to[0], first, sizeof first);
        draw_fmt(s, y + r++, x, w, COL_CROSS, "crossover %s %s%s%s", g->approx, g->times, first,
                 f->n > 2 ? ", fastest:" : "");
        /* Who is fastest in each range, as far as the rows go (the legend keeps its own). */
        int room = h - r - legend < 2 ? 2 : h - r - legend;
        for (int j = 0; j < f->n && r < h; j++) {
            if (j == room - 1 && j < f->n - 1) {
                draw_fmt(s, y + r++, x, w, COL_MUTED, "(and %d more ranges)", f->n - j);
                break;
            }
            char lo[32], hi[32];
            crossover_format_bound(f->from[j], j == 0, lo, sizeof lo);
            crossover_format_bound(f->to[j], j == f->n - 1, hi, sizeof hi);
            draw_text(s, y + r, x, 1, curve_colour[f->who[j]], point_of(s, f->who[j]));
            draw_fmt(s, y + r++, x + 2, w - 2, COL_TEXT, "%s%s-%s%s %s", g->times, lo, g->times, hi,
                     words[f->who[j]]);
        }
    }
    /* The fastest at the current data_scaling. */
    int best = -1;
    for (int m = 0; m < c->n; m++) {
        double v = xover_model_at(c, m, a->p.data_scaling);
        if (v > 0 && (best < 0 || v < xover_model_at(c, best, a->p.data_scaling)))
            best = m;
    }
    if (best >= 0 && r < h - legend)
        draw_fmt(s, y + r++, x, w, curve_colour[best], "fastest at %s%g: %s", g->times,
                 a->p.data_scaling, words[best]);
    int done = 0, failed = 0;
    for (int m = 0; m < xo->n; m++)
        for (int i = 0; i < XO_POINTS; i++)
            done += xo->pstate[m][i] == XO_PT_DONE, failed += xo->pstate[m][i] == XO_PT_FAILED;
    for (int m = 0; m < c->n && r < h; m++, r++) {
        draw_text(s, y + r, x, 2, curve_colour[m], sample_of(s, m));
        draw_text(s, y + r, x + 2, 1, curve_colour[m], point_of(s, m));
        char v[32], at[32];
        units_time_short(xover_model_at(c, m, a->p.data_scaling), v, sizeof v);
        snprintf(at, sizeof at, " at %s%g", g->times, a->p.data_scaling);
        /* A long name keeps its value and drops "at x1" rather than be cut. */
        int len =
            draw_fmt(s, y + r, x + 4, w - 4, COL_TEXT, "%-10s %s", words[m], c->ok[m] ? v : "-");
        if (4 + len + draw_width(at) <= w)
            draw_text(s, y + r, x + 4 + len, w - 4 - len, COL_TEXT, at);
    }
    if (r < h) {
        for (int m = 0; m < xo->n && m < 4; m++)
            draw_text(s, y + r, x + m, 1, curve_colour[m], point_of(s, m));
        int total = xo->n * XO_POINTS, at = x + (xo->n < 4 ? xo->n : 4) + 1;
        if (failed)
            draw_fmt(s, y + r, at, w - (at - x), COL_TEXT, "SimGrid %d/%d, %d failed", done, total,
                     failed);
        else
            draw_fmt(s, y + r, at, w - (at - x), COL_TEXT, "SimGrid %d/%d points", done, total);
        r++;
    }
    if (r < h && a->p.mapping == MAPPING_HOSTFILE)
        draw_text(s, y + r++, x, w, COL_MUTED, "(your hostfile mapping: not shown)");
}

/* The title: the strategies' names, or how many when they do not fit. */
/* The title: the strategies' names (those chosen, before their curves land), or how many when
 * they do not fit. */
static int draw_title(const struct screen *s, int y, int w, const struct xover *xo)
{
    char t[256] = "", words[STRATEGY_NAME_MAX + 8];
    size_t used = 0;
    for (int m = 0; m < xo->n && used < sizeof t; m++) {
        strategy_words(xo->st[m].name, words, sizeof words);
        for (char *k = words; *k; k++)
            *k = *k >= 'a' && *k <= 'z' ? (char)(*k - 'a' + 'A') : *k;
        used += (size_t)snprintf(t + used, sizeof t - used, "%s%s", m ? " vs " : "", words);
    }
    if (!xo->n || draw_width(t) > w - 14) /* room for "  at 16 nodes" */
        snprintf(t, sizeof t, "%d STRATEGIES", xo->n);
    return draw_text(s, y, 1, w, COL_HEADING, t);
}

void view_xover_draw(const struct screen *s, const struct view_layout *l, const struct app_state *a)
{
    int y = l->xo_y, side_w = l->cols >= 100 ? 34 : 30;
    int n = draw_title(s, y, l->cols - 2, &a->xo);
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
