/* situ-sim, the simulation helper: the one program that links SimGrid. The front end (`situ`:
 * the command line, the explorer, the model, Lua) links none of it and starts this for what only
 * SimGrid knows, always by fork and exec (engine/run/runner.h, engine/model/platform_load.c):
 *   situ-sim __simulate [FLAG ...] --PARAM VALUE ...   one simulation, its JSON line on stdout
 *   situ-sim __simulate [FLAG ...] --ready             the same, its parameters on stdin
 *   situ-sim __digest PLATFORM [--routes]              a platform as SimGrid reads it
 *   situ-sim __smpi-warden DIR -- APP [ARG ...]        an SMPI run's warden (sim_smpi_proc.h)
 * It is found beside `situ` or in the data directory (engine/base/datadir.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../cli/cli.h"
#include "../engine/lua/simulation.h"
#include "../engine/sim/sim.h"
#include "../engine/sim/sim_digest.h"
#include "../engine/sim/sim_smpi_proc.h"

#ifndef SITU_VERSION
#define SITU_VERSION "0.1.0"
#endif

static void usage(void)
{
    printf("usage: situ-sim __simulate [--time-limit S] [--alert U] [--smpi-app APP [ARG ...] --]\n"
           "                           [--PARAM VALUE ...] [--ready]\n"
           "       situ-sim __digest PLATFORM [--routes]\n"
           "       situ-sim --version\n\n"
           "Situ's simulation helper, which situ starts: one SimGrid simulation, or a platform's\n"
           "digest, per process. The parameters are situ's (situ --help).\n");
}

/* `situ-sim __simulate --ready`: the runner's ready child (engine/run/runner.h), started ahead
 * with its flags. Its parameters come on stdin, each NUL-terminated, then EOF: *argv becomes
 * `situ-sim __simulate FLAGS ARGS`, and the child runs as one started with them (stdin /dev/null
 * again). Nothing on stdin (its runner shut down): exits 0. -1 if what came is not arguments (it
 * says why). */
static int simulate_ready(int *argc, char ***argv)
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
    int keep = *argc - 1, n = keep; /* all but --ready */
    for (size_t i = 0; i < len; i++)
        n += buf[i] == 0;
    char **args = calloc((size_t)n + 1, sizeof *args);
    if (!args)
        return -1;
    memcpy(args, *argv, sizeof *args * (size_t)keep);
    n = keep;
    for (size_t i = 0; i < len; i += strlen(buf + i) + 1)
        args[n++] = buf + i;
    *argc = n;
    *argv = args; /* the process's until it exits */
    return 0;
}

/* `situ-sim __simulate [FLAG ...] --PARAM VALUE ...`: a simulation child exec'd by the one child
 * wrapper (runner.h), with the flags the pool passes on (sim_pool.c). The simulation runs here,
 * in this process, and nothing forks again. */
static int simulate(int argc, char **argv)
{
    struct cli_opts o;
    int rc = cli_run_prepare(argc, argv, usage, &o);
    if (rc != 0)
        return rc < 0 ? EXIT_BAD_INPUT : 0;
    sim_child_main(&o.p);
}

int main(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "--version")) {
        printf("situ-sim %s\n", SITU_VERSION);
        return fflush(stdout) == 0 ? 0 : 1;
    }
    if (argc >= 2 && !strcmp(argv[1], "__digest"))
        return sim_digest_main(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "__smpi-warden"))
        return sim_smpi_warden_main(argc, argv);
    if (argc < 2 || strcmp(argv[1], "__simulate")) {
        cli_error("%s: situ-sim is Situ's simulation helper, which situ starts (situ --help)",
                  argc < 2 ? "no command" : "unknown command");
        return EXIT_BAD_INPUT;
    }
    /* Loaded, the ready child waits here for its parameters, then runs as if started with them
     * (before anything reads argv: a --simulation among them counts). */
    if (argc >= 3 && !strcmp(argv[argc - 1], "--ready") && simulate_ready(&argc, &argv) < 0)
        return EXIT_BAD_INPUT;
    /* A simulation profile's parameters enter the table before any flag is read. */
    char err[PARAMS_ERR_MAX + 4096];
    if (simulation_activate_argv(argc, argv, err, sizeof err) < 0) {
        cli_error("%s", err);
        return EXIT_BAD_INPUT;
    }
    return simulate(argc, argv);
}
