/* Fig. 9 of `situ reproduce` (reproduce_figures.h): in situ against in transit as the data grows,
 * the crossover narrowed with more simulations until it is the explorer's, and the links'
 * load. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/lua/analytics.h"
#include "../engine/model/crossover.h"
#include "../engine/model/layout.h"
#include "../engine/model/platform.h"
#include "../plot/chart.h"
#include "reproduce_figures.h"
#include "../engine/base/units.h"

/* ---- Fig. 9: simulation time against data scaling, in situ and in transit, and link load */

struct crossing {
    bool found;
    double at;
    bool insitu_faster_below;
    double lo, hi; /* the simulated data scalings either side */
};

static int curve(const struct study *s, int mapping, double *x, double *y, int max)
{
    double ds[64];
    int nd = figure_distinct(s, P_DATA_SCALING, ds, 64), n = 0;
    for (int k = 0; k < nd && n < max; k++) {
        int ids[] = {P_MAPPING, P_DATA_SCALING};
        double vals[] = {mapping, ds[k]};
        json_t *r = figure_find(s, ids, vals, 2);
        if (!r)
            continue;
        x[n] = ds[k];
        y[n++] = figure_num(r, "makespan");
    }
    return n;
}

/* The study's crossover: the first change of sign over every data scaling it simulated,
 * interpolated in log x between its two neighbours (fig9_refine narrows them first). */
static struct crossing crossover(const struct study *s)
{
    double xa[64], ya[64], xb[64], yb[64];
    int na = curve(s, MAPPING_INSITU, xa, ya, 64), nb = curve(s, MAPPING_INTRANSIT, xb, yb, 64);
    int n = na < nb ? na : nb, from, first_sign;
    int at = crossover_first_change(ya, yb, n, &from, NULL, &first_sign);
    struct crossing c = {at >= 0, NAN, first_sign < 0, NAN, NAN};
    if (c.found) {
        c.at = crossover_interpolate(xa[from], ya[from] - yb[from], xa[at], ya[at] - yb[at]);
        c.lo = xa[from], c.hi = xa[at];
    }
    return c;
}

/* Runs the mappings at data scalings xs[0..n) as the study's base would and appends the runs to
 * the study, so its CSV, figure and summary all see them. -1 with a message. */
static int append_runs(struct study *s, const double *xs, int n, char *err, size_t errlen)
{
    struct study more;
    study_init(&more);
    more.base = s->base, more.jobs = s->jobs, more.quiet = s->quiet;
    more.label = "reproduce fig9: SimGrid narrows the crossover";
    memcpy(more.cache, s->cache, sizeof more.cache);
    char list[64 * 32] = "";
    for (int i = 0; i < n; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%.17g", i ? "," : "", xs[i]);
    int rc = -1;
    if (study_add_axis(&more, "mapping", "insitu,intransit", err, errlen) < 0 ||
        study_add_axis(&more, "data_scaling", list, err, errlen) < 0 ||
        study_expand(&more, err, errlen) < 0)
        goto done;
    if (study_run(&more) < 0 || more.interrupted || more.failed) {
        const char *why = more.interrupted ? "interrupted" : "the simulations could not run";
        for (int i = 0; i < more.n && !more.interrupted; i++)
            if (more.errors[i]) {
                why = more.errors[i];
                break;
            }
        snprintf(err, errlen, "narrowing the crossover: %s", why);
        s->interrupted = more.interrupted;
        goto done;
    }
    int total = s->n + more.n;
    struct params *configs = realloc(s->configs, sizeof *configs * (size_t)total);
    if (configs)
        s->configs = configs;
    json_t **results = realloc(s->results, sizeof *results * (size_t)total);
    if (results)
        s->results = results;
    char **errors = realloc(s->errors, sizeof *errors * (size_t)total);
    if (errors)
        s->errors = errors;
    if (!configs || !results || !errors) {
        snprintf(err, errlen, "out of memory");
        goto done;
    }
    for (int i = 0; i < more.n; i++) {
        s->configs[s->n] = more.configs[i];
        s->results[s->n] = more.results[i];
        s->errors[s->n++] = NULL;
        more.results[i] = NULL; /* now the study's */
    }
    s->ran += more.ran, s->cached += more.cached;
    rc = 0;
done:
    study_free(&more);
    return rc;
}

/* The sampled data scalings only bracket the crossover (10 and 20: a factor of 2), and an
 * interpolation over a factor of 2 is off by several percent. The bracket is narrowed by the
 * crossover search (engine/model/crossover.c, the explorer's and Lua's) with more simulations
 * until it is within FIG9_TOLERANCE, so the crossover printed is the explorer's to its
 * CROSSOVER_DIGITS digits. */
#define FIG9_TOLERANCE 0.01

int fig9_refine(struct study *s, char *err, size_t errlen)
{
    struct crossing c = crossover(s);
    if (!c.found)
        return 0;
    double xa[64], ya[64], xb[64], yb[64];
    int na = curve(s, MAPPING_INSITU, xa, ya, 64), nb = curve(s, MAPPING_INTRANSIT, xb, yb, 64);
    double dlo = NAN, dhi = NAN;
    for (int i = 0; i < na && i < nb; i++) {
        if (xa[i] == c.lo)
            dlo = ya[i] - yb[i];
        if (xa[i] == c.hi)
            dhi = ya[i] - yb[i];
    }
    int per_round = s->jobs / 2 > 1 ? s->jobs / 2 : 1;
    struct crossover xc;
    enum crossover_state st = crossover_begin_bracket(
        &xc, c.lo, dlo, c.hi, dhi, per_round > 8 ? 8 : per_round, FIG9_TOLERANCE);
    while (st == CROSSOVER_MORE) {
        int before = s->n;
        if (append_runs(s, xc.xs, xc.n, err, errlen) < 0)
            return -1;
        for (int i = 0; i < xc.n; i++) /* the runs come in (mapping, data scaling) order */
            for (int k = before; k < s->n; k++)
                if (s->configs[k].data_scaling == xc.xs[i]) {
                    double m = figure_num(s->results[k], "makespan");
                    if (s->configs[k].mapping == MAPPING_INSITU)
                        xc.a[i] = m;
                    else
                        xc.b[i] = m;
                }
        st = crossover_take(&xc);
    }
    return 0;
}

/* Bytes one analysis sends the analytics at data scaling 1, from the analytics' own law (a
 * Lua file's bytes()); NAN if it cannot be evaluated. */
static double bytes_per_analysis(const struct study *s)
{
    struct params p = s->base;
    p.data_scaling = 1;
    struct platform pf;
    struct layout l;
    char err[PARAMS_ERR_MAX];
    double bytes = NAN;
    if (platform_load(p.platform, &pf, err, sizeof err) < 0)
        return NAN;
    if (layout_build(&p, &pf, &l, err, sizeof err) == 0) {
        struct analytics_profile prof;
        if (analytics_profile(&p, &l, &prof, err, sizeof err) == 0 && prof.nclasses > 0)
            bytes = prof.classes[0].v.bytes;
        profile_free(&prof);
        layout_free(&l);
    }
    platform_free(&pf);
    return bytes;
}

/* The in-transit run at the largest data scaling: the one whose links work hardest. */
static json_t *busiest_run(const struct study *s)
{
    double ds[64];
    int nd = figure_distinct(s, P_DATA_SCALING, ds, 64);
    int ids[] = {P_MAPPING, P_DATA_SCALING};
    double vals[] = {MAPPING_INTRANSIT, nd ? ds[nd - 1] : 1};
    return figure_find(s, ids, vals, 2);
}

static void links_panel(cairo_t *cr, double x, double y, double w, double h, json_t *run,
                        double alert)
{
    json_t *links = json_object_get(run, "links");
    size_t n = json_array_size(links);
    size_t order[64];
    size_t m = 0;
    for (size_t i = 0; i < n && m < 64; i++)
        order[m++] = i;
    for (size_t a = 1; a < m; a++) /* busiest first */
        for (size_t b = a; b > 0; b--) {
            double ub = figure_num(json_array_get(links, order[b]), "utilisation");
            double ua = figure_num(json_array_get(links, order[b - 1]), "utilisation");
            if (ua >= ub)
                break;
            size_t t = order[b];
            order[b] = order[b - 1];
            order[b - 1] = t;
        }
    if (m > 14)
        m = 14;
    struct panel p;
    chart_panel(&p, cr, x, y, w, h, 0, 1, false, 0, 1, false);
    p.left = x + 150;
    p.width = w - 175;
    chart_text(cr, p.left + p.width / 2, p.top - 10, "Link utilisation, in transit, largest data",
               13, 1);
    double row = p.height / (m ? m : 1);
    for (size_t k = 0; k < m; k++) {
        json_t *l = json_array_get(links, order[k]);
        double u = figure_num(l, "utilisation"), r, g, b;
        chart_utilisation_colour(u, &r, &g, &b);
        double top = p.top + k * row + 2;
        cairo_set_source_rgb(cr, r, g, b);
        cairo_rectangle(cr, p.left, top, p.width * fmin(u, 1), row - 4);
        cairo_fill_preserve(cr);
        cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
        cairo_set_line_width(cr, 0.6);
        cairo_stroke(cr);
        char label[96];
        snprintf(label, sizeof label, "%s", json_string_value(json_object_get(l, "name")));
        chart_text(cr, p.left - 6, top + row / 2 + 2, label, 10, 2);
        snprintf(label, sizeof label, "%.0f%%%s", 100 * u, u > alert ? "  ALERT" : "");
        /* A long bar takes its label inside, so it stays on the figure. */
        double end = p.left + p.width * fmin(u, 1);
        cairo_set_source_rgb(cr, 0, 0, 0);
        chart_text(cr, u > 0.6 ? end - 4 : end + 4, top + row / 2 + 2, label, 10, u > 0.6 ? 2 : 0);
    }
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_rectangle(cr, p.left, p.top, p.width, p.height);
    cairo_stroke(cr);
    double ax = p.left + p.width * alert;
    double dash[] = {5, 3};
    cairo_set_dash(cr, dash, 2, 0);
    cairo_move_to(cr, ax, p.top);
    cairo_line_to(cr, ax, p.top + p.height);
    cairo_stroke(cr);
    cairo_set_dash(cr, NULL, 0, 0);
    char label[128];
    for (int k = 0; k <= 4; k++) { /* a scale: 0, 25, 50, 75, 100% */
        snprintf(label, sizeof label, "%d%%", 25 * k);
        chart_text(cr, p.left + p.width * k / 4, p.top + p.height + 16, label, 11, 1);
    }
    snprintf(label, sizeof label, "mean utilisation; dashed: the %.0f%% alert, 100%% a bottleneck",
             100 * alert);
    chart_text(cr, p.left + p.width / 2, p.top + p.height + 36, label, 12, 1);
}

/* "data scaling (x1 = 11 MB per analysis, 8 B per particle)", or without sizes if the
 * analytics cannot say. */
static void fig9_xlabel(const struct study *s, char *out, size_t len)
{
    double bytes = bytes_per_analysis(s), particles = 4.0 * pow((double)s->base.region, 3);
    char total[32];
    units_bytes(bytes, total, sizeof total);
    if (isnan(bytes))
        snprintf(out, len, "data scaling (multiplier on the bytes of one analysis)");
    else
        snprintf(out, len, "data scaling (x1 = %s per analysis, %.3g B per particle)", total,
                 bytes / particles);
}

void fig9_draw(cairo_t *cr, double w, double h, void *ud)
{
    const struct drawing *d = ud;
    const struct study *s = d->s;
    chart_background(cr, w, h, "In situ vs in transit as the data grows (Fig. 9)");
    char sub[512], more[128];
    snprintf(more, sizeof more, "%ld nodes, R = %ld", s->base.nodes, s->base.ratio);
    figure_drawn_by(s, more, sub, sizeof sub);
    chart_subtitle(cr, w, sub);
    double xa[64], ya[64], xb[64], yb[64], top = 0, bottom = INFINITY;
    int na = curve(s, MAPPING_INSITU, xa, ya, 64), nb = curve(s, MAPPING_INTRANSIT, xb, yb, 64);
    for (int k = 0; k < na; k++)
        top = fmax(top, ya[k]), bottom = fmin(bottom, ya[k]);
    for (int k = 0; k < nb; k++)
        top = fmax(top, yb[k]), bottom = fmin(bottom, yb[k]);
    struct panel p;
    double x0 = na ? xa[0] : 1, x1 = na ? xa[na - 1] : 1000, y = CHART_SUBTITLE_BOTTOM;
    chart_panel(&p, cr, 0, y, w * 0.55, h - y, x0 / 1.15, x1 * 1.15, true,
                bottom > 0 ? bottom / 1.3 : 1, top * 1.3, true);
    char xlabel[160];
    fig9_xlabel(s, xlabel, sizeof xlabel);
    chart_axes(&p, xlabel, "simulation time (s)", "Time of the simulation component", NULL, NULL,
               0);
    chart_series(&p, 0, xa, ya, na);
    chart_series(&p, 1, xb, yb, nb);
    struct crossing c = crossover(s);
    if (c.found) {
        char label[64], at[32];
        crossover_format(c.at, at, sizeof at);
        snprintf(label, sizeof label, "crossover ~%s", at);
        chart_vline(&p, c.at, label);
    }
    const int styles[] = {0, 1};
    const char *labels[] = {"in situ, SimGrid (analytics on every node)",
                            "in transit, SimGrid (dedicated node)"};
    chart_legend(&p, CHART_LEGEND_AUTO, styles, labels, 2);
    json_t *run = busiest_run(s);
    if (run)
        links_panel(cr, w * 0.55, y, w * 0.45, h - y, run, d->alert);
}

void fig9_summary(const struct study *s, FILE *out, double alert)
{
    struct crossing c = crossover(s);
    const char *below = c.insitu_faster_below ? "in-situ" : "in-transit";
    const char *above = c.insitu_faster_below ? "in-transit" : "in-situ";
    double ds[64];
    int nd = figure_distinct(s, P_DATA_SCALING, ds, 64);
    char xlabel[160];
    fig9_xlabel(s, xlabel, sizeof xlabel);
    fprintf(out,
            "Fig. 9 (%ld nodes, R = %ld, SimGrid): simulation time as the data volume grows.\n",
            s->base.nodes, s->base.ratio);
    fprintf(out, "  x axis: %s\n", xlabel);
    if (c.found) {
        char at[32];
        crossover_format(c.at, at, sizeof at);
        fprintf(out,
                "  crossover at data scaling ~ %s: %s faster below, %s above (simulated either "
                "side at %.4g and %.4g)\n",
                at, below, above, c.lo, c.hi);
    } else {
        fprintf(out, "  no crossover in data scaling %g..%g: %s faster throughout\n",
                nd ? ds[0] : 0, nd ? ds[nd - 1] : 0, below);
    }
    json_t *run = busiest_run(s);
    json_t *links = json_object_get(run, "links");
    int over = 0;
    for (size_t i = 0; i < json_array_size(links); i++) {
        json_t *l = json_array_get(links, i);
        if (figure_num(l, "utilisation") > alert) {
            fprintf(out, "  ALERT %s at %.0f%% mean utilisation (in transit, data scaling %g)\n",
                    json_string_value(json_object_get(l, "name")),
                    100 * figure_num(l, "utilisation"), nd ? ds[nd - 1] : 0);
            over++;
        }
    }
    if (!over)
        fprintf(out, "  no link above the %.0f%% alert threshold\n", 100 * alert);
}
