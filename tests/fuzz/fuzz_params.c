/* Fuzzes parameter parsing: the input is an argv (items separated by NUL bytes) parsed with
 * params_parse_flag as `situ model ARGS` does, and each item of the form key=value also goes
 * through params_find + params_set as a preset line does.
 * Invariants: a rejected value leaves the parameters unchanged and explains itself in one line
 * that names the parameter; an accepted value is in the table's range; the canonical key (the
 * cache's) reads back to the same numbers. */
#include "fuzz_common.h"
#include <math.h>

#include "../../engine/model/params.h"

#define MAX_ARGS 32

static void check_ranges(const struct params *p)
{
    for (int id = 0; id < PARAM_COUNT; id++) {
        const struct param_desc *d = &param_table[id];
        if (d->type == PARAM_PATH) {
            const char *s = (const char *)p + d->offset;
            FUZZ_ASSERT(strnlen(s, PARAMS_PATH_MAX) < PARAMS_PATH_MAX, "%s unterminated", d->key);
            continue;
        }
        double v = params_get_number(p, id);
        FUZZ_ASSERT(isfinite(v) && v >= d->min && v <= d->max, "%s = %g out of range", d->key, v);
        char buf[PARAMS_PATH_MAX];
        params_format(p, id, buf, sizeof buf);
        double pos = params_position(p, id);
        FUZZ_ASSERT(pos >= -1e-9 && pos <= 1 + 1e-9, "%s position %g", d->key, pos);
    }
}

/* The canonical text key=value;... must read back, number for number. */
static void check_canonical(const struct params *p)
{
    /* A path holding ';' or '=' makes the text ambiguous (paths are compared by the cache as
     * files, not by this text): nothing to check then. */
    for (int id = 0; id < PARAM_COUNT; id++)
        if (param_table[id].type == PARAM_PATH &&
            strpbrk((const char *)p + param_table[id].offset, ";="))
            return;
    char canon[8192];
    params_canonical(p, canon, sizeof canon);
    struct params back = *p;
    char *save = NULL;
    for (char *kv = strtok_r(canon, ";", &save); kv; kv = strtok_r(NULL, ";", &save)) {
        char *eq = strchr(kv, '=');
        if (!eq)
            continue; /* a path holding ';' split the text: paths are not compared */
        *eq = 0;
        int id = params_find(kv);
        if (id < 0 || param_table[id].type == PARAM_PATH)
            continue;
        char err[PARAMS_ERR_MAX];
        FUZZ_ASSERT(params_set(&back, id, eq + 1, err) == 0, "canonical %s=%s rejected: %s", kv,
                    eq + 1, err);
        FUZZ_ASSERT(params_get_number(&back, id) == params_get_number(p, id),
                    "%s did not round-trip", kv);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    char *text = fuzz_string(data, size);
    char *argv[MAX_ARGS + 1];
    int argc = 0;
    /* NUL-separated items, like a real argv (so values may hold newlines and spaces). */
    for (size_t i = 0; i < size && argc < MAX_ARGS; i++) {
        argv[argc++] = text + i;
        i += strlen(text + i);
    }
    argv[argc] = NULL;

    struct params p, before;
    char err[PARAMS_ERR_MAX];
    params_defaults(&p);
    for (int i = 0; i < argc;) {
        memcpy(&before, &p, sizeof p);
        int at = i;
        err[0] = 0;
        int rc = params_parse_flag(&p, argc, argv, &i, err);
        if (rc == 0) {
            FUZZ_ASSERT(i == at, "an unknown flag moved the index");
            i++;
            continue;
        }
        if (rc < 0) {
            fuzz_check_error(err, sizeof err, "params_parse_flag");
            FUZZ_ASSERT(!memcmp(&p, &before, sizeof p), "a rejected flag changed the parameters");
            break; /* as cli_parse: the first error ends the parse */
        }
        FUZZ_ASSERT(i > at && i <= argc, "index %d after %d of %d", i, at, argc);
    }
    check_ranges(&p);

    for (int a = 0; a < argc; a++) {
        char *eq = strchr(argv[a], '=');
        if (!eq)
            continue;
        *eq = 0;
        int id = params_find(argv[a]);
        if (id < 0)
            continue;
        memcpy(&before, &p, sizeof p);
        err[0] = 0;
        if (params_set(&p, id, eq + 1, err) < 0) {
            fuzz_check_error(err, sizeof err, "params_set");
            FUZZ_ASSERT(!strncmp(err, param_table[id].key, strlen(param_table[id].key)),
                        "error does not name %s: %s", param_table[id].key, err);
            FUZZ_ASSERT(!memcmp(&p, &before, sizeof p), "a rejected value changed the parameters");
        }
    }
    check_ranges(&p);
    check_canonical(&p);

    err[0] = 0;
    if (params_validate(&p, err) < 0)
        fuzz_check_error(err, sizeof err, "params_validate");
    /* Sliders: any number of steps stays in range. */
    for (int id = 0; id < PARAM_COUNT; id++) {
        struct params q = p;
        params_step(&q, id, size % 7 - 3, size & 1);
        params_step(&q, id, 1000, true);
        params_step(&q, id, -1000, true);
        check_ranges(&q);
    }
    free(text);
    return 0;
}
