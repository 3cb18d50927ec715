/* The platform digest: made by SimGrid in a child, read back, cached by content. Each test runs
 * in its own process with its own cache directory (XDG_CACHE_HOME in the scratch directory). */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "../../engine/base/datadir.h"
#include "../../engine/model/params.h"
#include "../../engine/model/platform.h"
#include "fixtures.h"

#define PROLOG                                                                                     \
    "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"      \
    "<platform version=\"4.1\"><zone id=\"w\" routing=\"Full\">\n"
#define EPILOG "</zone></platform>\n"

static void own_cache(void)
{
    fixture_dir_make();
    char dir[128];
    snprintf(dir, sizeof dir, "%s/cache", fixture_dir);
    setenv("XDG_CACHE_HOME", dir, 1);
}

static void assert_close(double a, double b, const char *what)
{
    cr_assert(fabs(a - b) <= 1e-9 * fabs(b), "%s: %g, expected %g", what, a, b);
}

static void load(const char *path, struct platform *pf)
{
    char err[512];
    cr_assert_eq(platform_load(path, pf, err, sizeof err), 0, "%s", err);
}

Test(platform, dahu_as_simgrid_reads_it, .init = own_cache, .fini = fixture_dir_remove)
{
    struct platform pf;
    load("platforms/dahu.xml", &pf);
    cr_assert_eq(pf.hosts, 32);
    cr_assert_str_eq(pf.host[0].name, "dahu-1.grid5000.fr");
    cr_assert_str_eq(pf.host[9].name, "dahu-10.grid5000.fr", "numbers in names compare as numbers");
    cr_assert_eq(pf.host[31].cores, 32);
    assert_close(pf.host[5].speed, 1e9, "speed");
    int n;
    const int *r = platform_route(&pf, 0, 9, &n);
    cr_assert_not_null(r, "small platforms get every route");
    cr_assert_eq(n, 2, "up and down, no backbone");
    cr_assert_str_eq(pf.link[r[0]].name, "dahu_link_1_UP");
    cr_assert_str_eq(pf.link[r[1]].name, "dahu_link_10_DOWN");
    assert_close(pf.link[r[0]].bw, 1.25e9, "bw");
    assert_close(pf.link[r[0]].lat, 15e-6, "lat");
    cr_assert_str_eq(pf.link[r[0]].place, "node");
    r = platform_route(&pf, 3, 3, &n);
    cr_assert_eq(n, 1);
    cr_assert_str_eq(pf.link[r[0]].place, "loopback");
    cr_assert(!pf.link[r[0]].shared, "the loopback is a FATPIPE");
    assert_close(pf.link[r[0]].bw, 20.16e9, "loopback bw");
    cr_assert_eq(platform_host_index(&pf, "dahu-7"), 6, "the short name");
    cr_assert_eq(platform_host_index(&pf, "dahu-33"), -1);
    platform_free(&pf);
}

Test(platform, shipped_topologies, .init = own_cache, .fini = fixture_dir_remove)
{
    struct {
        const char *file, *place;
        int hosts;
    } cases[] = {{"platforms/fattree64.xml", "spine", 64},
                 {"platforms/torus64.xml", "torus", 64},
                 {"platforms/dragonfly64.xml", "global", 64},
                 {"platforms/staging.xml", "uplink", 36}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        struct platform pf;
        load(cases[k].file, &pf);
        cr_assert_eq(pf.hosts, cases[k].hosts, "%s", cases[k].file);
        bool seen = false;
        for (int i = 0; i < pf.nlinks; i++)
            seen = seen || !strcmp(pf.link[i].place, cases[k].place);
        cr_assert(seen, "%s has no %s link", cases[k].file, cases[k].place);
        cr_assert_eq(pf.nroutes, pf.hosts * pf.hosts, "%s: every route", cases[k].file);
        platform_free(&pf);
    }
}

Test(platform, staging_zone_and_speeds, .init = own_cache, .fini = fixture_dir_remove)
{
    struct platform pf;
    load("platforms/staging.xml", &pf);
    const struct platform_zone *z = platform_zone(&pf, "staging");
    cr_assert_not_null(z);
    cr_assert_eq(z->nhosts, 4);
    cr_assert_str_eq(pf.host[z->hosts[0]].name, "staging-1");
    assert_close(pf.host[z->hosts[0]].speed, 2e9, "staging speed");
    assert_close(pf.host[0].speed, 1e9, "compute speed");
    cr_assert_null(platform_zone(&pf, "nope"));
    int n;
    const int *r = platform_route(&pf, 0, z->hosts[3], &n);
    cr_assert_eq(n, 3, "compute up, the uplink, staging down");
    cr_assert_str_eq(pf.link[r[1]].name, "staging-uplink");
    assert_close(pf.link[r[1]].bw, 25e9 / 8, "uplink bw");
    platform_free(&pf);
}

/* A file system's servers as SimGrid reads them: the hosts with a <disk>, their bandwidths. */
Test(platform, pfs_disks_as_simgrid_reads_them, .init = own_cache, .fini = fixture_dir_remove)
{
    struct platform pf, copy;
    load("platforms/dahu-pfs.xml", &pf);
    cr_assert_eq(pf.ndisks, 4);
    for (int s = 0; s < pf.ndisks; s++) {
        char want[16];
        snprintf(want, sizeof want, "oss-%d", s + 1);
        cr_assert_str_eq(pf.host[pf.disk[s].host].name, want);
        assert_close(pf.disk[s].read_bw, 2.8e9, "read bw");
        assert_close(pf.disk[s].write_bw, 2.8e9, "write bw");
    }
    cr_assert_eq(platform_copy(&copy, &pf), 0);
    platform_free(&pf);
    cr_assert_eq(copy.ndisks, 4);
    cr_assert_str_eq(copy.host[copy.disk[3].host].name, "oss-4");
    platform_free(&copy);
    load("platforms/dahu.xml", &pf);
    cr_assert_eq(pf.ndisks, 0, "dahu has no disks");
    platform_free(&pf);
}

/* SimGrid's own reason, naming the file, on one line: a topology it refuses, a unit it does not
 * know, and the refusals whose backtrace follows SimGrid's message. */
Test(platform, simgrid_reasons, .init = own_cache, .fini = fixture_dir_remove)
{
    const char *bad[][2] = {
        {"<cluster id=\"d\" prefix=\"d-\" suffix=\"\" radical=\"1-8\" speed=\"1Gf\" bw=\"1Gbps\" "
         "lat=\"1us\" topology=\"DRAGONFLY\" topo_parameters=\"2,1;2\"/>",
         "Dragonfly are defined by"},
        {"<cluster id=\"c\" prefix=\"c-\" suffix=\"\" radical=\"1-4\" speed=\"1Gx\" bw=\"1Gbps\" "
         "lat=\"1us\"/>",
         "unknown unit"},
        {"<cluster id=\"c\" prefix=\"c-\" suffix=\"\" radical=\"1-4\" speed=\"1Gf\" bw=\"1Gbps\" "
         "lat=\"1us\" colour=\"red\"/>",
         "Bad attribute `colour'"},
        /* Refused by an exception or an assertion, whose backtrace follows the message. */
        {"<host id=\"a\" speed=\"1Gf\"/><host id=\"a\" speed=\"1Gf\"/>",
         "Refusing to create a second host named 'a'."},
        {"<zone id=\"w\" routing=\"Full\"><host id=\"a\" speed=\"1Gf\"/></zone>",
         "Refusing to create a second NetZone called 'w'."},
        {"<host id=\"a\" speed=\"1Gf\" core=\"0\"/>", "Host a must have at least one core, not 0."},
        {"", "There is no host!"},
        {"<host id=\"a\" speed=\"1Gf\"/><host id=\"b\" speed=\"1Gf\"/>"
         "<route src=\"a\" dst=\"b\"><link_ctn id=\"nolink\"/></route>",
         "Link not found: nolink"},
        /* A message on two lines: its second line too, joined. */
        {"<host id=\"a\" speed=\"1Gf\"/><link id=\"l\" bandwidth=\"1GBps\" latency=\"1us\"/>"
         "<route src=\"a\" dst=\"zz\"><link_ctn id=\"l\"/></route>",
         "Route dst='zz' does name a node. Existing netpoints: 'a'"}};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        char xml[1024], path[256], err[512] = "";
        snprintf(xml, sizeof xml, PROLOG "%s" EPILOG, bad[k][0]);
        fixture_write("bad.xml", xml, path, sizeof path);
        struct platform pf;
        cr_assert_eq(platform_load(path, &pf, err, sizeof err), -1, "accepted %s", bad[k][0]);
        cr_assert_not_null(strstr(err, path), "%s", err);
        cr_assert_not_null(strstr(err, bad[k][1]), "%s", err);
        cr_assert_null(strchr(err, '\n'), "one line: %s", err);
        cr_assert_null(strstr(err, "acktrace"), "%s", err);
        cr_assert_null(strstr(err, "Uncaught exception"), "%s", err);
    }
    struct platform pf;
    char err[512];
    cr_assert_eq(platform_load("/nonexistent/p.xml", &pf, err, sizeof err), -1);
    cr_assert_not_null(strstr(err, "cannot read platform"), "%s", err);
}

/* The cache: a second load reads it; an edited file gets a new digest. */
Test(platform, cache_follows_the_contents, .init = own_cache, .fini = fixture_dir_remove)
{
    char path[256], cached[512];
    const char *one = PROLOG "<cluster id=\"c\" prefix=\"c-\" suffix=\"\" radical=\"1-4\" "
                             "speed=\"1Gf\" bw=\"1Gbps\" lat=\"1us\"/>" EPILOG;
    fixture_write("p.xml", one, path, sizeof path);
    struct platform a, b;
    load(path, &a);
    snprintf(cached, sizeof cached, "%s/cache/situ/platforms/%016llx.json", fixture_dir,
             (unsigned long long)a.key);
    struct stat st;
    cr_assert_eq(stat(cached, &st), 0, "no cache entry %s", cached);
    load(path, &b);
    cr_assert_eq(a.key, b.key);
    platform_free(&b);
    fixture_write("p.xml",
                  PROLOG "<cluster id=\"c\" prefix=\"c-\" suffix=\"\" radical=\"1-6\" "
                         "speed=\"3Gf\" bw=\"1Gbps\" lat=\"1us\"/>" EPILOG,
                  path, sizeof path);
    load(path, &b);
    cr_assert_neq(a.key, b.key);
    cr_assert_eq(b.hosts, 6, "the edited file, not the cached digest");
    assert_close(b.host[0].speed, 3e9, "speed");
    platform_free(&a);
    platform_free(&b);
}

/* Routes a platform did not get at once are asked for, and cached with the digest. */
Test(platform, routes_on_demand, .init = own_cache, .fini = fixture_dir_remove)
{
    char path[256], err[512];
    fixture_write("big.xml",
                  PROLOG
                  "<cluster id=\"c\" prefix=\"c-\" suffix=\"\" radical=\"1-200\" "
                  "speed=\"1Gf\" bw=\"1Gbps\" lat=\"1us\" bb_bw=\"5Gbps\" bb_lat=\"2us\"/>" EPILOG,
                  path, sizeof path);
    struct platform pf;
    load(path, &pf);
    int n, pairs[] = {0, 199, 199, 0, 5, 5};
    cr_assert_eq(pf.nroutes, 0, "200 hosts: no route yet");
    cr_assert_null(platform_route(&pf, 0, 199, &n));
    cr_assert_eq(platform_need_routes(&pf, pairs, 3, err, sizeof err), 0, "%s", err);
    const int *r = platform_route(&pf, 0, 199, &n);
    cr_assert_not_null(r);
    cr_assert_eq(n, 3, "up, backbone, down");
    cr_assert_str_eq(pf.link[r[1]].place, "backbone");
    platform_free(&pf);
    load(path, &pf);
    cr_assert_eq(pf.nroutes, 3, "the routes were cached");
    /* Routes are the digest's platform's: not a file edited since. */
    fixture_write("big.xml",
                  PROLOG "<cluster id=\"c\" prefix=\"c-\" suffix=\"\" radical=\"1-300\" "
                         "speed=\"1Gf\" bw=\"1Gbps\" lat=\"1us\"/>" EPILOG,
                  path, sizeof path);
    int more[] = {0, 150};
    cr_assert_eq(platform_need_routes(&pf, more, 1, err, sizeof err), -1, "edited: accepted");
    cr_assert_not_null(strstr(err, "changed since"), "%s", err);
    platform_free(&pf);
}

/* The digest's child is `PROGRAM __digest PLATFORM [--routes]` exec'd (the explorer
 * reads platforms on its thread pool: a copy of a process with threads may not start SimGrid),
 * in a process group of its own: a wrapper that logs how it was started, then execs this binary
 * (tests/unit/digest_entry.c answers __digest). A fork that does not exec never runs it. */
Test(platform, digest_child_is_an_exec, .init = own_cache, .fini = fixture_dir_remove)
{
    char self[4096], script[256], calls[256], text[8192], big[256], err[512];
    cr_assert_eq(datadir_self(self, sizeof self), 0);
    snprintf(calls, sizeof calls, "%s/calls", fixture_dir);
    snprintf(text, sizeof text,
             "#!/bin/sh\nread -r pid comm state ppid pgrp rest < /proc/$$/stat\n"
             "echo \"$pid $pgrp $ppid $*\" >> '%s'\nexec '%s' \"$@\"\n",
             calls, self);
    fixture_write("digest.sh", text, script, sizeof script);
    cr_assert_eq(chmod(script, 0755), 0);
    fixture_write("big.xml",
                  PROLOG "<cluster id=\"c\" prefix=\"c-\" suffix=\"\" radical=\"1-200\" "
                         "speed=\"1Gf\" bw=\"1Gbps\" lat=\"1us\"/>" EPILOG,
                  big, sizeof big);
    platform_set_digest_program(script);
    struct platform pf;
    load(big, &pf);
    int pairs[] = {0, 199};
    cr_assert_eq(platform_need_routes(&pf, pairs, 1, err, sizeof err), 0, "%s", err);
    cr_assert_not_null(platform_route(&pf, 0, 199, &(int){0}), "the routes' child answered");
    platform_free(&pf);
    platform_set_digest_program(self); /* as digest_entry.c set it */

    FILE *f = fopen(calls, "r");
    cr_assert_not_null(f, "the digest was not made by an exec'd program");
    char line[2][1024] = {"", ""};
    for (int i = 0; i < 2; i++)
        cr_assert_not_null(fgets(line[i], sizeof line[i], f), "%d call(s) of the program", i);
    cr_assert_null(fgets(text, sizeof text, f), "more calls than two: %s", text);
    fclose(f);
    for (int i = 0; i < 2; i++) {
        long pid, pgrp, ppid;
        char args[512], want[512];
        cr_assert_eq(sscanf(line[i], "%ld %ld %ld %511[^\n]", &pid, &pgrp, &ppid, args), 4, "%s",
                     line[i]);
        cr_assert_eq(pgrp, pid, "the child leads its own process group: %s", line[i]);
        cr_assert_eq(ppid, (long)getpid(), "the child is this process's: %s", line[i]);
        snprintf(want, sizeof want, "__digest %s%s", big, i ? " --routes" : "");
        cr_assert_str_eq(args, want);
    }
}

Test(platform, digest_reader_refuses_garbage)
{
    const char *bad[] = {"",
                         "[]",
                         "{\"format\":2}",
                         "{\"format\":1,\"hosts\":[],\"links\":[],\"zones\":[],\"routes\":[]}",
                         "{\"format\":1,\"hosts\":[[\"a\",1e9,4]],\"links\":[],\"zones\":[],"
                         "\"routes\":[[0,0,[3]]]}",
                         "{\"format\":1,\"hosts\":[[\"a\",-1,4]],\"links\":[],\"zones\":[],"
                         "\"routes\":[]}",
                         "{\"format\":2,\"hosts\":[[\"a\",1e9,4]],\"links\":[],\"zones\":[],"
                         "\"routes\":[],\"disks\":[[1,1e9,1e9]]}",
                         "{\"format\":2,\"hosts\":[[\"a\",1e9,4]],\"links\":[],\"zones\":[],"
                         "\"routes\":[],\"disks\":[[0,1e9,0]]}"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        struct platform pf;
        char err[256] = "";
        cr_assert_eq(platform_parse_digest(bad[k], strlen(bad[k]), &pf, err, sizeof err), -1,
                     "accepted %s", bad[k]);
        cr_assert_not_null(strstr(err, "platform digest"), "%s", err);
        cr_assert_null(pf.host, "nothing kept");
    }
}

Test(platform, copy_is_deep)
{
    struct platform a = fixture_small_platform(), b;
    cr_assert_eq(platform_copy(&b, &a), 0);
    platform_free(&a);
    int n;
    cr_assert_not_null(platform_route(&b, 0, 3, &n));
    cr_assert_str_eq(b.host[3].name, "node4");
    platform_free(&b);
}

Test(platform, valid_ratios_of_a_32_core_node)
{
    long out[8];
    long expected[] = {1, 3, 7, 15, 31};
    cr_assert_eq(params_valid_ratios(32, out, 8), 5);
    for (int i = 0; i < 5; i++)
        cr_assert_eq(out[i], expected[i]);
    cr_assert_eq(params_valid_ratios(12, out, 8), 5); /* 1 2 3 5 11 */
    cr_assert_eq(out[3], 5);
    cr_assert_eq(out[4], 11);
}
