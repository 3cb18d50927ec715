/* The main screen: header, parameter sliders, model-vs-SimGrid results and bars, the info line,
 * the status line and the key bar. The crossover block and overlays live in their own files. */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "draw.h"
#include "view.h"
#include "../../engine/base/units.h"

#define NAME_W  15
#define VALUE_W 9
#define UNIT_W  9

/* A slider's value in VALUE_W cells. A number too long for them (iterations 1000000000) goes to
 * %g with fewer digits, its exponent kept: cut at the column it read 100000000, ten times less. */
static void slider_value(const struct params *p, int id, char *buf, size_t len)
{
    params_format(p, id, buf, len);
    enum param_type t = param_table[id].type;
    if (strlen(buf) <= VALUE_W || (t != PARAM_INT && t != PARAM_REAL))
        return;
    double v = params_get_number(p, id);
    for (int digits = VALUE_W; digits >= 1; digits--)
        if (snprintf(buf, len, "%.*g", digits, v) <= VALUE_W)
            return;
}

void view_layout(int rows, int cols, const struct app_state *a, struct view_layout *l)
{
    bool present = a && a->present;
    memset(l, 0, sizeof *l);
    l->rows = rows;
    l->cols = cols;
    l->too_small = rows < VIEW_MIN_ROWS || cols < VIEW_MIN_COLS;
    l->top_y = 1;
    /* The results' rows (offsets from the panel's top; -1: not shown). A tall terminal shows all
     * of them; below VIEW_FULL_ROWS the essentials (η, makespan and eq. 5, scenario, one step's
     * bars with their legend) leave the plot 8 rows or more; presentation keeps the numbers. */
    l->present = present;
    /* The advisor's heatmap takes the whole top panel: the full one, whatever the height. */
    l->compact = !present && rows < VIEW_FULL_ROWS && !(a && a->adv.open);
    if (present) {
        l->top_h = 5;
        l->r_scen_text = l->r_cores = l->r_run = l->r_step = -1;
    } else if (l->compact) {
        l->top_h = 9;
        l->r_scen_text = l->r_cores = l->r_run = -1;
        l->r_step = 5;
    } else {
        l->top_h = 15;
        l->r_scen_text = 5;
        l->r_cores = 6;
        l->r_run = 7;
        l->r_step = 11;
    }
    l->left_x = 0;
    l->left_w = cols >= 100 ? (cols * 42 / 100 > 46 ? cols * 42 / 100 : 46) : 42;
    l->right_x = l->left_w + 2;
    l->right_w = cols - l->right_x - 1;
    l->slider_y = l->top_y + 1;
    l->track_x = 2 + NAME_W + 1 + VALUE_W + 1 + UNIT_W + 1;
    l->track_w = l->left_w - l->track_x;
    l->info_y = l->top_y + l->top_h;
    l->xo_y = l->info_y + 1;
    l->status_y = rows - 2;
    l->keys_y = rows - 1;
    l->xo_h = l->status_y - l->xo_y;
}

bool view_hit(const struct view_layout *l, const struct app_state *a, int y, int x, int *index,
              double *frac)
{
    if (l->too_small || a->mode != APP_MAIN || x < 0 || x >= l->left_w)
        return false;
    int first = view_slider_first(l, a), i = y - l->slider_y + first;
    if (y < l->slider_y || i >= a->nsliders || y >= l->top_y + l->top_h)
        return false;
    *index = i;
    *frac = -1;
    if (l->track_w > 1 && x >= l->track_x)
        *frac = (double)(x - l->track_x) / (l->track_w - 1);
    return true;
}

int view_slider_first(const struct view_layout *l, const struct app_state *a)
{
    int room = l->top_y + l->top_h - l->slider_y; /* rows for sliders */
    if (l->present)
        return a->focus; /* the focused one alone */
    if (a->nsliders <= room)
        return 0;
    int first = a->focus - room / 2;
    return first < 0 ? 0 : first > a->nsliders - room ? a->nsliders - room : first;
}

/* ---- header --------------------------------------------------------------------------------- */

/* What the numbers on screen are of, whatever the sliders scrolled away: the mapping, the DTL,
 * the analytics and, once the parameter table has one (--simulation), the simulation's profile:
 * "intransit · mailbox DTL · scatter". */
static void config_summary(const struct screen *s, const struct app_state *a, char *out, size_t len)
{
    char map[64], dtl[64], ana[PARAMS_PATH_MAX], prof[PARAMS_PATH_MAX] = "";
    params_format(&a->p, P_MAPPING, map, sizeof map);
    params_format(&a->p, P_DTL, dtl, sizeof dtl);
    params_format(&a->p, P_ANALYTICS, ana, sizeof ana);
    const char *slash = strrchr(ana, '/');
    char *b = slash ? (char *)slash + 1 : ana, *dot = strrchr(b, '.');
    if (dot && !strcmp(dot, ".lua"))
        *dot = 0; /* a student's my.lua shows as "my" */
    if (!b[0])
        b = "thermo";                    /* the built-in analytics */
    int sim = params_find("simulation"); /* the profile's slot: shown when the table has one */
    if (sim >= 0)
        params_format(&a->p, sim, prof, sizeof prof);
    snprintf(out, len, "%s %s %s DTL %s %s%s%s%s%s", map, s->g->dot, dtl, s->g->dot, b,
             prof[0] ? " " : "", prof[0] ? s->g->dot : "", prof[0] ? " sim " : "", prof);
}

static void draw_header(const struct screen *s, const struct view_layout *l,
                        const struct app_state *a)
{
    const struct glyphs *g = s->g;
    draw_fill(s, 0, 0, l->cols, COL_TITLE, " ");
    const char *slash = strrchr(a->pf_path, '/');
    const char *pf_name = slash ? slash + 1 : a->pf_path;
    char text[1024], summary[160], config[2 * PARAMS_PATH_MAX + 160];
    platform_summary(&a->pf, summary, sizeof summary);
    config_summary(s, a, config, sizeof config);
    for (;;) { /* the summary's last fields go first when the header is too narrow for it */
        snprintf(text, sizeof text, " Situ %s %s%s %s %.300s %s %.60s%s%s", g->vline,
                 a->preset[0] ? a->preset : "defaults", a->modified ? " (modified)" : "", g->vline,
                 config, g->vline, pf_name, summary[0] ? ": " : "", summary);
        char *comma = strrchr(summary, ',');
        if (draw_width(text) <= l->cols - 9 || !summary[0])
            break;
        if (comma)
            *comma = 0;
        else
            summary[0] = 0; /* the platform's name alone, rather than the state cut */
    }
    draw_text_cut(s, 0, 0, l->cols - 9, COL_TITLE, text);
    draw_right(s, 0, l->cols - 9, 8, COL_TITLE, "? help");
}

/* ---- sliders -------------------------------------------------------------------------------- */

static void draw_sliders(const struct screen *s, const struct view_layout *l,
                         const struct app_state *a)
{
    int vx = 2 + NAME_W + 1, ux = vx + VALUE_W + 1;
    draw_text(s, l->top_y, 2, NAME_W, COL_HEADING, "PARAMETERS");
    draw_right(s, l->top_y, vx, VALUE_W, COL_MUTED, "value");
    draw_text(s, l->top_y, ux, UNIT_W, COL_MUTED, "unit");
    if (l->track_w > 4)
        draw_text(s, l->top_y, l->track_x, l->track_w, COL_MUTED, "range");
    int first = view_slider_first(l, a), room = l->top_y + l->top_h - l->slider_y;
    if (l->present)
        room = 1;
    for (int i = first; i < a->nsliders && i - first < room; i++) {
        int id = a->sliders[i], y = l->slider_y + i - first;
        bool focused = i == a->focus;
        const struct param_desc *d = &param_table[id];
        char value[64];
        slider_value(&a->p, id, value, sizeof value);
        enum colour name_c = focused ? COL_FOCUS : COL_TEXT;
        if (focused)
            draw_fill(s, y, 0, l->track_x - 1, COL_FOCUS, " ");
        draw_text(s, y, 0, 1, name_c, focused ? s->g->focus : " ");
        draw_text(s, y, 2, NAME_W, name_c, d->key);
        draw_right(s, y, 2 + NAME_W + 1, VALUE_W, focused ? COL_FOCUS : COL_VALUE, value);
        draw_text(s, y, 2 + NAME_W + 1 + VALUE_W + 1, UNIT_W, focused ? COL_FOCUS : COL_MUTED,
                  d->unit);
        if (id == P_RATIO && a->p.mapping == MAPPING_INLINE) /* every core is a rank */
            draw_text(s, y, l->track_x, l->track_w, COL_MUTED, l->track_w >= 7 ? "ignored" : "n/a");
        else if (l->track_w > 1)
            draw_track(s, y, l->track_x, l->track_w, app_position(a, id));
    }
    /* What the sliders do not move, so the configuration on screen is complete: the files
     * first (they change the numbers most), wrapped over the rows left. */
    int fy = l->slider_y + a->nsliders - first, bottom = l->top_y + l->top_h, w = l->left_w - 2;
    if (l->present) { /* the others are a key away */
        draw_fmt(s, l->slider_y + 1, 2, w, COL_MUTED, "%s for the other %d; P: all of them",
                 s->g->arrows_ud, a->nsliders - 1);
        fy = bottom;
    } else if (first > 0 || first + room < a->nsliders) {
        /* Scrolled: say how many are hidden above and below, on the header's row. */
        draw_fmt(s, l->top_y, l->track_x, l->track_w, COL_MUTED, "%d%s %d%s", first,
                 s->unicode ? "↑" : "^", a->nsliders - first - room, s->unicode ? "↓" : "v");
    }
    char line[256];
    size_t used = (size_t)snprintf(line, sizeof line, "fixed:");
    for (int k = -2; k < PARAM_COUNT && fy < bottom && w > 8; k++) {
        int id = k == -2 ? P_ANALYTICS : k == -1 ? P_HOSTFILE : k;
        char v[PARAMS_PATH_MAX], item[96];
        /* The platform is in the header already. */
        if (param_table[id].slider || id == P_PLATFORM ||
            (k >= 0 && (id == P_ANALYTICS || id == P_HOSTFILE)))
            continue;
        params_format(&a->p, id, v, sizeof v);
        if (!v[0]) /* an unset path (hostfile, analytics) says nothing */
            continue;
        const char *base = strrchr(v, '/');
        int n = snprintf(item, sizeof item, " %s=%.40s", param_table[id].key, base ? base + 1 : v);
        if (used + (size_t)n > (size_t)w && used > 6) {
            draw_text(s, fy++, 2, w, COL_MUTED, line);
            used = (size_t)snprintf(line, sizeof line, "      ");
        }
        used += (size_t)snprintf(line + used, sizeof line - used, "%s", item);
    }
    if (fy < bottom)
        draw_text(s, fy, 2, w, COL_MUTED, line);
    for (int y = l->top_y; y < l->top_y + l->top_h; y++)
        draw_text(s, y, l->left_w + 1, 1, COL_BORDER, s->g->vline);
}

/* ---- info, status, keys --------------------------------------------------------------------- */

static void edit_hint(const struct app_state *a, char *buf, size_t len)
{
    int id = app_focused(a);
    const struct param_desc *d = &param_table[id];
    char now[64];
    params_format(&a->p, id, now, sizeof now);
    size_t used = (size_t)snprintf(buf, len, "now %s; ", now);
    if (id == P_RATIO) {
        long valid[PARAMS_RATIOS_MAX];
        int n = params_valid_ratios(a->p.cores_per_node, valid, PARAMS_RATIOS_MAX);
        used += (size_t)snprintf(buf + used, len - used, "realisable:");
        for (int i = 0; i < n && i < PARAMS_RATIOS_MAX && used < len; i++)
            used += (size_t)snprintf(buf + used, len - used, " %ld", valid[i]);
    } else if (d->type == PARAM_CHOICE) {
        used += (size_t)snprintf(buf + used, len - used, "one of");
        for (int c = 0; d->choices[c] && used < len; c++)
            used += (size_t)snprintf(buf + used, len - used, " %s", d->choices[c]);
    } else if (d->type == PARAM_INT) {
        snprintf(buf + used, len - used, "an integer in [%.0f, %.0f]", d->min, d->max);
    } else {
        snprintf(buf + used, len - used, "a number in [%g, %g]", d->min, d->max);
    }
}

static void draw_info(const struct screen *s, const struct view_layout *l,
                      const struct app_state *a)
{
    const struct glyphs *g = s->g;
    int y = l->info_y, id = app_focused(a);
    if (a->mode == APP_EDIT) {
        int n = draw_fmt(s, y, 1, l->cols - 2, COL_HEADING, "%s = ", param_table[id].key);
        n += draw_text(s, y, 1 + n, l->cols - 2 - n, COL_VALUE, a->edit);
        draw_text(s, y, 1 + n, 1, COL_FOCUS, " ");
        n += 3;
        char hint[256];
        if (a->edit_err[0]) {
            n += 1 + draw_text(s, y, 1 + n, l->cols - 2 - n, COL_ERROR, g->fail);
            draw_text(s, y, 1 + n, l->cols - 2 - n, COL_ERROR, a->edit_err);
        } else {
            edit_hint(a, hint, sizeof hint);
            draw_text(s, y, 1 + n, l->cols - 2 - n, COL_MUTED, hint);
        }
        return;
    }
    if (a->mode == APP_PRESET_SAVE || a->mode == APP_ANSWER) {
        bool save = a->mode == APP_PRESET_SAVE;
        int n =
            draw_text(s, y, 1, l->cols - 2, COL_HEADING, save ? "save as preset: " : "answer: ");
        n += draw_text(s, y, 1 + n, l->cols - 2 - n, COL_VALUE, a->edit);
        draw_text(s, y, 1 + n, 1, COL_FOCUS, " ");
        n += 2;
        if (a->edit_err[0])
            draw_text(s, y, 1 + n, l->cols - 2 - n, COL_ERROR, a->edit_err);
        else
            draw_text(s, y, 1 + n, l->cols - 2 - n, COL_MUTED,
                      save ? "NAME [description]" : "Enter checks it, Esc cancels");
        return;
    }
    if (a->notice[0]) {
        enum colour c = a->notice_error ? COL_ERROR : COL_TEXT;
        int n = 1 + draw_text(s, y, 1, l->cols - 2, c, a->notice_error ? g->fail : g->dot);
        draw_text(s, y, 1 + n, l->cols - 2 - n, c, a->notice);
        return;
    }
    int n = draw_fmt(s, y, 1, l->cols - 2, COL_HEADING, "%s: ", param_table[id].key);
    /* The core split these sliders make, where the student moves them (the results' cores row
     * does not fit 80x24). */
    if (a->model_valid && (id == P_RATIO || id == P_NODES || id == P_MAPPING))
        n += draw_fmt(s, y, 1 + n, l->cols - 2 - n, COL_VALUE, "%ld sim + %ld ana cores %s ",
                      a->model.sim_cores, a->model.ana_cores, g->vline);
    draw_text_cut(s, y, 1 + n, l->cols - 2 - n, COL_MUTED, param_table[id].help);
}

/* The status bar's message from column n on; cut, it points at the key that shows it whole. */
static void status_message(const struct screen *s, int y, int n, int cols, enum colour c,
                           const char *text)
{
    int room = cols - n - 1;
    if (room > 0 && screen_cells(text) > room) {
        draw_text(s, y, n, room - 9, c, text);
        draw_text(s, y, n + room - 9, 9, COL_MUTED, " (! full)");
    } else {
        draw_text(s, y, n, cols - n, c, text);
    }
}

static void draw_status(const struct screen *s, const struct view_layout *l,
                        const struct app_state *a, int max_jobs)
{
    const struct glyphs *g = s->g;
    int y = l->status_y;
    enum colour c = a->running ? COL_WARN : COL_GOOD;
    draw_text(s, y, 1, 1, c, g->point);
    int n = 3;
    n += draw_fmt(s, y, n, l->cols - n, COL_TEXT, "SimGrid %d running, %d queued (max %d)",
                  a->running, a->queued, max_jobs);
    /* What each level costs: the last run's wall time, with its level; C while one runs. */
    if (a->sim_phase == SIM_RUNNING && a->sim_running_for >= 1) {
        int f = a->sim_next >= 0 ? a->sim_next : a->p.fidelity;
        n += draw_fmt(s, y, n, l->cols - n, COL_MUTED, ", %s: C cancels",
                      param_table[P_FIDELITY].choices[f]);
    } else if (a->has_sim && a->sim_phase != SIM_FAILED && !a->sim_cached && l->cols >= 90) {
        char t[32]; /* the run whose numbers show, labelled with its engine */
        units_time_short(a->sim_seconds, t, sizeof t);
        n += draw_fmt(s, y, n, l->cols - n, COL_MUTED, ", last run took %s (%s)", t,
                      result_engine(&a->sim));
    } else if (a->has_sim && a->sim_phase != SIM_FAILED && l->cols >= 90) {
        n += draw_fmt(s, y, n, l->cols - n, COL_MUTED, ", cached (%s)", result_engine(&a->sim));
    }
    n += draw_text(s, y, n, l->cols - n, COL_TEXT, " ");
    draw_text(s, y, n, 1, COL_BORDER, g->vline);
    n += 2;
    char caution[APP_ERR_LONG];
    const char *what, *error = app_error(a, &what); /* the same one ! shows in full */
    if (error[0]) {
        n += 1 + draw_text(s, y, n, l->cols - n, COL_ERROR, g->fail);
        n += draw_text(s, y, n, l->cols - n, COL_ERROR, what);
        status_message(s, y, n, l->cols, COL_ERROR, error);
    } else if (app_caution(a, caution, sizeof caution)[0]) { /* worded: not by colour alone */
        n += draw_text(s, y, n, l->cols - n, COL_WARN, "caution: ");
        status_message(s, y, n, l->cols, COL_WARN, caution);
    } else {
        draw_text(s, y, n, l->cols - n, COL_MUTED, "no errors");
    }
}

/* The footer: the key table's rows for the footer that apply now (and whose key no earlier row
 * takes), in the table's order; rows of priority 2 only when the others leave room; the last two
 * (help, quit) at the right end. */
static void draw_keys(const struct screen *s, const struct view_layout *l,
                      const struct app_state *a)
{
    const struct app_keymap *map = app_keymap(a->mode);
    const struct app_keydef *row[32];
    int n = 0, width[32];
    for (int i = 0; i < map->n && n < 32; i++) {
        const struct app_keydef *d = &map->defs[i];
        if (!d->foot_key || !app_keydef_active(a, d) || app_keydef_shadowed(a, map, i))
            continue;
        row[n] = d;
        width[n] = screen_cells(view_key_name(s, d->foot_key)) + 1 + screen_cells(d->foot) + 1;
        n++;
    }
    /* Priority 1 in order while they fit (the last two always), then priority 2 in the room
     * left: never a key cut in half. */
    int tail = n >= 2 ? width[n - 2] + width[n - 1] : 0, room = l->cols - 2 - tail;
    bool show[32];
    for (int i = 0; i < n; i++) {
        show[i] = i >= n - 2 || (row[i]->foot_prio == 1 && width[i] <= room);
        if (show[i] && i < n - 2)
            room -= width[i];
    }
    for (int i = 0; i < n - 2; i++) {
        if (row[i]->foot_prio != 1 && width[i] <= room) {
            show[i] = true;
            room -= width[i];
        }
    }
    for (int i = 0, x = 1; i < n; i++) {
        if (!show[i])
            continue;
        if (i == n - 2)
            x = l->cols - 1 - tail > x ? l->cols - 1 - tail : x;
        x += draw_text(s, l->keys_y, x, l->cols - x, COL_KEY, view_key_name(s, row[i]->foot_key));
        x += draw_fmt(s, l->keys_y, x, l->cols - x, COL_TEXT, " %s ", row[i]->foot);
    }
}

void view_draw(const struct screen *s, const struct view_layout *l, const struct app_state *a,
               int max_jobs)
{
    erase();
    if (l->too_small) {
        view_small_draw(s, l);
        return;
    }
    draw_header(s, l, a);
    draw_sliders(s, l, a);
    if (a->adv.open) /* the advisor's heatmap in place of the results (a) */
        view_advise_draw(s, l, a);
    else
        view_results_draw(s, l, a);
    draw_info(s, l, a);
    switch (a->pane) {
    case APP_PANE_LESSON:
        view_lesson_draw(s, l, a);
        break;
    case APP_PANE_LINKS:
        view_links_draw(s, l, a);
        break;
    case APP_PANE_SCALING:
        view_scaling_draw(s, l, a);
        break;
    case APP_PANE_STAGES:
        view_stages_draw(s, l, a);
        break;
    default:
        view_xover_draw(s, l, a);
    }
    draw_status(s, l, a, max_jobs);
    draw_keys(s, l, a);
    if (a->mode == APP_HELP)
        view_help_draw(s, l, a, max_jobs);
    else if (a->mode == APP_PRESETS)
        view_presets_draw(s, l, a);
    /* APP_ERROR's box is drawn by the caller, after the scenario panel it may be about. */
}
