/* The `situ` command line: subcommands share one option parser that reads the parameter table. */
#ifndef SITU_CLI_H
#define SITU_CLI_H

#include <stdbool.h>

#include "../engine/model/model.h"
#include "../engine/model/params.h"
#include "../engine/model/preset.h"

#define EXIT_BAD_INPUT  2
#define EXIT_SIM_FAILED 3

struct cli_opts {
    struct params p;
    bool json;
    bool help;
    bool stats;
    char preset[PRESET_NAME_MAX]; /* the last --preset NAME, "" if none */
};

/* Parses argv[first..] into opts (defaults first). Prints a one-line error naming the option and
 * returns -1 on bad input. Relative data paths are resolved against the data directories. */
int cli_parse(int argc, char **argv, int first, struct cli_opts *opts);

/* The start every one-configuration command shares: parse argv[first..], show usage() on --help,
 * then check the configuration with the model (bad input is caught before any simulation).
 * Returns 0 to go on (m filled), 1 when help was shown, -1 on bad input (error printed). */
int cli_prepare(int argc, char **argv, int first, void (*usage)(void), struct cli_opts *opts,
                struct model_result *m);

/* Checks that the model's numbers are finite: finite parameters can still overflow (an
 * analytics cost of 1e308). -1 with a message naming the parameter or the analytics: bad input. */
int cli_model_check(const struct params *p, const struct model_result *m, char *err, size_t errlen);

/* Before a help text (nothing printed yet): stdout, when not a terminal, holds it all until the
 * exit's flush, so that a failed write (`--help > /dev/full`) is seen with its reason: stdio
 * drops the errno of a flush in the middle. */
void cli_help_buffer(void);

/* Prints "situ: <msg>" on stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Every command that writes a file says so once it is in place, in one line on stderr (stdout
 * stays the command's data): "situ: wrote <msg>", msg naming the file or the set and what it
 * holds. */
void cli_wrote(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Takes --time-limit SECONDS out of argv (main.c). -1 after an error message. */
int cli_time_limit_flag(int *argc, char **argv);

/* The start of `situ run` and of the helper's `__simulate` (cli/run_flags.c): --smpi-app APP
 * [ARG ...] [--], --alert U, --time-limit S, then cli_prepare of the parameters (argv[2..]);
 * --smpi-app sets fidelity smpi, and any other --fidelity with it is bad input. 0 to go on, 1
 * when help was shown, -1 on bad input (said). */
int cli_run_prepare(int argc, char **argv, void (*usage)(void), struct cli_opts *opts);

int cmd_model(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_advise(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_reproduce(int argc, char **argv);
int cmd_script(int argc, char **argv);
int cmd_lesson(int argc, char **argv);
/* `situ lesson report LOG... [--csv FILE]` (argv[0] is "report"): the class from the students'
 * logs (cli/cmd_lesson_report.c). */
int cmd_lesson_report(int argc, char **argv);
/* `situ __completion bash|zsh`: the completion script, from the parameter table and commands
 * (NULL-terminated). */
int cli_completion(int argc, char **argv, const char *const *commands);
/* __man-roff params|keys: docs/situ.1's generated sections (man_roff.c, tools/docs.sh). */
int man_roff_main(int argc, char **argv);

/* --log FILE and --student ID for a lesson in the explorer: a lesson must be given, the ID be
 * one, and the log writable (outfile's check). A student's log is FILE, DIR/ID.log for a
 * directory, or ID.log without --log: *log is set to it. -1 after the one-line error. */
int cli_check_log(const char *lesson, const char **log, const char *student);

#endif
