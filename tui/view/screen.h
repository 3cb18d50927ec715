/* The terminal: curses set-up and tear-down, the one semantic colour table, the glyph set
 * (Unicode or ASCII), resizing, and restoring the terminal even on a fatal signal. */
#ifndef SITU_TUI_SCREEN_H
#define SITU_TUI_SCREEN_H

#include "theme.h"
#include <stdbool.h>
#include <stddef.h>

/* Semantic colours, once (ncdu's X-macro): name, foreground on 8-colour terminals, foreground on
 * 256-colour ones, background, attribute with colours, attribute without (NO_COLOR or a
 * monochrome terminal). -1 is the terminal's default. The series and verdict colours are the
 * Okabe-Ito palette, which stays distinct for the common colour-vision deficiencies (the 8-colour
 * column is its nearest basic colours): sky blue (OI_SKY), orange, bluish green, yellow, blue,
 * vermillion and reddish purple. Colour never carries a meaning alone: every series also has its
 * own glyph (screen.c's glyph sets, the views' legends). */
#define OI_ORANGE     214 /* #E69F00 */
#define OI_SKY        74  /* #56B4E9 */
#define OI_GREEN      36  /* #009E73, bluish green */
#define OI_YELLOW     227 /* #F0E442 */
#define OI_BLUE       25  /* #0072B2 */
#define OI_VERMILLION 166 /* #D55E00 */
#define OI_PURPLE     175 /* #CC79A7, reddish purple */

#define SCREEN_COLOURS(X)                                                                          \
    X(COL_TEXT, -1, -1, -1, A_NORMAL, A_NORMAL)                                                    \
    X(COL_MUTED, -1, -1, -1, A_DIM, A_DIM)                                                         \
    X(COL_HEADING, COLOR_CYAN, OI_SKY, -1, A_BOLD, A_BOLD)                                         \
    X(COL_TITLE, COLOR_BLACK, COLOR_BLACK, COLOR_CYAN, A_BOLD, A_REVERSE | A_BOLD)                 \
    X(COL_FOCUS, COLOR_BLACK, COLOR_BLACK, COLOR_YELLOW, A_BOLD, A_REVERSE | A_BOLD)               \
    X(COL_VALUE, -1, -1, -1, A_BOLD, A_BOLD)                                                       \
    X(COL_TRACK, COLOR_CYAN, OI_SKY, -1, A_NORMAL, A_NORMAL)                                       \
    X(COL_KNOB, COLOR_YELLOW, OI_YELLOW, -1, A_BOLD, A_BOLD)                                       \
    X(COL_SIM, COLOR_CYAN, OI_SKY, -1, A_BOLD, A_NORMAL)                                           \
    X(COL_RETRIEVE, COLOR_MAGENTA, OI_PURPLE, -1, A_NORMAL, A_NORMAL)                              \
    X(COL_ANA, COLOR_YELLOW, OI_ORANGE, -1, A_NORMAL, A_NORMAL)                                    \
    X(COL_IDLE, -1, -1, -1, A_DIM, A_DIM)                                                          \
    X(COL_INSITU, COLOR_CYAN, OI_SKY, -1, A_BOLD, A_NORMAL)                                        \
    X(COL_INTRANSIT, COLOR_YELLOW, OI_ORANGE, -1, A_BOLD, A_BOLD)                                  \
    X(COL_INLINE, COLOR_GREEN, OI_GREEN, -1, A_BOLD, A_UNDERLINE)                                  \
    X(COL_CROSS, COLOR_RED, OI_VERMILLION, -1, A_BOLD, A_BOLD | A_UNDERLINE)                       \
    X(COL_GOOD, COLOR_GREEN, OI_GREEN, -1, A_BOLD, A_BOLD)                                         \
    X(COL_WARN, COLOR_YELLOW, OI_ORANGE, -1, A_BOLD, A_BOLD)                                       \
    X(COL_BAD, COLOR_RED, OI_VERMILLION, -1, A_BOLD, A_BOLD)                                       \
    X(COL_ERROR, COLOR_RED, OI_VERMILLION, -1, A_BOLD, A_BOLD)                                     \
    X(COL_KEY, COLOR_BLACK, COLOR_BLACK, COLOR_WHITE, A_NORMAL, A_REVERSE)                         \
    X(COL_BORDER, COLOR_BLUE, OI_BLUE, -1, A_NORMAL, A_DIM)                                        \
    X(COL_UTIL_LOW, COLOR_BLUE, OI_BLUE, -1, A_NORMAL, A_DIM)                                      \
    X(COL_UTIL_GOOD, COLOR_GREEN, OI_GREEN, -1, A_BOLD, A_NORMAL)                                  \
    X(COL_UTIL_HIGH, COLOR_YELLOW, OI_YELLOW, -1, A_BOLD, A_BOLD)                                  \
    X(COL_UTIL_HOT, COLOR_RED, OI_VERMILLION, -1, A_BOLD, A_BOLD | A_UNDERLINE)

#define SCREEN_ENUM(name, fg, fg256, bg, attr, mono) name,
enum colour { SCREEN_COLOURS(SCREEN_ENUM) COL_COUNT };
#undef SCREEN_ENUM

/* Everything drawn that is not plain ASCII text comes from here. */
struct glyphs {
    const char *block, *idle;      /* bar cells: filled, idle */
    const char *shade_r, *shade_a; /* retrieve / analyse cells when colours are off */
    const char *track_on, *track_off, *knob, *focus;
    const char *vline, *hline, *corner, *tick_y, *tick_x, *cross_line, *here;
    const char *point, *curve; /* a simulated point; a curve in the legend */
    const char *eta, *times, *approx, *ge, *ellipsis, *ok, *fail, *delta, *enter, *arrows_lr,
        *arrows_ud, *dot, *arrow;
    const char *point2, *curve2; /* the second mapping's point; its curve in mono */
    const char *point3, *curve3; /* the third's (inline) */
    const char *box_tl, *box_tr, *box_bl, *box_br;
};

struct screen {
    bool unicode; /* UTF-8 locale and not SITU_ASCII */
    bool colour;  /* colours in use (terminal has them, NO_COLOR unset) */
    int theme;    /* enum screen_theme in use (theme.h) */
    int rows, cols;
    const struct glyphs *g;
};

/* Initialises curses on stdin/stdout. -1 with a reason if the terminal cannot be driven. */
int screen_open(struct screen *s, char *err, size_t errlen);

/* Ends curses and restores the terminal; safe to call twice. */
void screen_close(struct screen *s);

/* Reads the terminal's size and tells curses: the one place a resize is handled. */
void screen_resize(struct screen *s);

/* The curses attribute of a semantic colour. */
int screen_attr(const struct screen *s, enum colour c);

/* Switches to theme t (its colour pairs set again); the next frame draws in it. */
void screen_set_theme(struct screen *s, int t);

/* On SIGSEGV, SIGBUS, SIGFPE, SIGILL and SIGABRT: call kill_children (must be
 * async-signal-safe), put the terminal back as it was before screen_open, and die of the signal. */
void screen_on_fatal(void (*kill_children)(void));

/* The same without dying: for a process about to end by itself (the Lua watchdog's hard stop,
 * watchdog.h). Async-signal-safe. */
void screen_emergency_restore(void);

/* Display cells of a UTF-8 string (every glyph used here is one cell wide). */
int screen_cells(const char *s);

/* A key as curses reads it, as the app sees it (enum app_keycode, printable ASCII as itself);
 * -1 for a key the app has no use for. */
int screen_map_key(int ch);

#endif
