#include "grid.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    char *e = s + strlen(s);
    while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
        *--e = 0;
    return s;
}

static int push_row(struct grid_axis *a, char **row)
{
    if (a->n >= GRID_MAX_VALUES)
        return -1;
    char **grown = realloc(a->values, sizeof(char *) * (size_t)(a->n + 1) * a->nids);
    if (!grown)
        return -1;
    a->values = grown;
    for (int i = 0; i < a->nids; i++)
        if (!(a->values[a->n * a->nids + i] = strdup(row[i])))
            return -1;
    a->n++;
    return 0;
}

/* "A..B", "A..B+S", "A..BxF" into numbers; false if `item` is not a well-formed range. */
static bool parse_range(char *item, double *lo, double *hi, double *step, char *op)
{
    char *dots = strstr(item, ".."), *end;
    if (!dots)
        return false;
    *dots = 0;
    errno = 0;
    *lo = strtod(item, &end);
    bool ok = end != item && !*end;
    char *rest = dots + 2;
    *hi = strtod(rest, &end);
    ok = ok && end != rest;
    *op = *end ? *end : '+';
    *step = 1;
    if (*end) {
        char *s = end + 1;
        *step = strtod(s, &end);
        ok = ok && end != s && !*end;
    }
    return ok && !errno && isfinite(*lo) && isfinite(*hi) && isfinite(*step) && *hi >= *lo &&
           (*op == '+' ? *step > 0 : *op == 'x' && *step > 1 && *lo > 0);
}

int grid_add_axis(struct grid *s, const char *keys, const char *list, char *err, size_t errlen)
{
    struct grid_axis fresh = {0};
    if ((fresh.nids = params_find_linked(keys, fresh.ids, GRID_MAX_LINKED, err, errlen)) < 0)
        return -1;
    for (int k = 0; k < s->naxes; k++)
        for (int i = 0; i < s->axes[k].nids; i++)
            for (int j = 0; j < fresh.nids; j++)
                if (s->axes[k].ids[i] == fresh.ids[j]) {
                    snprintf(err, errlen, "%s: given twice", param_table[fresh.ids[j]].key);
                    return -1;
                }
    char *copy = strdup(list);
    int rc = copy ? 0 : -1;
    char *save = NULL;
    for (char *item = copy ? strtok_r(copy, ",", &save) : NULL; item && rc == 0;
         item = strtok_r(NULL, ",", &save)) {
        item = trim(item);
        char *row[GRID_MAX_LINKED];
        if (fresh.nids > 1) { /* linked values "20:1" */
            int n = 0;
            char *vs = NULL;
            /* Count every value: "20:1:5" for two keys is an error, not "20:1". */
            for (char *v = strtok_r(item, ":", &vs); v; v = strtok_r(NULL, ":", &vs))
                if (n++ < fresh.nids)
                    row[n - 1] = v;
            if (n != fresh.nids) {
                snprintf(err, errlen, "%s: '%s' needs %d values joined by ':'", keys, item,
                         fresh.nids);
                rc = -2;
                break;
            }
            rc = push_row(&fresh, row);
            continue;
        }
        enum param_type t = param_table[fresh.ids[0]].type;
        double lo, hi, step;
        char op;
        if (!strstr(item, "..") || t == PARAM_PATH || t == PARAM_CHOICE) {
            row[0] = item;
            rc = push_row(&fresh, row);
            continue;
        }
        char shown[128];
        snprintf(shown, sizeof shown, "%s", item);
        if (!parse_range(item, &lo, &hi, &step, &op)) {
            snprintf(err, errlen,
                     "%s: '%s' is not a range; expected A..B, A..B+STEP or A..BxFACTOR "
                     "with A <= B",
                     keys, shown);
            rc = -2;
            break;
        }
        for (double v = lo; v <= hi * (1 + 1e-12) && rc == 0; v = op == '+' ? v + step : v * step) {
            char text[64];
            snprintf(text, sizeof text, "%.15g", v);
            row[0] = text;
            rc = push_row(&fresh, row);
        }
    }
    free(copy);
    if (rc == 0 && fresh.n == 0) {
        snprintf(err, errlen, "%s: empty list", keys);
        rc = -2;
    }
    if (rc == -1)
        snprintf(err, errlen, "%s: more than %d values", keys, GRID_MAX_VALUES);
    if (rc < 0) {
        for (int v = 0; v < fresh.n * fresh.nids; v++)
            free(fresh.values[v]);
        free(fresh.values);
        return -1;
    }
    s->axes[s->naxes++] = fresh;
    return 0;
}

void grid_free(struct grid *g)
{
    for (int k = 0; k < g->naxes; k++) {
        for (int v = 0; v < g->axes[k].n * g->axes[k].nids; v++)
            free(g->axes[k].values[v]);
        free(g->axes[k].values);
    }
    g->naxes = 0;
}

long grid_size(const struct grid *g, long max)
{
    long total = 1;
    for (int k = 0; k < g->naxes; k++) {
        total *= g->axes[k].n;
        if (total > max)
            return -1;
    }
    return total;
}

int grid_row(const struct grid *g, long n, int k)
{
    for (int j = g->naxes - 1; j > k; j--)
        n /= g->axes[j].n;
    return (int)(n % g->axes[k].n);
}

int grid_apply(const struct grid *g, long n, struct params *p, char *err)
{
    for (int k = g->naxes - 1; k >= 0; k--) {
        const struct grid_axis *a = &g->axes[k];
        int row = (int)(n % a->n);
        n /= a->n;
        for (int i = 0; i < a->nids; i++)
            if (params_set(p, a->ids[i], a->values[row * a->nids + i], err) < 0)
                return -1;
    }
    return 0;
}

int grid_apply_from(const struct grid *g, long n, long prev, struct params *p, char *err)
{
    for (int k = g->naxes - 1; k >= 0; k--) {
        const struct grid_axis *a = &g->axes[k];
        int row = (int)(n % a->n);
        bool same = prev >= 0 && row == (int)(prev % a->n);
        n /= a->n;
        prev = prev >= 0 ? prev / a->n : -1;
        for (int i = 0; !same && i < a->nids; i++)
            if (params_set(p, a->ids[i], a->values[row * a->nids + i], err) < 0)
                return -1;
    }
    return 0;
}

void grid_describe(const struct grid *g, const struct params *p, char *out, size_t len)
{
    size_t used = 0;
    out[0] = 0;
    for (int k = 0; k < g->naxes && used < len; k++)
        for (int i = 0; i < g->axes[k].nids && used < len; i++) {
            char v[PARAMS_PATH_MAX];
            int id = g->axes[k].ids[i];
            params_format(p, id, v, sizeof v);
            used += snprintf(out + used, len - used, "%s%s=%s", used ? " " : "",
                             param_table[id].key, v);
        }
}

void grid_axis_name(const struct grid_axis *ax, char *out, size_t len)
{
    size_t used = 0;
    out[0] = 0;
    for (int i = 0; i < ax->nids && used < len; i++)
        used += snprintf(out + used, len - used, "%s%s", i ? ":" : "", param_table[ax->ids[i]].key);
}

void grid_axis_value(const struct grid_axis *ax, int r, char *out, size_t len)
{
    size_t used = 0;
    out[0] = 0;
    for (int i = 0; i < ax->nids && used < len; i++)
        used +=
            snprintf(out + used, len - used, "%s%s", i ? ":" : "", ax->values[r * ax->nids + i]);
}
