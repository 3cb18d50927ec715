#include "fixtures.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

char fixture_dir[64];

void fixture_dir_make(void)
{
    snprintf(fixture_dir, sizeof fixture_dir, "/tmp/situ-test-XXXXXX");
    cr_assert_not_null(mkdtemp(fixture_dir), "mkdtemp failed");
}

void fixture_dir_remove(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", fixture_dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", fixture_dir);
}

void fixture_write(const char *name, const char *text, char *path, size_t len)
{
    snprintf(path, len, "%s/%s", fixture_dir, name);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
}

static int small_radicals[4] = {1, 2, 3, 4};

struct platform fixture_small_platform(void)
{
    struct platform pf = {.cluster_id = "t",
                          .prefix = "node",
                          .suffix = "",
                          .hosts = 4,
                          .radicals = small_radicals,
                          .cores = 8,
                          .speed = 1e9,
                          .bw = 1.25e9,
                          .lat = 1e-5,
                          .loopback_bw = 1e10,
                          .loopback_lat = 1e-6};
    return pf;
}

static int dahu_radicals[32];

struct platform fixture_dahu_platform(void)
{
    for (int i = 0; i < 32; i++)
        dahu_radicals[i] = i + 1;
    struct platform pf = {.cluster_id = "dahu",
                          .prefix = "dahu-",
                          .suffix = ".grid5000.fr",
                          .hosts = 32,
                          .radicals = dahu_radicals,
                          .cores = 32,
                          .speed = 1e9,
                          .bw = 1.25e9,
                          .lat = 15e-6,
                          .loopback_bw = 20.16e9,
                          .loopback_lat = 0.72e-6};
    return pf;
}
