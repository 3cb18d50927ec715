/* The platform digest's producer, run in the simulation helper (`situ-sim __digest`): SimGrid's own
 * parser loads the platform, and what the model needs is printed as one JSON object on stdout:
 * hosts (speed, cores), links (bandwidth, latency, sharing, place in the topology), zones (their
 * hosts) and routes as link lists. SimGrid cannot be reset, so one process loads one platform; a
 * parse error or a crash of SimGrid's ends the child, and the parent reports SimGrid's own reason.
 */
#define _GNU_SOURCE /* strverscmp, sigaltstack */
#include "sim_digest.h"

#include <jansson.h>
#include <signal.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/link.h>
#include <simgrid/disk.h>
#include <simgrid/config.h> /* before version.h, which needs its macros */
#include <simgrid/version.h>
#include <simgrid/zone.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xbt/dict.h>
#include <xbt/dynar.h>
#include <unistd.h>
#include <xbt/log.h>
#include <xbt/sysdep.h>

#include "../model/platform.h"

static int host_order(const void *a, const void *b)
{
    return strverscmp(sg_host_get_name(*(const sg_host_t *)a),
                      sg_host_get_name(*(const sg_host_t *)b));
}

/* Index+1 of a host or link, kept in its user data. */
static long index_of_link(sg_link_t l)
{
    return (long)(intptr_t)sg_link_get_data(l) - 1;
}

static long index_of_host(sg_host_t h)
{
    return (long)(intptr_t)sg_host_get_data(h) - 1;
}

static json_t *route_json(sg_host_t *hosts, long a, long b, xbt_dynar_t scratch)
{
    xbt_dynar_reset(scratch);
    sg_host_get_route(hosts[a], hosts[b], scratch);
    json_t *links = json_array();
    for (unsigned i = 0; i < xbt_dynar_length(scratch); i++) {
        sg_link_t l;
        xbt_dynar_get_cpy(scratch, i, &l);
        if (l) /* a route may hold NULL where a cluster has no limiter */
            json_array_append_new(links, json_integer(index_of_link(l)));
    }
    return json_pack("[I,I,o]", (json_int_t)a, (json_int_t)b, links);
}

/* Where a link sits, from SimGrid 3.32's names for the links it creates (the cache key has the
 * SimGrid version: another release may name them otherwise) and from the routes: a host's first
 * and last link reach its switch ("node"). */
static const char *link_place(const char *name, const char *node_mark)
{
    size_t n = strlen(name);
    if (n >= 9 && !strcmp(name + n - 9, "_loopback"))
        return "loopback";
    if (strstr(name, "_backbone"))
        return "backbone";
    if (!strncmp(name, "blue_link", 9))
        return "global";
    if (!strncmp(name, "green_link", 10) || !strncmp(name, "black_link", 10))
        return "group";
    if (!strncmp(name, "local_link_from_router", 22) || strstr(name, "_limiter") || *node_mark)
        return "node";
    if (strstr(name, "_link_from_") && strstr(name, "_to_"))
        return "torus";
    if (!strncmp(name, "link_from_", 10))
        return "spine";
    return "uplink"; /* a link of the file's own, between zones */
}

static void zones_json(sg_netzone_t z, json_t *out)
{
    xbt_dynar_t hs = xbt_dynar_new(sizeof(sg_host_t), NULL);
    sg_zone_get_hosts(z, hs);
    json_t *idx = json_array();
    for (unsigned i = 0; i < xbt_dynar_length(hs); i++) {
        sg_host_t h;
        xbt_dynar_get_cpy(hs, i, &h);
        json_array_append_new(idx, json_integer(index_of_host(h)));
    }
    xbt_dynar_free(&hs);
    json_array_append_new(out, json_pack("[s,o]", sg_zone_get_name(z), idx));
    xbt_dict_t sons = xbt_dict_new_homogeneous(NULL);
    sg_zone_get_sons(z, sons);
    xbt_dict_cursor_t cursor = NULL;
    char *key;
    void *son;
    xbt_dict_foreach(sons, cursor, key, son) zones_json((sg_netzone_t)son, out);
    xbt_dict_free(&sons);
}

/* SimGrid 3.32 dereferences a missing route (hosts in zones that no zone route joins): one line
 * that says so, in SimGrid's log format so that the parent reads it as the reason, and an exit
 * rather than a sanitizer's or SimGrid's own crash report. Async-signal-safe. */
static void on_route_crash(int sig)
{
    static const char msg[] = "[situ/ERROR] SimGrid crashed computing a route (hosts that no "
                              "route joins, or a bug of SimGrid's)\n";
    (void)sig;
    ssize_t n = write(STDERR_FILENO, msg, sizeof msg - 1);
    (void)n;
    _exit(4);
}

static void catch_route_crashes(void)
{
    static char stack[1 << 16];
    stack_t ss = {.ss_sp = stack, .ss_size = sizeof stack};
    sigaltstack(&ss, NULL);
    struct sigaction sa = {.sa_handler = on_route_crash, .sa_flags = SA_ONSTACK};
    sigemptyset(&sa.sa_mask);
    int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        sigaction(sigs[i], &sa, NULL);
}

int sim_digest_print(const char *path, const long *pairs, long npairs, bool routes_only)
{
    int sargc = 2;
    char *sargv[] = {"situ", "--log=" SIMGRID_LOG_QUIET, NULL};
    xbt_log_control_set(SIMGRID_LOG_QUIET);
    simgrid_init(&sargc, sargv);
    simgrid_load_platform(path); /* SimGrid's parse errors end the process here */
    catch_route_crashes();

    long n = (long)sg_host_count();
    sg_host_t *hosts = sg_host_list();
    qsort(hosts, (size_t)n, sizeof *hosts, host_order);
    for (long i = 0; i < n; i++)
        sg_host_set_data(hosts[i], (void *)(intptr_t)(i + 1));
    long nl = (long)sg_link_count();
    sg_link_t *links = sg_link_list();
    for (long i = 0; i < nl; i++)
        sg_link_set_data(links[i], (void *)(intptr_t)(i + 1));
    xbt_dynar_t scratch = xbt_dynar_new(sizeof(sg_link_t), NULL);
    json_t *out = json_object(), *routes = json_array();

    if (routes_only) {
        for (long k = 0; k < npairs; k++) {
            long a = pairs[2 * k], b = pairs[2 * k + 1];
            if (a >= 0 && a < n && b >= 0 && b < n)
                json_array_append_new(routes, route_json(hosts, a, b, scratch));
        }
    } else {
        /* A host's first and last links: its own, to its switch. */
        char *node_mark = calloc((size_t)nl + 1, 1);
        for (long i = 0; n > 1 && node_mark && i < n; i++) {
            long other = (i + 1) % n;
            for (int dir = 0; dir < 2; dir++) {
                xbt_dynar_reset(scratch);
                sg_host_get_route(dir ? hosts[other] : hosts[i], dir ? hosts[i] : hosts[other],
                                  scratch);
                unsigned len = (unsigned)xbt_dynar_length(scratch);
                sg_link_t l = NULL;
                if (len > 1)
                    xbt_dynar_get_cpy(scratch, dir ? len - 1 : 0, &l);
                if (l)
                    node_mark[index_of_link(l)] = 1;
            }
        }
        json_t *jh = json_array(), *jl = json_array(), *jz = json_array(), *jd = json_array();
        for (long i = 0; i < n; i++)
            json_array_append_new(jh, json_pack("[s,f,i]", sg_host_get_name(hosts[i]),
                                                sg_host_get_speed(hosts[i]),
                                                sg_host_core_count(hosts[i])));
        for (long i = 0; i < n; i++) { /* a host's first disk: a file system server */
            unsigned nd = 0;
            sg_disk_t *disks = NULL;
            sg_host_get_disks(hosts[i], &nd, &disks);
            if (nd > 0)
                json_array_append_new(jd, json_pack("[I,f,f]", (json_int_t)i,
                                                    sg_disk_read_bandwidth(disks[0]),
                                                    sg_disk_write_bandwidth(disks[0])));
            xbt_free(disks);
        }
        for (long i = 0; i < nl; i++) {
            const char *name = sg_link_get_name(links[i]);
            json_array_append_new(
                jl, json_pack("[s,f,f,b,s]", name, sg_link_get_bandwidth(links[i]),
                              sg_link_get_latency(links[i]), sg_link_is_shared(links[i]),
                              link_place(name, node_mark ? &node_mark[i] : "")));
        }
        free(node_mark);
        zones_json(sg_zone_get_root(), jz);
        /* Small platforms get every route now; larger ones the pairs a layout asks for. */
        for (long a = 0; n <= DIGEST_EAGER_HOSTS && a < n; a++)
            for (long b = 0; b < n; b++)
                json_array_append_new(routes, route_json(hosts, a, b, scratch));
        json_object_set_new(out, "format", json_integer(DIGEST_FORMAT));
        json_object_set_new(out, "hosts", jh);
        json_object_set_new(out, "links", jl);
        json_object_set_new(out, "zones", jz);
        json_object_set_new(out, "disks", jd);
    }
    json_object_set_new(out, "routes", routes);
    xbt_dynar_free(&scratch);
    int rc = json_dumpf(out, stdout, JSON_COMPACT) == 0 && fflush(stdout) == 0 ? 0 : 1;
    json_decref(out);
    free(hosts);
    free(links);
    return rc;
}

int sim_digest_main(int argc, char **argv)
{
    bool routes = false, usage = argc < 3;
    for (int i = 3; i < argc && !usage; i++) {
        if (!strcmp(argv[i], "--routes"))
            routes = true;
        else
            usage = true;
    }
    if (usage) {
        fprintf(stderr, "usage: situ __digest PLATFORM [--routes]  (pairs 'A B' on stdin)\n");
        return 2;
    }
    long *pairs = NULL, n = 0, cap = 0, a, b;
    while (routes && scanf("%ld %ld", &a, &b) == 2) {
        if (n == cap) {
            cap = cap ? 2 * cap : 256;
            long *grown = realloc(pairs, sizeof *pairs * 2 * (size_t)cap);
            if (!grown) {
                free(pairs);
                fprintf(stderr, "out of memory\n");
                return 1;
            }
            pairs = grown;
        }
        pairs[2 * n] = a;
        pairs[2 * n + 1] = b;
        n++;
    }
    int rc = sim_digest_print(argv[2], pairs, n, routes);
    free(pairs);
    return rc;
}
