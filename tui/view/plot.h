/* A dot canvas for line plots: Braille (2x4 dots per cell) in Unicode, one dot per cell in ASCII.
 * Pure memory, no curses: the view renders cells, tests read them. */
#ifndef SITU_TUI_PLOT_H
#define SITU_TUI_PLOT_H

#include <stdbool.h>

#define PLOT_LAYERS 6 /* curves; the cell shows the last layer drawn into it */

struct plot {
    int w, h;                  /* cells */
    int sx, sy;                /* dots per cell: 2x4 (Braille) or 1x1 */
    unsigned char *dots;       /* [h * w] Braille bit pattern */
    signed char *layer;        /* [h * w] last layer drawn into the cell, -1 if empty */
    int dash[PLOT_LAYERS];     /* 0: solid; n: n dots on, n dots off */
    unsigned run[PLOT_LAYERS]; /* dots stepped so far, so dashes continue across segments */
};

int plot_init(struct plot *p, int w, int h, bool braille);
void plot_free(struct plot *p);

/* Dot coordinates: x in [0, w * sx), y in [0, h * sy), y = 0 at the top. Outside is clipped. */
void plot_dot(struct plot *p, int x, int y, int layer);
void plot_line(struct plot *p, int x0, int y0, int x1, int y1, int layer);

/* Draw a layer's lines dashed (n dots on, n off), to tell curves apart without colour. */
void plot_set_dash(struct plot *p, int layer, int n);

/* The UTF-8 Braille character of cell (row, col) into buf[4] (empty string if no dot). */
void plot_braille(const struct plot *p, int row, int col, char buf[4]);

#endif
