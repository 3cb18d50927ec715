/* The screens. Each reads the app state and draws; none changes anything (ncdu's *_draw). The
 * layout is computed in one place from the terminal size, so a resize is one call. */
#ifndef SITU_TUI_VIEW_H
#define SITU_TUI_VIEW_H

#include <stdbool.h>

#include "app.h"
#include "screen.h"

#define VIEW_MIN_COLS 80
#define VIEW_MIN_ROWS 24

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
};

void view_layout(int rows, int cols, struct view_layout *l);

/* Draws the whole frame (erase, then every part) into curses' buffer; the caller refreshes. */
void view_draw(const struct screen *s, const struct view_layout *l, const struct app_state *a,
               int max_jobs);

/* Which slider (and where along its track, -1 if on its name) a click at (y, x) hits. */
bool view_hit(const struct view_layout *l, const struct app_state *a, int y, int x, int *index,
              double *frac);

/* Parts, one file each. */
void view_xover_draw(const struct screen *s, const struct view_layout *l,
                     const struct app_state *a);
void view_help_draw(const struct screen *s, const struct view_layout *l, int max_jobs);
void view_presets_draw(const struct screen *s, const struct view_layout *l,
                       const struct app_state *a);
/* The last error in full, wrapped (!); drawn after view_draw and view_script_draw. */
void view_error_draw(const struct screen *s, const struct view_layout *l,
                     const struct app_state *a);
void view_lesson_draw(const struct screen *s, const struct view_layout *l,
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
