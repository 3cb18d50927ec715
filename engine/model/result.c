#include "result.h"

#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "params.h"

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* A number under `key`: required ones must exist; present ones must be finite numbers. Returns 1
 * if read, 0 if absent (optional), -1 on error. */
static int get_number(json_t *o, const char *key, bool required, double *out, char *err,
                      size_t errlen)
{
    json_t *v = json_object_get(o, key);
    if (!v)
        return required ? fail(err, errlen, "key '%s' is missing", key) : 0;
    if (!json_is_number(v))
        return fail(err, errlen, "key '%s' is not a number", key);
    double d = json_number_value(v);
    if (!isfinite(d))
        return fail(err, errlen, "key '%s' is not a finite number", key);
    *out = d;
    return 1;
}

static int get_count(json_t *o, const char *key, bool required, long *out, char *err, size_t errlen)
{
    double d = 0;
    int rc = get_number(o, key, required, &d, err, errlen);
    if (rc <= 0)
        return rc;
    if (d != floor(d) || d < 0 || d > 1e15)
        return fail(err, errlen, "key '%s' is not a non-negative integer", key);
    *out = (long)d;
    return 1;
}

static int read_model(json_t *o, struct model_result *m, char *err, size_t errlen)
{
    /* What every view needs is required; the rest of report_result_json's keys are optional so
     * that a simulation which cannot measure, say, the halo part still reports. */
    struct {
        const char *key;
        double *out;
        bool required;
    } reals[] = {
        {"makespan", &m->makespan, true},
        {"efficiency", &m->efficiency, true},
        {"sim_active", &m->sim_active, true},
        {"sim_idle", &m->sim_idle, true},
        {"analytics_active", &m->ana_active, true},
        {"analytics_idle", &m->ana_idle, true},
        {"particles", &m->particles, false},
        {"halo", &m->halo, false},
        {"makespan_eq5", &m->makespan_eq5, false},
        {"analytics_active_drifted", &m->ana_active_drifted, false},
        {"state_bytes_moved", &m->state_moved, false},
        {"staging_wait", &m->staging_wait, false}, /* dtl=staging's */
    };
    m->makespan_eq5 = NAN;       /* a model's alone: a measured result has none */
    m->ana_active_drifted = NAN; /* only where the actors may drift apart: see below */
    for (size_t i = 0; i < sizeof reals / sizeof reals[0]; i++)
        if (get_number(o, reals[i].key, reals[i].required, reals[i].out, err, errlen) < 0)
            return -1;
    if (isnan(m->ana_active_drifted))
        m->ana_active_drifted = m->ana_active;
    m->backpressure = json_is_true(json_object_get(o, "backpressure"));
    long sim_nodes = 0, ana_nodes = 0, nodes_used = 0;
    if (get_count(o, "steps", true, &m->steps, err, errlen) < 0 ||
        get_count(o, "sim_cores", true, &m->sim_cores, err, errlen) < 0 ||
        get_count(o, "analytics_cores", true, &m->ana_cores, err, errlen) < 0 ||
        get_count(o, "sim_nodes", false, &sim_nodes, err, errlen) < 0 ||
        get_count(o, "analytics_nodes", false, &ana_nodes, err, errlen) < 0 ||
        get_count(o, "nodes_used", false, &nodes_used, err, errlen) < 0)
        return -1;
    m->sim_nodes = (int)sim_nodes;
    m->ana_nodes = (int)ana_nodes;
    m->nodes_used = (int)nodes_used;

    json_t *sc = json_object_get(o, "scenario");
    if (!sc)
        return fail(err, errlen, "key 'scenario' is missing");
    const char *name = json_string_value(sc);
    if (!name)
        return fail(err, errlen, "key 'scenario' is not a string");
    if (!strcmp(name, "IS"))
        m->scenario = SCENARIO_IS;
    else if (!strcmp(name, "IA"))
        m->scenario = SCENARIO_IA;
    else if (!strcmp(name, "balanced"))
        m->scenario = SCENARIO_BALANCED;
    else if (!strcmp(name, "inline"))
        m->scenario = SCENARIO_INLINE;
    else
        return fail(err, errlen, "key 'scenario' is '%.20s'; expected IS, IA, balanced or inline",
                    name);

    json_t *st = json_object_get(o, "stage");
    if (st && !json_is_object(st))
        return fail(err, errlen, "key 'stage' is not an object");
    if (st) {
        const char *keys[] = {"S", "Ing", "R", "A", "W", "C"};
        double *outs[] = {&m->stage.S, &m->stage.Ing, &m->stage.R,
                          &m->stage.A, &m->stage.W,   &m->stage.C};
        char full[32];
        for (int i = 0; i < 6; i++) {
            snprintf(full, sizeof full, "stage.%s", keys[i]);
            json_t *v = json_object_get(st, keys[i]);
            if (v && !json_is_number(v))
                return fail(err, errlen, "key '%s' is not a number", full);
            if (v)
                *outs[i] = json_number_value(v);
        }
    }
    return 0;
}

static int read_per_step(json_t *o, struct sim_result *r, char *err, size_t errlen)
{
    json_t *ps = json_object_get(o, "per_step");
    if (!ps)
        return 0;
    if (!json_is_object(ps))
        return fail(err, errlen, "key 'per_step' is not an object");
    const char *keys[] = {"sim_active", "sim_idle", "analytics_active", "analytics_idle"};
    json_t *arr[4];
    size_t n = 0;
    for (int k = 0; k < 4; k++) {
        arr[k] = json_object_get(ps, keys[k]);
        if (!json_is_array(arr[k]))
            return fail(err, errlen, "key 'per_step.%s' is %s", keys[k],
                        arr[k] ? "not an array" : "missing");
        if (k == 0)
            n = json_array_size(arr[k]);
        else if (json_array_size(arr[k]) != n)
            return fail(err, errlen, "per_step arrays differ in length (%s has %zu, not %zu)",
                        keys[k], json_array_size(arr[k]), n);
    }
    if (n == 0)
        return 0;
    double *all = malloc(4 * n * sizeof *all);
    if (!all)
        return fail(err, errlen, "out of memory for %zu steps", n);
    for (int k = 0; k < 4; k++) {
        for (size_t i = 0; i < n; i++) {
            json_t *v = json_array_get(arr[k], i);
            if (!json_is_number(v) || !isfinite(json_number_value(v))) {
                free(all);
                return fail(err, errlen, "per_step.%s[%zu] is not a number", keys[k], i);
            }
            all[k * n + i] = json_number_value(v);
        }
    }
    r->nsteps = (long)n;
    r->step_sim_active = all;
    r->step_sim_idle = all + n;
    r->step_ana_active = all + 2 * n;
    r->step_ana_idle = all + 3 * n;
    return 0;
}

static int read_links(json_t *o, struct sim_result *r, char *err, size_t errlen)
{
    json_t *links = json_object_get(o, "links");
    if (!links)
        return 0;
    if (!json_is_array(links))
        return fail(err, errlen, "key 'links' is not an array");
    size_t n = json_array_size(links);
    if (n == 0)
        return 0;
    r->links = calloc(n, sizeof *r->links);
    if (!r->links)
        return fail(err, errlen, "out of memory for %zu links", n);
    for (size_t i = 0; i < n; i++) {
        json_t *l = json_array_get(links, i);
        char what[32];
        snprintf(what, sizeof what, "links[%zu]", i);
        if (!json_is_object(l))
            return fail(err, errlen, "%s is not an object", what);
        const char *name = json_string_value(json_object_get(l, "name"));
        if (!name)
            return fail(err, errlen, "%s.name is missing or not a string", what);
        snprintf(r->links[i].name, sizeof r->links[i].name, "%s", name);
        const char *place = json_string_value(json_object_get(l, "place")); /* optional */
        snprintf(r->links[i].place, sizeof r->links[i].place, "%s", place ? place : "");
        if (get_number(l, "bytes", true, &r->links[i].bytes, err, errlen) < 0 ||
            get_number(l, "utilisation", true, &r->links[i].utilisation, err, errlen) < 0) {
            /* Name the link in the reason: "links[2]: key 'bytes' is missing". */
            char inner[RESULT_ERR_MAX];
            snprintf(inner, sizeof inner, "%s", err ? err : "");
            return fail(err, errlen, "%s: %s", what, inner);
        }
        r->nlinks = (int)i + 1;
    }
    return 0;
}

static int read_extras(json_t *o, struct sim_result *r, char *err, size_t errlen)
{
    if (get_number(o, "wall_seconds", false, &r->wall_seconds, err, errlen) < 0 ||
        get_count(o, "activities", false, &r->activities, err, errlen) < 0)
        return -1;
    json_t *f = json_object_get(o, "fidelity");
    if (f && !json_is_string(f))
        return fail(err, errlen, "key 'fidelity' is not a string");
    if (f)
        snprintf(r->fidelity, sizeof r->fidelity, "%s", json_string_value(f));
    json_t *smp = json_object_get(o, "sampling"); /* optional: older results have none */
    if (smp && !json_is_object(smp))
        return fail(err, errlen, "key 'sampling' is not an object");
    char why[RESULT_ERR_MAX];
    if (smp && (get_count(smp, "steps_simulated", true, &r->steps_simulated, why, sizeof why) < 0 ||
                get_number(smp, "error", false, &r->sampling_error, why, sizeof why) < 0))
        return fail(err, errlen, "sampling: %s", why);
    const char *w = json_string_value(json_object_get(o, "warning")); /* optional */
    snprintf(r->warning, sizeof r->warning, "%s", w ? w : "");
    if (read_per_step(o, r, err, errlen) < 0)
        return -1;
    return read_links(o, r, err, errlen);
}

json_t *result_load(const char *text, size_t len, char *err, size_t errlen)
{
    size_t start = 0;
    while (start < len && (text[start] == ' ' || text[start] == '\t' || text[start] == '\n' ||
                           text[start] == '\r'))
        start++;
    if (start == len) {
        fail(err, errlen, "no output");
        return NULL;
    }
    json_error_t je;
    json_t *o = json_loadb(text + start, len - start, JSON_REJECT_DUPLICATES, &je);
    if (!o) {
        /* Quote the start of the line: it is usually what tells a user what went wrong. */
        char head[41];
        size_t n = len - start < 40 ? len - start : 40;
        memcpy(head, text + start, n);
        head[n] = 0;
        for (char *c = head; *c; c++)
            if (*c == '\n' || *c == '\r' || *c == '\t')
                *c = ' ';
        fail(err, errlen, "not JSON (%s at line %d column %d): '%s%s'", je.text, je.line, je.column,
             head, len - start > 40 ? "..." : "");
        /* jansson quotes the offending token as is: keep the reason on one line. */
        for (char *c = err; c && *c; c++)
            if ((unsigned char)*c < 0x20)
                *c = ' ';
        return NULL;
    }
    return o;
}

int result_from_json(json_t *o, struct sim_result *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    r->wall_seconds = -1;
    r->activities = -1;
    r->steps_simulated = -1;
    int rc = -1;
    if (!json_is_object(o))
        fail(err, errlen, "expected a JSON object, got %s",
             json_is_array(o) ? "an array" : "a scalar");
    else if (read_model(o, &r->m, err, errlen) == 0 && read_extras(o, r, err, errlen) == 0)
        rc = 0;
    if (rc < 0)
        result_free(r);
    return rc;
}

int result_parse(const char *text, size_t len, struct sim_result *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    json_t *o = result_load(text, len, err, errlen);
    if (!o)
        return -1;
    int rc = result_from_json(o, r, err, errlen);
    json_decref(o);
    return rc;
}

int result_copy(struct sim_result *dst, const struct sim_result *src)
{
    *dst = *src;
    dst->step_sim_active = dst->step_sim_idle = dst->step_ana_active = dst->step_ana_idle = NULL;
    dst->links = NULL;
    if (src->nsteps > 0) {
        size_t n = (size_t)src->nsteps;
        double *all = malloc(4 * n * sizeof *all);
        if (!all)
            goto oom;
        memcpy(all, src->step_sim_active, n * sizeof *all);
        memcpy(all + n, src->step_sim_idle, n * sizeof *all);
        memcpy(all + 2 * n, src->step_ana_active, n * sizeof *all);
        memcpy(all + 3 * n, src->step_ana_idle, n * sizeof *all);
        dst->step_sim_active = all;
        dst->step_sim_idle = all + n;
        dst->step_ana_active = all + 2 * n;
        dst->step_ana_idle = all + 3 * n;
    }
    if (src->nlinks > 0) {
        dst->links = malloc((size_t)src->nlinks * sizeof *dst->links);
        if (!dst->links)
            goto oom;
        memcpy(dst->links, src->links, (size_t)src->nlinks * sizeof *dst->links);
    }
    return 0;
oom:
    result_free(dst);
    return -1;
}

void result_free(struct sim_result *r)
{
    free(r->step_sim_active); /* the one allocation behind all four arrays */
    free(r->links);
    r->step_sim_active = r->step_sim_idle = r->step_ana_active = r->step_ana_idle = NULL;
    r->links = NULL;
    r->nsteps = 0;
    r->nlinks = 0;
}

double result_step_mean(const struct sim_result *r, const double *steps)
{
    if (!steps || r->nsteps <= 0)
        return -1;
    double sum = 0;
    for (long i = 0; i < r->nsteps; i++)
        sum += steps[i];
    return sum / (double)r->nsteps;
}

int result_fidelity(const struct sim_result *r)
{
    const char *const *c = param_table[P_FIDELITY].choices;
    for (int i = 0; c[i]; i++)
        if (!strcmp(r->fidelity, c[i]))
            return i;
    return -1;
}

const char *result_engine(const struct sim_result *r)
{
    int f = result_fidelity(r);
    if (f == FIDELITY_FULL && r->steps_simulated > 0 && r->steps_simulated < r->m.steps)
        return "full sampled";
    return f >= 0 ? param_table[P_FIDELITY].choices[f] : "SimGrid";
}
