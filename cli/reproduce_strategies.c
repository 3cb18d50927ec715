/* The study of strategies (`situ reproduce posthoc`, issue 28): post hoc against in situ and in
 * transit as the data grows, with and without compression. Its strategies are data, the preset's
 * `sweep.strategy` line (engine/model/strategy.h names); those this build's parameter table does
 * not know, or that do not apply to the base configuration, are skipped and the summary says why,
 * so the same preset runs before and after the mappings, DTLs and compression of other branches
 * exist. The kept ones become one linked axis (mapping:dtl, and compression where the table has
 * it) of the study's grid: the cache, the CSV and the runs treat them as any axis. */
#include "reproduce_strategies.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../engine/lua/evaluate.h"
#include "../engine/model/model.h"
#include "../engine/model/crossover.h"
#include "../plot/chart.h"

/* What the last pick kept and skipped: one study runs at a time in this process, and its summary
 * and figure, written after its runs, read the names back here. */
static struct strategy_pick picked;

/* Whether strategy st applies to base: the model evaluates it (platform, layout, validation). */
static int check(const struct params *base, const struct strategy *st, char *err, size_t errlen)
{
    struct params q = *base;
    char perr[PARAMS_ERR_MAX];
    struct model_result m;
    if (strategy_apply(st, &q, perr) < 0 || params_validate(&q, perr) < 0) {
        snprintf(err, errlen, "%s", perr);
        return -1;
    }
    return evaluate_model(&q, &m, err, errlen);
}

int reproduce_strategies_pick(const struct params *base, const char *list, struct strategy_pick *pk)
{
    memset(pk, 0, sizeof *pk);
    for (const char *k = list; *k;) {
        k += strspn(k, " ,");
        size_t len = strcspn(k, ",");
        while (len && k[len - 1] == ' ')
            len--;
        if (!len)
            break;
        char name[STRATEGY_NAME_MAX];
        snprintf(name, sizeof name, "%.*s", (int)len, k);
        k += len;
        struct strategy st;
        char why[PARAMS_ERR_MAX + 128];
        bool ok = strategy_parse(name, &st, why, sizeof why) == 0 &&
                  check(base, &st, why, sizeof why) == 0;
        for (int j = 0; ok && j < pk->n; j++)
            if (!strcmp(pk->st[j].name, st.name)) {
                snprintf(why, sizeof why, "named twice");
                ok = false;
            }
        if (ok && pk->n < STRATEGIES_MAX) {
            pk->st[pk->n++] = st;
        } else if (pk->nskip < STRATEGY_SKIP_MAX) {
            if (ok)
                snprintf(why, sizeof why, "more than %d strategies", STRATEGIES_MAX);
            /* strategy_parse names the strategy already: once is enough. */
            const char *reason = why;
            if (!strncmp(why, "strategy '", 10) && strstr(why, "': "))
                reason = strstr(why, "': ") + 3;
            snprintf(pk->skip[pk->nskip], sizeof pk->skip[0], "%s: %s", name, reason);
            pk->nskip++;
        }
    }
    return pk->n;
}

int reproduce_strategies_axis(struct study *s, const char *list, char *err, size_t errlen)
{
    if (reproduce_strategies_pick(&s->base, list, &picked) == 0) {
        snprintf(err, errlen, "strategy: none of '%.200s' applies%s%.300s", list,
                 picked.nskip ? ": " : "", picked.nskip ? picked.skip[0] : "");
        return -1;
    }
    /* The model's makespans: the study compares strategies over three decades in a second, and
     * its summary says so; `situ sweep` with the same axes simulates them. */
    s->model_only = true;
    /* One linked axis: mapping, DTL and (where the table has it) compression move together. */
    int cid = params_find("compression");
    char keys[64], values[STRATEGIES_MAX * 96] = "";
    snprintf(keys, sizeof keys, "mapping:dtl%s", cid >= 0 ? ":compression" : "");
    size_t used = 0;
    for (int k = 0; k < picked.n; k++) {
        struct params q = s->base;
        char perr[PARAMS_ERR_MAX], dtl[32], ratio[32] = "";
        strategy_apply(&picked.st[k], &q, perr); /* checked by the pick */
        params_format(&q, P_DTL, dtl, sizeof dtl);
        if (cid >= 0)
            snprintf(ratio, sizeof ratio, ":%.17g", params_get_number(&q, cid));
        used += (size_t)snprintf(values + used, sizeof values - used, "%s%s:%s%s", k ? "," : "",
                                 param_table[P_MAPPING].choices[q.mapping], dtl, ratio);
    }
    return study_add_axis(s, keys, values, err, errlen);
}

/* The strategy axis of the study (the linked one that moves the mapping), -1 if none. */
static int strategy_axis(const struct study *s)
{
    for (int a = 0; a < s->grid.naxes; a++)
        if (s->grid.axes[a].nids >= 2 && s->grid.axes[a].ids[0] == P_MAPPING)
            return a;
    return -1;
}

/* The makespans of kept strategy k against data scaling, ascending: how many points. */
static int curve(const struct study *s, int k, double *x, double *y, int max)
{
    int a = strategy_axis(s), n = 0;
    for (long i = 0; a >= 0 && i < s->n && n < max; i++) {
        json_t *v = s->results[i] ? json_object_get(s->results[i], "makespan") : NULL;
        if (grid_row(&s->grid, i, a) != k || !json_is_number(v))
            continue;
        x[n] = s->configs[i].data_scaling;
        y[n++] = json_number_value(v);
    }
    for (int i = 1; i < n; i++) /* insertion sort: a few dozen points */
        for (int j = i; j > 0 && x[j - 1] > x[j]; j--) {
            double tx = x[j], ty = y[j];
            x[j] = x[j - 1], y[j] = y[j - 1];
            x[j - 1] = tx, y[j - 1] = ty;
        }
    return n;
}

#define POINTS_MAX 64

/* Who is fastest where on the study's points (interpolated between them). */
static int fastest(const struct study *s, struct strategy_ranges *r, double *xs)
{
    static double y[STRATEGIES_MAX * POINTS_MAX];
    bool ok[STRATEGIES_MAX];
    int n = 0;
    for (int k = 0; k < picked.n; k++) {
        double x[POINTS_MAX], yk[POINTS_MAX];
        int nk = curve(s, k, x, yk, POINTS_MAX);
        if (k == 0 || nk < n) /* the points every strategy has */
            n = nk;
        ok[k] = nk > 0;
        for (int i = 0; i < nk; i++)
            y[k * POINTS_MAX + i] = yk[i], xs[i] = x[i];
    }
    /* strategy_fastest reads rows of n: pack them. */
    static double packed[STRATEGIES_MAX * POINTS_MAX];
    for (int k = 0; k < picked.n; k++)
        for (int i = 0; i < n; i++)
            packed[k * n + i] = y[k * POINTS_MAX + i];
    strategy_fastest(xs, n, packed, picked.n, ok, NULL, NULL, 0, r);
    return n;
}

void reproduce_strategies_draw(cairo_t *cr, double w, double h, const struct study *s)
{
    char title[160];
    snprintf(title, sizeof title,
             "Post hoc against in situ and in transit as the data grows (%ld nodes, %s)",
             s->base.nodes, s->model_only ? "model" : "SimGrid");
    chart_background(cr, w, h, title);
    double lo = INFINITY, hi = 0, x0 = INFINITY, x1 = 0;
    for (int k = 0; k < picked.n; k++) {
        double x[POINTS_MAX], y[POINTS_MAX];
        int n = curve(s, k, x, y, POINTS_MAX);
        for (int i = 0; i < n; i++)
            lo = fmin(lo, y[i]), hi = fmax(hi, y[i]), x0 = fmin(x0, x[i]), x1 = fmax(x1, x[i]);
    }
    if (!(hi > 0) || !(x1 > x0))
        lo = 1, hi = 10, x0 = 1, x1 = 1000;
    struct panel p;
    chart_panel(&p, cr, 0, 40, w * 0.72, h - 40, x0, x1, true, lo / 1.3, hi * 1.3, true);
    chart_axes(&p, "data scaling (multiplier on the bytes each analysis receives)", "makespan (s)",
               "Makespan", NULL, NULL, 0);
    int styles[STRATEGIES_MAX];
    const char *labels[STRATEGIES_MAX];
    for (int k = 0; k < picked.n; k++) {
        double x[POINTS_MAX], y[POINTS_MAX];
        chart_series(&p, k, x, y, curve(s, k, x, y, POINTS_MAX));
        styles[k] = k, labels[k] = picked.st[k].name;
    }
    struct strategy_ranges r;
    double xs[POINTS_MAX];
    fastest(s, &r, xs);
    for (int j = 0; j + 1 < r.n; j++) {
        char label[64], at[32];
        crossover_format(r.to[j], at, sizeof at);
        snprintf(label, sizeof label, "%s ~%s", picked.st[r.who[j + 1]].name, at);
        chart_vline(&p, r.to[j], label);
    }
    chart_legend(&p, CHART_LEGEND_AUTO, styles, labels, picked.n);
    /* Beside the plot: who is fastest where, and what was left out. */
    double tx = w * 0.74, ty = 80;
    cairo_set_source_rgb(cr, 0, 0, 0);
    chart_text(cr, tx, ty, "Fastest", 14, 0);
    for (int j = 0; j < r.n; j++) {
        char line[128], lo[32], hi[32];
        crossover_format_bound(r.from[j], j == 0, lo, sizeof lo);
        crossover_format_bound(r.to[j], j == r.n - 1, hi, sizeof hi);
        snprintf(line, sizeof line, "x%s to x%s: %s", lo, hi, picked.st[r.who[j]].name);
        chart_text(cr, tx, ty += 20, line, 12, 0);
    }
    if (picked.nskip) {
        chart_text(cr, tx, ty += 34, "Skipped (this build or platform)", 14, 0);
        for (int j = 0; j < picked.nskip; j++) {
            char line[48];
            const char *why = strstr(picked.skip[j], ": "); /* a name may hold ':' */
            snprintf(line, sizeof line, "%.*s", why ? (int)(why - picked.skip[j]) : 40,
                     picked.skip[j]);
            chart_text(cr, tx, ty += 20, line, 12, 0);
        }
    }
}

void reproduce_strategies_summary(const struct study *s, FILE *out, double alert)
{
    (void)alert;
    struct strategy_ranges r;
    double xs[POINTS_MAX];
    int n = fastest(s, &r, xs);
    fprintf(out,
            "Post hoc against in situ and in transit (%ld nodes, R = %ld, %s): makespan as the "
            "data grows.\n",
            s->base.nodes, s->base.ratio, s->model_only ? "the model" : "SimGrid");
    fprintf(out, "  strategies compared:");
    for (int k = 0; k < picked.n; k++)
        fprintf(out, "%s %s", k ? "," : "", picked.st[k].name);
    fprintf(out, "\n");
    for (int j = 0; j < picked.nskip; j++)
        fprintf(out, "  skipped %s\n", picked.skip[j]);
    if (!n || !r.n) {
        fprintf(out, "  no makespans to compare\n");
        return;
    }
    if (r.n == 1)
        fprintf(out, "  %s is fastest throughout, data scaling %g..%g\n", picked.st[r.who[0]].name,
                xs[0], xs[n - 1]);
    for (int j = 0; r.n > 1 && j < r.n; j++) {
        char lo[32], hi[32];
        crossover_format_bound(r.from[j], j == 0, lo, sizeof lo);
        crossover_format_bound(r.to[j], j == r.n - 1, hi, sizeof hi);
        fprintf(out, "  %s fastest from data scaling %s to %s%s\n", picked.st[r.who[j]].name, lo,
                hi, j + 1 < r.n ? "," : "");
    }
    /* What compression changes: each compressed strategy against its uncompressed twin. */
    for (int k = 0; k < picked.n; k++) {
        const struct strategy *c = &picked.st[k];
        for (int u = 0; c->compression > 1 && u < picked.n; u++) {
            const struct strategy *b = &picked.st[u];
            if (b->compression > 0 || b->mapping != c->mapping || b->dtl != c->dtl)
                continue;
            double xc[POINTS_MAX], yc[POINTS_MAX], xb[POINTS_MAX], yb[POINTS_MAX];
            int nc = curve(s, k, xc, yc, POINTS_MAX), nb = curve(s, u, xb, yb, POINTS_MAX);
            if (nc && nb && nc == nb)
                fprintf(out, "  %s takes %.3g of %s's makespan at data scaling %g, %.3g at %g\n",
                        c->name, yc[0] / yb[0], b->name, xb[0], yc[nc - 1] / yb[nb - 1],
                        xb[nb - 1]);
        }
    }
}
