/* What plot/chart.c (panels, axes, series, the SITU_CHART_DUMP record) shares with
 * plot/chart_place.c (legends, point labels, colour scales): not for other modules. */
#ifndef SITU_CHART_INTERNAL_H
#define SITU_CHART_INTERNAL_H

#include "cairo_calls.h"
#include <stdbool.h>
#include <stddef.h>

#include "chart.h"

#define CHART_FONT "DejaVu Sans"

/* What a text is, for the dump: tests check ticks per axis and what a legend covers. */
enum chart_role {
    CHART_ROLE_TEXT,
    CHART_ROLE_TITLE,
    CHART_ROLE_TICK,
    CHART_ROLE_LEGEND,
    CHART_ROLE_LABEL
};

/* Text at (x, y) in user space (anchor 0 left, 1 centre, 2 right), recorded with its role. */
void chart_text_as(cairo_t *cr, double x, double y, const char *text, double size, int anchor,
                   enum chart_role role);
/* The box (x y w h, device pixels) that text would take. */
void chart_text_box(cairo_t *cr, double x, double y, const char *text, double size, int anchor,
                    double *box);
void chart_set_style(cairo_t *cr, int s);
void chart_marker(cairo_t *cr, int s, double x, double y);
void chart_swatch(cairo_t *cr, double x, double y, double w, double h, double shade, bool hatched);
void chart_add_mark(struct panel *p, double x, double y);
void chart_add_box(struct panel *p, const double *box, bool label);
bool chart_overlaps(const double *a, const double *b);
void chart_format_tick(double v, char *buf, size_t len);
int chart_linear_ticks(double a, double b, double *out, int max);
/* Records a legend's box for the dump. */
void chart_dump_legend(double x, double y, double w, double h);

#endif
