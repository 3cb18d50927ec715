/* Stand-ins for the simulation pool and the platform digest, so that fuzz_sweep links cli/study.c
 * without SimGrid: the fuzzer only adds axes and expands them with the model; it never runs a
 * simulation. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../engine/model/platform.h"
#include "../../engine/run/sim_pool.h"

volatile sig_atomic_t sim_pool_stop;

int sim_pool_run(struct sim_job *jobs, int n, int parallel, double time_limit,
                 void (*progress)(void *ud, struct sim_job *job, int done, int total), void *ud)
{
    (void)jobs, (void)n, (void)parallel, (void)time_limit, (void)progress, (void)ud;
    abort(); /* never reached from fuzz_sweep */
}

void sim_jobs_clear(struct sim_job *jobs, int n)
{
    (void)jobs, (void)n;
}

/* The platform digest without SimGrid: dahu's, as `situ __digest platforms/dahu.xml` wrote it
 * (tests/fuzz/dahu.digest.json); it holds every route, so none is ever missing. */
int platform_load(const char *path, struct platform *pf, char *err, size_t errlen)
{
    size_t n = strlen(path);
    if (n < 8 || strcmp(path + n - 8, "dahu.xml")) {
        snprintf(err, errlen, "%s: only dahu.xml under the fuzzer", path);
        return -1;
    }
    return platform_read_digest(SITU_SRCDIR "/tests/fuzz/dahu.digest.json", pf, err, errlen);
}

int platform_need_layout_routes(struct platform *pf, const struct layout *l, char *err,
                                size_t errlen)
{
    (void)pf, (void)l, (void)err, (void)errlen;
    return 0;
}
