#include <stdio.h>

#include "../engine/model/model.h"
#include "../engine/model/report.h"
#include "cli.h"

static void usage(void)
{
    printf(
        "usage: situ model [--PARAM VALUE ...] [--json]\n\n"
        "Evaluates the analytic model of the Sim-Situ paper (section 5.1) for one configuration:\n"
        "stage times, idle/active time of each component, makespan, efficiency and scenario.\n\n"
        "parameters:\n");
    params_print_help(stdout);
}

int cmd_model(int argc, char **argv)
{
    struct cli_opts o;
    struct model_result m;
    int rc = cli_prepare(argc, argv, 2, usage, &o, &m);
    if (rc != 0)
        return rc < 0 ? EXIT_BAD_INPUT : 0;
    if (o.json) {
        json_t *j = report_result_json(&o.p, &m);
        int rc = report_print_json(stdout, j);
        json_decref(j);
        /* A failed write is main's to report (it checks stdout at exit); anything else is not. */
        if (rc < 0 && !ferror(stdout)) {
            cli_error("model: the result cannot be written as JSON");
            return 1;
        }
        return 0;
    }
    report_result_table(stdout, "situ model: analytic prediction", &o.p, &m);
    return 0;
}
