/* E: what is on screen, to files a report can use. The results (configuration, model, SimGrid,
 * the per-stage comparison and the crossover's points) as JSON and as CSV; the plot in view as
 * SVG and PNG through plot/ (the crossover, or the step's bars). Every file goes through outfile,
 * and the four are one set (outset): all four are written, or none is; the names are the first free
 * "situ-NAME-K" in the working directory, NAME the preset (or "defaults"). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../../engine/model/crossover.h"
#include "../../engine/base/outfile.h"
#include "../../engine/model/report.h"
#include "../../plot/chart.h"
#include "../state/app.h"
#include "../stages/stages.h"

static json_t *stages_json(const struct stage_cmp *c)
{
    json_t *rows = json_array();
    for (int i = 0; i < ST_ROWS; i++) {
        const struct stage_row *r = &c->row[i];
        json_t *o = json_pack("{s:s, s:f}", "stage", r->name, "model", r->model);
        if (r->has_sim) {
            json_object_set_new(o, "simgrid", json_real(r->sim));
            json_object_set_new(o, "delta", json_real(r->delta));
            json_object_set_new(o, "far", json_boolean(r->far));
        }
        json_array_append_new(rows, o);
    }
    return rows;
}

static json_t *xover_json(const struct xover *xo)
{
    json_t *o = json_object();
    for (int m = 0; m < xo->n && m < xo->c.n; m++) {
        json_t *pts = json_array();
        for (int i = 0; i < XO_POINTS; i++) {
            json_t *pt = json_pack("{s:f}", "data_scaling", xo->px[i]);
            double model = xover_model_at(&xo->c, m, xo->px[i]);
            if (model > 0)
                json_object_set_new(pt, "model", json_real(model));
            if (xo->pstate[m][i] == XO_PT_DONE)
                json_object_set_new(pt, "simgrid", json_real(xo->sim[m][i]));
            json_array_append_new(pts, pt);
        }
        json_object_set_new(o, xo->c.name[m], pts);
    }
    if (xo->c.ncross)
        json_object_set_new(o, "crossover", json_real(xo->c.cross_x));
    /* Who is fastest where (the model's), each range ending where the next strategy takes over. */
    json_t *f = json_array();
    for (int j = 0; j < xo->c.fastest.n; j++)
        json_array_append_new(f, json_pack("{s:s, s:f, s:f}", "strategy",
                                           xo->c.name[xo->c.fastest.who[j]], "from",
                                           xo->c.fastest.from[j], "to", xo->c.fastest.to[j]));
    json_object_set_new(o, "fastest", f);
    return o;
}

static int write_json(const struct app_state *s, const struct stage_cmp *c, const char *path,
                      char *err, size_t errlen)
{
    json_t *root = json_object();
    char cmd[4096];
    if (app_command_line(s, cmd, sizeof cmd) == 0)
        json_object_set_new(root, "command", json_string(cmd));
    json_object_set_new(root, "config", report_params_json(&s->p));
    json_object_set_new(root, "model", report_result_json(&s->p, &s->model));
    /* eq. 5 beside the best prediction, as the screen shows it */
    json_object_set_new(json_object_get(root, "model"), "makespan_eq5",
                        json_real(s->model.makespan_eq5));
    json_object_set_new(root, "simgrid",
                        s->has_sim ? report_result_json(&s->p, &s->sim.m) : json_null());
    json_object_set_new(root, "stages", stages_json(c));
    if (c->reason[0])
        json_object_set_new(root, "reason", json_string(c->reason));
    json_object_set_new(root, "crossover", xover_json(&s->xo));
    struct outfile o;
    int rc = outfile_open(&o, path, err, errlen);
    if (rc == 0 && report_print_json(o.f, root) < 0) {
        outfile_abort(&o);
        snprintf(err, errlen, "%s: cannot write: a value is not finite", path);
        rc = -1;
    } else if (rc == 0) {
        rc = outfile_commit(&o, err, errlen);
    }
    json_decref(root);
    return rc;
}

static int write_csv(const struct app_state *s, const struct stage_cmp *c, const char *path,
                     char *err, size_t errlen)
{
    struct outfile o;
    if (outfile_open(&o, path, err, errlen) < 0)
        return -1;
    fprintf(o.f, "quantity,model,simgrid,delta\n");
    fprintf(o.f, "efficiency,%.9g,", s->model.efficiency);
    if (s->has_sim)
        fprintf(o.f, "%.9g,%.6f", s->sim.m.efficiency,
                (s->sim.m.efficiency - s->model.efficiency) / s->model.efficiency);
    else
        fprintf(o.f, ",");
    fprintf(o.f, "\nmakespan_eq5,%.9g,,\n", s->model.makespan_eq5);
    fprintf(o.f, "scenario,%s,%s,\n", model_scenario_name(s->model.scenario),
            s->has_sim ? model_scenario_name(s->sim.m.scenario) : "");
    for (int i = 0; i < ST_ROWS; i++) {
        const struct stage_row *r = &c->row[i];
        fprintf(o.f, "%s,%.9g,", r->name, r->model);
        if (r->has_sim)
            fprintf(o.f, "%.9g,%.6f\n", r->sim, r->delta);
        else
            fprintf(o.f, ",\n");
    }
    return outfile_commit(&o, err, errlen);
}

/* ---- the figure ------------------------------------------------------------------------------ */

static void xover_draw(cairo_t *cr, double w, double h, void *ud)
{
    const struct app_state *s = ud;
    const struct xover *xo = &s->xo;
    char title[96];
    snprintf(title, sizeof title, "%d strategies: makespan against data scaling, %ld nodes",
             xo->c.n, xo->base.nodes);
    chart_background(cr, w, h, title);
    double lo = INFINITY, hi = 0;
    for (int m = 0; m < xo->c.n; m++)
        for (int i = 0; i < XO_SAMPLES; i++)
            if (xo->c.ok[m] && xo->c.model[m][i] > 0)
                lo = fmin(lo, xo->c.model[m][i]), hi = fmax(hi, xo->c.model[m][i]);
    if (!(hi > 0))
        lo = 1, hi = 10;
    struct panel p;
    chart_panel(&p, cr, 0, 40, w, h - 40, XO_MIN, XO_MAX, true, lo / 1.3, hi * 1.3, true);
    chart_axes(&p, "data scaling (multiplier on the bytes each analysis receives)", "makespan (s)",
               "model and SimGrid", NULL, NULL, 0);
    char labels[2 * XO_STRATEGIES][STRATEGY_NAME_MAX + 16];
    int nl = 0;
    const char *lp[2 * XO_STRATEGIES];
    int ls[2 * XO_STRATEGIES];
    for (int m = 0; m < xo->c.n; m++) {
        if (!xo->c.ok[m])
            continue;
        chart_series(&p, m, xo->c.xs, xo->c.model[m], XO_SAMPLES);
        snprintf(labels[nl], sizeof labels[nl], "%s (model)", xo->c.name[m]);
        lp[nl] = labels[nl], ls[nl] = m, nl++;
    }
    for (int m = 0; m < xo->n && m < xo->c.n; m++) {
        double x[XO_POINTS], y[XO_POINTS];
        int n = 0;
        for (int i = 0; i < XO_POINTS; i++)
            if (xo->pstate[m][i] == XO_PT_DONE)
                x[n] = xo->px[i], y[n++] = xo->sim[m][i];
        if (n) {
            /* Styles past the model's: the same strategy's points stand apart from its curve. */
            chart_series(&p, XO_STRATEGIES + m, x, y, n);
            snprintf(labels[nl], sizeof labels[nl], "%s (SimGrid)", xo->c.name[m]);
            lp[nl] = labels[nl], ls[nl] = XO_STRATEGIES + m, nl++;
        }
    }
    for (int j = 0; j + 1 < xo->c.fastest.n; j++) {
        char label[48], at[32];
        crossover_format(xo->c.fastest.to[j], at, sizeof at);
        snprintf(label, sizeof label, "crossover ~%s", at);
        chart_vline(&p, xo->c.fastest.to[j], label);
    }
    chart_legend(&p, CHART_LEGEND_AUTO, ls, lp, nl);
}

/* The step's bars: each stage of one step, model and SimGrid side by side. */
static void bars_draw(cairo_t *cr, double w, double h, void *ud)
{
    const struct app_state *s = ud;
    struct stage_cmp c;
    stages_compare(&s->p, &s->model, s->has_sim ? &s->sim : NULL, &c);
    chart_background(cr, w, h, "One step, stage by stage: model and SimGrid");
    double top = 0;
    for (int i = 0; i <= ST_PERIOD; i++)
        top = fmax(top, fmax(c.row[i].model, c.row[i].sim));
    struct panel p;
    chart_panel(&p, cr, 0, 40, w, h - 40, 0, ST_PERIOD + 1, false, 0, top > 0 ? top * 1.15 : 1,
                false);
    double xt[ST_PERIOD + 1];
    const char *xl[ST_PERIOD + 1];
    for (int i = 0; i <= ST_PERIOD; i++) {
        xt[i] = i + 0.5;
        xl[i] = c.row[i].name;
        chart_bar(&p, i + 0.3, 0.38, 0, c.row[i].model, 0.1, false);
        if (c.row[i].has_sim)
            chart_bar(&p, i + 0.7, 0.38, 0, c.row[i].sim, 0.6, true);
    }
    chart_axes(&p, "stage", "seconds per step", "", xt, xl, ST_PERIOD + 1);
    const int styles[2] = {-1 - 10, -1 - 60};
    const char *labels[2] = {"model", "~SimGrid"};
    chart_legend(&p, CHART_LEGEND_AUTO, styles, labels, s->has_sim ? 2 : 1);
}

/* ---- the key -----------------------------------------------------------------------------------
 */

static bool exists(const char *base, const char *ext)
{
    char path[PARAMS_PATH_MAX + 16];
    snprintf(path, sizeof path, "%s.%s", base, ext);
    return access(path, F_OK) == 0 || errno != ENOENT;
}

unsigned app_export(struct app_state *s)
{
    if (!s->model_valid) {
        app_notice(s, true, "nothing to export: the model has no numbers yet");
        return APP_DIRTY;
    }
    char base[PARAMS_PATH_MAX], path[PARAMS_PATH_MAX + 16], err[OUTFILE_ERR_MAX];
    const char *exts[] = {"json", "csv", "svg", "png"};
    int k = 1;
    for (; k < 1000; k++) {
        snprintf(base, sizeof base, "situ-%s-%d", s->preset[0] ? s->preset : "defaults", k);
        bool taken = false;
        for (int e = 0; e < 4; e++)
            taken = taken || exists(base, exts[e]);
        if (!taken)
            break;
    }
    struct stage_cmp c;
    stages_compare(&s->p, &s->model, s->has_sim ? &s->sim : NULL, &c);
    bool xover = s->pane == APP_PANE_XOVER && xover_current(&s->xo);
    /* The four files are one set (outset): all of them, or none. */
    struct outset set;
    char name[PARAMS_PATH_MAX + 16];
    int rc = outset_open(&set, ".", err, sizeof err);
    if (rc == 0) {
        snprintf(name, sizeof name, "%s.json", base);
        rc = write_json(s, &c, outset_path(&set, name, path, sizeof path), err, sizeof err);
    }
    if (rc == 0) {
        snprintf(name, sizeof name, "%s.csv", base);
        rc = write_csv(s, &c, outset_path(&set, name, path, sizeof path), err, sizeof err);
    }
    if (rc == 0)
        rc = chart_write(outset_path(&set, base, path, sizeof path), xover ? 900 : 800, 560,
                         xover ? xover_draw : bars_draw, s, err, sizeof err);
    if (rc == 0 && set.tmp[0])
        rc = outset_commit(&set, err, sizeof err);
    else if (set.tmp[0])
        outset_fail(&set, err, sizeof err);
    if (rc < 0) {
        app_notice(s, true, "export: %.*s", APP_MSG_MAX - 16, err);
        return APP_DIRTY;
    }
    app_notice(s, false, "exported %s.json .csv and %s .svg .png (%s)", base,
               xover ? "the crossover" : "the step's bars",
               s->has_sim ? "with SimGrid" : "model only");
    return APP_DIRTY;
}
