/* The start of the commands that run one simulation, `situ run` and the helper's `__simulate`
 * (helper/situ_sim.c), which must read their flags alike: --smpi-app APP [ARG ...], --alert U,
 * --time-limit S, then the parameters. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/base/flag.h"
#include "../engine/base/infile.h"
#include "../engine/model/params.h"
#include "../engine/model/report.h"
#include "../engine/run/sim_pool.h"
#include "cli.h"

/* Takes --alert U out of argv[2..] into report_link_alert (a display option of `situ run`, which
 * the simulation helper renders with). -1 after an error message. */
static int take_alert(int *argc, char **argv)
{
    for (int i = 2; i < *argc; i++) {
        int at = i;
        const char *v;
        if (!flag_take(*argc, argv, &i, "alert", &v))
            continue;
        char err[PARAMS_ERR_MAX];
        if (report_alert_parse(v, &report_link_alert, err, sizeof err) < 0) {
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
    static const char *const own[] = {"json",       "preset", "help", "stats",
                                      "time-limit", "alert",  NULL};
    for (int i = 0; own[i]; i++)
        if (!strcmp(key, own[i]))
            return true;
    return params_find(key) >= 0;
}

/* Takes --smpi-app APP [ARG ...] [--] out of argv[2..] into sim_smpi_app. With a `--` after APP,
 * every argument up to it is the application's, whatever it looks like (--alert, --nodes: byte
 * for byte); without one, they end at the first of situ run's own flags. Called before any other
 * flag is taken out of argv, so that none is taken from the application's; *fidelity_given says
 * whether --fidelity was among the rest. -1 after an error message. */
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
        char err[INFILE_ERR_MAX];
        FILE *f = infile_open(app, "program", 0, err, sizeof err);
        size_t got = f ? fread(magic, 1, 4, f) : 0;
        if (f)
            fclose(f);
        if (!f) {
            cli_error("smpi-app: %s", err);
            return -1;
        }
        static const unsigned char elf[4] = {0x7f, 'E', 'L', 'F'};
        if (got < 4 || memcmp(magic, elf, 4)) {
            cli_error("smpi-app: '%s' is not a program (build it with smpicc)", app);
            return -1;
        }
        int dashes = end;
        while (dashes < *argc && strcmp(argv[dashes], "--"))
            dashes++;
        if (dashes < *argc)
            end = dashes;
        else
            while (end < *argc && !situ_flag(argv[end]))
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

int cli_run_prepare(int argc, char **argv, void (*usage)(void), struct cli_opts *o)
{
    struct model_result m;
    bool fidelity_given;
    if (take_smpi_app(&argc, argv, &fidelity_given) < 0 || take_alert(&argc, argv) < 0 ||
        cli_time_limit_flag(&argc, argv) < 0)
        return -1;
    int rc = cli_prepare(argc, argv, 2, usage, o, &m);
    if (rc != 0 || sim_smpi_app.argc == 0)
        return rc;
    if (fidelity_given && o->p.fidelity != FIDELITY_SMPI) {
        cli_error("fidelity: --smpi-app runs at fidelity smpi, not %s",
                  param_table[P_FIDELITY].choices[o->p.fidelity]);
        return -1;
    }
    o->p.fidelity = FIDELITY_SMPI;
    return 0;
}
