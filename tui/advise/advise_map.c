#include "advise_map.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

void advise_map_init(struct advise_map *m)
{
    memset(m, 0, sizeof *m);
    m->xid = P_RATIO; /* the paper's question: which ratio, for my node count */
    m->yid = P_NODES;
    m->objective = ADVISE_EFFICIENCY;
    m->bx = m->by = m->cx = m->cy = -1;
}

/* A configuration's identity for the marks: FNV-1a of its canonical text. */
static uint64_t key_of(const struct params *p)
{
    char text[PARAMS_CANONICAL_MAX];
    params_canonical(p, text, sizeof text);
    uint64_t h = 1469598103934665603ULL;
    for (const unsigned char *c = (const unsigned char *)text; *c; c++)
        h = (h ^ *c) * 1099511628211ULL;
    return h;
}

/* The values an axis takes: a choice's every value (the mapping's four: inline beside the others),
 * else the slider's own steps down and up from the current value (ratios
 * through the realisable ones), nodes no further than the platform's hosts; a window of at most
 * ADVISE_MAP_MAX with the current value in it. Returns how many, *at the current one's index. */
static int axis_values(const struct params *p, int id, const struct platform *pf, double *v,
                       int *at)
{
    if (param_table[id].type == PARAM_CHOICE) { /* each choice once (the slider cycles) */
        int n = 0;
        while (param_table[id].choices[n] && n < ADVISE_MAP_MAX)
            v[n] = n, n++;
        *at = (int)params_get_number(p, id);
        return n;
    }
    double down[ADVISE_MAP_MAX], up[ADVISE_MAP_MAX];
    int nd = 0, nu = 0;
    struct params q = *p;
    while (nd < ADVISE_MAP_MAX - 1 && params_step(&q, id, -1, false))
        down[nd++] = params_get_number(&q, id);
    q = *p;
    while (nu < ADVISE_MAP_MAX - 1 && params_step(&q, id, 1, false) &&
           !(id == P_NODES && q.nodes > pf->hosts))
        up[nu++] = params_get_number(&q, id);
    /* Centre the window on the current value when both sides are long. */
    int room = ADVISE_MAP_MAX - 1, keep_d = nd < room / 2 ? nd : room / 2;
    int keep_u = nu < room - keep_d ? nu : room - keep_d;
    keep_d = nd < room - keep_u ? nd : room - keep_u;
    int n = 0;
    for (int i = keep_d - 1; i >= 0; i--)
        v[n++] = down[i];
    *at = n;
    v[n++] = params_get_number(p, id);
    for (int i = 0; i < keep_u; i++)
        v[n++] = up[i];
    return n;
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static bool better(enum advise_objective o, double a, double b)
{
    return advise_maximise(o) ? a > b : a < b;
}

void advise_map_build(struct advise_map *m, const struct params *p, const struct platform *pf)
{
    double t0 = now_ms();
    m->why[0] = 0;
    m->nx = m->ny = 0;
    m->bx = m->by = m->cx = m->cy = -1;
    if (params_user_lua(p)) {
        snprintf(m->why, sizeof m->why,
                 "user Lua runs in its own process: the map models the built-ins only");
        return;
    }
    m->nx = axis_values(p, m->xid, pf, m->xv, &m->cx);
    m->ny = axis_values(p, m->yid, pf, m->yv, &m->cy);
    char err[PARAMS_ERR_MAX + 256];
    for (int y = 0; y < m->ny; y++) {
        m->row_eta[y] = m->row_bal[y] = -1;
        for (int x = 0; x < m->nx; x++) {
            struct advise_cell *c = &m->cell[y][x];
            struct params q = *p;
            struct model_result r;
            memset(c, 0, sizeof *c);
            c->valid = params_set_number(&q, m->xid, m->xv[x], err) == 0 &&
                       params_set_number(&q, m->yid, m->yv[y], err) == 0 &&
                       advise_model_on(pf, profile_source_builtin, &q, &r, err, sizeof err) == 0;
            if (!c->valid)
                continue;
            advise_metrics_from_model(&q, &r, &c->model);
            c->key = key_of(&q);
            for (int i = 0; i < m->nseen; i++)
                if (m->seen_key[i] == c->key) {
                    c->simulated = true;
                    c->sim = m->seen[i];
                    c->sim_fid = m->seen_fid[i];
                    c->engine = m->seen_engine[i];
                }
            double v = advise_value(&c->model, m->objective);
            if (m->bx < 0 ||
                better(m->objective, v, advise_value(&m->cell[m->by][m->bx].model, m->objective)))
                m->bx = x, m->by = y;
            int e = m->row_eta[y], b = m->row_bal[y];
            if (e < 0 || c->model.efficiency > m->cell[y][e].model.efficiency)
                m->row_eta[y] = x;
            if (b < 0 || c->model.balance > m->cell[y][b].model.balance)
                m->row_bal[y] = x;
        }
    }
    m->build_ms = now_ms() - t0;
}

void advise_map_seen(struct advise_map *m, const struct params *p, const struct sim_result *r)
{
    if (!r)
        return;
    struct advise_metrics a;
    advise_metrics_from_model(p, &r->m, &a);
    uint64_t k = key_of(p);
    int i = 0, fid = result_fidelity(r);
    while (i < m->nseen && m->seen_key[i] != k)
        i++;
    if (i < m->nseen && m->seen_fid[i] > fid)
        return;
    if (i == m->nseen) {
        if (m->nseen < ADVISE_MAP_SEEN)
            m->nseen++;
        else
            i = m->seen_next, m->seen_next = (m->seen_next + 1) % ADVISE_MAP_SEEN;
    }
    m->seen_key[i] = k;
    m->seen[i] = a;
    m->seen_fid[i] = fid;
    m->seen_engine[i] = result_engine(r);
    for (int y = 0; y < m->ny; y++)
        for (int x = 0; x < m->nx; x++)
            if (m->cell[y][x].valid && m->cell[y][x].key == k) {
                m->cell[y][x].simulated = true;
                m->cell[y][x].sim = a;
                m->cell[y][x].sim_fid = fid;
                m->cell[y][x].engine = m->seen_engine[i];
            }
}

int advise_map_next_axis(int id, int other, int dir)
{
    for (int k = 1; k <= PARAM_COUNT; k++) {
        int c = ((id + dir * k) % PARAM_COUNT + PARAM_COUNT) % PARAM_COUNT;
        if (param_table[c].slider && c != other && param_table[c].type != PARAM_PATH)
            return c;
    }
    return id;
}
