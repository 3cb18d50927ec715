/* The scenario panel, in the block under the sliders (over whatever pane is there): the script,
 * its status (running, waiting for K simulations, done, or its error with file:line and the
 * first traceback line), then the newest output lines that fit ([ ] scroll back). While a path
 * is being typed (x), the same block shows the prompt. */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "../view/draw.h"
#include "../view/view.h"

static void clear_block(const struct screen *s, const struct view_layout *l)
{
    for (int r = 0; r < l->xo_h; r++)
        draw_fill(s, l->xo_y + r, 0, l->cols, COL_TEXT, " ");
}

static void prompt_draw(const struct screen *s, const struct view_layout *l,
                        const struct app_state *a)
{
    int y = l->xo_y, w = l->cols - 2;
    draw_text(s, y, 1, w, COL_HEADING, "RUN A SCENARIO");
    int n = draw_text(s, y + 1, 1, w, COL_TEXT, "Lua file [args]: ");
    n += draw_text(s, y + 1, 1 + n, w - n, a->edit_prefilled ? COL_FOCUS : COL_VALUE, a->edit);
    draw_text(s, y + 1, 1 + n, w - n, COL_KNOB, "_");
    if (a->edit_err[0])
        draw_text(s, y + 2, 1, w, COL_ERROR, a->edit_err);
    draw_text(s, y + 3, 1, w, COL_MUTED,
              "Enter runs it (its simulations go through the explorer's runner), Esc cancels.");
    if (a->edit_prefilled)
        draw_text(
            s, y + 4, 1, w, COL_MUTED,
            "The last scenario: Enter runs it again, typing replaces it, Backspace edits it.");
}

static void status_line(const struct screen *s, const struct app_script *sp, int y, int x, int w)
{
    const struct glyphs *g = s->g;
    switch (sp->phase) {
    case APP_SCRIPT_RUNNING:
        draw_fmt(s, y, x, w, COL_WARN, "%s running", g->dot);
        break;
    case APP_SCRIPT_WAITING:
        draw_fmt(s, y, x, w, COL_WARN, "%s running: waiting for %d simulation%s", g->dot,
                 sp->pending, sp->pending == 1 ? "" : "s");
        break;
    case APP_SCRIPT_DONE:
        draw_fmt(s, y, x, w, COL_GOOD, "%s done (%d simulation%s)", g->ok, sp->total,
                 sp->total == 1 ? "" : "s");
        break;
    case APP_SCRIPT_FAILED: {
        int n = draw_fmt(s, y, x, w, COL_ERROR, "%s error: ", g->fail);
        draw_text(s, y, x + n, w - n, COL_ERROR, sp->err);
        break;
    }
    case APP_SCRIPT_OFF:
        break;
    }
}

void view_script_draw(const struct screen *s, const struct view_layout *l,
                      const struct app_state *a)
{
    if (l->too_small || l->xo_h < 3)
        return;
    if (a->mode == APP_SCRIPT_PATH) {
        clear_block(s, l);
        prompt_draw(s, l, a);
        return;
    }
    const struct app_script *sp = &a->script;
    if (sp->phase == APP_SCRIPT_OFF)
        return;
    clear_block(s, l);
    int y = l->xo_y, w = l->cols - 2;
    const char *base = strrchr(sp->path, '/');
    int n = draw_text(s, y, 1, w, COL_HEADING, "SCENARIO ");
    n += draw_text(s, y, 1 + n, w - n, COL_VALUE, base ? base + 1 : sp->path);
    draw_right(s, y, 1 + n, w - n, COL_MUTED, "[ ] scroll  x/Esc close");
    status_line(s, sp, y + 1, 1, w);
    int row = y + 2, end = y + l->xo_h;
    if (sp->phase == APP_SCRIPT_FAILED && sp->trace[0] && row < end) {
        int k = draw_text(s, row, 3, w - 2, COL_MUTED, "at ");
        draw_text(s, row, 3 + k, w - 2 - k, COL_ERROR, sp->trace);
        row++;
    }
    /* The newest lines that fit, `scroll` lines up; the unfinished line counts as the newest. */
    int total = sp->nlines + (sp->partial_len > 0);
    int room = end - row;
    int last = total - 1 - sp->scroll;
    int from = last - room + 1 < 0 ? 0 : last - room + 1;
    for (int k = from; k <= last && row < end; k++, row++) {
        char partial[APP_SCRIPT_COLS];
        const char *text = app_script_line(a, k);
        if (k == sp->nlines) {
            snprintf(partial, sizeof partial, "%.*s", sp->partial_len, sp->partial);
            text = partial;
        }
        draw_text(s, row, 2, w - 1, COL_TEXT, text);
    }
    if (sp->scroll > 0)
        draw_right(s, end - 1, 1, w, COL_MUTED, "(scrolled: ] for newer)");
    if (total == 0 && row < end)
        draw_text(s, row, 2, w - 1, COL_MUTED, "(no output yet)");
}
