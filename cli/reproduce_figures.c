/* The figures of `situ reproduce`: each study's chart (PNG and SVG, through plot/chart.c) and its
 * short text summary of the finding, drawn from the study's results. */
#include "reproduce_figures.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../engine/lua/analytics.h"
#include "../engine/model/crossover.h"
#include "../engine/model/layout.h"
#include "../engine/model/platform.h"
#include "../plot/chart.h"

static double num(json_t *r, const char *key)
{
    json_t *v = json_object_get(r, key);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

/* The result of the configuration whose axis values match; NULL if absent or failed. */
static json_t *find(const struct study *s, const int *ids, const double *values, int n)
{
    for (int i = 0; i < s->n; i++) {
        bool same = s->results[i] != NULL;
        for (int k = 0; k < n && same; k++)
            same = fabs(params_get_number(&s->configs[i], ids[k]) - values[k]) <=
                   1e-9 * fmax(1, fabs(values[k]));
        if (same)
            return s->results[i];
    }
    return NULL;
}

/* The total cores of n nodes in the study (its base configuration's cores per node: the axes
 * sweep nodes, not the node's size). */
static double cores(const struct study *s, double nodes)
{
    return nodes * (double)s->base.cores_per_node;
}

/* Distinct values of a parameter across the study, ascending. */
static int distinct(const struct study *s, int id, double *out, int max)
{
    int n = 0;
    for (int i = 0; i < s->n; i++) {
        double v = params_get_number(&s->configs[i], id);
        bool seen = false;
        for (int k = 0; k < n && !seen; k++)
            seen = out[k] == v;
        if (!seen && n < max)
            out[n++] = v;
    }
    for (int a = 1; a < n; a++)
        for (int b = a; b > 0 && out[b - 1] > out[b]; b--) {
            double t = out[b];
            out[b] = out[b - 1];
            out[b - 1] = t;
        }
    return n;
}

/* What drew the figure and at which sizes, for its subtitle: "SimGrid (fast fidelity), 1.37 M
 * particles, 8000 iterations, analytics overhead" and what the caller adds. */
static void drawn_by(const struct study *s, const char *more, char *out, size_t len)
{
    char fidelity[32], analytics[PARAMS_PATH_MAX];
    params_format(&s->base, P_FIDELITY, fidelity, sizeof fidelity);
    const char *slash = strrchr(s->base.analytics, '/');
    snprintf(analytics, sizeof analytics, "%s",
             s->base.analytics[0] ? (slash ? slash + 1 : s->base.analytics) : "thermo");
    double lo = INFINITY, hi = 0; /* the particles of the runs: a study may vary them */
    for (int i = 0; i < s->n; i++)
        if (s->results[i])
            lo = fmin(lo, num(s->results[i], "particles")),
            hi = fmax(hi, num(s->results[i], "particles"));
    char particles[64];
    if (hi > lo)
        snprintf(particles, sizeof particles, "%.3g to %.3g M particles", lo / 1e6, hi / 1e6);
    else
        snprintf(particles, sizeof particles, "%.3g M particles", hi / 1e6);
    snprintf(out, len,
             "Every point a SimGrid simulation (%s fidelity): %s, %ld iterations, "
             "analytics %.64s%s%.200s",
             fidelity, particles, s->base.iterations, analytics, more[0] ? "; " : "", more);
}

/* ---- Fig. 7: efficiency against total cores, per (stride, analytics cost), for R = 15 and 31 */

static void fig7_draw(cairo_t *cr, double w, double h, void *ud)
{
    const struct study *s = ((struct drawing *)ud)->s;
    chart_background(cr, w, h, "Efficiency of (stride, analytics cost) configurations (Fig. 7)");
    char sub[512];
    drawn_by(s, "", sub, sizeof sub);
    chart_subtitle(cr, w, sub);
    double strides[8], nodes[16];
    int ns = distinct(s, P_STRIDE, strides, 8), nn = distinct(s, P_NODES, nodes, 16);
    const long ratios[] = {15, 31};
    /* Both panels on one efficiency scale, spanning what they show: on 0..1 the pairs' spread
     * is a few pixels. */
    double lo = 1, hi = 0;
    for (int i = 0; i < s->n; i++) {
        long r = s->configs[i].ratio;
        if (s->results[i] && (r == ratios[0] || r == ratios[1])) {
            lo = fmin(lo, num(s->results[i], "efficiency"));
            hi = fmax(hi, num(s->results[i], "efficiency"));
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
                json_t *r = find(s, ids, vals, 3);
                if (!r)
                    continue;
                x[n] = num(json_object_get(r, "config"), "cores_per_node") * nodes[j];
                y[n++] = num(r, "efficiency");
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
    int ns = distinct(s, P_STRIDE, strides, 8), nn = distinct(s, P_NODES, nodes, 16);
    int nr = distinct(s, P_RATIO, ratios, 16);
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
                json_t *res = find(s, ids, vals, 3);
                double eta = res ? num(res, "efficiency") : NAN;
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
    return find(s, ids, vals, 2);
}

static void fig8_draw(cairo_t *cr, double w, double h, void *ud)
{
    const struct study *s = ((struct drawing *)ud)->s;
    char title[128], sub[512];
    snprintf(title, sizeof title,
             "Active and idle time per component, stride %ld, analytics cost x%g (Fig. 8)",
             s->base.stride, s->base.compute_scaling);
    chart_background(cr, w, h, title);
    drawn_by(s, "each panel its own time axis", sub, sizeof sub);
    chart_subtitle(cr, w, sub);
    const int styles[] = {-1, -76, -46, -86};
    const char *labels[] = {"simulation active", "~simulation idle", "analytics active",
                            "~analytics idle"};
    /* Above the panels: every panel's bars reach its top. */
    chart_legend_row(cr, 80, CHART_SUBTITLE_BOTTOM + 8, styles, labels, 4);
    double ratios[16], nodes[16];
    int nr = distinct(s, P_RATIO, ratios, 16), nn = distinct(s, P_NODES, nodes, 16);
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
                top = fmax(top, fmax(num(r, "sim_active") + num(r, "sim_idle"),
                                     num(r, "analytics_active") + num(r, "analytics_idle")));
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
            double sa = num(r, "sim_active"), si = num(r, "sim_idle");
            double aa = num(r, "analytics_active"), ai = num(r, "analytics_idle");
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
    int nr = distinct(s, P_RATIO, ratios, 16), nn = distinct(s, P_NODES, nodes, 16);
    fprintf(out, "Fig. 8 (stride 1000, analytics cost x50): who waits, per ratio.\n");
    for (int j = 0; j < nn; j++) {
        fprintf(out, "  %3.0f cores:", cores(s, nodes[j]));
        double tip = NAN, balanced = NAN, gap = INFINITY;
        for (int k = 0; k < nr; k++) {
            json_t *r = at_ratio_nodes(s, ratios[k], nodes[j]);
            if (!r)
                continue;
            const char *sc = json_string_value(json_object_get(r, "scenario"));
            fprintf(out, "  R=%-2.0f %s eta %.2f", ratios[k], sc ? sc : "?", num(r, "efficiency"));
            if (sc && !strcmp(sc, "IS") && isnan(tip))
                tip = ratios[k];
            double d = fabs(num(r, "sim_active") - num(r, "analytics_active")) / num(r, "makespan");
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
    int nd = distinct(s, P_DATA_SCALING, ds, 64), n = 0;
    for (int k = 0; k < nd && n < max; k++) {
        int ids[] = {P_MAPPING, P_DATA_SCALING};
        double vals[] = {mapping, ds[k]};
        json_t *r = find(s, ids, vals, 2);
        if (!r)
            continue;
        x[n] = ds[k];
        y[n++] = num(r, "makespan");
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
        snprintf(err, errlen, "%s", more.interrupted ? "interrupted" : "a simulation failed");
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

static int fig9_refine(struct study *s, char *err, size_t errlen)
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
                    double m = num(s->results[k], "makespan");
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

static void human_bytes(double b, char *out, size_t len)
{
    const char *unit[] = {"B", "kB", "MB", "GB", "TB"};
    int k = 0;
    while (b >= 1000 && k < 4)
        b /= 1000, k++;
    snprintf(out, len, "%.3g %s", b, unit[k]);
}

/* The in-transit run at the largest data scaling: the one whose links work hardest. */
static json_t *busiest_run(const struct study *s)
{
    double ds[64];
    int nd = distinct(s, P_DATA_SCALING, ds, 64);
    int ids[] = {P_MAPPING, P_DATA_SCALING};
    double vals[] = {MAPPING_INTRANSIT, nd ? ds[nd - 1] : 1};
    return find(s, ids, vals, 2);
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
            double ub = num(json_array_get(links, order[b]), "utilisation");
            double ua = num(json_array_get(links, order[b - 1]), "utilisation");
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
        double u = num(l, "utilisation"), r, g, b;
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
    human_bytes(bytes, total, sizeof total);
    if (isnan(bytes))
        snprintf(out, len, "data scaling (multiplier on the bytes of one analysis)");
    else
        snprintf(out, len, "data scaling (x1 = %s per analysis, %.3g B per particle)", total,
                 bytes / particles);
}

static void fig9_draw(cairo_t *cr, double w, double h, void *ud)
{
    const struct drawing *d = ud;
    const struct study *s = d->s;
    chart_background(cr, w, h, "In situ vs in transit as the data grows (Fig. 9)");
    char sub[512], more[128];
    snprintf(more, sizeof more, "%ld nodes, R = %ld", s->base.nodes, s->base.ratio);
    drawn_by(s, more, sub, sizeof sub);
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

static void fig9_summary(const struct study *s, FILE *out, double alert)
{
    struct crossing c = crossover(s);
    const char *below = c.insitu_faster_below ? "in-situ" : "in-transit";
    const char *above = c.insitu_faster_below ? "in-transit" : "in-situ";
    double ds[64];
    int nd = distinct(s, P_DATA_SCALING, ds, 64);
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
        if (num(l, "utilisation") > alert) {
            fprintf(out, "  ALERT %s at %.0f%% mean utilisation (in transit, data scaling %g)\n",
                    json_string_value(json_object_get(l, "name")), 100 * num(l, "utilisation"),
                    nd ? ds[nd - 1] : 0);
            over++;
        }
    }
    if (!over)
        fprintf(out, "  no link above the %.0f%% alert threshold\n", 100 * alert);
}

/* ---- Static scaling (performance spectrum): time-to-solution against rate, per node count */

static void scaling_draw(cairo_t *cr, double w, double h, void *ud)
{
    const struct study *s = ((struct drawing *)ud)->s;
    chart_background(cr, w, h, "Static scaling: time-to-solution against rate (flat lines scale)");
    char sub[512];
    drawn_by(s, "the region varies along each line", sub, sizeof sub);
    chart_subtitle(cr, w, sub);
    double nodes[16];
    int nn = distinct(s, P_NODES, nodes, 16);
    for (int panel = 0; panel < 2; panel++) {
        double tmin = INFINITY, tmax = 0, rmin = INFINITY, rmax = 0;
        for (int i = 0; i < s->n; i++) {
            json_t *r = s->results[i];
            if (!r)
                continue;
            double t = num(r, "makespan");
            double rate = num(r, "particles") * s->configs[i].iterations / t;
            if (panel)
                rate /= num(r, "sim_cores") + num(r, "analytics_cores");
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
                x[n] = num(r, "makespan");
                y[n] = num(r, "particles") * s->configs[i].iterations / x[n];
                if (panel)
                    y[n] /= num(r, "sim_cores") + num(r, "analytics_cores");
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
    int nn = distinct(s, P_NODES, nodes, 16);
    fprintf(out,
            "Static scaling (region varied at fixed node count): rate spread per node count.\n");
    for (int j = 0; j < nn; j++) {
        double lo = INFINITY, hi = 0;
        for (int i = 0; i < s->n; i++) {
            json_t *r = s->results[i];
            if (!r || s->configs[i].nodes != (long)nodes[j])
                continue;
            double rate = num(r, "particles") * s->configs[i].iterations / num(r, "makespan");
            lo = fmin(lo, rate), hi = fmax(hi, rate);
        }
        fprintf(out, "  %2.0f node(s): %.3g to %.3g particle-iterations/s (%s, max/min %.2f)\n",
                nodes[j], lo, hi, hi / lo < 1.1 ? "flat: scales" : "not flat", hi / lo);
    }
}

const struct figure reproduce_figures[] = {
    {"fig7", "paper-fig7", "Fig. 7", 1200, 520, fig7_draw, fig7_summary, NULL},
    {"fig8", "paper-fig8", "Fig. 8", 1400, 520, fig8_draw, fig8_summary, NULL},
    {"fig9", "paper-fig9", "Fig. 9", 1300, 560, fig9_draw, fig9_summary, fig9_refine},
    {"scaling", "static-scaling", "static scaling", 1200, 520, scaling_draw, scaling_summary, NULL},
};
const int reproduce_nfigures = (int)(sizeof reproduce_figures / sizeof reproduce_figures[0]);
