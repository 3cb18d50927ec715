/* `situ lesson NAME --headless`: walks a lesson's steps without the explorer. Each step's text,
 * the configuration it loads, the model's headline numbers for it, its goal's status and the
 * hint's first level (the nudge). The solutions are checked either way (a lesson whose solution
 * misses its goal is broken: exit 1) but printed only with --solutions, the instructor's view,
 * with every hint level: a student's printout must not give the answers away.
 * `situ lesson --list` lists the installed lessons. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../engine/lua/evaluate.h"
#include "../engine/base/flag.h"
#include "../engine/base/datadir.h"
#include "../engine/scenario/lesson.h"
#include "../engine/model/model.h"
#include "../engine/base/outfile.h"
#include "../tui/tui.h"
#include "cli.h"

static void usage(void)
{
    printf("usage: situ lesson NAME [--log FILE] [--PARAM VALUE ...]   (the explorer)\n"
           "       situ lesson NAME --headless [--solutions]\n"
           "       situ lesson --list\n\n"
           "A lesson is a Lua file under scripts/lua/lessons/ (or a path): steps with text, a\n"
           "configuration to load and a goal. On a terminal it opens the explorer with the\n"
           "lesson panel (n/b next/back, h hint, again for more; R restarts); parameters set\n"
           "the start. --headless (or no terminal) prints each step, loads its configuration\n"
           "and checks its goal against the model; it takes no parameters. Each step's\n"
           "solution is checked too, but printed only with --solutions (for the instructor).\n"
           "Exit status: 0, 1 when a step's solution misses its goal, 2 for bad input or a Lua\n"
           "error.\n");
}

static int list(void)
{
    char names[64][LESSON_NAME_MAX], err[1024];
    int n = lesson_list(names, 64);
    for (int i = 0; i < n && i < 64; i++) {
        struct lesson *l = lesson_load(names[i], err, sizeof err);
        printf("%-16s %s\n", names[i], l ? lesson_title(l) : err);
        lesson_free(l);
    }
    return 0;
}

/* The parameters that differ from the defaults, "ratio=31 stride=200". */
static void print_config(const char *label, const struct params *p)
{
    struct params d;
    params_defaults(&d);
    printf("  %s:", label);
    int shown = 0;
    for (int id = 0; id < PARAM_COUNT; id++) {
        char a[PARAMS_PATH_MAX], b[PARAMS_PATH_MAX];
        params_format(p, id, a, sizeof a);
        params_format(&d, id, b, sizeof b);
        if (strcmp(a, b) && id != P_PLATFORM) {
            printf(" %s=%s", param_table[id].key, a);
            shown++;
        }
    }
    printf("%s\n", shown ? "" : " the defaults");
}

static const char *status_name(enum lesson_goal g)
{
    return g == LESSON_GOAL_MET ? "met" : g == LESSON_GOAL_NOT_MET ? "not met" : "error";
}

/* Model and goal for p; prints "label: status - message" if loud. -1 on a Lua error. */
static int check(struct lesson *l, int i, const struct params *p, const char *answer,
                 const char *label, bool loud, enum lesson_goal *out)
{
    struct model_result m;
    char err[1024], msg[1024];
    if (evaluate_model(p, &m, err, sizeof err) < 0) {
        cli_error("%s", err);
        return -1;
    }
    if (loud)
        printf("  %s: makespan %.4g s, efficiency %.3f, scenario %s\n", label, m.makespan,
               m.efficiency, model_scenario_name(m.scenario));
    struct lesson_state st = {p, &m, NULL, answer};
    *out =
        (enum lesson_goal)(lesson_goal_check(l, i, &st, msg, sizeof msg) & ~LESSON_GOAL_READ_SIM);
    if (*out == LESSON_GOAL_ERROR) {
        fflush(stdout);
        cli_error("%s", msg);
        return -1;
    }
    if (loud && *out != LESSON_NO_GOAL)
        printf("  goal (%s): %s%s%s\n", label, status_name(*out), msg[0] ? " - " : "", msg);
    return 0;
}

int cli_check_log(const char *lesson, const char *log)
{
    if (!log)
        return 0;
    if (!lesson) {
        cli_error("--log: it records a lesson's goals; give the lesson (--lesson NAME)");
        return -1;
    }
    char err[OUTFILE_ERR_MAX];
    if (outfile_check(log, err, sizeof err) < 0) {
        cli_error("--log: %s", err);
        return -1;
    }
    return 0;
}

/* The explorer with the lesson panel; the other arguments are parameters of the start. */
static int open_explorer(const char *name, const char *log, int argc, char **argv)
{
    char *rest[argc + 1];
    int n = 0;
    rest[n++] = argv[0];
    for (int i = 2; i < argc; i++) {
        const char *v;
        if (flag_take(argc, argv, &i, "log", &v))
            continue; /* and its value */
        if (argv[i] != name)
            rest[n++] = argv[i];
    }
    rest[n] = NULL;
    struct cli_opts o;
    if (cli_parse(n, rest, 1, &o) < 0 || cli_check_log(name, log) < 0)
        return EXIT_BAD_INPUT;
    struct tui_opts t = {
        .p = &o.p, .preset = o.preset, .stats = o.stats, .lesson = name, .lesson_log = log};
    return tui_run(&t);
}

int cmd_lesson(int argc, char **argv)
{
    const char *name = NULL, *log = NULL;
    bool headless = !tui_have_terminal(), solutions = false;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--headless") || !strcmp(argv[i], "--solutions"))
            headless = true; /* before parameters are let through below */
    }
    for (int i = 2; i < argc; i++) {
        if (flag_take(argc, argv, &i, "log", &log)) {
            if (headless) {
                cli_error("lesson: --log records a student's session in the explorer, not "
                          "--headless");
                return EXIT_BAD_INPUT;
            }
            if (!log || !*log) {
                cli_error("--log: missing value");
                return EXIT_BAD_INPUT;
            }
            continue;
        }
        if (!headless && argv[i][0] == '-' && strcmp(argv[i], "--help") && strcmp(argv[i], "-h") &&
            strcmp(argv[i], "--list"))
            continue; /* a parameter for the explorer: cli_parse checks it */
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage();
            return 0;
        } else if (!strcmp(argv[i], "--list")) {
            return list();
        } else if (!strcmp(argv[i], "--headless")) {
            headless = true;
        } else if (!strcmp(argv[i], "--solutions")) {
            solutions = true;
        } else if (argv[i][0] == '-' || name) {
            cli_error("lesson: unexpected '%s'%s; see 'situ lesson --help'", argv[i],
                      argv[i][0] == '-' ? " (--headless takes no parameters)" : "");
            return EXIT_BAD_INPUT;
        } else {
            name = argv[i];
        }
    }
    if (!name) {
        cli_error("lesson: expected a lesson name; 'situ lesson --list' shows them");
        return EXIT_BAD_INPUT;
    }
    if (!headless)
        return open_explorer(name, log, argc, argv);
    char err[1024];
    struct lesson *l = lesson_load(name, err, sizeof err);
    if (!l) {
        cli_error("%s", err);
        return EXIT_BAD_INPUT;
    }
    lesson_set_output(l, stdout);
    int steps = lesson_step_count(l);
    printf("%s\n(%s, %d step%s)\n", lesson_title(l), lesson_path(l), steps, steps == 1 ? "" : "s");
    struct params p, here, sol;
    params_defaults(&p);
    char platform[PARAMS_PATH_MAX];
    if (datadir_resolve(p.platform, platform, sizeof platform) == 0)
        snprintf(p.platform, sizeof p.platform, "%s", platform);
    int rc = 0;
    for (int i = 0; i < lesson_step_count(l) && rc != EXIT_BAD_INPUT; i++) {
        printf("\nStep %d/%d\n%s\n", i + 1, lesson_step_count(l), lesson_step_text(l, i));
        if (lesson_step_config(l, i, &p, &here, err, sizeof err) < 0) {
            cli_error("%s", err);
            rc = EXIT_BAD_INPUT;
            break;
        }
        p = here;
        print_config("config", &p);
        enum lesson_goal g, gs;
        if (check(l, i, &p, NULL, "as loaded", true, &g) < 0) {
            rc = EXIT_BAD_INPUT;
            break;
        }
        int hints = solutions ? lesson_step_hint_count(l, i) : 1;
        for (int k = 0; k < hints && lesson_step_hint_at(l, i, k)[0]; k++)
            printf("  hint%s: %s\n", k ? " (more)" : "", lesson_step_hint_at(l, i, k));
        /* A quiz: the question always; the lesson's answer (checked either way) only for the
         * instructor. */
        const char *q = lesson_step_question(l, i), *answer = lesson_step_answer(l, i);
        if (q[0])
            printf("  question: %s\n", q);
        if (q[0] && answer) {
            if (solutions)
                printf("  answer: %s\n", answer);
            lesson_set_output(l, solutions ? stdout : NULL);
            int c = check(l, i, &p, answer, "with the answer", solutions, &gs);
            lesson_set_output(l, stdout);
            if (c < 0) {
                rc = EXIT_BAD_INPUT;
            } else if (gs == LESSON_GOAL_NOT_MET) {
                if (!solutions)
                    cli_error("lesson: step %d: its answer misses the goal", i + 1);
                rc = 1;
            }
        }
        int has = lesson_step_solution(l, i, &p, &sol, err, sizeof err);
        if (has < 0) {
            cli_error("%s", err);
            rc = EXIT_BAD_INPUT;
        } else if (has > 0) {
            char keys[1024];
            lesson_step_solution_keys(l, i, &sol, keys, sizeof keys);
            if (solutions)
                printf("  solution: %s\n", keys);
            /* Checked all the same, quietly without --solutions: a broken lesson still exits 1. */
            lesson_set_output(l, solutions ? stdout : NULL);
            int c = check(l, i, &sol, NULL, "with the solution", solutions, &gs);
            lesson_set_output(l, stdout);
            if (c < 0)
                rc = EXIT_BAD_INPUT;
            else if (gs == LESSON_GOAL_NOT_MET) {
                if (!solutions)
                    cli_error("lesson: step %d: its solution misses the goal", i + 1);
                rc = 1;
            }
        }
    }
    lesson_free(l);
    if (fflush(stdout) != 0 && rc == 0)
        rc = 1;
    return rc;
}
