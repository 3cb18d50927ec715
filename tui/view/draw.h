/* Drawing primitives over curses: clipped text, repeated glyphs, stacked bars, slider tracks.
 * Widths are in display cells; nothing is ever drawn outside the given width. */
#ifndef SITU_TUI_DRAW_H
#define SITU_TUI_DRAW_H

#include "screen.h"

struct bar_seg {
    double frac; /* of the bar's full width */
    enum colour c;
    const char *glyph;
};

/* Text at (y, x), at most w cells; returns the cells written. */
int draw_text(const struct screen *s, int y, int x, int w, enum colour c, const char *text);
/* The same, but text that does not fit ends in the ellipsis (…), never mid-word unannounced. */
int draw_text_cut(const struct screen *s, int y, int x, int w, enum colour c, const char *text);

/* The display cells of a UTF-8 string (one per character: the glyphs Situ draws are narrow). */
int draw_width(const char *text);
int draw_fmt(const struct screen *s, int y, int x, int w, enum colour c, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
/* Right-aligned in [x, x + w). */
void draw_right(const struct screen *s, int y, int x, int w, enum colour c, const char *text);

/* n copies of glyph. */
void draw_fill(const struct screen *s, int y, int x, int n, enum colour c, const char *glyph);

/* Segments left to right, each rounded to whole cells at its cumulative edge (so the bar's total
 * stays exact); what the segments leave is drawn as `rest` in COL_IDLE (NULL: blank). */
void draw_bar(const struct screen *s, int y, int x, int w, const struct bar_seg *segs, int n,
              const char *rest);

/* A slider track w cells wide with its knob at pos in [0, 1]. */
void draw_track(const struct screen *s, int y, int x, int w, double pos);

/* Wraps text into at most max lines of at most w bytes (ASCII text: lessons, messages), at
 * spaces where it can, cutting a longer word; the text's own newlines are kept. Returns the
 * lines needed (may exceed max). */
int draw_wrap(const char *text, int w, char lines[][256], int max);

/* text re-flowed into out (len bytes): a single newline joins its lines (a lesson's source is
 * wrapped at the author's width, not the panel's); a blank line, or a line that starts with a
 * space, '-' or '*' (a list, an indented block), keeps its break. */
void draw_reflow(const char *text, char *out, size_t len);

#endif
