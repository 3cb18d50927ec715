/* Fuzzes preset reading: the input is the contents of a presets/NAME.conf file (`key = value`
 * lines, `sweep.KEYS = LIST` axis lines, # comments), read by preset_read.
 * Invariants: a rejected preset leaves the parameters unchanged and explains itself in one line
 * naming the file (or "preset:"); an accepted one leaves every parameter in range, and each of
 * its values quotes (preset_quote) to text that reads back (preset_unquote) as the same. */
#include "fuzz_common.h"
#include <math.h>

#include "../../engine/model/preset.h"

static int axes;

/* A stand-in for study_add_axis (fuzz_sweep covers that): keys must be known parameters. */
static int on_axis(void *ud, const char *keys, const char *list, char *err, size_t errlen)
{
    (void)ud;
    FUZZ_ASSERT(!strchr(keys, '\n') && !strchr(list, '\n'), "a line break reached an axis");
    char copy[256];
    snprintf(copy, sizeof copy, "%s", keys);
    char *save = NULL;
    for (char *k = strtok_r(copy, ":", &save); k; k = strtok_r(NULL, ":", &save))
        if (params_find(k) < 0) {
            snprintf(err, errlen, "unknown parameter '%.60s'", k);
            return -1;
        }
    axes++;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 65536)
        return 0;
    const char *path = fuzz_file(data, size);
    struct params p, before;
    params_defaults(&p);
    memcpy(&before, &p, sizeof p);
    char err[1024] = "";
    axes = 0;
    if (preset_read(path, &p, on_axis, NULL, err, sizeof err) < 0) {
        fuzz_check_error(err, sizeof err, "preset_read");
        FUZZ_ASSERT(!strncmp(err, path, strlen(path)) || !strncmp(err, "preset:", 7),
                    "error does not name the file: %s", err);
        FUZZ_ASSERT(!memcmp(&p, &before, sizeof p), "a rejected preset changed the parameters");
        return 0;
    }
    for (int id = 0; id < PARAM_COUNT; id++) {
        const struct param_desc *d = &param_table[id];
        if (d->type == PARAM_PATH)
            continue;
        double v = params_get_number(&p, id);
        FUZZ_ASSERT(isfinite(v) && v >= d->min && v <= d->max, "%s = %g", d->key, v);
    }
    /* One quoting rule: every value read quotes back to text that reads as the same value. */
    for (int id = 0; id < PARAM_COUNT; id++) {
        char v[PARAMS_PATH_MAX], q[PRESET_QUOTED_MAX], back[PARAMS_PATH_MAX], why[128];
        params_format(&p, id, v, sizeof v);
        FUZZ_ASSERT(preset_quote(v, q, sizeof q) == 0, "%s: cannot quote", param_table[id].key);
        FUZZ_ASSERT(!strchr(q, '\n'), "%s: a line break written as one", param_table[id].key);
        FUZZ_ASSERT(preset_unquote(q, back, sizeof back, why, sizeof why) == 0, "%s: %s: %s",
                    param_table[id].key, q, why);
        FUZZ_ASSERT(!strcmp(v, back), "%s: '%s' read back as '%s'", param_table[id].key, v, back);
    }
    /* preset_apply ignores the axes and must agree with preset_read on the base. */
    struct params q;
    params_defaults(&q);
    FUZZ_ASSERT(preset_apply(path, &q, err, sizeof err) == 0, "preset_apply disagrees: %s", err);
    FUZZ_ASSERT(!memcmp(&p, &q, sizeof p), "preset_apply and preset_read differ");
    return 0;
}
