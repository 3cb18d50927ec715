/* The per-stage table (t), in the block under the sliders: each stage of one step (S, Ing, R, A,
 * W, C), the period and the makespan, the model's value beside SimGrid's, and the Δ. A Δ beyond
 * 2% is drawn to stand out and marked '!' (not by colour alone); under the table, why they differ
 * when Situ knows (stages.c reads the simulation's per-step record). */
#include <curses.h>
#include <math.h>
#include <stdio.h>

#include "../view/draw.h"
#include "stages.h"
#include "../view/view.h"
#include "../../engine/base/units.h"

void view_stages_draw(const struct screen *s, const struct view_layout *l,
                      const struct app_state *a)
{
    int y = l->xo_y, w = l->cols - 2, end = l->xo_y + l->xo_h;
    int n = draw_text(s, y, 1, w, COL_HEADING, "PER STAGE");
    draw_fmt(s, y, 1 + n, w - n, COL_MUTED,
             "  one step, model against SimGrid; %s beyond %.0f%% marked !", s->g->delta,
             STAGES_FAR * 100);
    if (!a->model_valid) {
        draw_text(s, y + 1, 1, w, COL_MUTED, "no model numbers yet");
        return;
    }
    struct stage_cmp c;
    stages_compare(&a->p, &a->model, a->has_sim ? &a->sim : NULL, &c);
    /* Columns: the stage, what it is (when there is room), model, SimGrid, Δ. */
    bool what = w >= 70;
    int nx = 1, wx = 11, mx = what ? 34 : 11, sx = mx + 11, dx = sx + 11;
    int row = y + 1;
    draw_text(s, row, nx, 10, COL_MUTED, "stage");
    if (what)
        draw_text(s, row, wx, 22, COL_MUTED, "what");
    draw_right(s, row, mx, 9, COL_MUTED, "model");
    draw_right(s, row, sx, 9, COL_MUTED, "SimGrid");
    draw_fmt(s, row, dx + 1, w - dx, COL_MUTED, "%s", s->g->delta);
    row++;
    for (int i = 0; i < ST_ROWS && row < end - 1; i++, row++) {
        const struct stage_row *r = &c.row[i];
        char t[32];
        bool total = i >= ST_PERIOD;
        draw_text(s, row, nx, 10, total ? COL_HEADING : COL_TEXT, r->name);
        if (what)
            draw_text(s, row, wx, 22, COL_MUTED, r->what);
        units_time_short(r->model, t, sizeof t);
        draw_right(s, row, mx, 9, COL_VALUE, t);
        if (!r->has_sim) {
            draw_right(s, row, sx, 9, COL_MUTED, a->sim_phase == SIM_FAILED ? "failed" : "...");
            continue;
        }
        units_time_short(r->sim, t, sizeof t);
        draw_right(s, row, sx, 9, COL_VALUE, t);
        if (r->model > 0)
            draw_fmt(s, row, dx + 1, w - dx, r->far ? COL_WARN : COL_MUTED, "%+.1f%%%s",
                     r->delta * 100,
                     r->far                                   ? " !"
                     : r->tiny && fabs(r->delta) > STAGES_FAR ? " (negligible)"
                                                              : "");
    }
    if (!a->has_sim || row >= end)
        return;
    if (c.reason[0])
        draw_fmt(s, row, 1, w, COL_TEXT, "why: %s", c.reason);
    else if (c.nfar)
        draw_text(s, row, 1, w, COL_MUTED, "why: not known to Situ (the per-step record is even)");
    else
        draw_fmt(s, row, 1, w, COL_GOOD, "%s every stage that weighs is within %.0f%%", s->g->ok,
                 STAGES_FAR * 100);
}
