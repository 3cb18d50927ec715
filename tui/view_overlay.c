/* Overlays drawn over the main screen (help, preset picker) and the screen shown instead of it
 * when the terminal is too small. */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "draw.h"
#include "view.h"

/* A framed box centred on the screen; returns its inner top-left. */
static void box_at(const struct screen *s, const struct view_layout *l, int w, int h,
                   const char *title, int *iy, int *ix)
{
    const struct glyphs *g = s->g;
    int y = (l->rows - h) / 2, x = (l->cols - w) / 2;
    for (int r = 0; r < h; r++) {
        draw_fill(s, y + r, x, w, COL_TEXT, " ");
        draw_text(s, y + r, x, 1, COL_BORDER, g->vline);
        draw_text(s, y + r, x + w - 1, 1, COL_BORDER, g->vline);
    }
    draw_fill(s, y, x, w, COL_BORDER, g->hline);
    draw_fill(s, y + h - 1, x, w, COL_BORDER, g->hline);
    draw_text(s, y, x, 1, COL_BORDER, g->box_tl);
    draw_text(s, y, x + w - 1, 1, COL_BORDER, g->box_tr);
    draw_text(s, y + h - 1, x, 1, COL_BORDER, g->box_bl);
    draw_text(s, y + h - 1, x + w - 1, 1, COL_BORDER, g->box_br);
    draw_fmt(s, y, x + 2, w - 4, COL_HEADING, " %s ", title);
    *iy = y + 1;
    *ix = x + 2;
}

void view_help_draw(const struct screen *s, const struct view_layout *l, int max_jobs)
{
    const struct glyphs *g = s->g;
    char ud[32], lr[32], enter[32];
    snprintf(ud, sizeof ud, "%s  k j  Tab", g->arrows_ud);
    snprintf(lr, sizeof lr, "%s  h l  - +", g->arrows_lr);
    snprintf(enter, sizeof enter, "%s  e", g->enter);
    const char *rows[][2] = {
        {ud, "select a parameter"},
        {lr, "step it (ratios: realisable values only)"},
        {"PgUp PgDn  L H", "coarse step"},
        {"Home End  g G", "first / last parameter"},
        {enter, "type an exact value (Esc cancels)"},
        {"d", "reset the parameter to its default"},
        {"m", "switch the mapping (in situ, in transit)"},
        {"r", "simulate the current configuration again"},
        {"C", "cancel the simulations in progress (r runs them again)"},
        {"p  w", "presets: load one; save this configuration as one"},
        {"u  [ ]", "link utilisation; scroll it (Esc closes)"},
        {"s", "static scaling: rate against time (Esc closes)"},
        {"a  X Y o *", "advisor heatmap: arrows move; axes, objective, best"},
        {"c", "crossover plot (again: back to the lesson)"},
        {"n b h R", "lesson: next, back, hint (more), restart"},
        {"x  [ ]", "a Lua scenario in a panel; scroll (x/Esc close)"},
        {"!", "the last error in full"},
        {"mouse", "click a name to select, a track to set"},
        {"?  Esc", "close this help"},
        {"q  Ctrl-C", "quit"},
    };
    int n = sizeof rows / sizeof rows[0];
    /* 80x24 is the documented minimum: the box and every line in it fit there. */
    int w = l->cols - 4 < 74 ? l->cols - 4 : 74, h = n + 5, iy, ix;
    if (h > l->rows)
        h = l->rows;
    box_at(s, l, w, h, "Keys", &iy, &ix);
    for (int i = 0; i < n && iy + i < iy + h - 2; i++) {
        draw_text(s, iy + i, ix, 15, COL_VALUE, rows[i][0]);
        draw_text(s, iy + i, ix + 16, w - 19, COL_TEXT, rows[i][1]);
    }
    draw_fmt(s, iy + n, ix, w - 4, COL_MUTED,
             "Sliders update the model at once; %.0f ms later SimGrid simulates", 150.0);
    draw_fmt(s, iy + n + 1, ix, w - 4, COL_MUTED,
             "in a child process (at most %d at once, cached), crossover behind.", max_jobs);
}

void view_error_draw(const struct screen *s, const struct view_layout *l, const struct app_state *a)
{
    const char *what, *err = app_error(a, &what);
    char text[APP_ERR_LONG + 64], lines[32][256];
    snprintf(text, sizeof text, "%s%s", what, err);
    int w = l->cols - 4 < 90 ? l->cols - 4 : 90;
    int n = draw_wrap(text, w - 4, lines, 32);
    int shown = n > 32 ? 32 : n, h = shown + 3, iy, ix;
    if (h > l->rows - 2)
        h = l->rows - 2, shown = h - 3;
    box_at(s, l, w, h, "Last error", &iy, &ix);
    for (int i = 0; i < shown; i++)
        draw_text(s, iy + i, ix, w - 4, COL_ERROR, lines[i]);
    if (shown < n)
        draw_right(s, iy + shown - 1, ix, w - 4, COL_MUTED, s->g->ellipsis);
    draw_text(s, iy + shown, ix, w - 4, COL_MUTED, "! or Esc closes");
}

void view_presets_draw(const struct screen *s, const struct view_layout *l,
                       const struct app_state *a)
{
    int n = a->npresets;
    int w = l->cols - 4 < 96 ? l->cols - 4 : 96, h = n + 5, iy, ix;
    if (h > l->rows - 2)
        h = l->rows - 2;
    box_at(s, l, w, h, "Presets", &iy, &ix);
    int visible = h - 4, first = a->preset_sel >= visible ? a->preset_sel - visible + 1 : 0;
    int name_w = 20, desc_w = w - 4 - name_w - 2;
    for (int i = first; i < n && i - first < visible; i++) {
        bool sel = i == a->preset_sel;
        int row = iy + i - first;
        if (sel)
            draw_fill(s, row, ix - 1, w - 2, COL_FOCUS, " ");
        draw_fmt(s, row, ix, name_w, sel ? COL_FOCUS : COL_TEXT, "%s %s%s", sel ? s->g->focus : " ",
                 a->presets[i], strcmp(a->presets[i], a->preset) ? "" : "*");
        /* The description the file starts with: what the preset is for, cut to the box. */
        char d[APP_DESC_MAX];
        snprintf(d, sizeof d, "%s", a->preset_desc[i]);
        if (screen_cells(d) > desc_w && desc_w > 3) {
            d[desc_w - 3] = 0;
            strcat(d, "...");
        }
        draw_text(s, row, ix + name_w + 1, desc_w, sel ? COL_FOCUS : COL_MUTED, d);
    }
    draw_text(s, iy + h - 4, ix, w - 4, COL_MUTED,
              "* current; loads the defaults, then the preset; w saves one");
}

void view_small_draw(const struct screen *s, const struct view_layout *l)
{
    /* Each line in a long and a short form: the longest that fits is drawn, and on fewer rows
     * the lines that matter most (what is wrong, how to leave) come first. */
    char full[3][64], brief[3][64];
    snprintf(full[0], sizeof full[0], "Terminal too small: %d%s%d", l->cols, s->g->times, l->rows);
    snprintf(brief[0], sizeof brief[0], "%d%s%d: too small", l->cols, s->g->times, l->rows);
    snprintf(full[1], sizeof full[1], "Situ needs at least %d%s%d", VIEW_MIN_COLS, s->g->times,
             VIEW_MIN_ROWS);
    snprintf(brief[1], sizeof brief[1], "needs %d%s%d", VIEW_MIN_COLS, s->g->times, VIEW_MIN_ROWS);
    snprintf(full[2], sizeof full[2], "enlarge it, or press q to quit");
    snprintf(brief[2], sizeof brief[2], "q quits");
    static const int order[3][3] = {{0, -1, -1}, {0, 2, -1}, {0, 1, 2}};
    int n = l->rows >= 3 ? 3 : l->rows < 1 ? 1 : l->rows;
    int y = (l->rows - n) / 2;
    for (int i = 0; i < n; i++) {
        int k = order[n - 1][i];
        const char *text = screen_cells(full[k]) <= l->cols         ? full[k]
                           : screen_cells(brief[k]) <= l->cols || k ? brief[k]
                                                                    : "too small";
        int x = (l->cols - screen_cells(text)) / 2;
        draw_text(s, y + i, x < 0 ? 0 : x, l->cols, k == 0 ? COL_ERROR : COL_TEXT, text);
    }
}
