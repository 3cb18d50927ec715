#include "chart.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/base/outfile.h"
#include "chart_internal.h"

/* Series styles: the Okabe-Ito colours (apart for the colour-blind: blue, vermillion, bluish
 * green, reddish purple, orange, black), with dashes and markers, so the figure reads in
 * greyscale and without colour. */
static const double style_rgb[CHART_SERIES_STYLES][3] = {
    {0.000, 0.447, 0.698}, {0.835, 0.369, 0.000}, {0.000, 0.620, 0.451},
    {0.800, 0.475, 0.655}, {0.902, 0.624, 0.000}, {0.000, 0.000, 0.000}};
static const double style_dash[CHART_SERIES_STYLES][2] = {{0, 0},  {8, 4}, {2, 3},
                                                          {10, 3}, {5, 5}, {1, 2}};

static cairo_status_t to_outfile(void *closure, const unsigned char *data, unsigned int length)
{
    return outfile_write(closure, data, length) == 0 ? CAIRO_STATUS_SUCCESS
                                                     : CAIRO_STATUS_WRITE_ERROR;
}

/* ---- SITU_CHART_DUMP: what a figure drew, for tests ---- */

static const char *const role_name[] = {"text", "title", "tick", "legend", "label"};

#define DUMP_TEXTS 512
#define DUMP_AXES  16
static struct {
    bool on;
    int ntexts, naxes, nlegends;
    struct {
        char text[96];
        enum chart_role role;
        double box[4];
    } texts[DUMP_TEXTS];
    int ticks[DUMP_AXES][2];
    double legends[DUMP_AXES][4];
} dump;

static void dump_box(const double *b, FILE *f)
{
    fprintf(f, "[%.1f,%.1f,%.1f,%.1f]", b[0], b[1], b[2], b[3]);
}

static void dump_string(const char *t, FILE *f)
{
    fputc('"', f);
    for (; *t; t++)
        if (*t == '"' || *t == '\\')
            fprintf(f, "\\%c", *t);
        else if ((unsigned char)*t < 0x20)
            fprintf(f, "\\u%04x", *t);
        else
            fputc(*t, f);
    fputc('"', f);
}

/* Appends the figure's line to $SITU_CHART_DUMP; a test aid, so a failure to write is silent. */
static void dump_write(const char *path, int width, int height)
{
    const char *to = getenv("SITU_CHART_DUMP");
    FILE *f = to && *to ? fopen(to, "a") : NULL;
    if (!f)
        return;
    fputs("{\"file\":", f);
    dump_string(path, f);
    fprintf(f, ",\"width\":%d,\"height\":%d,\"axes\":[", width, height);
    for (int i = 0; i < dump.naxes; i++)
        fprintf(f, "%s{\"xticks\":%d,\"yticks\":%d}", i ? "," : "", dump.ticks[i][0],
                dump.ticks[i][1]);
    fputs("],\"legends\":[", f);
    for (int i = 0; i < dump.nlegends; i++) {
        fputs(i ? "," : "", f);
        dump_box(dump.legends[i], f);
    }
    fputs("],\"texts\":[", f);
    for (int i = 0; i < dump.ntexts; i++) {
        fprintf(f, "%s{\"role\":\"%s\",\"text\":", i ? "," : "", role_name[dump.texts[i].role]);
        dump_string(dump.texts[i].text, f);
        fputs(",\"box\":", f);
        dump_box(dump.texts[i].box, f);
        fputc('}', f);
    }
    fputs("]}\n", f);
    fclose(f);
}

/* One image through an outfile: cairo streams into the temporary, which is renamed into place
 * only when both cairo and every write succeeded. */
static int write_one(const char *path, bool svg, int width, int height,
                     void (*draw)(cairo_t *cr, double width, double height, void *ud), void *ud,
                     char *err, size_t errlen)
{
    struct outfile o;
    if (plot_cairo_load(err, errlen) < 0 || outfile_open(&o, path, err, errlen) < 0)
        return -1;
    cairo_surface_t *surface =
        svg ? cairo_svg_surface_create_for_stream(to_outfile, &o, width, height)
            : cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height);
    cairo_t *cr = cairo_create(surface);
    memset(&dump, 0, sizeof dump);
    dump.on = !svg && getenv("SITU_CHART_DUMP");
    draw(cr, width, height, ud);
    if (dump.on)
        dump_write(path, width, height);
    dump.on = false;
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

/* The box, in device pixels, that text would take at (x, y) in user space (rotations too). */
void chart_text_box(cairo_t *cr, double x, double y, const char *text, double size, int anchor,
                    double *box)
{
    cairo_select_font_face(cr, CHART_FONT, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, size);
    cairo_text_extents_t e;
    cairo_text_extents(cr, text, &e);
    double x0 = x - (anchor == 1 ? e.x_advance / 2 : anchor == 2 ? e.x_advance : 0) + e.x_bearing;
    double cx[4] = {x0, x0 + e.width, x0, x0 + e.width};
    double cy[4] = {y + e.y_bearing, y + e.y_bearing, y + e.y_bearing + e.height,
                    y + e.y_bearing + e.height};
    double lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY};
    for (int k = 0; k < 4; k++) {
        cairo_user_to_device(cr, &cx[k], &cy[k]);
        lo[0] = fmin(lo[0], cx[k]), hi[0] = fmax(hi[0], cx[k]);
        lo[1] = fmin(lo[1], cy[k]), hi[1] = fmax(hi[1], cy[k]);
    }
    box[0] = lo[0], box[1] = lo[1], box[2] = hi[0] - lo[0], box[3] = hi[1] - lo[1];
}

void chart_text_as(cairo_t *cr, double x, double y, const char *text, double size, int anchor,
                   enum chart_role role)
{
    if (dump.on && dump.ntexts < DUMP_TEXTS && *text) {
        snprintf(dump.texts[dump.ntexts].text, sizeof dump.texts[0].text, "%s", text);
        dump.texts[dump.ntexts].role = role;
        chart_text_box(cr, x, y, text, size, anchor, dump.texts[dump.ntexts++].box);
    }
    cairo_select_font_face(cr, CHART_FONT, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, size);
    cairo_text_extents_t e;
    cairo_text_extents(cr, text, &e);
    cairo_move_to(cr, x - (anchor == 1 ? e.x_advance / 2 : anchor == 2 ? e.x_advance : 0), y);
    cairo_show_text(cr, text);
}

void chart_text(cairo_t *cr, double x, double y, const char *text, double size, int anchor)
{
    chart_text_as(cr, x, y, text, size, anchor, CHART_ROLE_TEXT);
}

void chart_background(cairo_t *cr, double width, double height, const char *title)
{
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    (void)height;
    chart_text_as(cr, width / 2, 26, title, 17, 1, CHART_ROLE_TITLE);
}

void chart_subtitle(cairo_t *cr, double width, const char *text)
{
    cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
    chart_text_as(cr, width / 2, 46, text, 12, 1, CHART_ROLE_TITLE);
    cairo_set_source_rgb(cr, 0, 0, 0);
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
    p->nmarks = p->nboxes = 0;
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

void chart_format_tick(double v, char *buf, size_t len)
{
    if (v != 0 && (fabs(v) >= 1e5 || fabs(v) < 1e-3))
        snprintf(buf, len, "%.3g", v);
    else
        snprintf(buf, len, "%g", v);
}

/* Linear ticks: the widest step of 1, 2, 2.5 or 5 times a power of ten that still gives
 * CHART_MIN_TICKS ticks in [a, b]. */
int chart_linear_ticks(double a, double b, double *out, int max)
{
    static const double mult[] = {5, 2.5, 2, 1};
    double mag = pow(10, floor(log10((b - a) / CHART_MIN_TICKS)) + 1);
    for (int tries = 0; tries < 12; tries++) {
        double step = mag * mult[tries % 4];
        if (tries % 4 == 3)
            mag /= 10;
        if ((floor(b / step + 1e-9) - ceil(a / step - 1e-9)) + 1 < CHART_MIN_TICKS)
            continue;
        int n = 0;
        for (double k = ceil(a / step - 1e-9); k * step <= b + step * 1e-9 && n < max; k++)
            out[n++] = fabs(k) < 1e-9 ? 0 : k * step;
        return n;
    }
    return 0;
}

/* Log ticks: at the powers of ten, or 1-2-5 times them, or every 1..9 times them, the first of
 * these that gives CHART_MIN_TICKS; over less than a decade, linear ticks. */
static int ticks(double a, double b, bool lg, double *out, int max)
{
    if (!lg)
        return chart_linear_ticks(a, b, out, max);
    static const double sets[3][10] = {{1}, {1, 2, 5}, {1, 2, 3, 4, 5, 6, 7, 8, 9}};
    static const int nset[3] = {1, 3, 9};
    for (int k = 0; k < 3; k++) {
        int n = 0;
        for (double d = pow(10, floor(log10(a))); d <= b * 1.0001 && n < max; d *= 10)
            for (int m = 0; m < nset[k] && n < max; m++)
                if (d * sets[k][m] >= a * 0.9999 && d * sets[k][m] <= b * 1.0001)
                    out[n++] = d * sets[k][m];
        if (n >= CHART_MIN_TICKS)
            return n;
    }
    return chart_linear_ticks(a, b, out, max);
}

void chart_axes(const struct panel *p, const char *xlabel, const char *ylabel, const char *title,
                const double *xticks, const char *const *xtick_labels, int nxticks)
{
    cairo_t *cr = p->cr;
    double t[64];
    char label[32];
    cairo_set_line_width(cr, 1);
    /* grid and y ticks; a label that would run into the one below it is left out */
    int n = ticks(p->y0, p->y1, p->ylog, t, 64), ny = 0, nx = 0;
    double above = INFINITY;
    for (int i = 0; i < n; i++) {
        double y = chart_y(p, t[i]), box[4];
        cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
        cairo_move_to(cr, p->left, y);
        cairo_line_to(cr, p->left + p->width, y);
        cairo_stroke(cr);
        cairo_set_source_rgb(cr, 0, 0, 0);
        chart_format_tick(t[i], label, sizeof label);
        chart_text_box(cr, p->left - 6, y + 4, label, 11, 2, box);
        if (box[1] + box[3] > above - 3)
            continue;
        above = box[1];
        chart_text_as(cr, p->left - 6, y + 4, label, 11, 2, CHART_ROLE_TICK);
        ny++;
    }
    /* x tick labels that would run into the previous one are left out (the tick and its grid
     * line stay). */
    double right = -INFINITY;
    if (xticks) {
        for (int i = 0; i < nxticks; i++) {
            double box[4];
            chart_text_box(cr, chart_x(p, xticks[i]), p->top + p->height + 16, xtick_labels[i], 11,
                           1, box);
            if (box[0] < right + 4)
                continue;
            right = box[0] + box[2];
            chart_text_as(cr, chart_x(p, xticks[i]), p->top + p->height + 16, xtick_labels[i], 11,
                          1, CHART_ROLE_TICK);
            nx++;
        }
    } else {
        n = ticks(p->x0, p->x1, p->xlog, t, 64);
        for (int i = 0; i < n; i++) {
            double x = chart_x(p, t[i]), box[4];
            cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
            cairo_move_to(cr, x, p->top);
            cairo_line_to(cr, x, p->top + p->height);
            cairo_stroke(cr);
            cairo_set_source_rgb(cr, 0, 0, 0);
            chart_format_tick(t[i], label, sizeof label);
            chart_text_box(cr, x, p->top + p->height + 16, label, 11, 1, box);
            if (box[0] < right + 4)
                continue;
            right = box[0] + box[2];
            chart_text_as(cr, x, p->top + p->height + 16, label, 11, 1, CHART_ROLE_TICK);
            nx++;
        }
    }
    if (dump.on && dump.naxes < DUMP_AXES) {
        dump.ticks[dump.naxes][0] = nx;
        dump.ticks[dump.naxes++][1] = ny;
    }
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_rectangle(cr, p->left, p->top, p->width, p->height);
    cairo_stroke(cr);
    chart_text_as(cr, p->left + p->width / 2, p->top + p->height + 36, xlabel, 12, 1,
                  CHART_ROLE_TITLE);
    chart_text_as(cr, p->left + p->width / 2, p->top - 10, title, 13, 1, CHART_ROLE_TITLE);
    cairo_save(cr);
    cairo_translate(cr, p->left - 52, p->top + p->height / 2);
    cairo_rotate(cr, -M_PI / 2);
    chart_text_as(cr, 0, 0, ylabel, 12, 1, CHART_ROLE_TITLE);
    cairo_restore(cr);
}

void chart_marker(cairo_t *cr, int s, double x, double y)
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

void chart_set_style(cairo_t *cr, int s)
{
    s %= CHART_SERIES_STYLES;
    cairo_set_source_rgb(cr, style_rgb[s][0], style_rgb[s][1], style_rgb[s][2]);
    cairo_set_line_width(cr, 2);
    if (style_dash[s][0] > 0)
        cairo_set_dash(cr, style_dash[s], 2, 0);
    else
        cairo_set_dash(cr, NULL, 0, 0);
}

void chart_add_mark(struct panel *p, double x, double y)
{
    if (p->nmarks < CHART_MARKS_MAX) {
        p->mark[p->nmarks][0] = (float)x;
        p->mark[p->nmarks++][1] = (float)y;
    }
}

void chart_add_box(struct panel *p, const double *box, bool label)
{
    if (p->nboxes < CHART_BOXES_MAX) {
        memcpy(p->box[p->nboxes], box, sizeof p->box[0]);
        p->box_is_label[p->nboxes++] = label;
    }
}

void chart_series(struct panel *p, int s, const double *x, const double *y, int n)
{
    cairo_t *cr = p->cr;
    s %= CHART_SERIES_STYLES;
    cairo_save(cr);
    cairo_rectangle(cr, p->left, p->top, p->width, p->height);
    cairo_clip(cr);
    chart_set_style(cr, s);
    for (int i = 0; i < n; i++) {
        double px = chart_x(p, x[i]), py = chart_y(p, y[i]);
        if (i == 0) {
            cairo_move_to(cr, px, py);
        } else {
            cairo_line_to(cr, px, py);
            /* The line between two points is covered too: a mark every 8 pixels of it. */
            double qx = chart_x(p, x[i - 1]), qy = chart_y(p, y[i - 1]);
            int steps = (int)fmin(64, hypot(px - qx, py - qy) / 8);
            for (int k = 1; k < steps; k++)
                chart_add_mark(p, qx + (px - qx) * k / steps, qy + (py - qy) * k / steps);
        }
        chart_add_mark(p, px, py);
    }
    cairo_stroke(cr);
    cairo_set_dash(cr, NULL, 0, 0);
    cairo_set_line_width(cr, 1.5);
    for (int i = 0; i < n; i++)
        chart_marker(cr, s, chart_x(p, x[i]), chart_y(p, y[i]));
    cairo_restore(cr);
}

static void shade_rgb(double shade, double *r, double *g, double *b)
{
    *r = 0.12 + 0.78 * shade;
    *g = 0.20 + 0.72 * shade;
    *b = 0.35 + 0.60 * shade;
}

void chart_swatch(cairo_t *cr, double x, double y, double w, double h, double shade, bool hatched)
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

void chart_bar(struct panel *p, double x, double w, double base, double value, double shade,
               bool hatched)
{
    if (value <= 0)
        return;
    double xa = p->xlog ? chart_x(p, x / sqrt(w)) : chart_x(p, x - w / 2);
    double xb = p->xlog ? chart_x(p, x * sqrt(w)) : chart_x(p, x + w / 2);
    double ya = chart_y(p, base + value), yb = chart_y(p, base);
    chart_swatch(p->cr, xa, ya, xb - xa, yb - ya, shade, hatched);
    double box[4] = {xa, ya, xb - xa, yb - ya};
    chart_add_box(p, box, false);
}

void chart_vline(struct panel *p, double x, const char *label)
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
    /* Right of the line, or left of it near the right edge; a label is never covered. */
    bool left = px > p->left + p->width * 0.7;
    double lx = left ? px - 5 : px + 5, box[4];
    chart_text_box(cr, lx, p->top + 16, label, 12, left ? 2 : 0, box);
    cairo_set_source_rgba(cr, 1, 1, 1, 0.85);
    cairo_rectangle(cr, box[0] - 2, box[1] - 2, box[2] + 4, box[3] + 4);
    cairo_fill(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    chart_text_as(cr, lx, p->top + 16, label, 12, left ? 2 : 0, CHART_ROLE_LABEL);
    chart_add_box(p, box, true);
}

void chart_dump_legend(double x, double y, double w, double h)
{
    if (dump.on && dump.nlegends < DUMP_AXES) {
        double *b = dump.legends[dump.nlegends++];
        b[0] = x, b[1] = y, b[2] = w, b[3] = h;
    }
}
