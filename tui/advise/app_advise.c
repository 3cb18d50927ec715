/* The advisor view's actions (a opens it; its keys are rows of app_keys.c's table): the arrows
 * move the cursor over the heatmap, which is the configuration, so they step the two sliders of
 * its axes; X and Y change the axes, o the objective, * jumps to the best cell; a or Esc closes
 * it. */
#include <stdio.h>
#include <string.h>

#include "../state/app.h"

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

unsigned app_advise_move(struct app_state *s, int dx, int dy)
{
    return move_to(s, s->adv.cx + dx, s->adv.cy + dy);
}

unsigned app_advise_best(struct app_state *s)
{
    struct advise_map *m = &s->adv;
    if (m->bx < 0)
        return APP_DIRTY;
    char was[2][64], now[2][64];
    int ids[2] = {m->xid, m->yid};
    for (int k = 0; k < 2; k++)
        params_format(&s->p, ids[k], was[k], sizeof was[k]);
    unsigned f = move_to(s, m->bx, m->by);
    if (s->notice_error)
        return f;
    /* Both axes may move (the node count too): say which, never silently. */
    char msg[APP_MSG_MAX] = "best cell:";
    for (int k = 0; k < 2; k++) {
        params_format(&s->p, ids[k], now[k], sizeof now[k]);
        size_t n = strlen(msg);
        snprintf(msg + n, sizeof msg - n, " %s %s%s%s", param_table[ids[k]].key,
                 strcmp(was[k], now[k]) ? was[k] : "", strcmp(was[k], now[k]) ? " -> " : "",
                 now[k]);
    }
    app_notice(s, false, "%s", msg);
    return f;
}

unsigned app_advise_axis(struct app_state *s, int axis)
{
    struct advise_map *m = &s->adv;
    int *id = axis == 'X' ? &m->xid : &m->yid;
    *id = advise_map_next_axis(*id, axis == 'X' ? m->yid : m->xid, 1);
    focus_on(s, *id);
    rebuild(s);
    return APP_DIRTY;
}

unsigned app_advise_objective(struct app_state *s)
{
    struct advise_map *m = &s->adv;
    m->objective = (m->objective + 1) % ADVISE_OBJECTIVES;
    rebuild(s);
    return APP_DIRTY;
}
