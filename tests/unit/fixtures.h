/* What several unit-test files need: a scratch directory per test and hand-made platforms. */
#ifndef SITU_TEST_FIXTURES_H
#define SITU_TEST_FIXTURES_H

#include <stddef.h>

#include "../../engine/model/platform.h"

/* The current test's scratch directory (each Criterion test runs in its own process). */
extern char fixture_dir[64];

/* .init / .fini of tests that write files. */
void fixture_dir_make(void);
void fixture_dir_remove(void);

/* Writes `text` to fixture_dir/name; the full path into path. */
void fixture_write(const char *name, const char *text, char *path, size_t len);

/* A flat SimGrid cluster (one switch): its digest, every route known. lbw 0: no loopback;
 * bb_bw 0: no backbone. */
struct fixture_cluster {
    const char *prefix, *suffix;
    int hosts, cores;
    double speed, bw, lat, lbw, llat, bb_bw, bb_lat;
};
struct platform fixture_flat(const struct fixture_cluster *c);

/* node1..node4: 8 cores at 1 Gf, 10 Gb/s links (10 us), a 10 GB/s loopback (1 us). */
struct platform fixture_small_platform(void);

/* The paper's dahu as platforms/dahu.xml describes it: 32 nodes of 32 cores. */
struct platform fixture_dahu_platform(void);

#endif
