#include <stdio.h>
#include <stdlib.h>

#include "../engine/model.h"
#include "../engine/sim.h"
#include "cli.h"

static void usage(void)
{
    printf(
        "usage: situ run [--PARAM VALUE ...] [--json]\n\n"
        "Simulates one configuration with SimGrid: every simulation rank, analytics actor and\n"
        "the metric collector as actors on the platform, with the DTL between them. Prints the\n"
        "measured stage times, idle/active time, makespan and efficiency (the same keys as\n"
        "'situ model --json'), plus wall_seconds, activities, per-step arrays and link traffic.\n"
        "Exit status: 0, 2 for bad input, 3 when the simulation failed.\n\n"
        "parameters:\n");
    params_print_help(stdout);
}

int cmd_run(int argc, char **argv)
{
    struct cli_opts o;
    if (cli_parse(argc, argv, 2, &o) < 0)
        return EXIT_BAD_INPUT;
    if (o.help) {
        usage();
        return 0;
    }
    /* Bad input is caught here, before any simulation, with the model's own checks. */
    struct model_result m;
    char err[512];
    if (model_run(&o.p, &m, err, sizeof err) < 0) {
        cli_error("%s", err);
        return EXIT_BAD_INPUT;
    }
    char *output = NULL;
    if (sim_run_isolated(&o.p, o.json, &output, err, sizeof err) < 0) {
        cli_error("run: %s", err);
        return EXIT_SIM_FAILED;
    }
    fputs(output, stdout);
    free(output);
    return fflush(stdout) == 0 ? 0 : 1;
}
