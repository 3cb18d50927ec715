#include <stdio.h>
#include <string.h>

#include "cli.h"

#ifndef SITU_VERSION
#define SITU_VERSION "0.1.0"
#endif

static void usage(FILE *out)
{
    fprintf(
        out,
        "usage: situ [--PARAM VALUE ...]          open the explorer\n"
        "       situ model [--PARAM VALUE ...] [--json]   analytic model, one configuration\n"
        "       situ run   [--PARAM VALUE ...] [--json]   SimGrid simulation, one configuration\n"
        "       situ sweep [--PARAM LIST ...] [--jobs N] [--model] [--out F]   many, in parallel\n"
        "       situ --help | --version\n\n"
        "Situ explores in-situ HPC workflows: a simulation (an MD code), its analytics, and the\n"
        "data transport layer between them, after the Sim-Situ paper.\n\n"
        "parameters (each subcommand takes them; --key=value also works):\n");
    params_print_help(out);
}

int main(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "--version")) {
        printf("situ %s\n", SITU_VERSION);
        return 0;
    }
    if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        usage(stdout);
        return 0;
    }
    if (argc >= 2 && !strcmp(argv[1], "model"))
        return cmd_model(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "run"))
        return cmd_run(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "sweep"))
        return cmd_sweep(argc, argv);
    if (argc >= 2 && argv[1][0] != '-') {
        cli_error("unknown command '%s'; see 'situ --help'", argv[1]);
        return EXIT_BAD_INPUT;
    }
    /* No subcommand: the explorer (until it exists, the model of the starting configuration). */
    char *model_argv[argc + 2];
    model_argv[0] = argv[0];
    model_argv[1] = "model";
    for (int i = 1; i < argc; i++)
        model_argv[i + 1] = argv[i];
    model_argv[argc + 1] = NULL;
    return cmd_model(argc + 1, model_argv);
}
