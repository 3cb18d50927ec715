/* Fuzzes platform reading: the input is a SimGrid platform XML file, read by platform_load (libxml2
 * without network or entity substitution), then every host name is printed and looked up again.
 * Invariants: an accepted platform is usable (hosts, cores, positive speed and bandwidth, finite
 * latencies, names that find their own host); a rejected one explains itself in one line. */
#include "fuzz_common.h"
#include <math.h>

#include "../../engine/platform.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 65536)
        return 0;
    const char *path = fuzz_file(data, size);
    struct platform pf;
    char err[512] = "";
    if (platform_load(path, &pf, err, sizeof err) < 0) {
        fuzz_check_error(err, sizeof err, "platform_load");
        FUZZ_ASSERT(!strncmp(err, path, strlen(path)), "error does not name the file: %s", err);
        FUZZ_ASSERT(pf.radicals == NULL, "a rejected platform kept its radicals");
        return 0;
    }
    FUZZ_ASSERT(pf.hosts >= 1 && pf.hosts <= PLATFORM_MAX_HOSTS, "%d hosts", pf.hosts);
    FUZZ_ASSERT(pf.cores >= 1, "%d cores", pf.cores);
    FUZZ_ASSERT(isfinite(pf.speed) && pf.speed > 0, "speed %g", pf.speed);
    FUZZ_ASSERT(isfinite(pf.bw) && pf.bw > 0, "bw %g", pf.bw);
    FUZZ_ASSERT(isfinite(pf.lat) && pf.lat >= 0, "lat %g", pf.lat);
    for (int i = 0; i < pf.hosts && i < 256; i++) {
        char name[256];
        platform_host_name(&pf, i, name, sizeof name);
        int back = platform_host_index(&pf, name);
        /* Duplicate radicals ("1,1") name one host twice: the first one answers. */
        FUZZ_ASSERT(back >= 0 && pf.radicals[back] == pf.radicals[i], "host %d '%s' found as %d", i,
                    name, back);
    }
    platform_free(&pf);
    return 0;
}
