#include <errno.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../engine/model/strategy.h"
#include "../engine/base/cache_dir.h"
#include "../engine/base/flag.h"
#include "../engine/base/outfile.h"
#include "../engine/lua/simulation.h"
#include "../engine/base/datadir.h"
#include "../engine/model/report.h"
#include "../tui/procs/evaluator.h"
#include "../tui/procs/scenario_host.h"
#include "../tui/tui.h"
#include "cli.h"

#ifndef SITU_VERSION
#define SITU_VERSION "0.1.0"
#endif

static void usage(FILE *out)
{
    fprintf(
        out,
        "usage: situ [--PARAM VALUE ...] [--lesson NAME [--student ID] [--log FILE]]   the "
        "explorer\n"
        "            [--alert U] [--script 'F.lua [ARG ...]'] [--unsafe] [--no-refine]\n"
        "            [--theme dark|contrast|light]   (or SITU_THEME; T switches, P: contrast)\n"
        "            [--strategies S,S,...]   the crossover's: MAPPING[:DTL][+cRATIO] (default:\n"
        "                                     every mapping that applies but hostfile)\n"
        "       situ model [--PARAM VALUE ...] [--json]   analytic model, one configuration\n"
        "       situ run   [--PARAM VALUE ...] [--json]   SimGrid simulation, one configuration\n"
        "       situ sweep [--PARAM LIST ...] [--jobs N] [--model] [--out F]   many, in parallel\n"
        "       situ advise [--PARAM LIST ...] [--objective O] [--verify K]   the best of many\n"
        "       situ merge FILE... [--out F]                gather 'situ run --json' lines\n"
        "       situ calibrate FILE... [--out NAME]         fit the costs to measured runs\n"
        "       situ reproduce fig7|fig8|fig9|scaling|all   the paper's studies, with figures\n"
        "       situ script FILE.lua [ARG ...]              a Lua scenario, headless\n"
        "       situ lesson [NAME [--headless [--solutions]]]   a workshop lesson (none: the "
        "list)\n"
        "       situ lesson report LOG... [--csv F]         the class, from the students' logs\n"
        "       situ --help | --version\n\n"
        "every command but sweep (whose --time-limit bounds each simulation):\n"
        "       --time-limit S   seconds user Lua may run at once (default: %g for an analytics\n"
        "                        evaluation or a goal check, %g for a scenario's code between\n"
        "                        two simulations)\n\n"
        "Situ explores in-situ HPC workflows: a simulation (an MD code), its analytics, and the\n"
        "data transport layer between them, after the Sim-Situ paper.\n\n"
        "parameters (each subcommand takes them; --key=value also works):\n",
        ANALYTICS_TIME_LIMIT, SCRIPT_TIME_LIMIT);
    params_print_help(out);
}

/* The explorer's own flags (--lesson NAME, --log FILE, --alert U, --script 'FILE [ARG ...]',
 * --unsafe), taken out of argv so that the rest goes to the parameter parser every subcommand
 * shares. -1 after an error message. */
static int explorer_flags(int *argc, char **argv, struct tui_opts *t)
{
    int out = 1;
    for (int i = 1; i < *argc; i++) {
        if (!strcmp(argv[i], "--unsafe") || !strcmp(argv[i], "--no-refine")) {
            t->unsafe = t->unsafe || argv[i][2] == 'u';
            t->no_refine = t->no_refine || argv[i][2] == 'n';
            continue;
        }
        static const char *const names[] = {"lesson",  "script", "alert",     "log",
                                            "student", "theme",  "strategies"};
        const char *v = NULL;
        int which = 0;
        while (which < 7 && !flag_take(*argc, argv, &i, names[which], &v))
            which++;
        if (which == 7) {
            argv[out++] = argv[i];
            continue;
        }
        if (!v || !*v) {
            cli_error("--%s: missing value", names[which]);
            return -1;
        }
        char err[PARAMS_ERR_MAX];
        if (which == 0) {
            t->lesson = v;
        } else if (which == 1) {
            t->script = v;
        } else if (which == 3) {
            t->lesson_log = v;
        } else if (which == 4) {
            t->student = v;
        } else if (which == 5) {
            t->theme = v; /* checked by the explorer, with SITU_THEME */
        } else if (which == 6) {
            struct strategy st[STRATEGIES_MAX];
            if (strategy_parse_list(v, st, STRATEGIES_MAX, err, sizeof err) < 0) {
                cli_error("--strategies: %s", err);
                return -1;
            }
            t->strategies = v;
        } else if (report_alert_parse(v, &t->alert, err, sizeof err) < 0) {
            cli_error("%s", err);
            return -1;
        }
    }
    argv[out] = NULL;
    *argc = out;
    return cli_check_log(t->lesson, &t->lesson_log, t->student);
}

/* The commands, for "did you mean" and the shell completion (cli/completion.c). */
static const char *const commands[] = {"model",     "run",    "sweep",  "advise",    "merge",
                                       "reproduce", "script", "lesson", "calibrate", NULL};

static int dispatch(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "--version")) {
        printf("situ %s\n", SITU_VERSION);
        return 0;
    }
    /* A simulation profile's parameters enter the table before any flag is read (and before
     * any thread starts), so that its flags, help, presets and JSON keys are the table's. */
    char serr[PARAMS_ERR_MAX + PATH_MAX];
    if (simulation_activate_argv(argc, argv, serr, sizeof serr) < 0) {
        cli_error("%s", serr);
        return EXIT_BAD_INPUT;
    }
    if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        cli_help_buffer();
        usage(stdout);
        return 0;
    }
    if (argc >= 2 && !strcmp(argv[1], "__params-markdown")) { /* make docs: the README's table */
        params_print_markdown(stdout); /* main checks stdout at exit, as for every command */
        return 0;
    }
    if (argc >= 2 && !strcmp(argv[1], "__completion")) /* make install: bash and zsh */
        return cli_completion(argc, argv, commands);
    if (argc >= 2 && !strcmp(argv[1], "__man-roff")) /* make docs: docs/situ.1's options, keys */
        return man_roff_main(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "__evaluate")) /* the explorer's helper processes */
        return evaluator_child_main(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "__scenario"))
        return scenario_host_main(argc, argv);
    /* sweep has had its own --time-limit (seconds per simulation before it is killed) since
     * before this flag: it keeps it, or a hung simulation would never be stopped; advise, whose
     * check is a sweep, shares it. */
    bool sweep = argc >= 2 && (!strcmp(argv[1], "sweep") || !strcmp(argv[1], "advise"));
    bool run = argc >= 2 && !strcmp(argv[1], "run");
    if (!sweep && !run && cli_time_limit_flag(&argc, argv) < 0)
        return 2;
    if (argc >= 2 && !strcmp(argv[1], "__lesson-check"))
        return evaluator_lesson_check_main(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "model"))
        return cmd_model(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "run"))
        return cmd_run(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "sweep"))
        return cmd_sweep(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "advise"))
        return cmd_advise(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "merge"))
        return cmd_merge(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "calibrate"))
        return cmd_calibrate(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "reproduce"))
        return cmd_reproduce(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "script"))
        return cmd_script(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "lesson"))
        return cmd_lesson(argc, argv);
    if (argc >= 2 && argv[1][0] != '-') {
        const char *near =
            params_nearest(argv[1], commands, (int)(sizeof commands / sizeof commands[0]) - 1);
        cli_error("unknown command '%s'%s%s%s; see 'situ --help'", argv[1],
                  near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
        return EXIT_BAD_INPUT;
    }
    /* No subcommand (or only flags): the explorer, or its help (`situ --simulation heat3d
     * --help` lists the profile's parameters, as any help does, without a terminal). */
    for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            cli_help_buffer();
            usage(stdout);
            return 0;
        }
    if (!tui_have_terminal()) {
        cli_error("the explorer needs a terminal (stdin and stdout); for scripts use 'situ model "
                  "--json' or 'situ run --json'");
        return EXIT_BAD_INPUT;
    }
    char why[256];
    if (tui_term_usable(why, sizeof why) < 0) {
        cli_error("%s", why);
        return EXIT_BAD_INPUT;
    }
    struct tui_opts t = {0};
    if (explorer_flags(&argc, argv, &t) < 0)
        return EXIT_BAD_INPUT;
    struct cli_opts o;
    if (cli_parse(argc, argv, 1, &o) < 0)
        return EXIT_BAD_INPUT;
    if (o.help) {
        cli_help_buffer();
        usage(stdout);
        return 0;
    }
    t.p = &o.p;
    t.preset = o.preset;
    t.stats = o.stats;
    return tui_run(&t);
}

/* Replaces this process with the simulation helper, argv as it is. Returns only on failure. */
static int exec_helper(char **argv)
{
    char helper[4096], err[512];
    if (datadir_helper(helper, sizeof helper, err, sizeof err) < 0) {
        cli_error("%s", err);
        return EXIT_SIM_FAILED;
    }
    argv[0] = helper;
    execv(helper, argv);
    cli_error("cannot run %s: %s", helper, strerror(errno));
    return EXIT_SIM_FAILED;
}

int main(int argc, char **argv)
{
    /* A file past the user's size limit (ulimit -f) is a failed write like a full disk: EFBIG,
     * one line and status 1, not a death by SIGXFSZ that leaves a temporary behind. */
    signal(SIGXFSZ, SIG_IGN);
    /* What only SimGrid knows is the helper's (helper/situ_sim.c): `situ __simulate` and `situ
     * __digest` are its commands, run as they were when this binary held them. */
    if (argc >= 2 && (!strcmp(argv[1], "__simulate") || !strcmp(argv[1], "__digest")))
        return exec_helper(argv);
    int rc = dispatch(argc, argv);
    if (rc == 0) /* a bad input's one line stays the only one */
        cache_dir_say();
    /* Whatever went to stdout must have arrived: `situ model > /dev/full` is a failure. A command
     * that already failed has said why; its status stands. */
    char err[OUTFILE_ERR_MAX];
    if (outfile_close_stdout(err, sizeof err) < 0 && rc == 0) {
        cli_error("%s", err);
        rc = 1;
    }
    if (tui_must_exit_now())
        _exit(rc); /* stdout is checked and closed, stderr unbuffered: nothing is lost */
    return rc;
}
