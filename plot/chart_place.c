/* Where things go in a figure so that nothing hides anything: legends in the corner that covers
 * no label and the fewest marks (or in a row outside the panels), labels beside their points on
 * a free side, and the colour scales (plot/chart.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "chart.h"
#include "chart_internal.h"

bool chart_overlaps(const double *a, const double *b)
{
    return a[0] < b[0] + b[2] && b[0] < a[0] + a[2] && a[1] < b[1] + b[3] && b[1] < a[1] + a[3];
}

void chart_scatter(struct panel *p, const double *x, const double *y, int n)
{
    cairo_t *cr = p->cr;
    cairo_set_source_rgb(cr, 0.6, 0.6, 0.6);
    for (int i = 0; i < n; i++) {
        double px = chart_x(p, x[i]), py = chart_y(p, y[i]);
        cairo_arc(cr, px, py, 2.5, 0, 2 * M_PI);
        cairo_fill(cr);
        chart_add_mark(p, px, py);
    }
}

bool chart_point_label(struct panel *p, double x, double y, const char *text)
{
    cairo_t *cr = p->cr;
    double px = chart_x(p, x), py = chart_y(p, y);
    /* right, left, above, below the point: the free side over the fewest marks */
    const double dx[] = {8, -8, 0, 0}, dy[] = {4, 4, -9, 16};
    const int anchor[] = {0, 2, 1, 1};
    int best = -1, fewest = 0;
    for (int side = 0; side < 4; side++) {
        double box[4];
        chart_text_box(cr, px + dx[side], py + dy[side], text, 10, anchor[side], box);
        bool free = box[0] >= p->left && box[0] + box[2] <= p->left + p->width &&
                    box[1] >= p->top && box[1] + box[3] <= p->top + p->height;
        for (int k = 0; k < p->nboxes && free; k++)
            free = !(p->box_is_label[k] && chart_overlaps(box, p->box[k]));
        int marks = 0;
        for (int i = 0; i < p->nmarks; i++)
            marks += p->mark[i][0] > box[0] - 3 && p->mark[i][0] < box[0] + box[2] + 3 &&
                     p->mark[i][1] > box[1] - 3 && p->mark[i][1] < box[1] + box[3] + 3;
        if (free && (best < 0 || marks < fewest))
            best = side, fewest = marks;
    }
    if (best < 0)
        return false;
    double box[4];
    chart_text_box(cr, px + dx[best], py + dy[best], text, 10, anchor[best], box);
    cairo_set_source_rgba(cr, 1, 1, 1, 0.8);
    cairo_rectangle(cr, box[0] - 1, box[1] - 1, box[2] + 2, box[3] + 2);
    cairo_fill(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    chart_text_as(cr, px + dx[best], py + dy[best], text, 10, anchor[best], CHART_ROLE_LABEL);
    chart_add_box(p, box, true);
    return true;
}

#define LEGEND_LINE 17.0

static double legend_width(cairo_t *cr, const char *const *labels, int n)
{
    double w = 0;
    cairo_select_font_face(cr, CHART_FONT, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, 11);
    for (int i = 0; i < n; i++) {
        cairo_text_extents_t e;
        cairo_text_extents(cr, labels[i] + (labels[i][0] == '~'), &e);
        w = fmax(w, e.x_advance);
    }
    return w + 48;
}

/* Where the legend box of these labels goes in a corner (0 top-left, 1 top-right, 2 bottom-left,
 * 3 bottom-right): its top-left pixel and size. */
static void legend_box(const struct panel *p, int corner, const char *const *labels, int n,
                       double *x, double *y, double *w, double *h)
{
    *w = legend_width(p->cr, labels, n);
    *h = n * LEGEND_LINE + 8;
    *x = corner % 2 ? p->left + p->width - *w - 8 : p->left + 8;
    *y = corner >= 2 ? p->top + p->height - *h - 8 : p->top + 8;
}

int chart_legend_corner(const struct panel *p, const char *const *labels, int n)
{
    int best = 0;
    double cheapest = INFINITY;
    for (int corner = 0; corner < 4; corner++) {
        double b[4];
        legend_box(p, corner, labels, n, &b[0], &b[1], &b[2], &b[3]);
        /* a marker's radius of margin */
        double m[4] = {b[0] - 6, b[1] - 6, b[2] + 12, b[3] + 12}, cost = 0;
        for (int i = 0; i < p->nmarks; i++)
            cost += p->mark[i][0] > m[0] && p->mark[i][0] < m[0] + m[2] && p->mark[i][1] > m[1] &&
                    p->mark[i][1] < m[1] + m[3];
        for (int k = 0; k < p->nboxes; k++)
            if (chart_overlaps(m, p->box[k]))
                cost += p->box_is_label[k] ? 1e6 : 50;
        if (cost < cheapest)
            best = corner, cheapest = cost;
    }
    return best;
}

static void legend_entry(cairo_t *cr, double x, double cy, int style, const char *label)
{
    bool hatched = label[0] == '~';
    if (style >= 0) {
        int s = style % CHART_SERIES_STYLES;
        chart_set_style(cr, s);
        cairo_move_to(cr, x + 6, cy);
        cairo_line_to(cr, x + 34, cy);
        cairo_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0);
        chart_marker(cr, s, x + 20, cy);
    } else {
        chart_swatch(cr, x + 8, cy - 5, 24, 10, (-1 - style) / 100.0, hatched);
    }
    cairo_set_source_rgb(cr, 0, 0, 0);
    chart_text_as(cr, x + 40, cy + 4, label + hatched, 11, 0, CHART_ROLE_LEGEND);
}

void chart_legend(struct panel *p, int corner, const int *styles, const char *const *labels, int n)
{
    cairo_t *cr = p->cr;
    double x, y, w, h, lh = LEGEND_LINE;
    if (corner == CHART_LEGEND_AUTO)
        corner = chart_legend_corner(p, labels, n);
    legend_box(p, corner, labels, n, &x, &y, &w, &h);
    cairo_set_source_rgba(cr, 1, 1, 1, 0.9);
    cairo_rectangle(cr, x, y, w, h);
    cairo_fill_preserve(cr);
    cairo_set_source_rgb(cr, 0.6, 0.6, 0.6);
    cairo_set_line_width(cr, 0.8);
    cairo_stroke(cr);
    for (int i = 0; i < n; i++)
        legend_entry(cr, x, y + 4 + lh * i + lh / 2, styles[i], labels[i]);
    chart_dump_legend(x, y, w, h);
}

void chart_legend_row(cairo_t *cr, double x, double y, const int *styles, const char *const *labels,
                      int n)
{
    double x0 = x;
    for (int i = 0; i < n; i++) {
        legend_entry(cr, x, y, styles[i], labels[i]);
        x += legend_width(cr, &labels[i], 1) + 12;
    }
    chart_dump_legend(x0, y - LEGEND_LINE / 2, x - x0, LEGEND_LINE);
}

void chart_sequential_colour(double t, double *r, double *g, double *b)
{
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    *r = 0.95 - 0.80 * t;
    *g = 0.96 - 0.62 * t;
    *b = 0.98 - 0.38 * t;
}

void chart_colour_scale(cairo_t *cr, double x, double y, double w, double h, double lo, double hi,
                        bool reversed, const char *label)
{
    int steps = (int)fmax(2, h / 2);
    for (int k = 0; k < steps; k++) {
        double t = (k + 0.5) / steps, r, g, b; /* t from the bottom */
        chart_sequential_colour(reversed ? 1 - t : t, &r, &g, &b);
        cairo_set_source_rgb(cr, r, g, b);
        cairo_rectangle(cr, x, y + h * (1 - (double)(k + 1) / steps), w, h / steps + 0.5);
        cairo_fill(cr);
    }
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_line_width(cr, 0.8);
    cairo_rectangle(cr, x, y, w, h);
    cairo_stroke(cr);
    if (!(hi > lo))
        hi = lo + (lo ? fabs(lo) * 1e-3 : 1);
    double t[64];
    char text[32];
    int n = chart_linear_ticks(lo, hi, t, 64);
    for (int i = 0; i < n; i++) {
        double py = y + h * (1 - (t[i] - lo) / (hi - lo));
        cairo_move_to(cr, x + w, py);
        cairo_line_to(cr, x + w + 4, py);
        cairo_stroke(cr);
        chart_format_tick(t[i], text, sizeof text);
        chart_text_as(cr, x + w + 7, py + 4, text, 10, 0, CHART_ROLE_TICK);
    }
    chart_text_as(cr, x, y - 10, label, 11, 0, CHART_ROLE_TITLE);
}

void chart_utilisation_colour(double u, double *r, double *g, double *b)
{
    /* Okabe-Ito sky blue (idle) -> bluish green (about half, the sweet spot) -> orange ->
     * vermillion (saturated); the figure prints each value and ALERT beside the colour. */
    static const double stops[][4] = {{0.00, 0.337, 0.706, 0.914},
                                      {0.50, 0.000, 0.620, 0.451},
                                      {0.75, 0.902, 0.624, 0.000},
                                      {1.00, 0.835, 0.369, 0.000}};
    u = u < 0 ? 0 : u > 1 ? 1 : u;
    int k = 0;
    while (k < 2 && u > stops[k + 1][0])
        k++;
    double t = (u - stops[k][0]) / (stops[k + 1][0] - stops[k][0]);
    *r = stops[k][1] + t * (stops[k + 1][1] - stops[k][1]);
    *g = stops[k][2] + t * (stops[k + 1][2] - stops[k][2]);
    *b = stops[k][3] + t * (stops[k + 1][3] - stops[k][3]);
}
