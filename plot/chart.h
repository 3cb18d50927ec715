/* Figures for `situ reproduce`, drawn with cairo into PNG and SVG: panels with labelled axes
 * (linear or log, at least CHART_MIN_TICKS ticks each), line series in the Okabe-Ito palette with
 * markers and dashes that stay apart in greyscale, stacked bars, reference lines, point labels,
 * colour scales and legends that go where they hide no label and the fewest points. Knows
 * nothing of Situ's data.
 *
 * SITU_CHART_DUMP=FILE appends, for each PNG written, one JSON line of what was drawn: every
 * text with its role (tick, legend, label, title) and box in pixels, the legend boxes and each
 * axis' tick count, so tests can check the figure from the program's own account. */
#ifndef SITU_CHART_H
#define SITU_CHART_H

#include "cairo_calls.h"
#include <stdbool.h>
#include <stddef.h>

#define CHART_SERIES_STYLES 6
#define CHART_MIN_TICKS     4
#define CHART_MARKS_MAX     2048
#define CHART_BOXES_MAX     64

/* What is drawn in a panel that a legend must not cover: the points and lines of its series
 * (marks), its bars and its labels (boxes, x y w h in pixels; labels count far more). */
struct panel {
    cairo_t *cr;
    double left, top, width, height; /* plotting area, in pixels */
    double x0, x1, y0, y1;           /* data range */
    bool xlog, ylog;
    int nmarks, nboxes;
    float mark[CHART_MARKS_MAX][2];
    double box[CHART_BOXES_MAX][4];
    bool box_is_label[CHART_BOXES_MAX];
};

/* The legend's corner: chosen to hide no label and the fewest marks (chart_legend). */
#define CHART_LEGEND_AUTO (-1)

/* Writes PATH_BASE.png and PATH_BASE.svg through outfiles (each complete or absent), calling
 * draw once for each surface. -1 with "FILE: cannot write: reason" on failure. */
int chart_write(const char *path_base, int width, int height,
                void (*draw)(cairo_t *cr, double width, double height, void *ud), void *ud,
                char *err, size_t errlen);

/* Clears to white and writes a title across the top. */
void chart_background(cairo_t *cr, double width, double height, const char *title);

/* A smaller line under the title (what drew the figure, at which sizes): panels start at
 * CHART_SUBTITLE_BOTTOM when there is one. */
#define CHART_SUBTITLE_BOTTOM 58
void chart_subtitle(cairo_t *cr, double width, const char *text);

/* A panel in the rectangle (x, y, w, h) of the figure, margins left for axes and labels. */
void chart_panel(struct panel *p, cairo_t *cr, double x, double y, double w, double h, double x0,
                 double x1, bool xlog, double y0, double y1, bool ylog);

/* Frame, ticks with values, grid, axis labels and the panel's title. Custom x ticks (for
 * categories) when xticks is not NULL: n positions with their labels. */
void chart_axes(const struct panel *p, const char *xlabel, const char *ylabel, const char *title,
                const double *xticks, const char *const *xtick_labels, int nxticks);

double chart_x(const struct panel *p, double v);
double chart_y(const struct panel *p, double v);

/* A line through n points in style s (colour, dash and marker differ per style). */
void chart_series(struct panel *p, int s, const double *x, const double *y, int n);

/* A filled bar from y = base to base + value, centred on x, `w` data units wide (log x: factor).
 * shade 0..1 from dark to light grey-blue; hatched adds diagonal lines (for idle time). */
void chart_bar(struct panel *p, double x, double w, double base, double value, double shade,
               bool hatched);

/* A vertical reference line with a label at its top. */
void chart_vline(struct panel *p, double x, const char *label);

/* Small grey dots at n points (candidates behind a front), no line. */
void chart_scatter(struct panel *p, const double *x, const double *y, int n);

/* A label beside the data point (x, y), on the side where it overlaps no earlier label; false
 * (nothing drawn) when no side is free. */
bool chart_point_label(struct panel *p, double x, double y, const char *text);

/* A legend box in a corner of the panel (0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right,
 * CHART_LEGEND_AUTO: chart_legend_corner's): n entries, each a series style (style >= 0) or a
 * bar swatch (style = -1 - shade*100, hatched if the label starts with '~'). Draw it last. */
void chart_legend(struct panel *p, int corner, const int *styles, const char *const *labels, int n);

/* A legend in one row, its left end at (x, y) outside any panel (figures whose panels are full). */
void chart_legend_row(cairo_t *cr, double x, double y, const int *styles, const char *const *labels,
                      int n);

/* The corner (first of the cheapest, in the order above) whose legend box hides no label and
 * the fewest marks and bars drawn so far. */
int chart_legend_corner(const struct panel *p, const char *const *labels, int n);

/* A sequential colour for t in [0, 1]: light (0) to dark blue (1), monotone in lightness so it
 * reads in greyscale. */
void chart_sequential_colour(double t, double *r, double *g, double *b);

/* A vertical colour scale in the rectangle (x, y, w, h), lo at the bottom and hi at the top, in
 * chart_sequential_colour from light (lo) to dark (hi), or dark to light when reversed (a
 * quantity where lower is better: dark stays better), with ticks and a label above it. */
void chart_colour_scale(cairo_t *cr, double x, double y, double w, double h, double lo, double hi,
                        bool reversed, const char *label);

/* Text at pixel position (anchor 0 left, 1 centre, 2 right). */
void chart_text(cairo_t *cr, double x, double y, const char *text, double size, int anchor);

/* The colour of a utilisation in [0, 1] on the INAM scale: about 50% is best (green), near
 * 100% is a bottleneck (red), little use is under-used (blue). */
void chart_utilisation_colour(double u, double *r, double *g, double *b);

#endif
