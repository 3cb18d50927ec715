#include <stdio.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "../engine/flag.h"
#include "../engine/model.h"
#include "../engine/outfile.h"
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

/* Takes --alert U out of argv (a display option of this command only). -1 on a bad value. */
static int take_alert(int *argc, char **argv)
{
    for (int i = 2; i < *argc; i++) {
        int at = i;
        const char *v;
        if (!flag_take(*argc, argv, &i, "alert", &v))
            continue;
        char err[PARAMS_ERR_MAX];
        if (sim_alert_parse(v, &sim_link_alert, err, sizeof err) < 0) {
            cli_error("%s", err);
            return -1;
        }
        int drop = i - at + 1;
        memmove(argv + at, argv + at + drop, sizeof(char *) * (*argc - at - drop + 1));
        *argc -= drop;
        i = at - 1;
    }
    return 0;
}

/* Started by the explorer's runner (SITU_PARENT_PID): die with it, even a SIGKILLed one. With
 * SIGTERM, not SIGKILL, so that the simulation's group goes too (sim_run_isolated's handler).
 * -1 if that parent is already gone (we were reparented before prctl took effect). */
static int die_with_runner(void)
{
    const char *want = getenv("SITU_PARENT_PID");
    if (!want)
        return 0;
    long pid = strtol(want, NULL, 10);
    unsetenv("SITU_PARENT_PID"); /* ours only, not our children's */
    if (prctl(PR_SET_PDEATHSIG, SIGTERM) < 0)
        return 0; /* not Linux: the runner's handlers still kill us on a catchable signal */
    return getppid() == (pid_t)pid ? 0 : -1;
}

int cmd_run(int argc, char **argv)
{
    struct cli_opts o;
    struct model_result m;
    if (die_with_runner() < 0)
        return 128 + SIGTERM;
    if (take_alert(&argc, argv) < 0)
        return EXIT_BAD_INPUT;
    int rc = cli_prepare(argc, argv, 2, usage, &o, &m);
    if (rc != 0)
        return rc < 0 ? EXIT_BAD_INPUT : 0;
    char err[512];
    char *output = NULL;
    int run = sim_run_isolated(&o.p, o.json, &output, err, sizeof err);
    if (run < 0) {
        cli_error("run: %s", err);
        return run == -2 ? 128 + (int)sim_pool_stop : EXIT_SIM_FAILED;
    }
    struct outfile out;
    outfile_open(&out, NULL, err, sizeof err); /* stdout: cannot fail */
    outfile_write(&out, output, strlen(output));
    free(output);
    if (outfile_commit(&out, err, sizeof err) < 0) {
        cli_error("run: %s", err);
        return 1;
    }
    return 0;
}
