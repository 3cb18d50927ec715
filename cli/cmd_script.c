/* `situ script FILE.lua [ARGS]`: a scenario, headless. The script sees the `situ` module and a
 * global `arg`; any Lua error ends it with "situ: FILE:LINE: message" (and a traceback for
 * runtime errors), exit 2, or 3 when a simulation failed. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/lua/script.h"
#include "../engine/scenario/script_situ.h"
#include "../engine/base/flag.h"
#include "cli.h"

/* The documented ranges of the limit options (docs/lua.md): 10^18 instructions is centuries of
 * Lua, and 1 TiB is more memory than any node this runs on. */
#define SCRIPT_LIMIT_INSTRUCTIONS 1e18
#define SCRIPT_LIMIT_MEMORY_MIB   1048576.0

static void usage(void)
{
    printf("usage: situ script [--unsafe] [--max-instructions N] [--max-memory MIB] FILE.lua "
           "[ARG ...]\n\n"
           "Runs a scenario: a Lua script with the `situ` module (params, model, run, sweep,\n"
           "crossover, analytics, table, csv; see docs/lua.md). ARGs are in the global `arg`.\n\n"
           "  --unsafe              lift the sandbox (os.execute, io.popen, C modules, writing\n"
           "                        anywhere)\n"
           "  --max-instructions N  stop the script after N Lua instructions, a whole number\n"
           "                        up to 10^18 (default %lld, 0: none)\n"
           "  --max-memory MIB      Lua memory limit in whole MiB up to 1048576 (default %u, 0:\n"
           "                        none)\n\n"
           "Exit status: 0, 2 for a Lua error or bad input, 3 when a simulation failed.\n",
           SCRIPT_MAX_INSTRUCTIONS, SCRIPT_MAX_MEMORY >> 20);
}

/* A limit: a whole number in [0, max], 0 meaning none. NaN, infinities and fractions are
 * refused: each would silently lift the limit (NaN, or 0.5 MiB rounded down to 0) or wrap
 * (NaN to LLONG_MIN instructions). */
static int limit_option(const char *flag, const char *text, double max, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(text ? text : "", &end);
    if (!text || end == text || *end || errno || !(v >= 0 && v <= max) || v != floor(v)) {
        cli_error("%s: '%s' is not valid; expected a whole number in [0, %.0f] (0: no limit)",
                  flag + 2, text ? text : "", max);
        return -1;
    }
    *out = v;
    return 0;
}

int cmd_script(int argc, char **argv)
{
    struct script_opts o = {.unsafe = false,
                            .out = stdout,
                            .max_instructions = SCRIPT_MAX_INSTRUCTIONS,
                            .max_memory = SCRIPT_MAX_MEMORY,
                            .time_limit = SCRIPT_TIME_LIMIT,
                            .cli_limits = true};
    int i = 2;
    for (; i < argc && argv[i][0] == '-'; i++) {
        double v;
        const char *text;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage();
            return 0;
        } else if (!strcmp(argv[i], "--unsafe")) {
            o.unsafe = true;
        } else if (flag_take(argc, argv, &i, "max-instructions", &text)) {
            if (limit_option("--max-instructions", text, SCRIPT_LIMIT_INSTRUCTIONS, &v) < 0)
                return EXIT_BAD_INPUT;
            o.max_instructions = (long long)v;
        } else if (flag_take(argc, argv, &i, "max-memory", &text)) {
            if (limit_option("--max-memory", text, SCRIPT_LIMIT_MEMORY_MIB, &v) < 0)
                return EXIT_BAD_INPUT;
            o.max_memory = (size_t)(v * (1 << 20));
        } else {
            cli_error("script: unknown option '%s'; see 'situ script --help'", argv[i]);
            return EXIT_BAD_INPUT;
        }
    }
    if (i >= argc) {
        cli_error("script: expected a FILE.lua; see 'situ script --help'");
        return EXIT_BAD_INPUT;
    }
    const char *path = argv[i];
    struct script *s = script_new(&o);
    if (!s) {
        cli_error("script: out of memory starting Lua");
        return EXIT_BAD_INPUT;
    }
    script_open_situ(s);
    int rc = 0;
    if (script_set_args(s, path, argc - i - 1, argv + i + 1) < 0 || script_load(s, path) < 0 ||
        script_pcall(s, 0, 0, true) < 0) {
        /* One line "situ: FILE:LINE: message", then the traceback as Lua wrote it. */
        const char *msg = script_error(s), *nl = strchr(msg, '\n');
        fflush(stdout);
        cli_error("%.*s", nl ? (int)(nl - msg) : (int)strlen(msg), msg);
        if (nl)
            fprintf(stderr, "%s\n", nl + 1);
        /* The status of the error that ended the script: one caught earlier does not count. */
        rc = script_exit_status(s, EXIT_BAD_INPUT);
    }
    script_free(s);
    if (fflush(stdout) != 0 && rc == 0)
        rc = 1;
    return rc;
}
