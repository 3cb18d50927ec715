#include "report.h"

#include "model_reduce.h"
#include "result.h"
#include "sim_measure.h"
#include "../base/csv.h"
#include "../base/units.h"

#include <math.h>
#include <string.h>

json_t *report_params_json(const struct params *p)
{
    json_t *o = json_object();
    for (int id = 0; id < PARAM_COUNT; id++) {
        const struct param_desc *d = &param_table[id];
        json_t *v;
        if (d->type == PARAM_INT)
            v = json_integer((json_int_t)params_get_number(p, id));
        else if (d->type == PARAM_REAL)
            v = json_real(params_get_number(p, id));
        else {
            char buf[PARAMS_PATH_MAX];
            params_format(p, id, buf, sizeof buf);
            v = json_string(buf);
        }
        json_object_set_new(o, d->key, v);
    }
    return o;
}

int report_params_from_json(json_t *cfg, struct params *p, char *err, size_t errlen)
{
    params_defaults(p);
    const char *key;
    json_t *v, *by_id[PARAM_MAX] = {0};
    json_object_foreach(cfg, key, v)
    {
        int id = params_find(key);
        if (id < 0) {
            snprintf(err, errlen, "unknown parameter '%s': written by another version of Situ",
                     key);
            return -1;
        }
        if (by_id[id]) { /* "compute_scaling" and "compute-scaling": which one? */
            snprintf(err, errlen, "parameter '%s' given twice", param_table[id].key);
            return -1;
        }
        by_id[id] = v;
    }
    char perr[PARAMS_ERR_MAX], text[PARAMS_PATH_MAX];
    for (int id = 0; id < PARAM_COUNT; id++) {
        v = by_id[id];
        if (!v) {
            snprintf(err, errlen, "parameter '%s' missing: written by another version of Situ",
                     param_table[id].key);
            return -1;
        }
        const char *value = text;
        if (json_is_string(v))
            value = json_string_value(v); /* as is: params_set rejects what is too long */
        else if (json_is_integer(v))
            snprintf(text, sizeof text, "%lld", (long long)json_integer_value(v));
        else if (json_is_real(v))
            snprintf(text, sizeof text, "%.17g", json_real_value(v));
        else
            text[0] = 1, text[1] = 0; /* rejected by params_set below */
        if (params_set(p, id, value, perr) < 0) {
            snprintf(err, errlen, "%s", perr);
            return -1;
        }
    }
    return 0;
}

json_t *report_result_json(const struct params *p, const struct model_result *m)
{
    const struct stages *s = &m->stage;
    json_t *stage = json_pack("{s:f,s:f,s:f,s:f,s:f,s:f}", "S", s->S, "Ing", s->Ing, "R", s->R, "A",
                              s->A, "W", s->W, "C", s->C);
    json_t *o = json_pack("{s:f,s:I,s:I,s:i,s:i,s:i,s:I,s:o,s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:s}",
                          "particles", m->particles, "sim_cores", (json_int_t)m->sim_cores,
                          "analytics_cores", (json_int_t)m->ana_cores, "sim_nodes", m->sim_nodes,
                          "analytics_nodes", m->ana_nodes, "nodes_used", m->nodes_used, "steps",
                          (json_int_t)m->steps, "stage", stage, "halo", m->halo, "sim_active",
                          m->sim_active, "sim_idle", m->sim_idle, "analytics_active", m->ana_active,
                          "analytics_idle", m->ana_idle, "makespan", m->makespan, "efficiency",
                          m->efficiency, "scenario", model_scenario_name(m->scenario));
    /* The paper's eq. 5 is a model's alone: a measured makespan has no formula. */
    if (isfinite(m->makespan_eq5))
        json_object_set_new(o, "makespan_eq5", json_real(m->makespan_eq5));
    /* What each rank's state moves per step, after reduction (model_reduce.h). */
    json_object_set_new(o, "state_bytes_moved", json_real(m->state_moved));
    if (p->dtl == DTL_STAGING) { /* what the staging servers' memory did (model.h) */
        json_object_set_new(o, "staging_wait", json_real(m->staging_wait));
        json_object_set_new(o, "backpressure", json_boolean(m->backpressure));
    }
    char warning[1024];
    if (m->ana_active_drifted < m->ana_active)
        json_object_set_new(o, "analytics_active_drifted", json_real(m->ana_active_drifted));
    if (isfinite(m->makespan_eq5) && model_warning(m, warning, sizeof warning)[0]) /* a model's */
        json_object_set_new(o, "warning", json_string(warning));
    json_object_set_new(o, "config", report_params_json(p));
    return o;
}

void report_result_table(FILE *out, const char *title, const struct params *p,
                         const struct model_result *m)
{
    char a[64], b[64];
    fprintf(out, "%s\n", title);
    fprintf(out, "  configuration\n");
    for (int id = 0; id < PARAM_COUNT; id++) {
        char v[PARAMS_PATH_MAX];
        params_format(p, id, v, sizeof v);
        if (!v[0])
            continue;
        fprintf(out, "    %-18s %s %s%s\n", param_table[id].key, v, param_table[id].unit,
                id == P_RATIO && p->mapping == MAPPING_INLINE ? " (ignored: mapping=inline)" : "");
    }
    fprintf(out, "  placement\n");
    fprintf(out, "    %-18s %.0f\n", "particles", m->particles);
    fprintf(out, "    %-18s %ld on %d node(s)\n", "simulation cores", m->sim_cores, m->sim_nodes);
    if (m->scenario == SCENARIO_INLINE)
        fprintf(out, "    %-18s none: each rank analyses its own part (inline)\n",
                "analytics cores");
    else
        fprintf(out, "    %-18s %ld on %d node(s)\n", "analytics cores", m->ana_cores,
                m->ana_nodes);
    fprintf(out, "    %-18s %ld (+%ld trailing iterations)\n", "steps", m->steps,
            m->tail_iterations);
    fprintf(out, "  per step\n");
    const struct stages *s = &m->stage;
    const char *names[] = {"S (simulate)", "Ing (ingest)",     "R (retrieve)",
                           "A (analyse)",  "W (send metrics)", "C (collect)"};
    double values[] = {s->S, s->Ing, s->R, s->A, s->W, s->C};
    for (int i = 0; i < 6; i++)
        fprintf(out, "    %-18s %s\n", names[i], units_time(values[i], a, sizeof a));
    fprintf(out, "    %-18s %s of S\n", "halo", units_time(m->halo, a, sizeof a));
    fprintf(out, "    %-18s %.6g B per rank%s\n", "state moved", m->state_moved,
            reduce_on(p) && m->scenario != SCENARIO_INLINE ? " (after reduction)" : "");
    fprintf(out, "  over the run          active        idle\n");
    fprintf(out, "    %-18s %-13s %s\n", "simulation", units_time(m->sim_active, a, sizeof a),
            units_time(m->sim_idle, b, sizeof b));
    fprintf(out, "    %-18s %-13s %s%s\n", "analytics", units_time(m->ana_active, a, sizeof a),
            units_time(m->ana_idle, b, sizeof b),
            m->scenario == SCENARIO_INLINE ? "   (on the simulation's cores)" : "");
    fprintf(out, "  %-20s %s\n", "makespan", units_time(m->makespan, a, sizeof a));
    if (isfinite(m->makespan_eq5))
        fprintf(out, "  %-20s %s\n", "  paper's eq. 5", units_time(m->makespan_eq5, a, sizeof a));
    if (p->dtl == DTL_STAGING)
        fprintf(out, "  %-20s %s per step for room on the servers%s\n", "back-pressure",
                units_time(m->staging_wait, a, sizeof a),
                m->backpressure ? ": it sets the pace" : "");
    fprintf(out, "  %-20s %.4f\n", "efficiency", m->efficiency);
    fprintf(out, "  %-20s %s (%s)\n", "scenario", model_scenario_name(m->scenario),
            m->scenario == SCENARIO_IS   ? "the simulation waits for the analytics"
            : m->scenario == SCENARIO_IA ? "the analytics waits for the simulation"
            : m->scenario == SCENARIO_INLINE
                ? "the analysis is time taken from the simulation; no idle between them"
                : "no idle time");
    char warning[1024];
    if (isfinite(m->makespan_eq5) && model_warning(m, warning, sizeof warning)[0]) /* a model's */
        fprintf(out, "  warning: %s\n", warning);
}

int report_print_json(FILE *out, json_t *v)
{
    char *text = json_dumps(v, JSON_COMPACT | JSON_REAL_PRECISION(12));
    if (!text)
        return -1;
    int rc = fprintf(out, "%s\n", text) < 0 ? -1 : 0;
    free(text);
    return rc;
}

/* clang-format off */
const struct report_column report_columns[] = {
    {"particles", "particles", REPORT_NUMBER, REPORT_ALWAYS},
    {"sim_cores", "sim_cores", REPORT_NUMBER, REPORT_ALWAYS},
    {"analytics_cores", "analytics_cores", REPORT_NUMBER, REPORT_ALWAYS},
    {"steps", "steps", REPORT_NUMBER, REPORT_ALWAYS},
    {"S", "stage.S", REPORT_NUMBER, REPORT_ALWAYS},
    {"Ing", "stage.Ing", REPORT_NUMBER, REPORT_ALWAYS},
    {"R", "stage.R", REPORT_NUMBER, REPORT_ALWAYS},
    {"A", "stage.A", REPORT_NUMBER, REPORT_ALWAYS},
    {"W", "stage.W", REPORT_NUMBER, REPORT_ALWAYS},
    {"C", "stage.C", REPORT_NUMBER, REPORT_ALWAYS},
    {"sim_active", "sim_active", REPORT_NUMBER, REPORT_ALWAYS},
    {"sim_idle", "sim_idle", REPORT_NUMBER, REPORT_ALWAYS},
    {"analytics_active", "analytics_active", REPORT_NUMBER, REPORT_ALWAYS},
    {"analytics_idle", "analytics_idle", REPORT_NUMBER, REPORT_ALWAYS},
    {"makespan", "makespan", REPORT_NUMBER, REPORT_ALWAYS},
    {"makespan_eq5", "makespan_eq5", REPORT_NUMBER, REPORT_MODELLED},
    {"efficiency", "efficiency", REPORT_NUMBER, REPORT_ALWAYS},
    {"scenario", "scenario", REPORT_TEXT, REPORT_ALWAYS},
    {"wall_seconds", "wall_seconds", REPORT_NUMBER, REPORT_OPTIONAL},
    {"activities", "activities", REPORT_NUMBER, REPORT_OPTIONAL},
    /* Every result since reduction has it (a model's and a simulation's alike); optional for
     * the lines of older versions that `situ merge` still reads. */
    {"state_bytes_moved", "state_bytes_moved", REPORT_NUMBER, REPORT_OPTIONAL},
    {"staging_wait", "staging_wait", REPORT_NUMBER, REPORT_OPTIONAL},   /* dtl=staging's */
    {"backpressure", "backpressure", REPORT_BOOL, REPORT_OPTIONAL},     /* dtl=staging's */
    {"steps_simulated", "sampling.steps_simulated", REPORT_NUMBER, REPORT_OPTIONAL},
    {"sampling_error", "sampling.error", REPORT_NUMBER, REPORT_OPTIONAL},
    {NULL, NULL, REPORT_NUMBER, REPORT_ALWAYS},
};
/* clang-format on */

json_t *report_column_get(json_t *r, const struct report_column *c)
{
    const char *dot = strchr(c->path, '.');
    if (!dot)
        return json_object_get(r, c->path);
    char head[32];
    snprintf(head, sizeof head, "%.*s", (int)(dot - c->path), c->path);
    return json_object_get(json_object_get(r, head), dot + 1);
}

void report_csv_value(FILE *f, json_t *v)
{
    if (json_is_string(v))
        csv_field(f, json_string_value(v));
    else if (json_is_integer(v))
        fprintf(f, "%lld", (long long)json_integer_value(v));
    else if (json_is_number(v))
        fprintf(f, "%.12g", json_number_value(v));
    else if (json_is_boolean(v))
        fputs(json_is_true(v) ? "true" : "false", f);
}

/* "per_step": one core of each component's active and idle seconds at every step (a NULL array:
 * an empty list). */
static json_t *per_step_json(const double *const arrays[4], long steps)
{
    static const char *const keys[] = {"sim_active", "sim_idle", "analytics_active",
                                       "analytics_idle"};
    json_t *o = json_object();
    for (int k = 0; o && k < 4; k++) {
        json_t *a = json_array();
        for (long i = 0; a && arrays[k] && i < steps; i++)
            json_array_append_new(a, json_real(arrays[k][i]));
        json_object_set_new(o, keys[k], a);
    }
    return o;
}

/* A simulation's JSON: the model's keys, then what only a simulation measures. */
json_t *report_sim_json(const struct params *p, const struct sim_measure *r, double alert)
{
    json_t *o = report_result_json(p, &r->m);
    json_object_set_new(o, "wall_seconds", json_real(r->wall_seconds));
    json_object_set_new(o, "activities", json_integer(r->activities));
    json_object_set_new(o, "fidelity", json_string(param_table[P_FIDELITY].choices[r->fidelity]));
    json_object_set_new(o, "sampling",
                        json_pack("{s:I,s:f}", "steps_simulated", (json_int_t)r->steps_simulated,
                                  "error", r->sampling_error));
    if (r->warning[0])
        json_object_set_new(o, "warning", json_string(r->warning));
    const double *arrays[] = {r->sim_active, r->sim_idle, r->ana_active, r->ana_idle};
    json_object_set_new(o, "per_step", per_step_json(arrays, r->steps));
    json_t *links = json_array();
    for (int i = 0; i < r->nlinks; i++)
        json_array_append_new(
            links, json_pack("{s:s,s:s,s:f,s:f,s:f,s:b}", "name", r->links[i].name, "place",
                             r->links[i].place, "bytes", r->links[i].bytes, "bandwidth",
                             r->links[i].bandwidth, "utilisation", r->links[i].utilisation, "alert",
                             r->links[i].utilisation > alert));
    json_object_set_new(o, "links", links);
    json_object_set_new(o, "alert_threshold", json_real(alert));
    json_object_set_new(o, "conservation",
                        json_pack("{s:I,s:I,s:I,s:I}", "puts", (json_int_t)r->puts, "gets",
                                  (json_int_t)r->gets, "metrics_delivered",
                                  (json_int_t)r->metrics_delivered, "analyses",
                                  (json_int_t)r->analyses));
    return o;
}

json_t *report_sim_result_json(const struct params *p, const struct sim_result *r)
{
    json_t *o = report_result_json(p, &r->m);
    if (!o)
        return NULL;
    if (r->wall_seconds >= 0)
        json_object_set_new(o, "wall_seconds", json_real(r->wall_seconds));
    if (r->activities >= 0)
        json_object_set_new(o, "activities", json_integer(r->activities));
    if (r->fidelity[0])
        json_object_set_new(o, "fidelity", json_string(r->fidelity));
    const double *arrays[] = {r->step_sim_active, r->step_sim_idle, r->step_ana_active,
                              r->step_ana_idle};
    json_object_set_new(o, "per_step", per_step_json(arrays, r->nsteps));
    json_t *links = json_array();
    for (int i = 0; links && i < r->nlinks; i++)
        json_array_append_new(links,
                              json_pack("{s:s,s:f,s:f}", "name", r->links[i].name, "bytes",
                                        r->links[i].bytes, "utilisation", r->links[i].utilisation));
    json_object_set_new(o, "links", links);
    return o;
}

double report_link_alert = REPORT_ALERT_DEFAULT;

int report_alert_parse(const char *text, double *out, char *err, size_t errlen)
{
    char *end = NULL;
    double u = text ? strtod(text, &end) : NAN;
    if (!text || end == text || *end || !(u > 0 && u <= 1)) {
        snprintf(err, errlen, "alert: '%s' is not valid; expected a utilisation in (0, 1]",
                 text ? text : "");
        return -1;
    }
    *out = u;
    return 0;
}
