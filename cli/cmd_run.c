#include "cli.h"

int cmd_run(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    cli_error("run: the SimGrid engine is not built yet");
    return EXIT_SIM_FAILED;
}
