/* The screens. Each reads the app state and draws; none changes anything (ncdu's *_draw). The
 * layout is computed in one place from the terminal size, so a resize is one call. */
#ifndef SITU_TUI_VIEW_H
#define SITU_TUI_VIEW_H

#include <stdbool.h>

#include "../state/app.h"
#include "screen.h"

#define VIEW_MIN_COLS  80
#define VIEW_MIN_ROWS  24
#define VIEW_FULL_ROWS 30 /* below: the compact top panel, for a plot of 8 rows or more */

struct view_layout {
    int rows, cols;
    bool too_small;
    int left_x, left_w;   /* parameters */
    int right_x, right_w; /* results and bars */
    int top_y, top_h;     /* the two panels */
    int slider_y;         /* first slider row */
    int track_x, track_w; /* slider tracks, for clicks */
    int info_y;           /* help of the focused parameter, the edit line, notices */
    int xo_y, xo_h;       /* the crossover block */
    int status_y, keys_y;
    bool compact, present; /* the short top panel; presentation (big plot, focused slider) */
    /* Rows of the results panel, from its top (-1: not shown): the scenario's sentence, the
     * cores, the run's bars and one step's bars. */
    int r_scen_text, r_cores, r_run, r_step;
};

/* The layout of a rows x cols terminal for the state a (NULL: the default one): the presentation
 * layout (P), the compact one below VIEW_FULL_ROWS, the full top panel for the advisor. */
void view_layout(int rows, int cols, const struct app_state *a, struct view_layout *l);

/* The first slider shown: the sliders scroll with the focus when they do not all fit. */
int view_slider_first(const struct view_layout *l, const struct app_state *a);
void view_results_draw(const struct screen *s, const struct view_layout *l,
                       const struct app_state *a);

/* Draws the whole frame (erase, then every part) into curses' buffer; the caller refreshes. */
void view_draw(const struct screen *s, const struct view_layout *l, const struct app_state *a,
               int max_jobs);

/* Which slider (and where along its track, -1 if on its name) a click at (y, x) hits. */
bool view_hit(const struct view_layout *l, const struct app_state *a, int y, int x, int *index,
              double *frac);

/* Parts, one file each. */
void view_xover_draw(const struct screen *s, const struct view_layout *l,
                     const struct app_state *a);
void view_help_draw(const struct screen *s, const struct view_layout *l, const struct app_state *a,
                    int max_jobs);
/* A key table's name for keys ("<lr>" and the like become the screen's glyphs); a static buffer. */
const char *view_key_name(const struct screen *s, const char *name);
void view_presets_draw(const struct screen *s, const struct view_layout *l,
                       const struct app_state *a);
/* The last error in full, wrapped (!); drawn after view_draw and view_script_draw. */
void view_error_draw(const struct screen *s, const struct view_layout *l,
                     const struct app_state *a);
void view_lesson_draw(const struct screen *s, const struct view_layout *l,
                      const struct app_state *a);
void view_stages_draw(const struct screen *s, const struct view_layout *l,
                      const struct app_state *a);
/* Lines the lesson's text could scroll by in this layout (0: it fits): measured as
 * view_lesson_draw lays it out (the wrap depends on the width), without drawing. */
int view_lesson_text_most(const struct screen *s, const struct view_layout *l,
                          const struct app_state *a);
void view_links_draw(const struct screen *s, const struct view_layout *l,
                     const struct app_state *a);
/* The advisor's heatmap, in place of the results panel (a). */
void view_advise_draw(const struct screen *s, const struct view_layout *l,
                      const struct app_state *a);
void view_scaling_draw(const struct screen *s, const struct view_layout *l,
                       const struct app_state *a);
/* The scenario panel (or the prompt for its path), over the block under the sliders; drawn
 * after view_draw when a scenario is open or its path is being typed. */
void view_script_draw(const struct screen *s, const struct view_layout *l,
                      const struct app_state *a);
void view_small_draw(const struct screen *s, const struct view_layout *l);

#endif
