#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../engine/base/flag.h"
#include "../engine/model/model.h"
#include "../engine/base/outfile.h"
#include "../engine/model/report.h"
#include "../engine/model/result.h"
#include "../engine/sim/sim.h"
#include "../engine/sim/sim_smpi.h"
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
        "smpi/situ_dtl.h) under SMPI as the simulation ranks, with Situ's analytics and\n"
        "collector placed per the mapping (fidelity smpi); its arguments, which end at '--'\n"
        "(every one before it is the application's) or else at the first Situ flag, reach it as\n"
        "they are (no shell); --time-limit S kills it past S seconds.\n"
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
    static const char *const own[] = {"json",       "preset", "help", "stats",
                                      "time-limit", "alert",  NULL};
    for (int i = 0; own[i]; i++)
        if (!strcmp(key, own[i]))
            return true;
    return params_find(key) >= 0;
}

/* Takes --smpi-app APP [ARG ...] [--] out of argv into sim_smpi_app. With a `--` after APP,
 * every argument up to it is the application's, whatever it looks like (--alert, --nodes: byte
 * for byte); without one, they end at the first of situ run's own flags. Called before any other
 * flag is taken out of argv, so that none is taken from the application's. -1 on bad input. */
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

/* The table of a measured result: the model's layout, then what only a simulation knows. */
static void print_table(FILE *out, const struct params *p, const struct sim_result *r)
{
    report_result_table(out, "situ run: SimGrid simulation (measured)", p, &r->m);
    fprintf(out, "  %-20s %.3f s, %ld activities, fidelity %s\n", "simulated in", r->wall_seconds,
            r->activities, r->fidelity);
    if (r->warning[0])
        fprintf(out, "  warning: %s\n", r->warning);
    fprintf(out, "  links that carried traffic (mean utilisation; about 50%% is best)\n");
    for (int i = 0; i < r->nlinks; i++) {
        double u = r->links[i].utilisation;
        fprintf(out, "    %-34s %-8s %12.4g B  %6.2f %%  %s\n", r->links[i].name, r->links[i].place,
                r->links[i].bytes, 100 * u,
                u > sim_link_alert ? "ALERT: above threshold"
                : u < 0.25         ? "under-used"
                : u <= 0.6         ? "good"
                                   : "busy");
    }
}

/* An --smpi-app's own output, which its result carries ("app"): lines after the table, and
 * where it was cut, if it was. */
static void print_app_output(FILE *out, json_t *result)
{
    json_t *app = json_object_get(result, "app");
    const char *text = json_string_value(json_object_get(app, "output"));
    const char *name = json_string_value(json_array_get(json_object_get(app, "command"), 0));
    if (!text || !name)
        return;
    if (json_is_true(json_object_get(app, "output_truncated")))
        fprintf(
            out, "  output of %s (%" JSON_INTEGER_FORMAT " bytes, cut: only the first %d kept):\n",
            name, json_integer_value(json_object_get(app, "output_bytes")), SIM_SMPI_OUTPUT_MAX);
    else
        fprintf(out, "  output of %s:\n", name);
    for (const char *line = text; *line;) {
        size_t n = strcspn(line, "\n");
        fprintf(out, "    %.*s\n", (int)n, line);
        line += n + (line[n] == '\n');
    }
}

int cmd_run(int argc, char **argv)
{
    struct cli_opts o;
    struct model_result m;
    bool fidelity_given;
    if (take_smpi_app(&argc, argv, &fidelity_given) < 0 || take_alert(&argc, argv) < 0 ||
        cli_time_limit_flag(&argc, argv) < 0)
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
    struct sim_job job = {.p = o.p};
    int run = sim_pool_run(&job, 1, 1, 0, NULL, NULL);
    if (run != 0) {
        cli_error("run: %s", run == -1 ? "cannot start the simulation" : job.err);
        return run == -2 ? 128 + (int)sim_pool_stop : EXIT_SIM_FAILED;
    }
    struct outfile out;
    outfile_open(&out, NULL, err, sizeof err); /* stdout: cannot fail */
    if (o.json) {                              /* the line as the simulation printed it */
        outfile_write(&out, job.output, strlen(job.output));
    } else { /* the wrapper has checked the line against the schema: this reads it again */
        struct sim_result res;
        char *text = NULL;
        size_t len = 0;
        FILE *mem = open_memstream(&text, &len);
        bool ok = mem && result_from_json(job.json, &res, err, sizeof err) == 0;
        if (ok) {
            print_table(mem, &o.p, &res);
            print_app_output(mem, job.json);
            result_free(&res);
        }
        ok = mem && fclose(mem) == 0 && ok;
        if (ok)
            outfile_write(&out, text, len);
        free(text);
        if (!ok) { /* nothing printed: stdout holds nothing of ours yet */
            json_decref(job.json);
            free(job.output);
            cli_error("run: cannot render the result: out of memory");
            return 1;
        }
    }
    free(job.output);
    json_decref(job.json);
    if (outfile_commit(&out, err, sizeof err) < 0) {
        cli_error("run: %s", err);
        return 1;
    }
    return 0;
}

/* `situ __simulate --ready`: the runner's ready child (engine/run/runner.h), started ahead. Its
 * arguments come on stdin, each NUL-terminated, then EOF: *argv becomes `situ __simulate ARGS`,
 * and the child runs as one started with them (stdin /dev/null again). Nothing on stdin (its
 * runner shut down): exits 0. -1 if what came is not arguments (it says why). */
int cmd_simulate_ready(int *argc, char ***argv)
{
    size_t len = 0, cap = 65536;
    char *buf = malloc(cap);
    while (buf) {
        if (len == cap) /* 64 KiB is what the runner writes at most */
            buf = cap < ((size_t)1 << 20) ? realloc(buf, cap *= 2) : NULL;
        ssize_t n = buf ? read(STDIN_FILENO, buf + len, cap - len) : -1;
        if (n == 0)
            break;
        if (n < 0 && errno != EINTR)
            buf = NULL; /* said below; the process exits */
        len += n > 0 ? (size_t)n : 0;
    }
    if (buf && len == 0)
        exit(0);
    int devnull = open("/dev/null", O_RDONLY);
    if (!buf || buf[len - 1] != 0 || devnull < 0 || dup2(devnull, STDIN_FILENO) < 0) {
        cli_error("__simulate --ready: no arguments on stdin");
        return -1;
    }
    close(devnull);
    int n = 2;
    for (size_t i = 0; i < len; i++)
        n += buf[i] == 0;
    char **args = calloc((size_t)n + 1, sizeof *args);
    if (!args)
        return -1;
    args[0] = (*argv)[0];
    args[1] = (*argv)[1];
    n = 2;
    for (size_t i = 0; i < len; i += strlen(buf + i) + 1)
        args[n++] = buf + i;
    *argc = n;
    *argv = args; /* the process's until it exits */
    return 0;
}

/* `situ __simulate [--smpi-app APP [ARG ...] --] --PARAM VALUE ...`: a simulation child exec'd
 * by the one child wrapper (runner.h): the explorer's, and those of a command that has another
 * thread by then (sim_isolate.c), which pass --smpi-app and --time-limit as a copy would inherit
 * them.
 * The simulation runs here, in this process, and nothing forks again. */
int cmd_simulate(int argc, char **argv)
{
    struct cli_opts o;
    struct model_result m;
    bool fidelity_given;
    if (take_smpi_app(&argc, argv, &fidelity_given) < 0 || cli_time_limit_flag(&argc, argv) < 0)
        return EXIT_BAD_INPUT;
    int rc = cli_prepare(argc, argv, 2, usage, &o, &m);
    if (rc != 0)
        return rc < 0 ? EXIT_BAD_INPUT : 0;
    sim_child_main(&o.p);
}
