/* The advisor view's keys (a opens it): the arrows move the cursor over the heatmap, which is
 * the configuration, so they step the two sliders of its axes; X and Y change the axes, o the
 * objective, * jumps to the best cell; a or Esc closes it. */
#include <stdio.h>

#include "app.h"

static void focus_on(struct app_state *s, int id)
{
    for (int i = 0; i < s->nsliders; i++)
        if (s->sliders[i] == id)
            s->focus = i;
}

static void rebuild(struct app_state *s)
{
    advise_map_build(&s->adv, &s->p, &s->pf);
}

unsigned app_advise_open(struct app_state *s)
{
    s->adv.open = !s->adv.open;
    if (s->adv.open)
        rebuild(s);
    return APP_DIRTY;
}

/* The configuration at cell (x, y) of the map, through the sliders' own apply. */
static unsigned move_to(struct app_state *s, int x, int y)
{
    struct advise_map *m = &s->adv;
    if (x < 0 || x >= m->nx || y < 0 || y >= m->ny) {
        snprintf(s->notice, sizeof s->notice, "the edge of the map: %s is at its %s",
                 param_table[x < 0 || x >= m->nx ? m->xid : m->yid].key,
                 x < 0 || y < 0 ? "lowest" : "highest");
        s->notice_error = false;
        return APP_DIRTY;
    }
    struct params cand = s->p;
    char err[PARAMS_ERR_MAX];
    if (params_set_number(&cand, m->xid, m->xv[x], err) < 0 ||
        params_set_number(&cand, m->yid, m->yv[y], err) < 0) {
        snprintf(s->notice, sizeof s->notice, "%s", err);
        s->notice_error = true;
        return APP_DIRTY;
    }
    focus_on(s, x != m->cx ? m->xid : m->yid);
    return app_try_apply(s, &cand);
}

unsigned app_advise_key(struct app_state *s, int key)
{
    struct advise_map *m = &s->adv;
    if (!m->open)
        return 0;
    switch (key) {
    case 'a':
    case APP_KEY_ESC:
        m->open = false;
        return APP_DIRTY;
    case APP_KEY_LEFT:
    case 'h':
        return move_to(s, m->cx - 1, m->cy);
    case APP_KEY_RIGHT:
    case 'l':
        return move_to(s, m->cx + 1, m->cy);
    case APP_KEY_UP:
    case 'k':
        return move_to(s, m->cx, m->cy + 1);
    case APP_KEY_DOWN:
    case 'j':
        return move_to(s, m->cx, m->cy - 1);
    case '*':
        return m->bx >= 0 ? move_to(s, m->bx, m->by) : APP_DIRTY;
    case 'X':
    case 'Y': {
        int *axis = key == 'X' ? &m->xid : &m->yid;
        *axis = advise_map_next_axis(*axis, key == 'X' ? m->yid : m->xid, 1);
        focus_on(s, *axis);
        rebuild(s);
        return APP_DIRTY;
    }
    case 'o':
        m->objective = (m->objective + 1) % ADVISE_OBJECTIVES;
        rebuild(s);
        return APP_DIRTY;
    default:
        return 0;
    }
}
