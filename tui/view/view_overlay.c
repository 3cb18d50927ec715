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

const char *view_key_name(const struct screen *s, const char *name)
{
    /* The table's names are ASCII; the glyphs are the screen's (arrows, or words in ASCII). */
    static char buf[64];
    const char *tokens[][2] = {
        {"<ud>", s->g->arrows_ud}, {"<lr>", s->g->arrows_lr}, {"<enter>", s->g->enter}};
    size_t used = 0;
    buf[0] = 0;
    for (const char *p = name; *p && used < sizeof buf - 1;) {
        bool hit = false;
        for (size_t k = 0; k < sizeof tokens / sizeof tokens[0]; k++) {
            size_t tl = strlen(tokens[k][0]);
            if (!strncmp(p, tokens[k][0], tl)) {
                used += (size_t)snprintf(buf + used, sizeof buf - used, "%s", tokens[k][1]);
                p += tl;
                hit = true;
                break;
            }
        }
        if (!hit)
            buf[used++] = *p++, buf[used] = 0;
        if (used >= sizeof buf)
            used = sizeof buf - 1;
    }
    return buf;
}

/* The help: the main screen's key table, one line per row that names its keys (rows whose keys
 * another row's line names are skipped), then how the explorer works; scrolls when the terminal
 * is too short for all of it. */
void view_help_draw(const struct screen *s, const struct view_layout *l, const struct app_state *a,
                    int max_jobs)
{
    const struct app_keymap *map = app_keymap(APP_MAIN);
    const struct app_keydef *rows[64];
    int n = 0;
    /* The keys that work everywhere first, then those of a lesson, a panel or a view. */
    const unsigned where =
        APP_CTX_LESSON | APP_CTX_SCRIPT | APP_CTX_LINKS | APP_CTX_TEXT | APP_CTX_ADVISE;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < map->n && n < 64; i++)
            if (map->defs[i].help && !(map->defs[i].ctx & where) == !pass)
                rows[n++] = &map->defs[i];
    char foot[2][128];
    snprintf(foot[0], sizeof foot[0],
             "Sliders update the model at once; %.0f ms later SimGrid simulates", 150.0);
    snprintf(foot[1], sizeof foot[1],
             "in a child process (at most %d at once, cached), crossover behind.", max_jobs);
    /* The glossary: every number and mark on the main screen, what it means. */
    const struct glyphs *g = s->g;
    char bars[128], scroll[32];
    snprintf(bars, sizeof bars, "%s simulate %s retrieve %s analyse %s idle, per step", g->block,
             g->shade_r, g->shade_a, g->idle);
    snprintf(scroll, sizeof scroll, "0%s 6", s->unicode ? "↑" : "^");
    const char *gloss[][2] = {
        {"efficiency", "η = 1 - idle / period: 1 when neither side waits"},
        {"makespan", "the whole run, fill and drain included; eq.5 is the paper's, without"},
        {"scenario IS", "the simulation waits for the analytics (the analytics is slower)"},
        {"scenario IA", "the analytics waits for the simulation (the simulation is slower)"},
        {"cores", "N sim + M ana: the cores each side gets from the ratio; its nodes"},
        {g->delta, "SimGrid against the model: (SimGrid - model) / model"},
        {"ONE STEP", "period: one step's length, the slower side's active time"},
        {"bars", bars},
        {"S Ing R A W C", "simulate, ingest into the DTL, retrieve, analyse, metrics (t)"},
        {"OVER THE RUN", "% of the run one core of each side is active"},
        {scroll, "sliders hidden above and below the list (k j scroll it)"},
        {"crossover ×N", "the data_scaling where the next strategy becomes the fastest"},
    };
    int ngloss = (int)(sizeof gloss / sizeof gloss[0]);
    int lines = n + 3 + 2 + ngloss; /* the keys, a blank, the footnotes, a blank, the glossary */
    /* 80x24 is the documented minimum: the box fits there and scrolls (arrows) if it must. */
    int w = l->cols - 4 < 76 ? l->cols - 4 : 76, h = lines + 2, iy, ix;
    if (h > l->rows - 1) /* a modal box: the whole height but the footer, if it needs it */
        h = l->rows - 1;
    int shown = h - 2, most = lines - shown > 0 ? lines - shown : 0;
    int first = a->help_scroll > most ? most : a->help_scroll;
    box_at(s, l, w, h, map->title, &iy, &ix);
    for (int k = 0; k < shown; k++) {
        int i = first + k, y = iy + k;
        if (i < n) {
            draw_text(s, y, ix, 15, COL_VALUE, view_key_name(s, rows[i]->names));
            draw_text(s, y, ix + 16, w - 19, COL_TEXT, rows[i]->help);
        } else if (i > n && i <= n + 2) {
            draw_text(s, y, ix, w - 4, COL_MUTED, foot[i - n - 1]);
        } else if (i == n + 4) {
            draw_text(s, y, ix, w - 4, COL_HEADING, "What the numbers on screen mean");
        } else if (i > n + 4) {
            draw_text(s, y, ix, 15, COL_VALUE, gloss[i - n - 5][0]);
            draw_text_cut(s, y, ix + 16, w - 19, COL_TEXT, gloss[i - n - 5][1]);
        }
    }
    if (first > 0)
        draw_right(s, iy - 1, ix, w - 4, COL_MUTED, " more above ");
    if (first < most)
        draw_fmt(s, iy + shown, ix + w - 20, 16, COL_MUTED, " %s more below ", s->g->arrows_ud);
}

void view_error_draw(const struct screen *s, const struct view_layout *l, const struct app_state *a)
{
    char caution[APP_ERR_LONG];
    const char *what, *err = app_error(a, &what);
    bool error = err[0];
    if (!error) /* ! opens on a caution too */
        what = "", err = app_caution(a, caution, sizeof caution);
    char text[APP_ERR_LONG + 64], lines[32][256];
    snprintf(text, sizeof text, "%s%s", what, err);
    int w = l->cols - 4 < 90 ? l->cols - 4 : 90;
    int n = draw_wrap(text, w - 4, lines, 32);
    int shown = n > 32 ? 32 : n, h = shown + 3, iy, ix;
    if (h > l->rows - 2)
        h = l->rows - 2, shown = h - 3;
    box_at(s, l, w, h, error ? "Last error" : "Caution", &iy, &ix);
    for (int i = 0; i < shown; i++)
        draw_text(s, iy + i, ix, w - 4, error ? COL_ERROR : COL_WARN, lines[i]);
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
