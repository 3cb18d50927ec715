#include "../engine/lua/evaluate.h"
#include "cli.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../engine/base/datadir.h"
#include "../engine/base/flag.h"
#include "../engine/base/flag.h"
#include "../engine/lua/script.h"
#include "../engine/model/preset.h"

void cli_error(const char *fmt, ...)
{
    /* One printable line whatever the message quotes (a file's bytes, an argument): control
     * characters would break the line or drive the terminal. */
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    for (char *c = msg; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            *c = '?';
    fprintf(stderr, "situ: %s\n", msg);
}

void cli_wrote(const char *fmt, ...)
{
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    cli_error("wrote %s", msg);
}

int cli_parse(int argc, char **argv, int first, struct cli_opts *opts)
{
    char err[PARAMS_ERR_MAX];
    memset(opts, 0, sizeof *opts);
    params_defaults(&opts->p);
    /* A preset is the starting point wherever it appears; every other flag overrides it. */
    for (int i = first; i < argc; i++) {
        const char *name = NULL;
        if (flag_take(argc, argv, &i, "preset", &name) && !name) {
            cli_error("preset: missing name after --preset");
            return -1;
        }
        char perr[PARAMS_ERR_MAX + PARAMS_PATH_MAX];
        if (name && preset_apply(name, &opts->p, perr, sizeof perr) < 0) {
            cli_error("%s", perr);
            return -1;
        }
        if (name)
            snprintf(opts->preset, sizeof opts->preset, "%s", name);
    }
    for (int i = first; i < argc;) {
        const char *arg = argv[i];
        const char *preset;
        if (flag_take(argc, argv, &i, "preset", &preset)) { /* applied above */
            i++;
            continue;
        }
        if (!strcmp(arg, "--json")) {
            opts->json = true;
            i++;
            continue;
        }
        if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
            opts->help = true;
            i++;
            continue;
        }
        if (!strcmp(arg, "--stats")) {
            opts->stats = true;
            i++;
            continue;
        }
        int rc = params_parse_flag(&opts->p, argc, argv, &i, err);
        if (rc < 0) {
            cli_error("%s", err);
            return -1;
        }
        if (rc == 0) {
            char key[64];
            const char *near = flag_name(arg, key, sizeof key) ? params_nearest_key(key) : NULL;
            char flag[80] = "";
            for (size_t k = 0; near && near[k] && k < sizeof flag - 3; k++) /* as typed: dashes */
                flag[k] = near[k] == '_' ? '-' : near[k], flag[k + 1] = 0;
            /* A profile's parameter is a flag only with its profile (main reads --simulation
             * before any flag): say so when nothing is near. */
            cli_error("unknown option '%s'%s%s%s; see 'situ --help'%s", arg,
                      near ? " (did you mean '--" : "", flag, near ? "'?)" : "",
                      near ? ""
                           : " (a simulation profile's parameters need its --simulation "
                             "NAME|FILE.lua)");
            return -1;
        }
    }
    if (opts->help)
        return 0;
    char resolved[PARAMS_PATH_MAX];
    if (datadir_resolve(opts->p.platform, resolved, sizeof resolved) == 0)
        snprintf(opts->p.platform, sizeof opts->p.platform, "%s", resolved);
    if (params_validate(&opts->p, err) < 0) {
        cli_error("%s", err);
        return -1;
    }
    return 0;
}

int cli_model_check(const struct params *p, const struct model_result *m, char *err, size_t errlen)
{
    /* Finite inputs can still overflow: a cost of 1e308 per particle is infinite per step, and
     * an infinite makespan is no result (JSON cannot even hold it). Name where it came from. */
    const struct stages *st = &m->stage;
    const struct {
        const char *name;
        double v;
        const char *cause;
    } stage[] = {
        {"S (simulate)", st->S, "sim_cost, region or compute_scaling"},
        {"Ing (ingest)", st->Ing, "data_size or data_scaling"},
        {"R (retrieve)", st->R, "data_size or data_scaling"},
        {"A (analyse)", st->A, "analytics_cost"},
        {"W (send metrics)", st->W, "the platform's network"},
        {"C (collect)", st->C, "the platform's network"},
    };
    const double run[] = {m->makespan,   m->makespan_eq5, m->sim_active, m->sim_idle,
                          m->ana_active, m->ana_idle,     m->efficiency};
    bool finite = true;
    for (size_t i = 0; i < sizeof run / sizeof run[0]; i++)
        finite = finite && isfinite(run[i]);
    /* The culprit: a stage that is infinite itself, or else the longest (steps times it is). */
    size_t worst = 0;
    for (size_t i = 0; i < sizeof stage / sizeof stage[0]; i++) {
        finite = finite && isfinite(stage[i].v);
        if (!(stage[i].v <= stage[worst].v))
            worst = i;
    }
    if (finite)
        return 0;
    if (stage[worst].cause[0] == 'a' && p->analytics[0])
        snprintf(err, errlen,
                 "analytics %s: its cost overflows the model (%s is %g s per step, %ld steps); "
                 "expected a smaller cost",
                 p->analytics, stage[worst].name, stage[worst].v, m->steps);
    else
        snprintf(err, errlen, "%s: the model overflows (%s is %g s per step, %ld steps)",
                 stage[worst].cause, stage[worst].name, stage[worst].v, m->steps);
    return -1;
}

void cli_help_buffer(void)
{
    static char buf[1 << 16];
    if (!isatty(STDOUT_FILENO))
        setvbuf(stdout, buf, _IOFBF, sizeof buf);
}

int cli_prepare(int argc, char **argv, int first, void (*usage)(void), struct cli_opts *opts,
                struct model_result *m)
{
    if (cli_parse(argc, argv, first, opts) < 0)
        return -1;
    if (opts->help) {
        cli_help_buffer();
        usage();
        return 1;
    }
    char err[512];
    if (evaluate_model(&opts->p, m, err, sizeof err) < 0 ||
        cli_model_check(&opts->p, m, err, sizeof err) < 0) {
        cli_error("%s", err);
        return -1;
    }
    return 0;
}

/* --time-limit SECONDS, for every command but sweep: how long user Lua may run at once. Taken
 * out of argv wherever it stands (run and __simulate call it once --smpi-app's arguments are out
 * of argv: they are the application's). -1 after an error message. */
int cli_time_limit_flag(int *argc, char **argv)
{
    int out = 1;
    for (int i = 1; i < *argc; i++) {
        const char *v;
        if (!flag_take(*argc, argv, &i, "time-limit", &v)) {
            argv[out++] = argv[i];
            continue;
        }
        v = v ? v : "";
        char *end;
        double s = strtod(v, &end);
        if (!*v || *end || !(s > 0 && s <= 86400)) {
            cli_error("--time-limit: '%s' is not a number of seconds in (0, 86400]", v);
            return -1;
        }
        script_set_time_limit(s);
    }
    argv[out] = NULL;
    *argc = out;
    return 0;
}
