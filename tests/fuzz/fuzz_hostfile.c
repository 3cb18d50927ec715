/* Fuzzes hostfile reading: the input is the contents of an MPI-style hostfile, read by
 * layout_read_hostfile against dahu's digest (32 hosts of 32 cores), then placed by
 * layout_build for a few configurations as `--mapping hostfile` would.
 * Invariants: an accepted file gives every host between 0 and its cores of slots; a rejected one
 * explains itself in one line naming the file; a built layout is consistent. */
#include "fuzz_common.h"
#include "../../engine/model/layout.h"

static struct platform pf;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    char err[512];
    if (platform_read_digest(SITU_SRCDIR "/tests/fuzz/dahu.digest.json", &pf, err, sizeof err) <
        0) {
        fprintf(stderr, "fuzz_hostfile: %s\n", err);
        abort();
    }
    return 0;
}

static void check_layout(const struct params *p, const struct layout *l)
{
    long sim = 0, ana = 0;
    for (int h = 0; h < l->hosts; h++) {
        FUZZ_ASSERT(l->sim_per_host[h] >= 0 && l->ana_per_host[h] >= 0, "negative count");
        FUZZ_ASSERT(l->sim_per_host[h] + l->ana_per_host[h] <= p->cores_per_node,
                    "host %d holds %d + %d > %ld", h, l->sim_per_host[h], l->ana_per_host[h],
                    p->cores_per_node);
        sim += l->sim_per_host[h];
        ana += l->ana_per_host[h];
    }
    FUZZ_ASSERT(sim == l->sim_cores && ana == l->ana_cores, "counts disagree");
    for (long r = 0; r < l->sim_cores; r++) {
        int h = l->dtl_host[r];
        FUZZ_ASSERT(h >= 0 && h < l->hosts && l->ana_per_host[h] > 0, "rank %ld routed to %d", r,
                    h);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(data, size);
    int slots[PLATFORM_MAX_HOSTS];
    char err[512] = "";
    if (layout_read_hostfile(path, &pf, 0, slots, err, sizeof err) < 0) {
        fuzz_check_error(err, sizeof err, "layout_read_hostfile");
        FUZZ_ASSERT(!strncmp(err, path, strlen(path)), "error does not name the file: %s", err);
        return 0;
    }
    for (int h = 0; h < pf.hosts; h++)
        FUZZ_ASSERT(slots[h] >= 0 && slots[h] <= pf.host[h].cores, "host %d: %d slots", h,
                    slots[h]);

    /* nodes, ratio, cores_per_node: fewer cores per node than a host has too (issue 26) */
    static const long configs[][3] = {{1, 15, 32}, {2, 31, 32}, {4, 3, 32},
                                      {32, 1, 32}, {3, 1, 16},  {2, 3, 8}};
    for (size_t c = 0; c < sizeof configs / sizeof configs[0]; c++) {
        struct params p;
        params_defaults(&p);
        p.mapping = MAPPING_HOSTFILE;
        snprintf(p.hostfile, sizeof p.hostfile, "%s", path);
        p.nodes = configs[c][0];
        p.ratio = configs[c][1];
        p.cores_per_node = configs[c][2];
        struct layout l;
        err[0] = 0;
        if (layout_build(&p, &pf, &l, err, sizeof err) < 0) {
            fuzz_check_error(err, sizeof err, "layout_build");
            continue;
        }
        check_layout(&p, &l);
        layout_free(&l);
    }
    return 0;
}
