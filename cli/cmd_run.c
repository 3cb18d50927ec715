#include <stdio.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/flag.h"
#include "../engine/model.h"
#include "../engine/outfile.h"
#include "../engine/report.h"
#include "../engine/result.h"
#include "../engine/sim.h"
#include "cli.h"

static void usage(void)
{
    printf(
        "usage: situ run [--PARAM VALUE ...] [--json]\n\n"
        "Simulates one configuration with SimGrid: every simulation rank, analytics actor and\n"
        "the metric collector as actors on the platform, with the DTL between them. Prints the\n"
        "measured stage times, idle/active time, makespan and efficiency (the same keys as\n"
        "'situ model --json'), plus wall_seconds, activities, per-step arrays and link traffic.\n"
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

/* The table of a measured result: the model's layout, then what only a simulation knows. */
static void print_table(FILE *out, const struct params *p, const struct sim_result *r)
{
    report_result_table(out, "situ run: SimGrid simulation (measured)", p, &r->m);
    fprintf(out, "  %-20s %.3f s, %ld activities, fidelity %s\n", "simulated in", r->wall_seconds,
            r->activities, r->fidelity);
    fprintf(out, "  links that carried traffic (mean utilisation; about 50%% is best)\n");
    for (int i = 0; i < r->nlinks; i++) {
        double u = r->links[i].utilisation;
        fprintf(out, "    %-34s %12.4g B  %6.2f %%  %s\n", r->links[i].name, r->links[i].bytes,
                100 * u,
                u > sim_link_alert ? "ALERT: above threshold"
                : u < 0.25         ? "under-used"
                : u <= 0.6         ? "good"
                                   : "busy");
    }
}

int cmd_run(int argc, char **argv)
{
    struct cli_opts o;
    struct model_result m;
    if (take_alert(&argc, argv) < 0)
        return EXIT_BAD_INPUT;
    int rc = cli_prepare(argc, argv, 2, usage, &o, &m);
    if (rc != 0)
        return rc < 0 ? EXIT_BAD_INPUT : 0;
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

/* `situ __simulate --PARAM VALUE ...`: the explorer's simulation child (runner.h), exec'd by the
 * one child wrapper; the simulation runs here, in this process, and nothing forks again. */
int cmd_simulate(int argc, char **argv)
{
    struct cli_opts o;
    struct model_result m;
    int rc = cli_prepare(argc, argv, 2, usage, &o, &m);
    if (rc != 0)
        return rc < 0 ? EXIT_BAD_INPUT : 0;
    sim_child_main(&o.p);
}
