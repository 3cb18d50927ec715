/* Figures for `situ reproduce`, drawn with cairo into PNG and SVG: panels with labelled axes
 * (linear or log), line series with markers and dashes that stay apart in greyscale, stacked
 * bars, reference lines and legends. Knows nothing of Situ's data. */
#ifndef SITU_CHART_H
#define SITU_CHART_H

#include <cairo.h>
#include <stdbool.h>
#include <stddef.h>

#define CHART_SERIES_STYLES 6

struct panel {
    cairo_t *cr;
    double left, top, width, height; /* plotting area, in pixels */
    double x0, x1, y0, y1;           /* data range */
    bool xlog, ylog;
};

/* Writes PATH_BASE.png and PATH_BASE.svg through outfiles (each complete or absent), calling
 * draw once for each surface. -1 with "FILE: cannot write: reason" on failure. */
int chart_write(const char *path_base, int width, int height,
                void (*draw)(cairo_t *cr, double width, double height, void *ud), void *ud,
                char *err, size_t errlen);

/* Clears to white and writes a title across the top. */
void chart_background(cairo_t *cr, double width, double height, const char *title);

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
void chart_series(const struct panel *p, int s, const double *x, const double *y, int n);

/* A filled bar from y = base to base + value, centred on x, `w` data units wide (log x: factor).
 * shade 0..1 from dark to light grey-blue; hatched adds diagonal lines (for idle time). */
void chart_bar(const struct panel *p, double x, double w, double base, double value, double shade,
               bool hatched);

/* A vertical reference line with a label at its top. */
void chart_vline(const struct panel *p, double x, const char *label);

/* A legend box in a corner of the panel (0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right):
 * n entries, each a series style (style >= 0) or a bar swatch (style = -1 - shade*100, hatched if
 * the label starts with '~'). */
void chart_legend(const struct panel *p, int corner, const int *styles, const char *const *labels,
                  int n);

/* The corner (first of the fewest, in the order above) whose legend box would hide the fewest of
 * the npoints data points (xs, ys). */
int chart_legend_corner(const struct panel *p, const char *const *labels, int n, const double *xs,
                        const double *ys, int npoints);

/* Text at pixel position (anchor 0 left, 1 centre, 2 right). */
void chart_text(cairo_t *cr, double x, double y, const char *text, double size, int anchor);

/* The colour of a utilisation in [0, 1] on the INAM scale: about 50% is best (green), near
 * 100% is a bottleneck (red), little use is under-used (blue). */
void chart_utilisation_colour(double u, double *r, double *g, double *b);

#endif
