#include "units.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>

/* Under a second, both widths alike: "0 s", "750 us", "1.23 ms". False for a second or more. */
static bool under_a_second(double s, char *buf, size_t len)
{
    if (s == 0)
        snprintf(buf, len, "0 s");
    else if (s < 1e-3)
        snprintf(buf, len, "%.3g us", s * 1e6);
    else if (s < 1)
        snprintf(buf, len, "%.3g ms", s * 1e3);
    return s < 1;
}

const char *units_time(double s, char *buf, size_t len)
{
    if (under_a_second(s, buf, len))
        return buf;
    if (s < 3600)
        snprintf(buf, len, "%.4g s", s);
    else
        snprintf(buf, len, "%.4g s (%.2f h)", s, s / 3600);
    return buf;
}

const char *units_time_short(double t, char *buf, size_t len)
{
    if (!isfinite(t) || t < 0)
        snprintf(buf, len, "-");
    else if (under_a_second(t, buf, len))
        return buf;
    else if (t < 100)
        snprintf(buf, len, "%.3g s", t);
    else if (t < 1e5)
        snprintf(buf, len, "%.0f s", t);
    else if (t < 3.6e7)
        snprintf(buf, len, "%.3g h", t / 3600);
    else
        snprintf(buf, len, "%.2g s", t);
    return buf;
}

const char *units_time_as(double t, double ref, char *buf, size_t len)
{
    if (!isfinite(t) || t < 0 || !isfinite(ref) || ref <= 0)
        return units_time_short(t, buf, len);
    double div = ref < 1e-3 ? 1e-6 : ref < 1 ? 1e-3 : ref < 1e5 || ref >= 3.6e7 ? 1 : 3600;
    const char *unit = div == 1e-6 ? "us" : div == 1e-3 ? "ms" : div == 1 ? "s" : "h";
    snprintf(buf, len, ref >= 100 && ref < 1e5 ? "%.0f %s" : "%.3g %s", t / div, unit);
    return buf;
}

const char *units_bytes(double b, char *buf, size_t len)
{
    static const char *const unit[] = {"B", "kB", "MB", "GB", "TB", "PB"};
    int u = 0;
    while (b >= 1000 && u < 5)
        b /= 1000, u++;
    snprintf(buf, len, "%.3g %s", b, unit[u]);
    return buf;
}
