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

/* A flat cluster's digest as engine/model/digest.c prints it for SimGrid's <cluster>: each host's
 * link to the switch split up and down, an optional backbone, an optional FATPIPE loopback (else
 * same-node traffic crosses the switch, as SimGrid routes it then), every route; read by the
 * real reader (platform_parse_digest). */
struct platform fixture_flat(const struct fixture_cluster *c)
{
    size_t cap = 1 << 20, n = 0;
    char *j = malloc(cap);
    cr_assert_not_null(j);
#define OUT(...)                                                                                   \
    do {                                                                                           \
        n += (size_t)snprintf(j + n, cap - n, __VA_ARGS__);                                        \
        cr_assert_lt(n, cap);                                                                      \
    } while (0)
    OUT("{\"format\":1,\"hosts\":[");
    for (int h = 0; h < c->hosts; h++)
        OUT("%s[\"%s%d%s\",%g,%d]", h ? "," : "", c->prefix, h + 1, c->suffix, c->speed, c->cores);
    OUT("],\"links\":[");
    /* link 3h: h up, 3h+1: h down, 3h+2: h loopback; 3 * hosts: the backbone */
    for (int h = 0; h < c->hosts; h++)
        OUT("%s[\"l%d_UP\",%g,%g,true,\"node\"],[\"l%d_DOWN\",%g,%g,true,\"node\"],"
            "[\"l%d_loopback\",%g,%g,false,\"loopback\"]",
            h ? "," : "", h, c->bw, c->lat, h, c->bw, c->lat, h, c->lbw > 0 ? c->lbw : 1, c->llat);
    OUT(",[\"bb\",%g,%g,true,\"backbone\"]],\"zones\":[[\"world\",[", c->bb_bw > 0 ? c->bb_bw : 1,
        c->bb_lat);
    for (int h = 0; h < c->hosts; h++)
        OUT("%s%d", h ? "," : "", h);
    OUT("]]],\"routes\":[");
    for (int a = 0; a < c->hosts; a++)
        for (int b = 0; b < c->hosts; b++) {
            OUT("%s[%d,%d,[", a || b ? "," : "", a, b);
            if (a == b && c->lbw > 0)
                OUT("%d", 3 * a + 2);
            else if (c->bb_bw > 0)
                OUT("%d,%d,%d", 3 * a, 3 * c->hosts, 3 * b + 1);
            else
                OUT("%d,%d", 3 * a, 3 * b + 1);
            OUT("]]");
        }
    OUT("]}");
#undef OUT
    struct platform pf;
    char err[256];
    cr_assert_eq(platform_parse_digest(j, n, &pf, err, sizeof err), 0, "%s", err);
    snprintf(pf.path, sizeof pf.path, "fixture");
    free(j);
    return pf;
}

struct platform fixture_small_platform(void)
{
    return fixture_flat(
        &(struct fixture_cluster){"node", "", 4, 8, 1e9, 1.25e9, 1e-5, 1e10, 1e-6, 0, 0});
}

struct platform fixture_dahu_platform(void)
{
    return fixture_flat(&(struct fixture_cluster){"dahu-", ".grid5000.fr", 32, 32, 1e9, 1.25e9,
                                                  15e-6, 20.16e9, 0.72e-6, 0, 0});
}
