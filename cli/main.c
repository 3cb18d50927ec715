#include <stdio.h>
#include <string.h>

#include "../tui/tui.h"
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
        "       situ script FILE.lua [ARG ...]              a Lua scenario, headless\n"
        "       situ lesson NAME --headless | --list        a workshop lesson\n"
        "       situ --help | --version\n\n"
        "Situ explores in-situ HPC workflows: a simulation (an MD code), its analytics, and the\n"
        "data transport layer between them, after the Sim-Situ paper.\n\n"
        "parameters (each subcommand takes them; --key=value also works):\n");
    params_print_help(out);
}

/* The preset the explorer's header names: the last --preset, as cli_parse applies it. */
static const char *preset_name(int argc, char **argv)
{
    const char *name = "";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--preset") && i + 1 < argc)
            name = argv[++i];
        else if (!strncmp(argv[i], "--preset=", 9))
            name = argv[i] + 9;
    }
    return name;
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
    if (argc >= 2 && !strcmp(argv[1], "merge"))
        return cmd_merge(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "reproduce"))
        return cmd_reproduce(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "script"))
        return cmd_script(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "lesson"))
        return cmd_lesson(argc, argv);
    if (argc >= 2 && argv[1][0] != '-') {
        cli_error("unknown command '%s'; see 'situ --help'", argv[1]);
        return EXIT_BAD_INPUT;
    }
    /* No subcommand (or only flags): the explorer. */
    if (!tui_have_terminal()) {
        cli_error("the explorer needs a terminal (stdin and stdout); for scripts use 'situ model "
                  "--json' or 'situ run --json'");
        return EXIT_BAD_INPUT;
    }
    struct cli_opts o;
    if (cli_parse(argc, argv, 1, &o) < 0)
        return EXIT_BAD_INPUT;
    if (o.help) {
        usage(stdout);
        return 0;
    }
    return tui_run(&o.p, preset_name(argc, argv), o.stats);
}
