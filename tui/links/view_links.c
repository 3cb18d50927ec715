/* The link utilisation view (after INAM's cross-layer view): each link of the latest simulated
 * result, busiest first, its mean utilisation as a bar coloured on a scale where about half is
 * best (green), near full is a bottleneck (red) and little use is wasted (blue), and a flag on
 * links above the alert threshold. Every class also has a word, so it reads without colour. */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "../view/draw.h"
#include "links.h"
#include "../view/view.h"
#include "../../engine/base/units.h"

#define NAME_W    20
#define PLACE_W   8
#define LINKS_MAX 256

static const enum colour class_colour[] = {COL_UTIL_LOW, COL_UTIL_GOOD, COL_UTIL_HIGH,
                                           COL_UTIL_HOT};

void view_links_draw(const struct screen *s, const struct view_layout *l, const struct app_state *a)
{
    const struct glyphs *g = s->g;
    int y = l->xo_y, w = l->cols - 2, h = l->xo_h;
    int n = draw_text(s, y, 1, w, COL_HEADING, "LINK UTILISATION");
    if (!a->has_sim) {
        draw_fmt(s, y, 1 + n, w - n, COL_MUTED, "  of the latest simulation");
        draw_text(s, y + 1, 1, w, COL_MUTED,
                  a->sim_phase == SIM_FAILED ? "the simulation failed: no links to show"
                                             : "waiting for the simulation of this configuration");
        return;
    }
    const struct sim_result *r = &a->sim;
    int over = links_over(r, a->alert);
    n += draw_fmt(s, y, 1 + n, w - n, COL_MUTED, "  mean over the run, busiest first, %d link%s, ",
                  r->nlinks, r->nlinks == 1 ? "" : "s");
    n += draw_fmt(s, y, 1 + n, w - n, over ? COL_UTIL_HOT : COL_MUTED, "%d above %.0f%%", over,
                  a->alert * 100);
    const struct result_link *top = links_first_saturated(r, a->alert);
    if (top) /* which level of the topology gives out first */
        draw_fmt(s, y, 1 + n, w - n, COL_UTIL_HOT, ", first: %s",
                 top->place[0] ? top->place : top->name);
    if (r->nlinks == 0) {
        draw_text(s, y + 1, 1, w, COL_MUTED, "no link carried data (one node: everything local)");
        return;
    }
    int order[LINKS_MAX];
    int k = links_sorted(r, order, LINKS_MAX);
    int rows = h - 2; /* title and the scale's legend */
    int bar_x = 1 + NAME_W + 1 + PLACE_W, tail = 6 + 1 + 4 + 1 + 7 + 10;
    int bar_w = w - NAME_W - 1 - PLACE_W - tail;
    if (bar_w < 10)
        bar_w = 10;
    /* [ ] scroll; the first row shown stops where the last link is on screen. */
    int first = a->links_scroll, most = k > rows ? k - rows + 1 : 0;
    first = first < 0 ? 0 : first > most ? most : first;
    for (int i = 0; first + i < k && i < rows; i++) {
        const struct result_link *lk = &r->links[order[first + i]];
        int row = y + 1 + i;
        if (i == rows - 1 && k - first > rows) {
            int more = k - first - rows + 1;
            draw_fmt(s, row, 1, w, COL_MUTED, "%s and %d more link%s, less used (] scrolls)",
                     g->ellipsis, more, more == 1 ? "" : "s");
            break;
        }
        enum links_class cl = links_classify(lk->utilisation);
        bool alert = lk->utilisation > a->alert;
        draw_text(s, row, 1, NAME_W, alert ? COL_UTIL_HOT : COL_TEXT, lk->name);
        draw_text(s, row, 1 + NAME_W + 1, PLACE_W - 1, COL_MUTED, lk->place);
        struct bar_seg seg = {lk->utilisation, class_colour[cl], g->block};
        draw_bar(s, row, bar_x, bar_w, &seg, 1, g->idle);
        int x = bar_x + bar_w + 1;
        x += draw_fmt(s, row, x, 6, COL_VALUE, "%5.1f%%", lk->utilisation * 100) + 1;
        x += draw_fmt(s, row, x, 5, class_colour[cl], "%-4s", links_class_name(cl)) + 1;
        char b[32];
        units_bytes(lk->bytes, b, sizeof b);
        x += draw_fmt(s, row, x, 9, COL_MUTED, "%8s", b) + 1;
        if (alert)
            draw_fmt(s, row, x, l->cols - 1 - x, COL_UTIL_HOT, "%s ALERT", s->unicode ? "!" : "!");
    }
    /* The scale, in the order a reader scans it. */
    int ly = y + h - 1, lx = 1;
    lx += draw_text(s, ly, lx, w, COL_MUTED, "scale: ");
    const char *range[] = {"<25%", "25-65%", "65-85%", ">=85%"};
    for (int c = LINKS_LOW; c <= LINKS_HOT; c++) {
        lx += draw_text(s, ly, lx, 1, class_colour[c], g->block) + 1;
        lx += draw_fmt(s, ly, lx, w - lx, COL_MUTED, "%s %s  ", links_class_name(c), range[c]);
    }
    draw_fmt(s, ly, lx, w - lx, COL_MUTED, "alert > %.0f%% (--alert)", a->alert * 100);
}
