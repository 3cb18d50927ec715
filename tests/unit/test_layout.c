/* Placement: core split, mappings, DTL routes, 3D decomposition and hostfiles. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../engine/model/layout.h"
#include "fixtures.h"

static struct params small_params(long nodes, long ratio, int mapping)
{
    struct params p;
    params_defaults(&p);
    p.nodes = nodes;
    p.cores_per_node = 8;
    p.ratio = ratio;
    p.mapping = mapping;
    return p;
}

/* ---- 3D decomposition ---- */

Test(layout_decompose, known_values)
{
    static const int cases[][4] = {{1, 1, 1, 1},  {2, 2, 1, 1},   {7, 7, 1, 1},  {8, 2, 2, 2},
                                   {12, 3, 2, 2}, {16, 4, 2, 2},  {24, 4, 3, 2}, {27, 3, 3, 3},
                                   {30, 5, 3, 2}, {31, 31, 1, 1}, {64, 4, 4, 4}, {224, 8, 7, 4}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        int px, py, pz;
        layout_decompose(cases[i][0], &px, &py, &pz);
        cr_assert(px == cases[i][1] && py == cases[i][2] && pz == cases[i][3],
                  "%d -> %d x %d x %d, expected %d x %d x %d", cases[i][0], px, py, pz, cases[i][1],
                  cases[i][2], cases[i][3]);
    }
}

Test(layout_decompose, most_cubic_and_multiplies_to_n)
{
    for (long n = 1; n <= 512; n++) {
        int px, py, pz;
        layout_decompose(n, &px, &py, &pz);
        cr_assert_eq((long)px * py * pz, n, "%ld -> %d x %d x %d", n, px, py, pz);
        cr_assert(px >= py && py >= pz && pz >= 1, "%ld -> %d x %d x %d not ordered", n, px, py,
                  pz);
        /* Brute force: no factorisation has a smaller cut surface. */
        double best = INFINITY;
        for (long a = 1; a <= n; a++)
            for (long b = 1; a * b <= n; b++)
                if (n % (a * b) == 0) {
                    long c = n / (a * b);
                    best = fmin(best, (double)a * b + (double)b * c + (double)a * c);
                }
        double got = (double)px * py + (double)py * pz + (double)px * pz;
        cr_assert_eq(got, best, "%ld -> %d x %d x %d has surface %g, best is %g", n, px, py, pz,
                     got, best);
    }
}

/* ---- periodic neighbours ---- */

Test(layout_neighbour, periodic)
{
    struct layout l = {.px = 4, .py = 3, .pz = 2};
    /* rank = x + 4 * (y + 3 * z) */
    cr_assert_eq(layout_neighbour(&l, 0, 1, 0, 0), 1);
    cr_assert_eq(layout_neighbour(&l, 0, -1, 0, 0), 3);
    cr_assert_eq(layout_neighbour(&l, 0, 0, 1, 0), 4);
    cr_assert_eq(layout_neighbour(&l, 0, 0, -1, 0), 8);
    cr_assert_eq(layout_neighbour(&l, 0, 0, 0, 1), 12);
    cr_assert_eq(layout_neighbour(&l, 0, 0, 0, -1), 12);
    cr_assert_eq(layout_neighbour(&l, 3, 1, 0, 0), 0);
    cr_assert_eq(layout_neighbour(&l, 23, 1, 1, 1), 0); /* (3,2,1) wraps to (0,0,0) */
    cr_assert_eq(layout_neighbour(&l, 17, 0, 0, 0), 17);
    cr_assert_eq(layout_neighbour(&l, 17, -1, -1, -1), 0); /* (1,1,1) -> (0,0,0) */
    cr_assert_eq(layout_neighbour(&l, 17, -1, 0, 0), 16);
    cr_assert_eq(layout_neighbour(&l, 17, 0, 1, 0), 21);
    for (long r = 0; r < 24; r++) {
        cr_assert_eq(layout_neighbour(&l, layout_neighbour(&l, r, 1, 0, 0), -1, 0, 0), r);
        cr_assert_eq(layout_neighbour(&l, layout_neighbour(&l, r, 0, 1, 0), 0, -1, 0), r);
        cr_assert_eq(layout_neighbour(&l, layout_neighbour(&l, r, 0, 0, 1), 0, 0, -1), r);
        long walk = r;
        for (int k = 0; k < 4; k++)
            walk = layout_neighbour(&l, walk, 1, 0, 0);
        cr_assert_eq(walk, r, "4 steps in x do not come back on a 4-wide grid");
        long nb = layout_neighbour(&l, r, 1, 0, 0);
        cr_assert_eq(nb / 4, r / 4, "an x step changed the y/z row");
    }
    struct layout one = {.px = 1, .py = 1, .pz = 1};
    cr_assert_eq(layout_neighbour(&one, 0, 1, 0, 0), 0);
    cr_assert_eq(layout_neighbour(&one, 0, 0, 0, -1), 0);
}

Test(layout, face_bytes)
{
    struct params p;
    params_defaults(&p);
    struct layout l = {.px = 5, .py = 3, .pz = 2};
    /* region 70: faces are (70/3 x 70/2), (70/5 x 70/2), (70/5 x 70/3) cells, 4 particles per
     * cell, 32 bytes per ghost particle. */
    cr_assert_float_eq(layout_face_bytes(&p, &l, 0), 70.0 / 3 * 35 * 4 * 32, 1e-6);
    cr_assert_float_eq(layout_face_bytes(&p, &l, 1), 14.0 * 35 * 4 * 32, 1e-6);
    cr_assert_float_eq(layout_face_bytes(&p, &l, 2), 14.0 * 70 / 3 * 4 * 32, 1e-6);
}

/* ---- core split and mappings ---- */

Test(layout, table1_core_splits)
{
    struct platform pf = fixture_dahu_platform();
    long ratios[] = {1, 3, 7, 15, 31};
    long sim[] = {16, 24, 28, 30, 31}, ana[] = {16, 8, 4, 2, 1};
    for (int i = 0; i < 5; i++) {
        struct params p;
        params_defaults(&p);
        p.ratio = ratios[i];
        struct layout l;
        char err[256] = "";
        cr_assert_eq(layout_build(&p, &pf, &l, err, sizeof err), 0, "%s", err);
        cr_assert_eq(l.sim_cores, sim[i], "R=%ld: %ld simulation cores", ratios[i], l.sim_cores);
        cr_assert_eq(l.ana_cores, ana[i], "R=%ld: %ld analytics cores", ratios[i], l.ana_cores);
        cr_assert_eq(l.sim_per_host[0], sim[i]);
        cr_assert_eq(l.ana_per_host[0], ana[i]);
        cr_assert_eq(l.sim_per_host[1], 0, "a second host was used on one node");
        cr_assert_eq(l.nodes_used, 1);
        layout_free(&l);
    }
    /* And on 8 nodes every node repeats the split. */
    struct params p;
    params_defaults(&p);
    p.nodes = 8;
    p.ratio = 7;
    struct layout l;
    char err[256] = "";
    cr_assert_eq(layout_build(&p, &pf, &l, err, sizeof err), 0, "%s", err);
    cr_assert_eq(l.sim_cores, 224);
    cr_assert_eq(l.ana_cores, 32);
    for (int h = 0; h < 8; h++) {
        cr_assert_eq(l.sim_per_host[h], 28);
        cr_assert_eq(l.ana_per_host[h], 4);
    }
    cr_assert_eq(l.sim_per_host[8] + l.ana_per_host[8], 0);
    cr_assert_eq(l.nodes_used, 8);
    cr_assert(l.px == 8 && l.py == 7 && l.pz == 4, "%d %d %d", l.px, l.py, l.pz);
    layout_free(&l);
}

Test(layout, insitu_routes_stay_on_their_host)
{
    struct platform pf = fixture_small_platform();
    struct params p = small_params(4, 3, MAPPING_INSITU);
    struct layout l;
    char err[256] = "";
    cr_assert_eq(layout_build(&p, &pf, &l, err, sizeof err), 0, "%s", err);
    cr_assert_eq(l.sim_cores, 24);
    cr_assert_eq(l.ana_cores, 8);
    cr_assert_eq(l.sim_nodes, 4);
    cr_assert_eq(l.ana_nodes, 4);
    cr_assert_eq(l.collector_host, 0);
    for (long r = 0; r < l.sim_cores; r++) {
        cr_assert_eq(l.rank_host[r], r / 6, "rank %ld on host %d", r, l.rank_host[r]);
        cr_assert_eq(l.dtl_host[r], l.rank_host[r], "rank %ld's state leaves its host", r);
    }
    for (int h = 0; h < 4; h++) {
        cr_assert_eq(l.sim_per_host[h], 6);
        cr_assert_eq(l.ana_per_host[h], 2);
        cr_assert_eq(l.dtl_load[h], 6);
    }
    cr_assert(l.px == 4 && l.py == 3 && l.pz == 2);
    layout_free(&l);
}

Test(layout, intransit_routes_cross_to_the_analytics_node)
{
    struct platform pf = fixture_small_platform();
    struct params p = small_params(4, 3, MAPPING_INTRANSIT);
    struct layout l;
    char err[256] = "";
    cr_assert_eq(layout_build(&p, &pf, &l, err, sizeof err), 0, "%s", err);
    /* 4 nodes at ratio 3: one whole analytics node (the last), three simulation nodes. */
    cr_assert_eq(l.sim_cores, 24);
    cr_assert_eq(l.ana_cores, 8);
    cr_assert_eq(l.sim_nodes, 3);
    cr_assert_eq(l.ana_nodes, 1);
    cr_assert_eq(l.ana_per_host[3], 8);
    cr_assert_eq(l.sim_per_host[3], 0);
    cr_assert_eq(l.collector_host, 3);
    for (long r = 0; r < l.sim_cores; r++) {
        cr_assert_eq(l.dtl_host[r], 3);
        cr_assert_neq(l.dtl_host[r], l.rank_host[r]);
    }
    cr_assert_eq(l.dtl_load[3], 24);
    layout_free(&l);

    /* Two analytics nodes share the ranks evenly. */
    p = small_params(4, 1, MAPPING_INTRANSIT);
    cr_assert_eq(layout_build(&p, &pf, &l, err, sizeof err), 0, "%s", err);
    cr_assert_eq(l.sim_cores, 16);
    cr_assert_eq(l.ana_cores, 16);
    cr_assert_eq(l.ana_per_host[2], 8);
    cr_assert_eq(l.ana_per_host[3], 8);
    cr_assert_eq(l.dtl_load[2], 8);
    cr_assert_eq(l.dtl_load[3], 8);
    for (long r = 0; r < l.sim_cores; r++)
        cr_assert(l.dtl_host[r] >= 2 && l.rank_host[r] < 2, "rank %ld: %d -> %d", r, l.rank_host[r],
                  l.dtl_host[r]);
    layout_free(&l);

    /* Two nodes: one of each kind whatever the ratio. */
    p = small_params(2, 7, MAPPING_INTRANSIT);
    cr_assert_eq(layout_build(&p, &pf, &l, err, sizeof err), 0, "%s", err);
    cr_assert_eq(l.sim_cores, 8);
    cr_assert_eq(l.ana_cores, 8);
    cr_assert_eq(l.sim_per_host[0], 8);
    cr_assert_eq(l.ana_per_host[1], 8);
    layout_free(&l);
}

Test(layout, too_many_nodes_or_cores)
{
    struct platform pf = fixture_small_platform();
    struct params p = small_params(5, 3, MAPPING_INSITU);
    struct layout l;
    char err[256] = "";
    cr_assert_eq(layout_build(&p, &pf, &l, err, sizeof err), -1);
    cr_assert_not_null(strstr(err, "nodes"), "%s", err);
    cr_assert_null(l.rank_host);
    p = small_params(1, 3, MAPPING_INSITU);
    p.cores_per_node = 16;
    cr_assert_eq(layout_build(&p, &pf, &l, err, sizeof err), -1);
    cr_assert_not_null(strstr(err, "cores_per_node"), "%s", err);
}

/* ---- hostfiles ---- */

Test(layout_hostfile, all_spellings, .init = fixture_dir_make, .fini = fixture_dir_remove)
{
    struct platform pf = fixture_small_platform();
    char path[256], err[256] = "";
    fixture_write("hosts",
                  "# analytics placement\n"
                  "node2 slots=2\n"
                  "node3:3   # a trailing comment\n"
                  "\n"
                  "   node4\n"
                  "\tnode2\t\n",
                  path, sizeof path);
    int slots[4] = {-1, -1, -1, -1};
    cr_assert_eq(layout_read_hostfile(path, &pf, 0, slots, err, sizeof err), 0, "%s", err);
    cr_assert_eq(slots[0], 0);
    cr_assert_eq(slots[1], 3);
    cr_assert_eq(slots[2], 3);
    cr_assert_eq(slots[3], 1);
}

Test(layout_hostfile, empty_file_gives_no_slots, .init = fixture_dir_make,
     .fini = fixture_dir_remove)
{
    struct platform pf = fixture_small_platform();
    char path[256], err[256] = "";
    fixture_write("hosts", "# nothing\n\n", path, sizeof path);
    int slots[4] = {9, 9, 9, 9};
    cr_assert_eq(layout_read_hostfile(path, &pf, 0, slots, err, sizeof err), 0, "%s", err);
    for (int h = 0; h < 4; h++)
        cr_assert_eq(slots[h], 0);
}

static void expect_hostfile_error(const char *text, const char *needle)
{
    struct platform pf = fixture_small_platform();
    char path[256], err[256] = "";
    fixture_write("hosts", text, path, sizeof path);
    int slots[4];
    cr_assert_eq(layout_read_hostfile(path, &pf, 0, slots, err, sizeof err), -1, "accepted: %s",
                 text);
    cr_assert_not_null(strstr(err, path), "error does not name the file: %s", err);
    cr_assert_not_null(strstr(err, needle), "error '%s' lacks '%s'", err, needle);
    cr_assert_null(strchr(err, '\n'), "error is not one line: %s", err);
}

Test(layout_hostfile, unknown_host, .init = fixture_dir_make, .fini = fixture_dir_remove)
{
    expect_hostfile_error("node1\nnode9 slots=2\n", ":2: unknown host 'node9'");
    expect_hostfile_error("dahu-1\n", "unknown host 'dahu-1'");
    expect_hostfile_error("node\n", "unknown host 'node'");
}

Test(layout_hostfile, bad_lines, .init = fixture_dir_make, .fini = fixture_dir_remove)
{
    expect_hostfile_error("node1 slots=x\n", ":1:");
    expect_hostfile_error("node1 cpus=2\n", ":1:");
    expect_hostfile_error("node1:\n", ":1:");
    expect_hostfile_error("node1:0\n", ":1:");
    expect_hostfile_error("# ok\nnode1:9\n", ":2:"); /* more than the node's 8 cores */
    expect_hostfile_error("node1:5\nnode1 slots=4\n", "more than its 8 cores");
    /* a huge count after a first line: no overflow adding them (the fuzzer's find) */
    expect_hostfile_error("node1:5\nnode1:99999999999999999999\n", ":2: host 'node1' given");
}

Test(layout_hostfile, missing_file_or_directory, .init = fixture_dir_make,
     .fini = fixture_dir_remove)
{
    struct platform pf = fixture_small_platform();
    char path[256], err[256] = "";
    int slots[4];
    snprintf(path, sizeof path, "%s/none", fixture_dir);
    cr_assert_eq(layout_read_hostfile(path, &pf, 0, slots, err, sizeof err), -1);
    cr_assert_not_null(strstr(err, path), "%s", err);
    cr_assert_eq(layout_read_hostfile(fixture_dir, &pf, 0, slots, err, sizeof err), -1);
    cr_assert_not_null(strstr(err, "not a regular file"), "%s", err);
}

Test(layout_hostfile, mapping_places_analytics, .init = fixture_dir_make,
     .fini = fixture_dir_remove)
{
    struct platform pf = fixture_small_platform();
    struct params p = small_params(1, 3, MAPPING_HOSTFILE); /* 8 cores, ratio 3: 2 analytics */
    char err[256] = "";
    fixture_write("hosts", "node2 slots=2\n", p.hostfile, sizeof p.hostfile);
    struct layout l;
    cr_assert_eq(layout_build(&p, &pf, &l, err, sizeof err), 0, "%s", err);
    cr_assert_eq(l.ana_cores, 2);
    cr_assert_eq(l.sim_cores, 6);
    cr_assert_eq(l.ana_per_host[1], 2);
    cr_assert_eq(l.ana_per_host[0], 0);
    cr_assert_eq(l.sim_per_host[0], 6);
    cr_assert_eq(l.collector_host, 1);
    for (long r = 0; r < l.sim_cores; r++)
        cr_assert_eq(l.dtl_host[r], 1);
    layout_free(&l);
}

Test(layout_hostfile, routes_balance_by_slots, .init = fixture_dir_make, .fini = fixture_dir_remove)
{
    struct platform pf = fixture_small_platform();
    struct params p = small_params(1, 1, MAPPING_HOSTFILE); /* 4 simulation, 4 analytics */
    char err[256] = "";
    fixture_write("hosts", "node2:3\nnode3:1\n", p.hostfile, sizeof p.hostfile);
    struct layout l;
    cr_assert_eq(layout_build(&p, &pf, &l, err, sizeof err), 0, "%s", err);
    cr_assert_eq(l.sim_per_host[0], 4);
    cr_assert_eq(l.ana_per_host[1], 3);
    cr_assert_eq(l.ana_per_host[2], 1);
    /* Least load per actor: three states to the 3-slot host, one to the 1-slot host. */
    cr_assert_eq(l.dtl_load[1], 3);
    cr_assert_eq(l.dtl_load[2], 1);
    cr_assert_eq(l.dtl_host[3], 2);
    layout_free(&l);
}

Test(layout_hostfile, too_few_slots, .init = fixture_dir_make, .fini = fixture_dir_remove)
{
    struct platform pf = fixture_small_platform();
    struct params p = small_params(1, 1, MAPPING_HOSTFILE); /* ratio 1 on 8 cores: 4 analytics */
    char err[256] = "";
    fixture_write("hosts", "node2 slots=2\nnode3:1\n", p.hostfile, sizeof p.hostfile);
    struct layout l;
    cr_assert_eq(layout_build(&p, &pf, &l, err, sizeof err), -1);
    cr_assert_not_null(strstr(err, p.hostfile), "%s", err);
    cr_assert_not_null(strstr(err, "too few slots"), "%s", err);
    cr_assert_not_null(strstr(err, "needs 4"), "%s", err);
    cr_assert_not_null(strstr(err, "gives 3"), "%s", err);
    cr_assert_null(l.rank_host);
}

Test(layout_hostfile, unknown_host_through_layout, .init = fixture_dir_make,
     .fini = fixture_dir_remove)
{
    struct platform pf = fixture_small_platform();
    struct params p = small_params(1, 3, MAPPING_HOSTFILE);
    char err[256] = "";
    fixture_write("hosts", "node7\n", p.hostfile, sizeof p.hostfile);
    struct layout l;
    cr_assert_eq(layout_build(&p, &pf, &l, err, sizeof err), -1);
    cr_assert_not_null(strstr(err, "unknown host 'node7'"), "%s", err);
}

/* One layout rule for every engine (issue 26): a node runs at most cores_per_node of the
 * workflow's processes, so a hostfile that gives a host more analytics slots than that is bad
 * input, named by its line, before any engine sees it (fast mode once built a negative rank
 * count from it: "out of memory building the workflow"). */
Test(layout_hostfile, slots_beyond_cores_per_node, .init = fixture_dir_make,
     .fini = fixture_dir_remove)
{
    struct platform pf = fixture_dahu_platform();
    struct params p;
    params_defaults(&p);
    p.mapping = MAPPING_HOSTFILE;
    p.nodes = 4;
    p.ratio = 1;
    p.cores_per_node = 16;
    const char *cases[][2] = {
        {"dahu-1 slots=32\n", ":1: host 'dahu-1' given 32 slots, more than cores_per_node (16)"},
        {"# two lines\ndahu-1 slots=8\ndahu-1.grid5000.fr:9\n",
         ":3: host 'dahu-1.grid5000.fr' given 17 slots in all, more than cores_per_node (16)"},
        {"dahu-2:33\n", ":1: host 'dahu-2' given 33 slots, more than cores_per_node (16)"}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char err[512] = "";
        fixture_write("hosts", cases[k][0], p.hostfile, sizeof p.hostfile);
        struct layout l;
        cr_assert_eq(layout_build(&p, &pf, &l, err, sizeof err), -1, "accepted: %s", cases[k][0]);
        cr_assert_not_null(strstr(err, p.hostfile), "%s", err);
        cr_assert_not_null(strstr(err, cases[k][1]), "'%s' lacks '%s'", err, cases[k][1]);
    }
    /* Exactly cores_per_node: accepted, the node full of analytics. */
    fixture_write("hosts", "dahu-1 slots=8\ndahu-1:8\n", p.hostfile, sizeof p.hostfile);
    p.nodes = 2;
    struct layout l;
    char err[512] = "";
    cr_assert_eq(layout_build(&p, &pf, &l, err, sizeof err), 0, "%s", err);
    cr_assert_eq(l.ana_per_host[0], 16);
    cr_assert_eq(l.sim_per_host[0], 0);
    cr_assert_eq(l.sim_per_host[1], 16);
    layout_free(&l);
    platform_free(&pf);
}

/* Whatever the layout accepts, every engine can build: no host holds a negative count or more
 * processes than min(cores_per_node, its cores), the counts add up, and the ranks are listed
 * host by host (fast mode makes one group per host from that order). Hostfiles and
 * configurations around the limits. */
Test(layout_hostfile, every_accepted_layout_fits_its_nodes, .init = fixture_dir_make,
     .fini = fixture_dir_remove)
{
    struct platform pf = fixture_dahu_platform();
    static const char *files[] = {
        "dahu-1 slots=32\n",
        "dahu-1 slots=16\n",
        "dahu-1 slots=8\ndahu-1:8\n",
        "dahu-1:2\ndahu-3:30\n",
        "dahu-32 slots=2\n",
        "dahu-2\ndahu-2.grid5000.fr:3\n",
        "dahu-1:1\ndahu-2:1\ndahu-3:1\ndahu-4:1\ndahu-5:1\ndahu-6:1\ndahu-7:1\ndahu-8:1\n"};
    static const long shapes[][2] = {{1, 2},  {1, 16},  {3, 16}, {15, 16}, {1, 32},
                                     {3, 32}, {31, 32}, {7, 8},  {3, 4}}; /* ratio, cores */
    int accepted = 0, refused = 0;
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        struct params p;
        params_defaults(&p);
        p.mapping = MAPPING_HOSTFILE;
        fixture_write("hosts", files[f], p.hostfile, sizeof p.hostfile);
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
            for (long n = 1; n <= 6; n++) {
                p.ratio = shapes[s][0];
                p.cores_per_node = shapes[s][1];
                p.nodes = n;
                struct layout l;
                char err[512] = "";
                if (layout_build(&p, &pf, &l, err, sizeof err) < 0) {
                    refused++;
                    cr_assert_not_null(strstr(err, p.hostfile), "%s", err);
                    continue;
                }
                accepted++;
                long sim = 0, ana = 0, r = 0;
                for (int h = 0; h < pf.hosts; h++) {
                    long most =
                        p.cores_per_node < pf.host[h].cores ? p.cores_per_node : pf.host[h].cores;
                    cr_assert(l.sim_per_host[h] >= 0 && l.ana_per_host[h] >= 0,
                              "%s n=%ld R=%ld C=%ld: host %d holds %d ranks, %d actors", files[f],
                              n, p.ratio, p.cores_per_node, h, l.sim_per_host[h],
                              l.ana_per_host[h]);
                    cr_assert_leq(l.sim_per_host[h] + l.ana_per_host[h], most,
                                  "%s n=%ld R=%ld C=%ld: host %d over its cores", files[f], n,
                                  p.ratio, p.cores_per_node, h);
                    sim += l.sim_per_host[h];
                    ana += l.ana_per_host[h];
                    for (int k = 0; k < l.sim_per_host[h]; k++, r++)
                        cr_assert_eq(l.rank_host[r], h, "ranks not host by host");
                }
                cr_assert_eq(sim, l.sim_cores, "%s n=%ld R=%ld C=%ld", files[f], n, p.ratio,
                             p.cores_per_node);
                cr_assert_eq(ana, l.ana_cores);
                layout_free(&l);
            }
        }
    }
    cr_assert_gt(accepted, 100, "%d accepted", accepted);
    cr_assert_gt(refused, 10, "%d refused", refused);
    platform_free(&pf);
}
