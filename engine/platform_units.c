/* SimGrid 3.32's units (xbt_parse_units.cpp) for bandwidths, latencies and speeds. */
#include "platform.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A base unit after an optional prefix. */
static const char *const si_prefixes[] = {"k", "M", "G", "T", "P", "E", "Z", "Y"};
static const char *const binary_prefixes[] = {"Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "Zi", "Yi"};
static const char *const word_prefixes[] = {"kilo", "mega", "giga", "tera",
                                            "peta", "exa",  "zeta", "yotta"};

/* base^(i+1) for the i-th of the eight prefixes, 1 for no prefix, 0 for an unknown one. */
static double prefix_factor(const char *p, size_t len, const char *const *prefixes, double base)
{
    if (len == 0)
        return 1;
    double f = 1;
    for (int i = 0; i < 8; i++) {
        f *= base;
        if (strlen(prefixes[i]) == len && !memcmp(p, prefixes[i], len))
            return f;
    }
    return 0;
}

/* What one `unit` is worth in B/s, s or flop/s; 0 when SimGrid does not know it. */
static double unit_factor(const char *unit, char kind)
{
    size_t n = strlen(unit);
    if (kind == 't') {
        static const struct {
            const char *name;
            double factor;
        } times[] = {{"w", 604800}, {"d", 86400}, {"h", 3600},  {"m", 60},    {"s", 1},
                     {"ms", 1e-3},  {"us", 1e-6}, {"ns", 1e-9}, {"ps", 1e-12}};
        for (size_t i = 0; i < sizeof times / sizeof *times; i++)
            if (!strcmp(unit, times[i].name))
                return times[i].factor;
        return 0;
    }
    if (kind == 'b') { /* bps or Bps, after k..Y (powers of 1000) or Ki..Yi (powers of 1024) */
        if (n < 3)
            return 0;
        double base = !strcmp(unit + n - 3, "Bps") ? 1 : !strcmp(unit + n - 3, "bps") ? 0.125 : 0;
        double f = prefix_factor(unit, n - 3, si_prefixes, 1000);
        if (f == 0)
            f = prefix_factor(unit, n - 3, binary_prefixes, 1024);
        return base * f;
    }
    /* f after k..Y, or flops after kilo..yotta */
    if (n >= 5 && !strcmp(unit + n - 5, "flops"))
        return prefix_factor(unit, n - 5, word_prefixes, 1000);
    if (n >= 1 && unit[n - 1] == 'f')
        return prefix_factor(unit, n - 1, si_prefixes, 1000);
    return 0;
}

int platform_parse_unit(const char *text, char kind, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || errno || !isfinite(v) || v < 0)
        return -1;
    if (v == 0)
        v = 0; /* -0 */
    double f;
    if (!*end) {
        /* SimGrid still reads a unit-less number in its default unit, but deprecates it with a
         * warning; Situ asks for the unit. Only 0, whose unit does not matter, may go without. */
        if (v != 0)
            return -1;
        f = 1;
    } else if ((f = unit_factor(end, kind)) == 0) {
        return -1;
    }
    if (!isfinite(v * f))
        return -1;
    *out = v * f;
    return 0;
}
