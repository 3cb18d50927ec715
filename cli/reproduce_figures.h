/* The figures of `situ reproduce` (reproduce_figures.c): for each study of the Sim-Situ paper
 * (Fig. 7, 8, 9) and the static-scaling view, its preset, how to draw it from the study's results
 * and its text summary. cmd_reproduce.c reads the arguments, runs the studies and writes the
 * files. */
#ifndef SITU_CLI_REPRODUCE_FIGURES_H
#define SITU_CLI_REPRODUCE_FIGURES_H

#include "../plot/cairo_calls.h"
#include <stdio.h>

#include "study.h"

struct figure {
    const char *name;
    const char *preset;
    const char *title;
    int width, height;
    void (*draw)(cairo_t *cr, double w, double h, void *ud);
    void (*summary)(const struct study *s, FILE *out, double alert);
    /* NULL, or more runs after the study's own (Fig. 9 narrows its crossover): -1 with err. */
    int (*refine)(struct study *s, char *err, size_t errlen);
};

/* What a figure's draw function gets (its ud). */
struct drawing {
    const struct study *s;
    double alert;
};

/* What the figures share (reproduce_common.c). A result's number (NAN if absent); the result
 * of the configuration whose axis values ids[k] = values[k] (NULL if absent or failed); the
 * distinct values of a parameter across the study, ascending; the subtitle saying what drew a
 * figure and at which sizes, with `more` after it. */
double figure_num(json_t *r, const char *key);
json_t *figure_find(const struct study *s, const int *ids, const double *values, int n);
int figure_distinct(const struct study *s, int id, double *out, int max);
void figure_drawn_by(const struct study *s, const char *more, char *out, size_t len);

/* Fig. 9 (reproduce_fig9.c). */
void fig9_draw(cairo_t *cr, double w, double h, void *ud);
void fig9_summary(const struct study *s, FILE *out, double alert);
int fig9_refine(struct study *s, char *err, size_t errlen);

extern const struct figure reproduce_figures[];
extern const int reproduce_nfigures;

#endif
