/* The lesson panel, in the block under the sliders: the lesson's title and step, the goal's
 * status for the configuration on screen, the step's text (wrapped to the width), and the hint
 * when asked for. The goal comes first so that a short terminal still shows it. */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "../view/draw.h"
#include "../view/view.h"

#define VIEW_TEXT_LINES 160 /* of a step's text, wrapped: what ] can reach */

/* The goal's state and message, wrapped to the panel's width on at most max rows (a goal's
 * message is the lesson author's and may be long): the rows it takes, drawn if paint. */
static int goal_lines(const struct screen *s, const struct app_state *a, int y, int w, int max,
                      bool paint)
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
        /* Met earlier, not with what is on screen now (b, R): both are true, say both. */
        if (ls->step < APP_LESSON_STEPS && (ls->met >> ls->step) & 1)
            snprintf(head, sizeof head, "%s goal met before, not with these settings", g->ok);
        else
            snprintf(head, sizeof head, "%s goal not met yet", g->dot);
        c = COL_WARN;
        break;
    case LESSON_GOAL_ERROR:
        snprintf(head, sizeof head, "%s goal error", g->fail);
        c = COL_ERROR;
        break;
    }
    bool said = ls->msg[0] && !ls->goal_pending;
    bool judged = !ls->goal_pending && ls->goal != LESSON_NO_GOAL && ls->goal != LESSON_GOAL_ERROR;
    char text[sizeof head + sizeof ls->msg + 32], lines[4][256];
    snprintf(text, sizeof text, "%s%s%s%s", head, said ? ": " : "", said ? ls->msg : "",
             !judged        ? ""
             : ls->goal_sim ? " (model + SimGrid)"
                            : " (model)");
    int n = draw_wrap(text, w, lines, 4);
    n = n < max ? n : max;
    n = n < 4 ? n : 4;
    for (int i = 0; i < n && paint; i++)
        draw_text(s, y + i, 1, w, ls->goal == LESSON_GOAL_ERROR ? COL_ERROR : COL_TEXT, lines[i]);
    if (paint) /* the state in its colour, over the first row's start */
        draw_text(s, y, 1, w, c, head);
    return n > 0 ? n : 1;
}

/* The end of the lesson: how many goals were met, how long it took, and the way back in. */
static void summary_draw(const struct screen *s, const struct app_state *a, int y, int end, int w)
{
    const struct app_lesson *ls = &a->lesson;
    int goals, met = app_lesson_goals_met(a, &goals);
    double t = app_lesson_seconds(a);
    int min = (int)(t / 60), sec = (int)t % 60;
    int n = draw_text(s, y, 1, w, met == goals ? COL_GOOD : COL_WARN,
                      met == goals ? s->g->ok : s->g->dot);
    draw_fmt(s, y, 1 + n, w - n, COL_VALUE,
             " lesson complete: %d of %d goals met, in %d min %02d s", met, goals, min, sec);
    if (++y >= end)
        return;
    /* One mark per step with a goal, so a student sees which one to go back to. */
    int x = 1;
    for (int i = 0; i < lesson_step_count(ls->l) && i < APP_LESSON_STEPS && x < w; i++) {
        if (!lesson_step_has_goal(ls->l, i))
            continue;
        bool ok = (ls->met >> i) & 1;
        x += draw_fmt(s, y, x, w - x, ok ? COL_GOOD : COL_WARN, "step %d %s  ", i + 1,
                      ok ? s->g->ok : s->g->dot);
    }
    if (++y < end)
        draw_text(s, y, 1, w, COL_MUTED, "R restarts the lesson, b goes back to its last step");
}

/* The hint's levels shown so far, wrapped, from the bottom of the block up, drawn if paint;
 * returns the first row they use (end if none). */
static int hints_lines(const struct screen *s, const struct app_state *a, int top, int end, int w,
                       bool paint)
{
    const struct app_lesson *ls = &a->lesson;
    if (ls->hint_level <= 0)
        return end;
    int levels = lesson_step_hint_count(ls->l, ls->step);
    char lines[16][256];
    int n = 0;
    if (levels == 0) {
        n = draw_wrap("hint: this step has no hint", w, lines, 16);
    } else {
        char buf[1024];
        size_t used = 0;
        for (int k = 0; k < ls->hint_level && k < levels && used < sizeof buf; k++) {
            bool last = k == levels - 1 && lesson_step_hint_last_resort(ls->l, ls->step);
            int r = snprintf(buf + used, sizeof buf - used, "%s%s: %s", k ? "\n" : "",
                             last ? "last resort"
                             : k  ? "more"
                                  : "hint",
                             lesson_step_hint_at(ls->l, ls->step, k));
            used += r > 0 ? (size_t)r : 0;
        }
        if (ls->hint_level < levels && used < sizeof buf)
            snprintf(buf + used, sizeof buf - used, " (%c: more)", APP_KEY_LESSON_HINT);
        n = draw_wrap(buf, w, lines, 16);
    }
    n = n > 16 ? 16 : n;
    int row = end - n < top + 1 ? top + 1 : end - n; /* the step's first line stays */
    for (int i = 0; i < n && row + i < end && paint; i++) {
        bool label =
            i == 0 || !strncmp(lines[i], "more:", 5) || !strncmp(lines[i], "last resort:", 12);
        draw_text(s, row + i, 1, w, label ? COL_KNOB : COL_TEXT, lines[i]);
        if (row + i == end - 1 && i < n - 1) /* cut: say so rather than end mid-sentence */
            draw_right(s, row + i, 1, w, COL_MUTED, s->g->ellipsis);
    }
    return row;
}

/* The panel, laid out and, if paint, drawn: the same rows either way, so that PgDn's limit and
 * the frame agree. Returns how many lines the step's text can scroll by (0: it fits). */
static int lesson_panel(const struct screen *s, const struct view_layout *l,
                        const struct app_state *a, bool paint)
{
    const struct app_lesson *ls = &a->lesson;
    int y = l->xo_y, w = l->cols - 2, h = l->xo_h;
    if (!ls->l || h < 2)
        return 0;
    if (paint) {
        int steps = lesson_step_count(ls->l);
        int n = draw_text(s, y, 1, w, COL_HEADING, "LESSON ");
        char where[48];
        snprintf(where, sizeof where, ls->done ? "  done" : "  step %d/%d", ls->step + 1, steps);
        int ww = draw_width(where);
        n += draw_text_cut(s, y, 1 + n, w - n - ww, COL_VALUE, lesson_title(ls->l));
        draw_right(s, y, 1 + n, w - n, COL_HEADING, where);
    }
    if (ls->done) {
        if (paint)
            summary_draw(s, a, y + 1, y + h, w);
        return 0;
    }
    int row = y + 1 + goal_lines(s, a, y + 1, w, h > 6 ? 3 : 1, paint);
    int end = hints_lines(s, a, row, y + h, w, paint);
    /* A quiz: the question, then the answer typed so far (the goal checks it). */
    const char *q = lesson_step_question(ls->l, ls->step);
    if (q[0] && row < end) {
        if (paint) {
            int k = draw_text(s, row, 1, w, COL_KNOB, "question: ");
            draw_text(s, row, 1 + k, w - k, COL_VALUE, q);
        }
        row++;
    }
    if (q[0] && row < end) {
        if (paint && ls->answered) {
            int k = draw_text(s, row, 1, w, COL_MUTED, "your answer: ");
            k += draw_text(s, row, 1 + k, w - k, COL_VALUE, ls->answer);
            draw_text(s, row, 1 + k, w - k, COL_MUTED, "  (A: change it)");
        } else if (paint) {
            draw_text(s, row, 1, w, COL_MUTED, "A: type your answer");
        }
        row++;
    }
    char lines[VIEW_TEXT_LINES][256];
    char text[4096];
    draw_reflow(lesson_step_text(ls->l, ls->step), text, sizeof text);
    int need = draw_wrap(text, w, lines, VIEW_TEXT_LINES);
    need = need > VIEW_TEXT_LINES ? VIEW_TEXT_LINES : need;
    /* [ ] scroll the text. The marks saying there is more above or below take rows of their own,
     * never a line of the text. */
    int room = end - row, most = 0;
    if (need > room && room >= 3) {
        room -= 2; /* a row for each mark */
        most = need - room;
    } else if (need > room) {
        most = need - room;
    }
    int first = a->text_scroll > most ? most : a->text_scroll;
    bool marks = need > end - row && end - row >= 3;
    if (marks && paint)
        draw_right(s, row, 1, w, COL_MUTED, first > 0 ? "[ more above" : "");
    row += marks;
    for (int i = first; i < need && i < first + room && row < end && paint; i++, row++)
        draw_text(s, row, 1, w, COL_TEXT, lines[i]);
    if (marks && paint && first < most)
        draw_right(s, end - 1, 1, w, COL_MUTED, "] more below");
    return most;
}

void view_lesson_draw(const struct screen *s, const struct view_layout *l,
                      const struct app_state *a)
{
    lesson_panel(s, l, a, true);
}

int view_lesson_text_most(const struct screen *s, const struct view_layout *l,
                          const struct app_state *a)
{
    return lesson_panel(s, l, a, false);
}
