/* Fuzzes sweep lists and ranges: each input line is `KEYS=LIST` as `situ sweep --KEYS LIST` (or a
 * preset's `sweep.KEYS = LIST`) gives it — "1,3,7", "1..8", "1..1000x10", "20:1,200:10" for linked
 * keys "stride:compute_scaling" — added with study_add_axis, then, when the product is small,
 * expanded with study_expand (every configuration checked by the analytic model; no simulation).
 * Invariants: a rejected axis or expansion explains itself in one line; axes stay within their
 * limits; every expanded configuration is valid (params_validate) and in range. */
#include "fuzz_common.h"
#include <math.h>

#include "../../cli/study.h"

#define MAX_EXPAND 48

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    char *text = fuzz_string(data, size);
    struct study s;
    study_init(&s);
    s.cache[0] = 0;
    snprintf(s.base.platform, sizeof s.base.platform, "%s", SITU_SRCDIR "/platforms/dahu.xml");
    char err[768];
    bool ok = true;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line && ok; line = strtok_r(NULL, "\n", &save)) {
        char *eq = strchr(line, '=');
        if (!eq)
            continue;
        *eq = 0;
        /* Path axes would let the fuzzer open any file of this machine: names without '/' only. */
        if (strchr(eq + 1, '/'))
            continue;
        int before = s.grid.naxes;
        err[0] = 0;
        if (study_add_axis(&s, line, eq + 1, err, sizeof err) < 0) {
            fuzz_check_error(err, sizeof err, "study_add_axis");
            FUZZ_ASSERT(s.grid.naxes == before, "a rejected axis was added");
            ok = false;
            break;
        }
        FUZZ_ASSERT(s.grid.naxes == before + 1 && s.grid.naxes <= PARAM_COUNT, "%d axes",
                    s.grid.naxes);
        const struct grid_axis *a = &s.grid.axes[s.grid.naxes - 1];
        FUZZ_ASSERT(a->n >= 1 && a->n <= STUDY_MAX_VALUES, "%d values", a->n);
        FUZZ_ASSERT(a->nids >= 1 && a->nids <= STUDY_MAX_LINKED, "%d keys", a->nids);
        for (int v = 0; v < a->n * a->nids; v++)
            FUZZ_ASSERT(a->values[v] != NULL, "value %d missing", v);
    }
    long product = 1;
    for (int k = 0; k < s.grid.naxes && product <= MAX_EXPAND; k++)
        product *= s.grid.axes[k].n;
    if (ok && product <= MAX_EXPAND) {
        err[0] = 0;
        if (study_expand(&s, err, sizeof err) < 0) {
            fuzz_check_error(err, sizeof err, "study_expand");
        } else {
            FUZZ_ASSERT(s.n == product, "%d configurations, expected %ld", s.n, product);
            for (int i = 0; i < s.n; i++) {
                char perr[PARAMS_ERR_MAX];
                FUZZ_ASSERT(params_validate(&s.configs[i], perr) == 0, "config %d: %s", i, perr);
                for (int id = 0; id < PARAM_COUNT; id++) {
                    const struct param_desc *d = &param_table[id];
                    double v = params_get_number(&s.configs[i], id);
                    FUZZ_ASSERT(d->type == PARAM_PATH ||
                                    (isfinite(v) && v >= d->min && v <= d->max),
                                "config %d: %s = %g", i, d->key, v);
                }
            }
        }
    }
    study_free(&s);
    free(text);
    return 0;
}
