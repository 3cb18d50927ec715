/* The figures of `situ reproduce` (reproduce_figures.c): for each study of the Sim-Situ paper
 * (Fig. 7, 8, 9) and the static-scaling view, its preset, how to draw it from the study's results
 * and its text summary. cmd_reproduce.c reads the arguments, runs the studies and writes the
 * files. */
#ifndef SITU_CLI_REPRODUCE_FIGURES_H
#define SITU_CLI_REPRODUCE_FIGURES_H

#include <cairo.h>
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

extern const struct figure reproduce_figures[];
extern const int reproduce_nfigures;

#endif
