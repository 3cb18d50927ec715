/* The figures of `situ reproduce`: each study's chart (PNG and SVG, through plot/chart.c) and its
 * short text summary of the finding, drawn from the study's results (Fig. 9 in
 * reproduce_fig9.c). */
#include "reproduce_figures.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../plot/chart.h"
#include "reproduce_strategies.h"

/* The total cores of n nodes in the study (its base configuration's cores per node: the axes
 * sweep nodes, not the node's size). */
static double cores(const struct study *s, double nodes)
{
    return nodes * (double)s->base.cores_per_node;
}

/* ---- Fig. 7: efficiency against total cores, per (stride, analytics cost), for R = 15 and 31 */

static void fig7_draw(cairo_t *cr, double w, double h, void *ud)
{
    const struct study *s = ((struct drawing *)ud)->s;
    chart_background(cr, w, h, "Efficiency of (stride, analytics cost) configurations (Fig. 7)");
    char sub[512];
    figure_drawn_by(s, "", sub, sizeof sub);
    chart_subtitle(cr, w, sub);
    double strides[8], nodes[16];
    int ns = figure_distinct(s, P_STRIDE, strides, 8), nn = figure_distinct(s, P_NODES, nodes, 16);
    const long ratios[] = {15, 31};
    /* Both panels on one efficiency scale, spanning what they show: on 0..1 the pairs' spread
     * is a few pixels. */
    double lo = 1, hi = 0;
    for (int i = 0; i < s->n; i++) {
        long r = s->configs[i].ratio;
        if (s->results[i] && (r == ratios[0] || r == ratios[1])) {
            lo = fmin(lo, figure_num(s->results[i], "efficiency"));
            hi = fmax(hi, figure_num(s->results[i], "efficiency"));
        }
    }
    double pad = hi > lo ? 0.08 * (hi - lo) : 0.05;
    for (int panel = 0; panel < 2; panel++) {
        struct panel p;
        double cmin = cores(s, nodes[0]), cmax = cores(s, nodes[nn - 1]);
        double top = CHART_SUBTITLE_BOTTOM;
        chart_panel(&p, cr, panel * w / 2, top, w / 2, h - top, cmin / 1.2, cmax * 1.2, true,
                    fmax(0, lo - pad), fmin(1, hi + pad), false);
        char title[64];
        snprintf(title, sizeof title, "R = %ld", ratios[panel]);
        double xt[16];
        char xl[16][16];
        const char *xlp[16];
        for (int j = 0; j < nn; j++) {
            xt[j] = cores(s, nodes[j]);
            snprintf(xl[j], sizeof xl[j], "%.0f", xt[j]);
            xlp[j] = xl[j];
        }
        char xlabel[64];
        snprintf(xlabel, sizeof xlabel, "total cores (nodes x %ld)", s->base.cores_per_node);
        chart_axes(&p, xlabel, "efficiency eta", title, xt, xlp, nn);
        int styles[8];
        char labels[8][48];
        const char *lp[8];
        for (int k = 0; k < ns; k++) {
            double x[16], y[16];
            int n = 0;
            for (int j = 0; j < nn; j++) {
                int ids[] = {P_STRIDE, P_RATIO, P_NODES};
                double vals[] = {strides[k], (double)ratios[panel], nodes[j]};
                json_t *r = figure_find(s, ids, vals, 3);
                if (!r)
                    continue;
                x[n] = figure_num(json_object_get(r, "config"), "cores_per_node") * nodes[j];
                y[n++] = figure_num(r, "efficiency");
            }
            chart_series(&p, k, x, y, n);
            double cs = NAN;
            for (int i = 0; i < s->n; i++)
                if (params_get_number(&s->configs[i], P_STRIDE) == strides[k])
                    cs = s->configs[i].compute_scaling;
            snprintf(labels[k], sizeof labels[k], "stride %.0f, cost x%g", strides[k], cs);
            styles[k] = k;
            lp[k] = labels[k];
        }
        chart_legend(&p, CHART_LEGEND_AUTO, styles, lp, ns);
    }
}

static void fig7_summary(const struct study *s, FILE *out, double alert)
{
    (void)alert;
    double strides[8], nodes[16], ratios[16];
    int ns = figure_distinct(s, P_STRIDE, strides, 8), nn = figure_distinct(s, P_NODES, nodes, 16);
    int nr = figure_distinct(s, P_RATIO, ratios, 16);
    fprintf(out, "Fig. 7: the (stride, analytics cost) with the best efficiency per core count.\n");
    bool grows = false;
    double spread = 0;
    for (int r = 0; r < nr; r++) {
        fprintf(out, "  R = %-3.0f", ratios[r]);
        double first_best = -1;
        for (int j = 0; j < nn; j++) {
            double best = -1, worst = 2, best_stride = 0;
            for (int k = 0; k < ns; k++) {
                int ids[] = {P_STRIDE, P_RATIO, P_NODES};
                double vals[] = {strides[k], ratios[r], nodes[j]};
                json_t *res = figure_find(s, ids, vals, 3);
                double eta = res ? figure_num(res, "efficiency") : NAN;
                if (!res)
                    continue;
                worst = fmin(worst, eta);
                if (eta > best) {
                    best = eta;
                    best_stride = strides[k];
                }
            }
            spread = fmax(spread, best - worst);
            if (j == 0)
                first_best = best_stride;
            grows = grows || best_stride > first_best;
            fprintf(out, "  %4.0f cores: stride %-4.0f (eta %.2f)", cores(s, nodes[j]), best_stride,
                    best);
        }
        fputc('\n', out);
    }
    if (grows)
        fprintf(
            out,
            "Reading: the best stride grows with the core count: rarer but heavier analyses pay "
            "off as more analytics cores share the same work (the paper's trend).\n");
    else
        fprintf(
            out,
            "Reading: the best stride does not move with the core count here, and the four pairs "
            "differ by at most %.3f in efficiency: each pair keeps the same ratio of simulation "
            "to analysis work, so only halo and latency terms tell them apart. The paper's spread "
            "comes from per-analysis overheads of the real code that this analytics does not "
            "model; the preset's analytics, overhead, adds a fixed cost per analysed state and "
            "shows it ('situ reproduce fig7').\n",
            spread);
}

/* ---- Fig. 8: active and idle time of each component against the ratio, per node count */

/* The run of one (ratio, nodes) cell of a study, or NULL. */
static json_t *at_ratio_nodes(const struct study *s, double ratio, double nodes)
{
    int ids[] = {P_RATIO, P_NODES};
    double vals[] = {ratio, nodes};
    return figure_find(s, ids, vals, 2);
}

static void fig8_draw(cairo_t *cr, double w, double h, void *ud)
{
    const struct study *s = ((struct drawing *)ud)->s;
    char title[128], sub[512];
    snprintf(title, sizeof title,
             "Active and idle time per component, stride %ld, analytics cost x%g (Fig. 8)",
             s->base.stride, s->base.compute_scaling);
    chart_background(cr, w, h, title);
    figure_drawn_by(s, "each panel its own time axis", sub, sizeof sub);
    chart_subtitle(cr, w, sub);
    const int styles[] = {-1, -76, -46, -86};
    const char *labels[] = {"simulation active", "~simulation idle", "analytics active",
                            "~analytics idle"};
    /* Above the panels: every panel's bars reach its top. */
    chart_legend_row(cr, 80, CHART_SUBTITLE_BOTTOM + 8, styles, labels, 4);
    double ratios[16], nodes[16];
    int nr = figure_distinct(s, P_RATIO, ratios, 16), nn = figure_distinct(s, P_NODES, nodes, 16);
    double xt[16];
    char xl[16][16];
    const char *xlp[16];
    for (int k = 0; k < nr; k++) {
        xt[k] = k;
        snprintf(xl[k], sizeof xl[k], "%.0f", ratios[k]);
        xlp[k] = xl[k];
    }
    for (int j = 0; j < nn; j++) {
        /* Each node count on its own scale: on a shared one the 4- and 8-node panels are a
         * strip at the bottom (the run gets shorter as nodes are added). */
        double top = 0;
        for (int k = 0; k < nr; k++) {
            json_t *r = at_ratio_nodes(s, ratios[k], nodes[j]);
            if (r)
                top = fmax(
                    top, fmax(figure_num(r, "sim_active") + figure_num(r, "sim_idle"),
                              figure_num(r, "analytics_active") + figure_num(r, "analytics_idle")));
        }
        struct panel p;
        double y = CHART_SUBTITLE_BOTTOM + 22;
        chart_panel(&p, cr, j * w / nn, y, w / nn, h - y, -0.6, nr - 0.4, false, 0,
                    top > 0 ? top * 1.05 : 1, false);
        snprintf(title, sizeof title, "%.0f node%s (%.0f cores)", nodes[j], nodes[j] > 1 ? "s" : "",
                 cores(s, nodes[j]));
        chart_axes(&p, "ratio R", "time over the run (s)", title, xt, xlp, nr);
        for (int k = 0; k < nr; k++) {
            json_t *r = at_ratio_nodes(s, ratios[k], nodes[j]);
            if (!r)
                continue;
            double sa = figure_num(r, "sim_active"), si = figure_num(r, "sim_idle");
            double aa = figure_num(r, "analytics_active"), ai = figure_num(r, "analytics_idle");
            chart_bar(&p, k - 0.19, 0.36, 0, sa, 0.0, false);
            chart_bar(&p, k - 0.19, 0.36, sa, si, 0.75, true);
            chart_bar(&p, k + 0.19, 0.36, 0, aa, 0.45, false);
            chart_bar(&p, k + 0.19, 0.36, aa, ai, 0.85, true);
        }
    }
}

static void fig8_summary(const struct study *s, FILE *out, double alert)
{
    (void)alert;
    double ratios[16], nodes[16];
    int nr = figure_distinct(s, P_RATIO, ratios, 16), nn = figure_distinct(s, P_NODES, nodes, 16);
    fprintf(out, "Fig. 8 (stride 1000, analytics cost x50): who waits, per ratio.\n");
    for (int j = 0; j < nn; j++) {
        fprintf(out, "  %3.0f cores:", cores(s, nodes[j]));
        double tip = NAN, balanced = NAN, gap = INFINITY;
        for (int k = 0; k < nr; k++) {
            json_t *r = at_ratio_nodes(s, ratios[k], nodes[j]);
            if (!r)
                continue;
            const char *sc = json_string_value(json_object_get(r, "scenario"));
            fprintf(out, "  R=%-2.0f %s eta %.2f", ratios[k], sc ? sc : "?",
                    figure_num(r, "efficiency"));
            if (sc && !strcmp(sc, "IS") && isnan(tip))
                tip = ratios[k];
            double d = fabs(figure_num(r, "sim_active") - figure_num(r, "analytics_active")) /
                       figure_num(r, "makespan");
            if (d < gap) {
                gap = d;
                balanced = ratios[k];
            }
        }
        fprintf(out, "\n      ");
        if (isnan(tip))
            fprintf(out, "the simulation never waits (analytics-idle throughout)");
        else
            fprintf(out,
                    "tipping point at R = %.0f: from there the simulation waits for the analytics",
                    tip);
        fprintf(out, "; active times closest at R = %.0f\n", balanced);
    }
}

/* ---- Static scaling (performance spectrum): time-to-solution against rate, per node count */

static void scaling_draw(cairo_t *cr, double w, double h, void *ud)
{
    const struct study *s = ((struct drawing *)ud)->s;
    chart_background(cr, w, h, "Static scaling: time-to-solution against rate (flat lines scale)");
    char sub[512];
    figure_drawn_by(s, "the region varies along each line", sub, sizeof sub);
    chart_subtitle(cr, w, sub);
    double nodes[16];
    int nn = figure_distinct(s, P_NODES, nodes, 16);
    for (int panel = 0; panel < 2; panel++) {
        double tmin = INFINITY, tmax = 0, rmin = INFINITY, rmax = 0;
        for (int i = 0; i < s->n; i++) {
            json_t *r = s->results[i];
            if (!r)
                continue;
            double t = figure_num(r, "makespan");
            double rate = figure_num(r, "particles") * s->configs[i].iterations / t;
            if (panel)
                rate /= figure_num(r, "sim_cores") + figure_num(r, "analytics_cores");
            tmin = fmin(tmin, t), tmax = fmax(tmax, t);
            rmin = fmin(rmin, rate), rmax = fmax(rmax, rate);
        }
        struct panel p;
        double y = CHART_SUBTITLE_BOTTOM;
        chart_panel(&p, cr, panel * w / 2, y, w / 2, h - y, tmin / 1.5, tmax * 1.5, true, rmin / 3,
                    rmax * 3, true);
        chart_axes(&p, "time-to-solution (s)",
                   panel ? "particle-iterations / s / core" : "particle-iterations / s",
                   panel ? "Rate per core" : "Rate", NULL, NULL, 0);
        int styles[16];
        char labels[16][32];
        const char *lp[16];
        for (int j = 0; j < nn; j++) {
            double x[64], y[64];
            int n = 0;
            for (int i = 0; i < s->n && n < 64; i++) {
                json_t *r = s->results[i];
                if (!r || s->configs[i].nodes != (long)nodes[j])
                    continue;
                x[n] = figure_num(r, "makespan");
                y[n] = figure_num(r, "particles") * s->configs[i].iterations / x[n];
                if (panel)
                    y[n] /= figure_num(r, "sim_cores") + figure_num(r, "analytics_cores");
                n++;
            }
            chart_series(&p, j, x, y, n);
            styles[j] = j;
            snprintf(labels[j], sizeof labels[j], "%.0f node%s", nodes[j], nodes[j] > 1 ? "s" : "");
            lp[j] = labels[j];
        }
        chart_legend(&p, CHART_LEGEND_AUTO, styles, lp, nn);
    }
}

static void scaling_summary(const struct study *s, FILE *out, double alert)
{
    (void)alert;
    double nodes[16];
    int nn = figure_distinct(s, P_NODES, nodes, 16);
    fprintf(out,
            "Static scaling (region varied at fixed node count): rate spread per node count.\n");
    for (int j = 0; j < nn; j++) {
        double lo = INFINITY, hi = 0;
        for (int i = 0; i < s->n; i++) {
            json_t *r = s->results[i];
            if (!r || s->configs[i].nodes != (long)nodes[j])
                continue;
            double rate =
                figure_num(r, "particles") * s->configs[i].iterations / figure_num(r, "makespan");
            lo = fmin(lo, rate), hi = fmax(hi, rate);
        }
        fprintf(out, "  %2.0f node(s): %.3g to %.3g particle-iterations/s (%s, max/min %.2f)\n",
                nodes[j], lo, hi, hi / lo < 1.1 ? "flat: scales" : "not flat", hi / lo);
    }
}

/* ---- Strategies: post hoc, in situ, in transit, with and without compression (its own file) */

static void posthoc_draw(cairo_t *cr, double w, double h, void *ud)
{
    reproduce_strategies_draw(cr, w, h, ((struct drawing *)ud)->s);
}

const struct figure reproduce_figures[] = {
    {"fig7", "paper-fig7", "Fig. 7", 1200, 520, fig7_draw, fig7_summary, NULL},
    {"fig8", "paper-fig8", "Fig. 8", 1400, 520, fig8_draw, fig8_summary, NULL},
    {"fig9", "paper-fig9", "Fig. 9", 1300, 560, fig9_draw, fig9_summary, fig9_refine},
    {"scaling", "static-scaling", "static scaling", 1200, 520, scaling_draw, scaling_summary, NULL},
    {"posthoc", "posthoc", "post hoc vs in situ vs in transit", 1300, 560, posthoc_draw,
     reproduce_strategies_summary, NULL},
};
const int reproduce_nfigures = (int)(sizeof reproduce_figures / sizeof reproduce_figures[0]);
