/* The lesson panel, in the block under the sliders: the lesson's title and step, the goal's
 * status for the configuration on screen, the step's text (wrapped to the width), and the hint
 * when asked for. The goal comes first so that a short terminal still shows it. */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "draw.h"
#include "view.h"

static void goal_line(const struct screen *s, const struct app_state *a, int y, int w)
{
    const struct app_lesson *ls = &a->lesson;
    const struct glyphs *g = s->g;
    enum colour c = COL_MUTED;
    char head[64];
    switch (ls->goal_pending ? -1 : (int)ls->goal) {
    case -1:
        snprintf(head, sizeof head, "%s checking the goal", g->dot);
        break;
    case LESSON_NO_GOAL:
        snprintf(head, sizeof head, "%s no goal: read, explore, then n for the next step", g->dot);
        break;
    case LESSON_GOAL_MET:
        snprintf(head, sizeof head, "%s goal met", g->ok);
        c = COL_GOOD;
        break;
    case LESSON_GOAL_NOT_MET:
        snprintf(head, sizeof head, "%s goal not met yet", g->dot);
        c = COL_WARN;
        break;
    case LESSON_GOAL_ERROR:
        snprintf(head, sizeof head, "%s goal error", g->fail);
        c = COL_ERROR;
        break;
    }
    int n = draw_text(s, y, 1, w, c, head);
    if (ls->msg[0] && !ls->goal_pending) {
        n += draw_text(s, y, 1 + n, w - n, COL_MUTED, ": ");
        n += draw_text(s, y, 1 + n, w - n, ls->goal == LESSON_GOAL_ERROR ? COL_ERROR : COL_TEXT,
                       ls->msg);
    }
    if (!ls->goal_pending && ls->goal != LESSON_NO_GOAL && ls->goal != LESSON_GOAL_ERROR)
        draw_text(s, y, 1 + n, w - n, COL_MUTED, ls->goal_sim ? " (model + SimGrid)" : " (model)");
}

void view_lesson_draw(const struct screen *s, const struct view_layout *l,
                      const struct app_state *a)
{
    const struct app_lesson *ls = &a->lesson;
    int y = l->xo_y, w = l->cols - 2, h = l->xo_h;
    if (!ls->l || h < 2)
        return;
    int steps = lesson_step_count(ls->l);
    int n = draw_text(s, y, 1, w, COL_HEADING, "LESSON ");
    n += draw_fmt(s, y, 1 + n, w - n, COL_VALUE, "%s", lesson_title(ls->l));
    char where[48];
    snprintf(where, sizeof where, "  step %d/%d", ls->step + 1, steps);
    draw_right(s, y, 1 + n, w - n, COL_HEADING, where);
    goal_line(s, a, y + 1, w);
    int row = y + 2, end = y + h;
    const char *hint = lesson_step_hint(ls->l, ls->step);
    if (ls->show_hint && end - row >= 2) {
        end--;
        int k = draw_text(s, end, 1, w, COL_KNOB, "hint: ");
        draw_text(s, end, 1 + k, w - k, COL_TEXT, hint[0] ? hint : "this step has no hint");
    }
    char lines[32][256];
    int need = draw_wrap(lesson_step_text(ls->l, ls->step), w, lines, 32);
    for (int i = 0; i < need && i < 32 && row < end; i++, row++) {
        bool cut = row == end - 1 && i < need - 1;
        draw_text(s, row, 1, w, COL_TEXT, lines[i]);
        if (cut)
            draw_right(s, row, 1, w, COL_MUTED, s->g->ellipsis);
    }
}
