/* The advisor view (a), in place of the results panel: the objective over two sliders as a
 * heatmap of shade glyphs and numbers, the configuration on screen in reverse video, the best
 * cell '*', the cells SimGrid has simulated marked, and below it what the best cell is and
 * whether eta and the balance (the paper's sweet spot) disagree, row by row (Fig. 8). Its keys
 * move the sliders: the cursor is the configuration. */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../view/draw.h"
#include "../view/view.h"

#define LABEL_W 5
#define CELL_W  6

/* A value in four cells: "0.73" for a share, "327" or "1.2k" for seconds, "2.67" for hours. */
static void four(char *buf, size_t len, enum advise_objective o, double v)
{
    if (o == ADVISE_EFFICIENCY || o == ADVISE_BALANCE)
        snprintf(buf, len, "%.2f", v);
    else if (v < 9.995)
        snprintf(buf, len, "%.2f", v);
    else if (v < 99.95)
        snprintf(buf, len, "%.1f", v);
    else if (v < 9999.5)
        snprintf(buf, len, "%.0f", v);
    else if (v < 999.5e3)
        snprintf(buf, len, "%.0fk", v / 1e3);
    else
        snprintf(buf, len, "%.0fM", v / 1e6);
}

static void axis_value(int id, double v, char *buf, size_t len)
{
    struct params p;
    char err[PARAMS_ERR_MAX];
    params_defaults(&p);
    if (params_set_number(&p, id, v, err) < 0)
        snprintf(buf, len, "%g", v);
    else
        params_format(&p, id, buf, len);
}

/* The first index of a window of n out of total that holds at. */
static int window(int at, int n, int total)
{
    int first = at - n / 2;
    first = first + n > total ? total - n : first;
    return first < 0 ? 0 : first;
}

static const char *objective_label(const struct screen *s, enum advise_objective o)
{
    return o == ADVISE_EFFICIENCY ? (s->unicode ? "efficiency η" : "efficiency eta")
                                  : advise_objective_names[o];
}

static void draw_grid(const struct screen *s, const struct advise_map *m, int y0, int x0, int w,
                      int rows)
{
    const char *shade_u[] = {"░", "▒", "▓", "█"}, *shade_a[] = {".", ":", "+", "#"};
    int ncols = (w - LABEL_W) / CELL_W;
    ncols = ncols > m->nx ? m->nx : ncols;
    rows = rows > m->ny ? m->ny : rows;
    int fx = window(m->cx, ncols, m->nx), fy = window(m->cy, rows, m->ny);
    double lo = INFINITY, hi = -INFINITY;
    for (int y = 0; y < m->ny; y++)
        for (int x = 0; x < m->nx; x++)
            if (m->cell[y][x].valid) {
                double v = advise_value(&m->cell[y][x].model, m->objective);
                lo = fmin(lo, v), hi = fmax(hi, v);
            }
    char t[32];
    for (int i = 0; i < ncols; i++) { /* the x values, over their columns */
        axis_value(m->xid, m->xv[fx + i], t, sizeof t);
        enum colour c = fx + i == m->cx ? COL_VALUE : COL_MUTED;
        if (param_table[m->xid].type == PARAM_CHOICE) /* a name, over the cell's number */
            draw_text(s, y0, x0 + LABEL_W + i * CELL_W + 1, CELL_W - 1, c, t);
        else
            draw_right(s, y0, x0 + LABEL_W + i * CELL_W, CELL_W - 1, c, t);
    }
    for (int r = 0; r < rows; r++) {
        int y = fy + rows - 1 - r, row = y0 + 1 + r; /* larger values up */
        axis_value(m->yid, m->yv[y], t, sizeof t);
        draw_right(s, row, x0, LABEL_W - 1, y == m->cy ? COL_VALUE : COL_MUTED, t);
        for (int i = 0; i < ncols; i++) {
            int x = fx + i, cx = x0 + LABEL_W + i * CELL_W;
            const struct advise_cell *c = &m->cell[y][x];
            bool here = x == m->cx && y == m->cy;
            enum colour col = here ? COL_FOCUS : COL_TEXT;
            if (!c->valid) {
                draw_text(s, row, cx, CELL_W, here ? COL_FOCUS : COL_MUTED, "  --  ");
                continue;
            }
            double v = advise_value(&c->model, m->objective);
            /* Values over decades (a makespan from 1 to 16 nodes) on a log scale: on a linear
             * one the slowest cell squashes every other into "good". */
            bool logs = lo > 0 && hi > 4 * lo;
            double good = !(hi > lo) ? 1 : logs ? log(v / lo) / log(hi / lo) : (v - lo) / (hi - lo);
            good = advise_maximise(m->objective) ? good : 1 - good;
            int level = good > 0.999 ? 3 : (int)(good * 4) > 3 ? 3 : (int)(good * 4);
            const char *mark = c->simulated ? s->g->point
                               : s->unicode ? shade_u[level]
                                            : shade_a[level];
            four(t, sizeof t, m->objective, v);
            draw_text(s, row, cx, 1, here ? COL_FOCUS : c->simulated ? COL_GOOD : COL_TRACK, mark);
            draw_fmt(s, row, cx + 1, CELL_W - 1, col, "%4s%s", t,
                     x == m->bx && y == m->by ? "*" : " ");
        }
    }
}

/* "ratio=15 nodes=2": a cell's two values. */
static void cell_name(const struct advise_map *m, int x, int y, char *buf, size_t len)
{
    char a[32], b[32];
    axis_value(m->xid, m->xv[x], a, sizeof a);
    axis_value(m->yid, m->yv[y], b, sizeof b);
    snprintf(buf, len, "%s=%s %s=%s", param_table[m->xid].key, a, param_table[m->yid].key, b);
}

/* The paper's contradiction (Fig. 8), where it appears: rows whose eta-best column is not their
 * balance-best one (the row on screen first, else the lowest). Two lines. */
static void draw_contradiction(const struct screen *s, const struct advise_map *m, int y, int x,
                               int w)
{
    int first = -1, count = 0;
    for (int r = 0; r < m->ny; r++)
        if (m->row_eta[r] >= 0 && m->row_eta[r] != m->row_bal[r]) {
            count++;
            first = first < 0 || r == m->cy ? r : first;
        }
    const char *eta = s->g->eta, *xk = param_table[m->xid].key;
    if (first < 0) {
        draw_fmt(s, y, x, w, COL_GOOD, "%s-best = sweet spot on every row", eta);
        return;
    }
    char e[32], b[32], n[32];
    axis_value(m->xid, m->xv[m->row_eta[first]], e, sizeof e);
    axis_value(m->xid, m->xv[m->row_bal[first]], b, sizeof b);
    axis_value(m->yid, m->yv[first], n, sizeof n);
    draw_fmt(s, y, x, w, COL_WARN, "%s-best %s sweet spot on %d row%s", eta,
             s->unicode ? "≠" : "!=", count, count > 1 ? "s" : "");
    draw_fmt(s, y + 1, x, w, COL_WARN, "%s=%s: %s %s=%s, balance %s", param_table[m->yid].key, n,
             eta, xk, e, b);
}

void view_advise_draw(const struct screen *s, const struct view_layout *l,
                      const struct app_state *a)
{
    const struct advise_map *m = &a->adv;
    int x = l->right_x, y = l->top_y, w = l->right_w;
    int n = draw_text(s, y, x, w, COL_HEADING, "ADVISOR ");
    draw_fmt(s, y, x + n, w - n, COL_TEXT, "%s (%s)", objective_label(s, m->objective),
             advise_maximise(m->objective) ? "max" : "min");
    if (m->why[0] || !m->nx) {
        char lines[4][256];
        int k = draw_wrap(m->why[0] ? m->why : "no map", w, lines, 4);
        for (int i = 0; i < k && i < 4; i++)
            draw_text(s, y + 2 + i, x, w, COL_MUTED, lines[i]);
        return;
    }
    int rows = l->top_h - 7;
    draw_text(s, y + 1, x, LABEL_W, COL_MUTED, param_table[m->yid].key);
    draw_grid(s, m, y + 1, x, w, rows);
    int used = (rows < m->ny ? rows : m->ny) + 2;
    char what[96], v[32], t[32];
    int ly = y + used;
    n = draw_fmt(s, ly, x, w, COL_MUTED, "%s%s ", param_table[m->xid].key, s->g->arrow);
    draw_fmt(s, ly, x + n, w - n, COL_TEXT, "*best %sSimGrid %sgood %spoor", s->g->point,
             s->unicode ? "█" : "#", s->unicode ? "░" : ".");
    ly = y + l->top_h - 4;
    if (m->bx >= 0) { /* the best cell, with SimGrid's value once simulated */
        const struct advise_cell *c = &m->cell[m->by][m->bx];
        cell_name(m, m->bx, m->by, what, sizeof what);
        four(v, sizeof v, m->objective, advise_value(&c->model, m->objective));
        four(t, sizeof t, m->objective, advise_value(&c->sim, m->objective));
        draw_fmt(s, ly, x, w, COL_VALUE, "*%s %s%s%s%s%s", what, v,
                 c->simulated ? ", SimGrid " : "", c->simulated ? c->engine : "",
                 c->simulated ? " " : "", c->simulated ? t : "");
    }
    if (m->cx >= 0 && m->cy >= 0 && m->cell[m->cy][m->cx].valid) {
        const struct advise_cell *c = &m->cell[m->cy][m->cx];
        four(v, sizeof v, m->objective, advise_value(&c->model, m->objective));
        four(t, sizeof t, m->objective, advise_value(&c->sim, m->objective));
        draw_fmt(s, ly + 1, x, w, COL_TEXT, "here %s model%s%s%s%s", v,
                 c->simulated ? ", SimGrid " : "", c->simulated ? c->engine : "",
                 c->simulated ? " " : "", c->simulated ? t : "");
    }
    draw_contradiction(s, m, ly + 2, x, w);
}
