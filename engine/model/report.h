/* Results as JSON (jansson) and as an aligned table. One writer for the model and the engine, so
 * `situ model --json` and `situ run --json` share their keys. */
#ifndef SITU_REPORT_H
#define SITU_REPORT_H

#include <jansson.h>
#include <stdio.h>

#include "model.h"
#include "params.h"

/* The configuration as a JSON object keyed by the parameter table. */
json_t *report_params_json(const struct params *p);

/* The reverse: every parameter of the table, and nothing else, each checked as on the command
 * line (so a file written by another version is refused, not misread). -1 with a reason. */
int report_params_from_json(json_t *cfg, struct params *p, char *err, size_t errlen);

/* The model's (or a measurement's) common keys: particles, sim_cores, ..., scenario, config. */
json_t *report_result_json(const struct params *p, const struct model_result *m);

/* The aligned human table; `title` heads it ("model", "simulation"). */
void report_result_table(FILE *out, const char *title, const struct params *p,
                         const struct model_result *m);

/* The result columns of a study's CSV (`situ sweep`, `situ merge`, situ.csv), after the
 * parameters' and in this order: the one home of their names, of where each value is in a
 * result's JSON (report_result_json, report_sim_json) and of which results have it. New columns
 * go at the end, so that a script reading the old ones by position reads them still. */
enum report_column_kind { REPORT_NUMBER, REPORT_TEXT, REPORT_BOOL };
enum report_column_presence {
    REPORT_ALWAYS,   /* in every result */
    REPORT_MODELLED, /* in every model's result (eq. 5, a formula); a simulation's has none */
    REPORT_OPTIONAL, /* where it applies: a simulation's measures (wall time, sampling), the
                      * staging servers' (dtl=staging); an empty field elsewhere */
};
struct report_column {
    const char *name; /* the header's */
    const char *path; /* the JSON's, dotted: "makespan", "stage.S", "sampling.error" */
    enum report_column_kind kind;
    enum report_column_presence presence;
};
extern const struct report_column report_columns[]; /* ends with a NULL name */

/* Column c's value in result r; NULL where r has none. */
json_t *report_column_get(json_t *r, const struct report_column *c);

/* A column's value as a CSV field: text quoted as csv_field (engine/base/csv.h), an integer as is,
 * a real to 12 significant digits, a boolean true or false, nothing for NULL. */
void report_csv_value(FILE *out, json_t *v);

/* Prints a JSON value on one line followed by a newline; -1 if it cannot be rendered (a value
 * that is not finite) or written. No flush: the caller's commit or exit check sees the error
 * with its errno (a flush here would leave only the error flag). */
int report_print_json(FILE *out, json_t *v);

struct sim_measure;

/* Links whose mean utilisation is above this are flagged ("alert" in JSON, ALERT in tables), as
 * INAM's threshold notifications do. A rendering option, not a parameter (--alert U): the
 * simulation child renders with the value its parent was given. */
#define REPORT_ALERT_DEFAULT      0.75
#define REPORT_ALERT_DEFAULT_TEXT REPORT_STRINGIFY(REPORT_ALERT_DEFAULT) /* for help texts */
#define REPORT_STRINGIFY(x)       REPORT_STRINGIFY_(x)
#define REPORT_STRINGIFY_(x)      #x
extern double report_link_alert;

/* Reads an --alert value: a utilisation in (0, 1]. -1 with a one-line reason in err. */
int report_alert_parse(const char *text, double *out, char *err, size_t errlen);

/* A simulation's result as `situ run --json` prints it: report_result_json's keys, then the
 * wall time, per-step arrays, links (flagged above `alert` utilisation) and conservation counts.
 * Rendering lives here, not in the simulation (sim.c only measures). */
json_t *report_sim_json(const struct params *p, const struct sim_measure *r, double alert);

struct sim_result;

/* The same from a parsed result (result.h), with the keys struct sim_result carries: what
 * scenarios get from situ.run in the explorer, as headless. NULL if out of memory. */
json_t *report_sim_result_json(const struct params *p, const struct sim_result *r);

#endif
