/* Fuzzes result parsing: the input is what a `situ run --json` child printed (or one line that
 * `situ merge` reads), parsed by result_parse.
 * Invariants: an accepted result has finite numbers, consistent per-step arrays and links, and
 * survives result_copy; a rejected one is empty (safe to free) and explains itself in one line. */
#include "fuzz_common.h"
#include <math.h>

#include "../../engine/model/result.h"

static void check(const struct sim_result *r)
{
    const struct model_result *m = &r->m;
    double reals[] = {m->makespan, m->efficiency, m->sim_active, m->sim_idle,    m->ana_active,
                      m->ana_idle, m->particles,  m->halo,       r->wall_seconds};
    for (size_t i = 0; i < sizeof reals / sizeof reals[0]; i++)
        FUZZ_ASSERT(isfinite(reals[i]), "number %zu is %g", i, reals[i]);
    FUZZ_ASSERT(isnan(m->makespan_eq5) || isfinite(m->makespan_eq5), "makespan_eq5 %g",
                m->makespan_eq5); /* absent (NAN) or a number */
    FUZZ_ASSERT(m->steps >= 0 && m->sim_cores >= 0 && m->ana_cores >= 0, "negative count");
    FUZZ_ASSERT(r->nsteps >= 0 && r->nlinks >= 0, "negative sizes");
    FUZZ_ASSERT((r->nsteps == 0) == (r->step_sim_active == NULL), "steps and arrays disagree");
    FUZZ_ASSERT((r->nlinks == 0) == (r->links == NULL), "links and array disagree");
    for (long i = 0; i < r->nsteps; i++)
        FUZZ_ASSERT(isfinite(r->step_sim_active[i] + r->step_sim_idle[i] + r->step_ana_active[i] +
                             r->step_ana_idle[i]),
                    "step %ld", i);
    for (int i = 0; i < r->nlinks; i++) {
        FUZZ_ASSERT(strnlen(r->links[i].name, sizeof r->links[i].name) < sizeof r->links[i].name,
                    "link name unterminated");
        FUZZ_ASSERT(isfinite(r->links[i].bytes) && isfinite(r->links[i].utilisation), "link %d", i);
    }
    if (r->nsteps > 0)
        FUZZ_ASSERT(isfinite(result_step_mean(r, r->step_sim_active)), "mean");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct sim_result r;
    char err[RESULT_ERR_MAX] = "";
    if (result_parse((const char *)data, size, &r, err, sizeof err) < 0) {
        fuzz_check_error(err, sizeof err, "result_parse");
        FUZZ_ASSERT(r.nsteps == 0 && r.nlinks == 0 && !r.links && !r.step_sim_active,
                    "a rejected result is not empty");
        result_free(&r);
        return 0;
    }
    check(&r);
    struct sim_result copy;
    FUZZ_ASSERT(result_copy(&copy, &r) == 0, "result_copy failed");
    check(&copy);
    FUZZ_ASSERT(copy.nsteps == r.nsteps && copy.nlinks == r.nlinks, "copy differs");
    if (r.nsteps)
        FUZZ_ASSERT(!memcmp(copy.step_sim_active, r.step_sim_active, r.nsteps * sizeof(double)) &&
                        !memcmp(copy.step_ana_idle, r.step_ana_idle, r.nsteps * sizeof(double)),
                    "copy differs");
    result_free(&copy);
    result_free(&r);
    FUZZ_ASSERT(!r.links && !r.step_sim_active && !r.nsteps, "result_free left something");
    return 0;
}
