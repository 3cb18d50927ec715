#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../engine/base/flag.h"
#include "../engine/model/model.h"
#include "../engine/base/outfile.h"
#include "../engine/model/report.h"
#include "../engine/model/result.h"
#include "../engine/run/sim_pool.h"
#include "cli.h"

static void usage(void)
{
    printf(
        "usage: situ run [--PARAM VALUE ...] [--json]\n"
        "       situ run --smpi-app ./APP [ARG ...] [--] [--PARAM VALUE ...] [--json]\n\n"
        "Simulates one configuration with SimGrid: every simulation rank, analytics actor and\n"
        "the metric collector as actors on the platform, with the DTL between them. Prints the\n"
        "measured stage times, idle/active time, makespan and efficiency (the same keys as\n"
        "'situ model --json'), plus wall_seconds, activities, per-step arrays and link traffic.\n"
        "--smpi-app runs your MPI application (built with smpicc and libsitu_dtl, see\n"
        "smpi/situ_dtl.h) under SMPI as the simulation ranks, with Situ's analytics and\n"
        "collector placed per the mapping (fidelity smpi); its arguments, which end at '--'\n"
        "(every one before it is the application's) or else at the first Situ flag, reach it as\n"
        "they are (no shell); --time-limit S kills it past S seconds.\n"
        "Exit status: 0, 2 for bad input, 3 when the simulation failed.\n\n"
        "parameters:\n");
    params_print_help(stdout);
}

/* The table of a measured result: the model's layout, then what only a simulation knows. */
static void print_table(FILE *out, const struct params *p, const struct sim_result *r)
{
    report_result_table(out, "situ run: SimGrid simulation (measured)", p, &r->m);
    fprintf(out, "  %-20s %.3f s, %ld activities, fidelity %s\n", "simulated in", r->wall_seconds,
            r->activities, r->fidelity);
    if (r->warning[0])
        fprintf(out, "  warning: %s\n", r->warning);
    fprintf(out, "  links that carried traffic (mean utilisation; about 50%% is best)\n");
    for (int i = 0; i < r->nlinks; i++) {
        double u = r->links[i].utilisation;
        fprintf(out, "    %-34s %-8s %12.4g B  %6.2f %%  %s\n", r->links[i].name, r->links[i].place,
                r->links[i].bytes, 100 * u,
                u > report_link_alert ? "ALERT: above threshold"
                : u < 0.25            ? "under-used"
                : u <= 0.6            ? "good"
                                      : "busy");
    }
}

/* An --smpi-app's own output, which its result carries ("app"): lines after the table, and
 * where it was cut, if it was. */
static void print_app_output(FILE *out, json_t *result)
{
    json_t *app = json_object_get(result, "app");
    const char *text = json_string_value(json_object_get(app, "output"));
    const char *name = json_string_value(json_array_get(json_object_get(app, "command"), 0));
    if (!text || !name)
        return;
    if (json_is_true(json_object_get(app, "output_truncated")))
        fprintf(
            out, "  output of %s (%" JSON_INTEGER_FORMAT " bytes, cut: only the first %d kept):\n",
            name, json_integer_value(json_object_get(app, "output_bytes")), SIM_SMPI_OUTPUT_MAX);
    else
        fprintf(out, "  output of %s:\n", name);
    for (const char *line = text; *line;) {
        size_t n = strcspn(line, "\n");
        fprintf(out, "    %.*s\n", (int)n, line);
        line += n + (line[n] == '\n');
    }
}

int cmd_run(int argc, char **argv)
{
    struct cli_opts o;
    int rc = cli_run_prepare(argc, argv, usage, &o);
    if (rc != 0)
        return rc < 0 ? EXIT_BAD_INPUT : 0;
    char err[512];
    struct sim_job job = {.p = o.p};
    int run = sim_pool_run(&job, 1, 1, 0, NULL, NULL);
    if (run != 0) {
        cli_error("run: %s", job.err[0] ? job.err : "cannot start the simulation");
        return run == -2 ? 128 + (int)sim_pool_stop : EXIT_SIM_FAILED;
    }
    struct outfile out;
    outfile_open(&out, NULL, err, sizeof err); /* stdout: cannot fail */
    if (o.json) {                              /* the line as the simulation printed it */
        outfile_write(&out, job.output, strlen(job.output));
    } else { /* the wrapper has checked the line against the schema: this reads it again */
        struct sim_result res;
        char *text = NULL;
        size_t len = 0;
        FILE *mem = open_memstream(&text, &len);
        bool ok = mem && result_from_json(job.json, &res, err, sizeof err) == 0;
        if (ok) {
            print_table(mem, &o.p, &res);
            print_app_output(mem, job.json);
            result_free(&res);
        }
        ok = mem && fclose(mem) == 0 && ok;
        if (ok)
            outfile_write(&out, text, len);
        free(text);
        if (!ok) { /* nothing printed: stdout holds nothing of ours yet */
            json_decref(job.json);
            free(job.output);
            cli_error("run: cannot render the result: out of memory");
            return 1;
        }
    }
    free(job.output);
    json_decref(job.json);
    if (outfile_commit(&out, err, sizeof err) < 0) {
        cli_error("run: %s", err);
        return 1;
    }
    return 0;
}
