/* The files of `situ advise --out DIR`: every candidate as CSV, a heatmap of the objective over
 * two axes and the Pareto front, each figure with the chosen candidate marked. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/base/csv.h"
#include "../engine/base/outfile.h"
#include "../engine/model/report.h"
#include "../plot/chart.h"
#include "advise.h"

struct drawing {
    const struct advise *a;
    const struct advise_check *chk;
    int nchk;
    struct advise_view v;
};

static int rows_of(const struct advise *a, int k)
{
    return k < 0 ? 1 : a->grid.axes[k].n;
}

static int row_at(const struct advise *a, long i, int k)
{
    return k < 0 ? 0 : grid_row(&a->grid, i, k);
}

static void axis_label(const struct advise *a, int k, int r, char *out, size_t len)
{
    if (k < 0)
        snprintf(out, len, "-");
    else
        grid_axis_value(&a->grid.axes[k], r, out, len);
}

/* Each cell holds the best feasible objective over the other axes (NAN: none), the best cell
 * is the chosen candidate's; checked marks cells one of whose candidates SimGrid ran. */
static void heatmap_draw(cairo_t *cr, double w, double h, void *ud)
{
    const struct drawing *d = ud;
    const struct advise *a = d->a;
    enum advise_objective o = a->objective;
    int nx = rows_of(a, d->v.x), ny = rows_of(a, d->v.y);
    double *cell = malloc(sizeof *cell * (size_t)nx * ny);
    bool *checked = calloc((size_t)nx * ny, sizeof *checked);
    char title[640], xn[256] = "-", yn[256] = "-";
    if (d->v.x >= 0)
        grid_axis_name(&a->grid.axes[d->v.x], xn, sizeof xn);
    if (d->v.y >= 0)
        grid_axis_name(&a->grid.axes[d->v.y], yn, sizeof yn);
    snprintf(title, sizeof title, "Best %s (%s is better) over %s and %s",
             advise_objective_names[o], advise_maximise(o) ? "higher" : "lower", xn, yn);
    chart_background(cr, w, h, title);
    if (!cell || !checked)
        goto done;
    for (int c = 0; c < nx * ny; c++)
        cell[c] = NAN;
    double lo = INFINITY, hi = -INFINITY;
    for (long k = 0; k < a->nranked; k++) { /* best first: the first value of a cell is its best */
        long i = a->ranked[k];
        int c = row_at(a, i, d->v.y) * nx + row_at(a, i, d->v.x);
        double v = advise_value(&a->cands[i].model, o);
        if (isnan(cell[c]))
            cell[c] = v;
        lo = fmin(lo, v);
        hi = fmax(hi, v);
    }
    for (int j = 0; j < d->nchk; j++)
        checked[row_at(a, d->chk[j].cand, d->v.y) * nx + row_at(a, d->chk[j].cand, d->v.x)] = true;
    long best = a->ranked[0];
    int bx = row_at(a, best, d->v.x), by = row_at(a, best, d->v.y);
    double left = 150, top = 60, cw = (w - left - 130) / nx, ch = (h - top - 90) / ny;
    for (int y = 0; y < ny; y++)
        for (int x = 0; x < nx; x++) {
            double v = cell[y * nx + x], cx = left + x * cw, cy = top + (ny - 1 - y) * ch;
            char text[64];
            if (isnan(v)) {
                cairo_set_source_rgb(cr, 0.93, 0.93, 0.93);
                snprintf(text, sizeof text, "none");
            } else {
                /* Light is worse, dark is better: it reads in greyscale, and each cell has its
                 * number anyway; the colour scale beside the map gives the values. */
                double t = hi > lo ? (v - lo) / (hi - lo) : 1, r, g, b;
                chart_sequential_colour(advise_maximise(o) ? t : 1 - t, &r, &g, &b);
                cairo_set_source_rgb(cr, r, g, b);
                snprintf(text, sizeof text,
                         o == ADVISE_EFFICIENCY || o == ADVISE_BALANCE ? "%.3f" : "%.4g", v);
            }
            cairo_rectangle(cr, cx, cy, cw, ch);
            cairo_fill(cr);
            double t = isnan(v) || hi <= lo ? 0 : (v - lo) / (hi - lo);
            t = advise_maximise(o) ? t : 1 - t;
            double ink = t > 0.55 ? 1 : 0;
            cairo_set_source_rgb(cr, ink, ink, ink);
            chart_text(cr, cx + cw / 2, cy + ch / 2 + 4, text, 11, 1);
            if (checked[y * nx + x])
                chart_text(cr, cx + cw - 4, cy + 12, "SimGrid", 8, 2);
            if (x == bx && y == by) {
                cairo_set_source_rgb(cr, 0.8, 0.33, 0); /* Okabe-Ito vermillion, and a frame */
                cairo_set_line_width(cr, 4);
                cairo_rectangle(cr, cx + 2, cy + 2, cw - 4, ch - 4);
                cairo_stroke(cr);
                cairo_set_source_rgb(cr, ink, ink, ink);
                chart_text(cr, cx + 8, cy + ch - 6, "chosen", 8, 0);
            }
        }
    cairo_set_source_rgb(cr, 0, 0, 0);
    for (int x = 0; x < nx; x++) {
        char l[256];
        axis_label(a, d->v.x, x, l, sizeof l);
        chart_text(cr, left + (x + 0.5) * cw, top + ny * ch + 18, l, 11, 1);
    }
    for (int y = 0; y < ny; y++) {
        char l[256];
        axis_label(a, d->v.y, y, l, sizeof l);
        chart_text(cr, left - 8, top + (ny - 1 - y + 0.5) * ch + 4, l, 11, 2);
    }
    chart_text(cr, left + nx * cw / 2, top + ny * ch + 42, xn, 13, 1);
    char scale[96];
    snprintf(scale, sizeof scale, "%s", advise_objective_names[o]);
    chart_colour_scale(cr, w - 105, top + 10, 18, ny * ch - 10, isfinite(lo) ? lo : 0,
                       isfinite(hi) ? hi : 1, !advise_maximise(o), scale);
    chart_text(cr, 20, top - 12, yn, 13, 0);
    chart_text(cr, 20, h - 30,
               "Each cell: the best over the other axes among the candidates that meet the "
               "constraints.",
               10, 0);
    chart_text(cr, 20, h - 14, "Framed: the chosen candidate. 'SimGrid': checked by simulation.",
               10, 0);
done:
    free(cell);
    free(checked);
}

/* A front point's label: its axis values ("ratio=15 nodes=8"), less those every point of the
 * front shares, which would only lengthen each label. */
static void front_label(const struct advise *a, long cand, char *out, size_t len)
{
    struct params q;
    char perr[PARAMS_ERR_MAX], mine[256], other[256];
    advise_params(a, cand, &q, perr);
    grid_describe(&a->grid, &q, mine, sizeof mine);
    out[0] = 0;
    char *save = NULL;
    for (char *tok = strtok_r(mine, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        bool shared = a->nfront > 1;
        for (long k = 0; k < a->nfront && shared; k++) {
            advise_params(a, a->front[k], &q, perr);
            grid_describe(&a->grid, &q, other, sizeof other);
            char padded[260], needle[260];
            snprintf(padded, sizeof padded, " %s ", other);
            snprintf(needle, sizeof needle, " %s ", tok);
            shared = strstr(padded, needle) != NULL;
        }
        if (!shared)
            snprintf(out + strlen(out), len - strlen(out), "%s%s", out[0] ? " " : "", tok);
    }
}

static void pareto_draw(cairo_t *cr, double w, double h, void *ud)
{
    const struct drawing *d = ud;
    const struct advise *a = d->a;
    chart_background(cr, w, h, "Pareto front: makespan against core-hours (lower is better)");
    double x0 = INFINITY, x1 = 0, y0 = INFINITY, y1 = 0;
    for (long k = 0; k < a->nranked; k++) {
        const struct advise_metrics *m = &a->cands[a->ranked[k]].model;
        x0 = fmin(x0, m->makespan);
        x1 = fmax(x1, m->makespan);
        y0 = fmin(y0, m->core_hours);
        y1 = fmax(y1, m->core_hours);
    }
    bool xlog = x1 > 20 * x0, ylog = y1 > 20 * y0;
    double px = xlog ? 1.25 : 1, py = ylog ? 1.25 : 1;
    double mx = xlog ? 0 : 0.05 * (x1 - x0 + 1e-9 * x1),
           my = ylog ? 0 : 0.05 * (y1 - y0 + 1e-9 * y1);
    struct panel p;
    chart_panel(&p, cr, 0, 30, w, h - 30, x0 / px - mx, x1 * px + mx, xlog, y0 / py - my,
                y1 * py + my, ylog);
    chart_axes(&p, "makespan (s)", "core-hours", "", NULL, NULL, 0);
    for (long k = 0; k < a->nranked; k++) {
        const struct advise_metrics *m = &a->cands[a->ranked[k]].model;
        double x = m->makespan, y = m->core_hours;
        chart_scatter(&p, &x, &y, 1);
    }
    double *fx = malloc(sizeof *fx * (size_t)(a->nfront + 1));
    double *fy = malloc(sizeof *fy * (size_t)(a->nfront + 1));
    for (long k = 0; fx && fy && k < a->nfront; k++) {
        fx[k] = a->cands[a->front[k]].model.makespan;
        fy[k] = a->cands[a->front[k]].model.core_hours;
    }
    if (fx && fy)
        chart_series(&p, 0, fx, fy, (int)a->nfront);
    free(fx);
    free(fy);
    const struct advise_metrics *c = &a->cands[a->ranked[0]].model;
    double cx = chart_x(&p, c->makespan), cy = chart_y(&p, c->core_hours);
    cairo_set_source_rgb(cr, 0.835, 0.369, 0); /* Okabe-Ito vermillion, and its label */
    cairo_set_line_width(cr, 3);
    cairo_arc(cr, cx, cy, 9, 0, 2 * M_PI);
    cairo_stroke(cr);
    char label[320], what[256];
    front_label(a, a->ranked[0], what, sizeof what);
    snprintf(label, sizeof label, "chosen (best %s)%s%s", advise_objective_names[a->objective],
             what[0] ? ": " : "", what);
    chart_point_label(&p, c->makespan, c->core_hours, label);
    /* Each point of the front says which candidate it is, where a label fits. */
    for (long k = 0; k < a->nfront; k++) {
        if (a->front[k] == a->ranked[0])
            continue;
        const struct advise_metrics *m = &a->cands[a->front[k]].model;
        front_label(a, a->front[k], what, sizeof what);
        chart_point_label(&p, m->makespan, m->core_hours, what);
    }
    const int styles[] = {0};
    const char *const labels[] = {"Pareto front (model)"};
    chart_legend(&p, CHART_LEGEND_AUTO, styles, labels, 1);
}

static void csv_metrics(FILE *f, const struct advise_metrics *m, enum advise_objective o)
{
    fprintf(f, ",%.12g,%.12g,%.12g,%.12g,%.12g", advise_value(m, o), m->makespan, m->efficiency,
            m->core_hours, m->balance);
}

static int write_csv(const struct advise *a, const struct advise_check *chk, int nchk,
                     const char *path, char *err, size_t errlen)
{
    struct outfile out;
    if (outfile_open(&out, path, err, errlen) < 0)
        return -1;
    FILE *f = out.f;
    fputs("rank,pareto,", f);
    for (int id = 0; id < PARAM_COUNT; id++)
        fprintf(f, "%s,", param_table[id].key);
    fputs("objective,makespan,efficiency,core_hours,balance,simgrid_objective,simgrid_makespan,"
          "simgrid_efficiency,simgrid_core_hours,simgrid_balance,simgrid_rank\n",
          f);
    for (long i = 0; i < a->n; i++) {
        const struct advise_cand *c = &a->cands[i];
        if (!c->valid)
            continue;
        struct params p;
        char perr[PARAMS_ERR_MAX];
        advise_params(a, i, &p, perr);
        if (c->rank >= 0)
            fprintf(f, "%ld,", c->rank + 1);
        else
            fputs(",", f); /* no rank: it misses a constraint */
        fprintf(f, "%d", c->pareto);
        for (int id = 0; id < PARAM_COUNT; id++) {
            char v[PARAMS_PATH_MAX];
            params_format(&p, id, v, sizeof v);
            fputc(',', f);
            csv_field(f, v);
        }
        csv_metrics(f, &c->model, a->objective);
        const struct advise_check *s = c->rank >= 0 && c->rank < nchk ? &chk[c->rank] : NULL;
        if (s && s->result) {
            csv_metrics(f, &s->sim, a->objective);
            fprintf(f, ",%d\n", s->sim_rank + 1);
        } else {
            fputs(",,,,,,\n", f);
        }
    }
    return outfile_commit(&out, err, errlen);
}

const char *const advise_out_files[] = {"advise.csv", "heatmap.png", "heatmap.svg",
                                        "pareto.png", "pareto.svg",  NULL};

int advise_write_dir(const struct advise *a, const struct advise_check *chk, int nchk,
                     struct advise_view v, const char *dir, char *err, size_t errlen)
{
    char path[PATH_MAX];
    struct drawing d = {a, chk, nchk, v};
    int nx = rows_of(a, v.x), ny = rows_of(a, v.y);
    int w = 220 + 90 * (nx < 4    ? 4
                        : nx > 24 ? 24
                                  : nx),
        h = 160 + 40 * (ny < 4    ? 4
                        : ny > 30 ? 30
                                  : ny);
    snprintf(path, sizeof path, "%s/advise.csv", dir);
    if (write_csv(a, chk, nchk, path, err, errlen) < 0)
        return -1;
    snprintf(path, sizeof path, "%s/heatmap", dir);
    if (chart_write(path, w, h, heatmap_draw, &d, err, errlen) < 0)
        return -1;
    snprintf(path, sizeof path, "%s/pareto", dir);
    return chart_write(path, 900, 560, pareto_draw, &d, err, errlen);
}
