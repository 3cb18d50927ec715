/* `situ lesson NAME --headless`: walks a lesson's steps without the explorer. Each step's text,
 * the configuration it loads, the model's headline numbers for it, its goal's status and the
 * hint's first level (the nudge). The solutions are checked either way (a lesson whose solution
 * misses its goal is broken: exit 1) but printed only with --solutions, the instructor's view,
 * with every hint level: a student's printout must not give the answers away.
 * `situ lesson --list` lists the installed lessons. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

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
    printf("usage: situ lesson NAME [--student ID] [--log FILE|DIR] [--PARAM VALUE ...]\n"
           "       situ lesson NAME --headless [--solutions]\n"
           "       situ lesson [--list]                  the lessons, with their descriptions\n"
           "       situ lesson report LOG... [--csv FILE] the class, from the students' logs\n\n"
           "A lesson is a Lua file under scripts/lua/lessons/ (or a path): steps with text, a\n"
           "configuration to load and a goal. On a terminal it opens the explorer with the\n"
           "lesson panel (n/b next/back, i hint, again for more; R resets the step, y brings\n"
           "your changes back); parameters set the start. --student ID names the student in\n"
           "the log, which is appended as they work (ID.log, or DIR/ID.log with --log DIR); the\n"
           "next start with the same log resumes at their last step. --headless (or no\n"
           "terminal) prints each step, loads its configuration and checks its goal against\n"
           "the model; it takes no parameters. Each step's solution is checked too, but printed\n"
           "only with --solutions (for the instructor).\n"
           "Exit status: 0, 1 when a step's solution misses its goal (or a write fails), 2 for\n"
           "bad input (a bad log: its file and line) or a Lua error.\n");
}

static int list(void)
{
    char names[64][LESSON_NAME_MAX], err[1024];
    int n = lesson_list(names, 64);
    for (int i = 0; i < n && i < 64; i++) {
        struct lesson *l = lesson_load(names[i], err, sizeof err);
        if (l)
            printf("%-12s %s\n%-12s %s\n", names[i], lesson_title(l), "",
                   lesson_description(l)[0] ? lesson_description(l) : "");
        else
            printf("%-12s %s\n", names[i], err);
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

/* A student's ID names their log's file: letters, digits, '.', '-' and '_', not starting with '.'.
 */
static bool student_ok(const char *id)
{
    size_t n = strlen(id);
    if (n == 0 || n > 63 || id[0] == '.')
        return false;
    for (size_t k = 0; k < n; k++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", id[k]))
            return false;
    return true;
}

int cli_check_log(const char *lesson, const char **log, const char *student)
{
    static char path[PARAMS_PATH_MAX]; /* the explorer reads it until the process ends */
    if (student && !student_ok(student)) {
        cli_error("--student: '%s' is not an ID (letters, digits, '.', '-', '_'; at most 63)",
                  student);
        return -1;
    }
    if (!*log && !student)
        return 0;
    if (!lesson) {
        cli_error("%s: it records a lesson; give the lesson (--lesson NAME)",
                  student ? "--student" : "--log");
        return -1;
    }
    /* A student's log: --log FILE as given, --log DIR holds ID.log, no --log: ID.log here. */
    struct stat st;
    if (student && (!*log || (stat(*log, &st) == 0 && S_ISDIR(st.st_mode)))) {
        if (snprintf(path, sizeof path, "%s%s%s.log", *log ? *log : "", *log ? "/" : "", student) >=
            (int)sizeof path) {
            cli_error("--log: the path is too long");
            return -1;
        }
        *log = path;
    }
    char err[OUTFILE_ERR_MAX];
    if (outfile_check(*log, err, sizeof err) < 0) {
        cli_error("--log: %s", err);
        return -1;
    }
    return 0;
}

/* The explorer with the lesson panel; the other arguments are parameters of the start. */
static int open_explorer(const char *name, const char *log, const char *student, int argc,
                         char **argv)
{
    char *rest[argc + 1];
    int n = 0;
    rest[n++] = argv[0];
    for (int i = 2; i < argc; i++) {
        const char *v;
        if (flag_take(argc, argv, &i, "log", &v) || flag_take(argc, argv, &i, "student", &v))
            continue; /* and its value */
        if (argv[i] != name)
            rest[n++] = argv[i];
    }
    rest[n] = NULL;
    struct cli_opts o;
    if (cli_parse(n, rest, 1, &o) < 0 || cli_check_log(name, &log, student) < 0)
        return EXIT_BAD_INPUT;
    struct tui_opts t = {.p = &o.p,
                         .preset = o.preset,
                         .stats = o.stats,
                         .lesson = name,
                         .lesson_log = log,
                         .student = student};
    return tui_run(&t);
}

int cmd_lesson(int argc, char **argv)
{
    const char *name = NULL, *log = NULL, *student = NULL;
    if (argc >= 3 && !strcmp(argv[2], "report"))
        return cmd_lesson_report(argc - 2, argv + 2);
    bool headless = !tui_have_terminal(), solutions = false;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--headless") || !strcmp(argv[i], "--solutions"))
            headless = true; /* before parameters are let through below */
    }
    for (int i = 2; i < argc; i++) {
        if (flag_take(argc, argv, &i, "student", &student)) {
            if (!student || !*student) {
                cli_error("--student: missing value");
                return EXIT_BAD_INPUT;
            }
            if (headless) {
                cli_error("lesson: --student records a student's session in the explorer, not "
                          "--headless");
                return EXIT_BAD_INPUT;
            }
            continue;
        }
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
    if (!name)
        return list(); /* which lessons there are: what a student typing `situ lesson` wants */
    if (!headless)
        return open_explorer(name, log, student, argc, argv);
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
        /* A student's printout: the nudge, never a last resort (it may give the answer away). */
        int count = lesson_step_hint_count(l, i), hints = solutions ? count : 1;
        bool last = lesson_step_hint_last_resort(l, i);
        if (!solutions && last && count == 1)
            hints = 0;
        for (int k = 0; k < hints && lesson_step_hint_at(l, i, k)[0]; k++)
            printf("  hint%s: %s\n",
                   last && k == count - 1 ? " (last resort)"
                   : k                    ? " (more)"
                                          : "",
                   lesson_step_hint_at(l, i, k));
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
