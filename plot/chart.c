#include "chart.h"

#include <cairo-svg.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../engine/base/outfile.h"

#define FONT "DejaVu Sans"

/* Series styles: colours that also differ in lightness, dashes and markers, so the figure
 * reads in greyscale. */
static const double style_rgb[CHART_SERIES_STYLES][3] = {{0.00, 0.27, 0.55}, {0.80, 0.33, 0.00},
                                                         {0.10, 0.55, 0.20}, {0.45, 0.20, 0.55},
                                                         {0.35, 0.35, 0.35}, {0.75, 0.10, 0.15}};
static const double style_dash[CHART_SERIES_STYLES][2] = {{0, 0},  {8, 4}, {2, 3},
                                                          {10, 3}, {5, 5}, {1, 2}};

static cairo_status_t to_outfile(void *closure, const unsigned char *data, unsigned int length)
{
    return outfile_write(closure, data, length) == 0 ? CAIRO_STATUS_SUCCESS
                                                     : CAIRO_STATUS_WRITE_ERROR;
}

/* One image through an outfile: cairo streams into the temporary, which is renamed into place
 * only when both cairo and every write succeeded. */
static int write_one(const char *path, bool svg, int width, int height,
                     void (*draw)(cairo_t *cr, double width, double height, void *ud), void *ud,
                     char *err, size_t errlen)
{
    struct outfile o;
    if (outfile_open(&o, path, err, errlen) < 0)
        return -1;
    cairo_surface_t *surface =
        svg ? cairo_svg_surface_create_for_stream(to_outfile, &o, width, height)
            : cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height);
    cairo_t *cr = cairo_create(surface);
    draw(cr, width, height, ud);
    cairo_destroy(cr);
    cairo_status_t st;
    if (svg) {
        cairo_surface_finish(surface);
        st = cairo_surface_status(surface);
    } else {
        st = cairo_surface_write_to_png_stream(surface, to_outfile, &o);
    }
    cairo_surface_destroy(surface);
    /* A failed write is the stream's (errno, in the commit); anything else is cairo's. */
    if (st != CAIRO_STATUS_SUCCESS && !o.error) {
        outfile_abort(&o);
        snprintf(err, errlen, "%s: cannot write: %s", path, cairo_status_to_string(st));
        return -1;
    }
    return outfile_commit(&o, err, errlen);
}

int chart_write(const char *path_base, int width, int height,
                void (*draw)(cairo_t *cr, double width, double height, void *ud), void *ud,
                char *err, size_t errlen)
{
    char path[PATH_MAX];
    for (int svg = 0; svg < 2; svg++) {
        if (snprintf(path, sizeof path, "%s.%s", path_base, svg ? "svg" : "png") >=
            (int)sizeof path) {
            snprintf(err, errlen, "%.64s...: cannot write: %s", path_base, strerror(ENAMETOOLONG));
            return -1;
        }
        if (write_one(path, svg, width, height, draw, ud, err, errlen) < 0)
            return -1;
    }
    return 0;
}

void chart_text(cairo_t *cr, double x, double y, const char *text, double size, int anchor)
{
    cairo_select_font_face(cr, FONT, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, size);
    cairo_text_extents_t e;
    cairo_text_extents(cr, text, &e);
    cairo_move_to(cr, x - (anchor == 1 ? e.x_advance / 2 : anchor == 2 ? e.x_advance : 0), y);
    cairo_show_text(cr, text);
}

void chart_background(cairo_t *cr, double width, double height, const char *title)
{
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    (void)height;
    chart_text(cr, width / 2, 26, title, 17, 1);
}

void chart_panel(struct panel *p, cairo_t *cr, double x, double y, double w, double h, double x0,
                 double x1, bool xlog, double y0, double y1, bool ylog)
{
    p->cr = cr;
    p->left = x + 70;
    p->top = y + 30;
    p->width = w - 90;
    p->height = h - 85;
    p->x0 = x0;
    p->x1 = x1 > x0 ? x1 : x0 + 1;
    p->y0 = y0;
    p->y1 = y1 > y0 ? y1 : y0 + 1;
    p->xlog = xlog;
    p->ylog = ylog;
}

static double frac(double v, double a, double b, bool lg)
{
    if (lg)
        return (log(v) - log(a)) / (log(b) - log(a));
    return (v - a) / (b - a);
}

double chart_x(const struct panel *p, double v)
{
    return p->left + p->width * frac(v, p->x0, p->x1, p->xlog);
}

double chart_y(const struct panel *p, double v)
{
    return p->top + p->height * (1 - frac(v, p->y0, p->y1, p->ylog));
}

static void format_tick(double v, char *buf, size_t len)
{
    if (v != 0 && (fabs(v) >= 1e5 || fabs(v) < 1e-3))
        snprintf(buf, len, "%.0e", v);
    else
        snprintf(buf, len, "%g", v);
}

/* Linear ticks at 1, 2 or 5 times a power of ten; log ticks at the powers of ten (and 2, 5 when
 * the range is short). */
static int ticks(double a, double b, bool lg, double *out, int max)
{
    int n = 0;
    if (lg) {
        bool fine = log10(b / a) < 2.5;
        for (double d = pow(10, floor(log10(a))); d <= b * 1.0001 && n < max; d *= 10) {
            const double mult[] = {1, 2, 5};
            for (int k = 0; k < (fine ? 3 : 1) && n < max; k++)
                if (d * mult[k] >= a * 0.9999 && d * mult[k] <= b * 1.0001)
                    out[n++] = d * mult[k];
        }
        return n;
    }
    double raw = (b - a) / 5, mag = pow(10, floor(log10(raw))), step = mag;
    if (raw / mag > 5)
        step = 10 * mag;
    else if (raw / mag > 2)
        step = 5 * mag;
    else if (raw / mag > 1)
        step = 2 * mag;
    for (double v = ceil(a / step) * step; v <= b + step * 1e-9 && n < max; v += step)
        out[n++] = fabs(v) < step * 1e-9 ? 0 : v;
    return n;
}

void chart_axes(const struct panel *p, const char *xlabel, const char *ylabel, const char *title,
                const double *xticks, const char *const *xtick_labels, int nxticks)
{
    cairo_t *cr = p->cr;
    double t[64];
    char label[32];
    cairo_set_line_width(cr, 1);
    /* grid and y ticks */
    int n = ticks(p->y0, p->y1, p->ylog, t, 64);
    for (int i = 0; i < n; i++) {
        double y = chart_y(p, t[i]);
        cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
        cairo_move_to(cr, p->left, y);
        cairo_line_to(cr, p->left + p->width, y);
        cairo_stroke(cr);
        cairo_set_source_rgb(cr, 0, 0, 0);
        format_tick(t[i], label, sizeof label);
        chart_text(cr, p->left - 6, y + 4, label, 11, 2);
    }
    if (xticks) {
        for (int i = 0; i < nxticks; i++)
            chart_text(cr, chart_x(p, xticks[i]), p->top + p->height + 16, xtick_labels[i], 11, 1);
    } else {
        n = ticks(p->x0, p->x1, p->xlog, t, 64);
        for (int i = 0; i < n; i++) {
            double x = chart_x(p, t[i]);
            cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
            cairo_move_to(cr, x, p->top);
            cairo_line_to(cr, x, p->top + p->height);
            cairo_stroke(cr);
            cairo_set_source_rgb(cr, 0, 0, 0);
            format_tick(t[i], label, sizeof label);
            chart_text(cr, x, p->top + p->height + 16, label, 11, 1);
        }
    }
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_rectangle(cr, p->left, p->top, p->width, p->height);
    cairo_stroke(cr);
    chart_text(cr, p->left + p->width / 2, p->top + p->height + 36, xlabel, 12, 1);
    chart_text(cr, p->left + p->width / 2, p->top - 10, title, 13, 1);
    cairo_save(cr);
    cairo_translate(cr, p->left - 52, p->top + p->height / 2);
    cairo_rotate(cr, -M_PI / 2);
    chart_text(cr, 0, 0, ylabel, 12, 1);
    cairo_restore(cr);
}

static void marker(cairo_t *cr, int s, double x, double y)
{
    double r = 4;
    switch (s % 4) {
    case 0:
        cairo_arc(cr, x, y, r, 0, 2 * M_PI);
        cairo_fill(cr);
        break;
    case 1:
        cairo_rectangle(cr, x - r, y - r, 2 * r, 2 * r);
        cairo_fill(cr);
        break;
    case 2:
        cairo_move_to(cr, x, y - r - 1);
        cairo_line_to(cr, x + r + 1, y + r);
        cairo_line_to(cr, x - r - 1, y + r);
        cairo_close_path(cr);
        cairo_fill(cr);
        break;
    default:
        cairo_arc(cr, x, y, r, 0, 2 * M_PI);
        cairo_set_source_rgb(cr, 1, 1, 1);
        cairo_fill_preserve(cr);
        cairo_set_source_rgb(cr, style_rgb[s][0], style_rgb[s][1], style_rgb[s][2]);
        cairo_stroke(cr);
    }
}

static void set_style(cairo_t *cr, int s)
{
    s %= CHART_SERIES_STYLES;
    cairo_set_source_rgb(cr, style_rgb[s][0], style_rgb[s][1], style_rgb[s][2]);
    cairo_set_line_width(cr, 2);
    if (style_dash[s][0] > 0)
        cairo_set_dash(cr, style_dash[s], 2, 0);
    else
        cairo_set_dash(cr, NULL, 0, 0);
}

void chart_series(const struct panel *p, int s, const double *x, const double *y, int n)
{
    cairo_t *cr = p->cr;
    s %= CHART_SERIES_STYLES;
    cairo_save(cr);
    cairo_rectangle(cr, p->left, p->top, p->width, p->height);
    cairo_clip(cr);
    set_style(cr, s);
    for (int i = 0; i < n; i++) {
        if (i == 0)
            cairo_move_to(cr, chart_x(p, x[i]), chart_y(p, y[i]));
        else
            cairo_line_to(cr, chart_x(p, x[i]), chart_y(p, y[i]));
    }
    cairo_stroke(cr);
    cairo_set_dash(cr, NULL, 0, 0);
    cairo_set_line_width(cr, 1.5);
    for (int i = 0; i < n; i++)
        marker(cr, s, chart_x(p, x[i]), chart_y(p, y[i]));
    cairo_restore(cr);
}

static void shade_rgb(double shade, double *r, double *g, double *b)
{
    *r = 0.12 + 0.78 * shade;
    *g = 0.20 + 0.72 * shade;
    *b = 0.35 + 0.60 * shade;
}

static void swatch(cairo_t *cr, double x, double y, double w, double h, double shade, bool hatched)
{
    double r, g, b;
    shade_rgb(shade, &r, &g, &b);
    cairo_set_source_rgb(cr, r, g, b);
    cairo_rectangle(cr, x, y, w, h);
    cairo_fill_preserve(cr);
    cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
    cairo_set_line_width(cr, 0.8);
    cairo_stroke(cr);
    if (!hatched)
        return;
    cairo_save(cr);
    cairo_rectangle(cr, x, y, w, h);
    cairo_clip(cr);
    cairo_set_line_width(cr, 0.8);
    for (double d = -h; d < w; d += 6) {
        cairo_move_to(cr, x + d, y + h);
        cairo_line_to(cr, x + d + h, y);
    }
    cairo_stroke(cr);
    cairo_restore(cr);
}

void chart_bar(const struct panel *p, double x, double w, double base, double value, double shade,
               bool hatched)
{
    if (value <= 0)
        return;
    double xa = p->xlog ? chart_x(p, x / sqrt(w)) : chart_x(p, x - w / 2);
    double xb = p->xlog ? chart_x(p, x * sqrt(w)) : chart_x(p, x + w / 2);
    double ya = chart_y(p, base + value), yb = chart_y(p, base);
    swatch(p->cr, xa, ya, xb - xa, yb - ya, shade, hatched);
}

void chart_vline(const struct panel *p, double x, const char *label)
{
    cairo_t *cr = p->cr;
    double px = chart_x(p, x);
    cairo_save(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_line_width(cr, 1.5);
    double dash[] = {6, 3};
    cairo_set_dash(cr, dash, 2, 0);
    cairo_move_to(cr, px, p->top);
    cairo_line_to(cr, px, p->top + p->height);
    cairo_stroke(cr);
    cairo_restore(cr);
    chart_text(cr, px + 5, p->top + 16, label, 12, px > p->left + p->width * 0.7 ? 2 : 0);
}

#define LEGEND_LINE 17.0

/* Where the legend box of these labels goes in a corner (0 top-left, 1 top-right, 2 bottom-left,
 * 3 bottom-right): its top-left pixel and size. */
static void legend_box(const struct panel *p, int corner, const char *const *labels, int n,
                       double *x, double *y, double *w, double *h)
{
    cairo_t *cr = p->cr;
    *w = 0;
    cairo_select_font_face(cr, FONT, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, 11);
    for (int i = 0; i < n; i++) {
        cairo_text_extents_t e;
        cairo_text_extents(cr, labels[i] + (labels[i][0] == '~'), &e);
        *w = fmax(*w, e.x_advance);
    }
    *w += 48;
    *h = n * LEGEND_LINE + 8;
    *x = corner % 2 ? p->left + p->width - *w - 8 : p->left + 8;
    *y = corner >= 2 ? p->top + p->height - *h - 8 : p->top + 8;
}

int chart_legend_corner(const struct panel *p, const char *const *labels, int n, const double *xs,
                        const double *ys, int npoints)
{
    int best = 0, fewest = npoints + 1;
    for (int corner = 0; corner < 4; corner++) {
        double x, y, w, h;
        legend_box(p, corner, labels, n, &x, &y, &w, &h);
        int inside = 0;
        for (int i = 0; i < npoints; i++) {
            double px = chart_x(p, xs[i]), py = chart_y(p, ys[i]);
            /* a marker's radius of margin */
            inside += px > x - 6 && px < x + w + 6 && py > y - 6 && py < y + h + 6;
        }
        if (inside < fewest)
            best = corner, fewest = inside;
    }
    return best;
}

void chart_legend(const struct panel *p, int corner, const int *styles, const char *const *labels,
                  int n)
{
    cairo_t *cr = p->cr;
    double x, y, w, h, lh = LEGEND_LINE;
    legend_box(p, corner, labels, n, &x, &y, &w, &h);
    cairo_set_source_rgba(cr, 1, 1, 1, 0.9);
    cairo_rectangle(cr, x, y, w, h);
    cairo_fill_preserve(cr);
    cairo_set_source_rgb(cr, 0.6, 0.6, 0.6);
    cairo_set_line_width(cr, 0.8);
    cairo_stroke(cr);
    for (int i = 0; i < n; i++) {
        double cy = y + 4 + lh * i + lh / 2;
        bool hatched = labels[i][0] == '~';
        if (styles[i] >= 0) {
            int s = styles[i] % CHART_SERIES_STYLES;
            set_style(cr, s);
            cairo_move_to(cr, x + 6, cy);
            cairo_line_to(cr, x + 34, cy);
            cairo_stroke(cr);
            cairo_set_dash(cr, NULL, 0, 0);
            marker(cr, s, x + 20, cy);
        } else {
            swatch(cr, x + 8, cy - 5, 24, 10, (-1 - styles[i]) / 100.0, hatched);
        }
        cairo_set_source_rgb(cr, 0, 0, 0);
        chart_text(cr, x + 40, cy + 4, labels[i] + hatched, 11, 0);
    }
}

void chart_utilisation_colour(double u, double *r, double *g, double *b)
{
    /* Blue (idle) -> green (about half, the sweet spot) -> yellow -> red (saturated). */
    static const double stops[][4] = {{0.00, 0.55, 0.70, 0.95},
                                      {0.50, 0.20, 0.70, 0.30},
                                      {0.75, 0.95, 0.75, 0.10},
                                      {1.00, 0.85, 0.10, 0.10}};
    u = u < 0 ? 0 : u > 1 ? 1 : u;
    int k = 0;
    while (k < 2 && u > stops[k + 1][0])
        k++;
    double t = (u - stops[k][0]) / (stops[k + 1][0] - stops[k][0]);
    *r = stops[k][1] + t * (stops[k + 1][1] - stops[k][1]);
    *g = stops[k][2] + t * (stops[k + 1][2] - stops[k][2]);
    *b = stops[k][3] + t * (stops[k + 1][3] - stops[k][3]);
}
