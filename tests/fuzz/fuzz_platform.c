/* Fuzzes the platform digest's reader (platform_parse_digest), the part of platform loading that
 * is Situ's own: SimGrid's child writes the digest, but a cache file can hold anything.
 * Invariants: an accepted digest is usable (hosts with positive speeds and cores, links with
 * positive bandwidths and finite latencies, routes over known links, names that find a host of
 * that name, deep copies equal); a rejected one explains itself in one line and keeps nothing. */
#include "fuzz_common.h"
#include <math.h>

#include "../../engine/model/platform.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 20)
        return 0;
    struct platform pf;
    char err[512] = "";
    if (platform_parse_digest((const char *)data, size, &pf, err, sizeof err) < 0) {
        fuzz_check_error(err, sizeof err, "platform_parse_digest");
        FUZZ_ASSERT(pf.host == NULL && pf.route == NULL, "a rejected digest kept something");
        return 0;
    }
    FUZZ_ASSERT(pf.hosts >= 1 && pf.hosts <= PLATFORM_MAX_HOSTS, "%d hosts", pf.hosts);
    for (int i = 0; i < pf.hosts; i++) {
        FUZZ_ASSERT(pf.host[i].cores >= 1, "%d cores", pf.host[i].cores);
        FUZZ_ASSERT(isfinite(pf.host[i].speed) && pf.host[i].speed > 0, "speed %g",
                    pf.host[i].speed);
        int back = platform_host_index(&pf, pf.host[i].name);
        FUZZ_ASSERT(back >= 0 && !strcmp(pf.host[back].name, pf.host[i].name), "host %d lost", i);
    }
    for (int i = 0; i < pf.nlinks; i++)
        FUZZ_ASSERT(isfinite(pf.link[i].bw) && pf.link[i].bw > 0 && isfinite(pf.link[i].lat) &&
                        pf.link[i].lat >= 0,
                    "link %d", i);
    for (int a = 0; a < pf.hosts && a < 64; a++)
        for (int b = 0; b < pf.hosts && b < 64; b++) {
            int n;
            const int *r = platform_route(&pf, a, b, &n);
            for (int k = 0; r && k < n; k++)
                FUZZ_ASSERT(r[k] >= 0 && r[k] < pf.nlinks, "route %d-%d link %d", a, b, r[k]);
        }
    struct platform copy;
    if (platform_copy(&copy, &pf) == 0) {
        FUZZ_ASSERT(copy.hosts == pf.hosts && copy.nroutes == pf.nroutes, "copy differs");
        platform_free(&copy);
    }
    platform_free(&pf);
    return 0;
}
