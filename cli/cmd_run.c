#include <errno.h>
#include <stdio.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "../engine/flag.h"
#include "../engine/flag.h"
#include "../engine/model.h"
#include "../engine/outfile.h"
#include "../engine/sim.h"
#include "../engine/sim_smpi.h"
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
        "smpi/situ_dtl.h) under smpirun as the simulation ranks, with Situ's analytics and\n"
        "collector placed per the mapping (fidelity smpi); its arguments end at the first\n"
        "Situ flag or at '--'; --time-limit S kills it past S seconds.\n"
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

/* Whether argv[i] is one of `situ run`'s own flags: where an application's arguments end. */
static bool situ_flag(const char *arg)
{
    char key[64];
    if (!flag_name(arg, key, sizeof key))
        return false;
    static const char *const own[] = {"json", "preset", "help", "stats", "alert", NULL};
    for (int i = 0; own[i]; i++)
        if (!strcmp(key, own[i]))
            return true;
    return params_find(key) >= 0;
}

/* Takes --smpi-app APP [ARG ...] [--] out of argv into sim_smpi_app. -1 on bad input. */
static int take_smpi_app(int *argc, char **argv, bool *fidelity_given)
{
    *fidelity_given = false;
    for (int i = 2; i < *argc; i++) {
        char key[64];
        *fidelity_given = *fidelity_given ||
                          (flag_name(argv[i], key, sizeof key) && params_find(key) == P_FIDELITY);
    }
    for (int i = 2; i < *argc; i++) {
        int first = i;
        const char *app;
        if (!flag_take(*argc, argv, &first, "smpi-app", &app))
            continue;
        int end = first + 1; /* first: where the program's name is (argv[i] itself for --x=y) */
        if (!app || !*app) {
            cli_error("smpi-app: missing program after --smpi-app");
            return -1;
        }
        unsigned char magic[4] = {0};
        FILE *f = fopen(app, "rb");
        size_t got = f ? fread(magic, 1, 4, f) : 0;
        if (f)
            fclose(f);
        if (!f) {
            cli_error("smpi-app: '%s': cannot open: %s", app, strerror(errno));
            return -1;
        }
        static const unsigned char elf[4] = {0x7f, 'E', 'L', 'F'};
        if (got < 4 || memcmp(magic, elf, 4)) {
            cli_error("smpi-app: '%s' is not a program (build it with smpicc)", app);
            return -1;
        }
        while (end < *argc && !situ_flag(argv[end]) && strcmp(argv[end], "--"))
            end++;
        int nargs = end - first;
        sim_smpi_app.argv = calloc(nargs + 1, sizeof(char *));
        if (!sim_smpi_app.argv)
            return -1;
        sim_smpi_app.argv[0] = (char *)app;
        for (int k = 1; k < nargs; k++)
            sim_smpi_app.argv[k] = argv[first + k];
        sim_smpi_app.argc = nargs;
        if (end < *argc && !strcmp(argv[end], "--"))
            end++;
        memmove(argv + i, argv + end, sizeof(char *) * (*argc - end + 1));
        *argc -= end - i;
        return 0;
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
    bool fidelity_given;
    if (take_alert(&argc, argv) < 0 || take_smpi_app(&argc, argv, &fidelity_given) < 0)
        return EXIT_BAD_INPUT;
    int rc = cli_prepare(argc, argv, 2, usage, &o, &m);
    if (rc != 0)
        return rc < 0 ? EXIT_BAD_INPUT : 0;
    if (sim_smpi_app.argc > 0) {
        if (fidelity_given && o.p.fidelity != FIDELITY_SMPI) {
            cli_error("fidelity: --smpi-app runs at fidelity smpi, not %s",
                      param_table[P_FIDELITY].choices[o.p.fidelity]);
            return EXIT_BAD_INPUT;
        }
        o.p.fidelity = FIDELITY_SMPI;
    }
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
