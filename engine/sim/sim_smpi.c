/* fidelity=smpi, the simulation child's side: places the processes, writes the hostfile and the
 * configuration, runs smpirun and judges what it left. See sim_smpi.h. */
#include "sim_smpi.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../lua/analytics.h"
#include "../lua/simulation.h"
#include "../base/datadir.h"
#include "../base/outfile.h"
#include "../model/digest.h"
#include "../model/platform.h"
#include "../model/report.h"
#include "../lua/script.h"
#include "sim.h"
#include "sim_smpi_proc.h"

#define DIR_MAX (PATH_MAX - 32) /* of the run's directory ($TMPDIR/situ-smpi-XXXXXX) */

#ifndef SITU_SMPIMAIN /* the Makefile's, from SimGrid's pkg-config: where smpirun finds it */
#define SITU_SMPIMAIN "smpimain"
#endif

long sim_smpi_placement(const struct layout *l, int *host)
{
    long n = 0;
    for (long r = 0; r < l->sim_cores; r++, n++)
        if (host)
            host[n] = l->rank_host[r];
    for (int h = 0; h < l->hosts; h++)
        for (int a = 0; l->dtl_load[h] && a < l->ana_per_host[h]; a++, n++)
            if (host)
                host[n] = h;
    /* the collector, and the postmen that send its copies to each node's ranks (sim_actors.c);
     * none inline: the ranks analyse, and hold the metrics */
    for (int k = 0; !l->inline_ranks && k <= l->sim_nodes; k++, n++)
        if (host)
            host[n] = l->collector_host;
    return n;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static int write_text(const char *path, const char *text, char *err, size_t errlen)
{
    struct outfile o;
    if (outfile_open(&o, path, err, errlen) < 0)
        return -1;
    outfile_write(&o, text, strlen(text));
    return outfile_commit(&o, err, errlen);
}

/* Paths the processes can open from anywhere: the platform, the analytics file. */
static int config_text(const struct params *p, double t0, char **text, char *err, size_t errlen)
{
    struct params q = *p;
    char abs[PATH_MAX];
    if (realpath(p->platform, abs) && strlen(abs) < sizeof q.platform)
        memcpy(q.platform, abs, strlen(abs) + 1);
    if (p->analytics[0]) {
        char found[PARAMS_PATH_MAX];
        if (analytics_resolve(p->analytics, found, sizeof found, err, errlen) < 0)
            return -1;
        if (realpath(found, abs) && strlen(abs) < sizeof q.analytics)
            memcpy(q.analytics, abs, strlen(abs) + 1);
        else
            memcpy(q.analytics, found, sizeof found);
    }
    if (p->simulation[0]) { /* the proxy's processes start elsewhere: the file, absolute */
        char found[PARAMS_PATH_MAX];
        if (simulation_resolve(p->simulation, found, sizeof found, err, errlen) < 0)
            return -1;
        if (realpath(found, abs) && strlen(abs) < sizeof q.simulation)
            memcpy(q.simulation, abs, strlen(abs) + 1);
        else
            memcpy(q.simulation, found, sizeof found);
    }
    size_t len = 0;
    FILE *m = open_memstream(text, &len);
    if (!m) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (int id = 0; id < PARAM_COUNT; id++) {
        char v[PARAMS_PATH_MAX];
        params_format(&q, id, v, sizeof v);
        fprintf(m, "--%s=%s\n", param_table[id].key, v);
    }
    fprintf(m, "--situ-t0=%.9f\n--situ-app=%d\n", t0, sim_smpi_app.argc > 0);
    /* The run's processes are smpimain's: a platform they must read again (no cache) is read by
     * this binary's `__digest`, which they cannot find themselves. */
    char self[PATH_MAX];
    if (datadir_self(self, sizeof self) == 0)
        fprintf(m, "--situ-self=%s\n", self);
    fclose(m);
    return 0;
}

static int hostfile_text(const struct params *p, char **text, long *np, char *err, size_t errlen)
{
    struct platform pf;
    struct layout l;
    if (platform_load(p->platform, &pf, err, errlen) < 0)
        return -1;
    if (layout_build(p, &pf, &l, err, errlen) < 0) {
        platform_free(&pf);
        return -1;
    }
    *np = sim_smpi_placement(&l, NULL);
    int *host = malloc(sizeof(int) * *np);
    size_t len = 0;
    FILE *m = host ? open_memstream(text, &len) : NULL;
    if (m) {
        sim_smpi_placement(&l, host);
        for (long i = 0; i < *np; i++) {
            char name[160];
            platform_host_name(&pf, host[i], name, sizeof name);
            fprintf(m, "%s\n", name);
        }
        fclose(m);
    }
    free(host);
    layout_free(&l);
    platform_free(&pf);
    if (!m)
        snprintf(err, errlen, "out of memory");
    return m ? 0 : -1;
}

/* Why a run failed, from what its processes wrote: the application's own last line (an error
 * message, a usage line) and SimGrid's last error (a crash, a deadlock), without SimGrid's
 * "[clock] file: [cat] " prefix, backtraces and smpirun's advice. */
static void failure_reason(const char *text, char *out, size_t len)
{
    static const char *noise[] = {"->",
                                  "Backtrace",
                                  "Execution failed with code",
                                  "Try to enable SMPI variable privatization",
                                  "Exiting now.",
                                  "Current backtrace",
                                  NULL};
    char own[256] = "", sg[256] = "";
    char *copy = strdup(text ? text : ""), *save = NULL;
    for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        while (*line == ' ')
            line++;
        bool simgrid = line[0] == '[' && strstr(line, "] ");
        static const char *levels[] = {"/CRITICAL] ", "/ERROR] ", "/WARNING] ", "/INFO] ", NULL};
        for (int i = 0; simgrid && levels[i]; i++)
            if (strstr(line, levels[i])) {
                line = strstr(line, levels[i]) + strlen(levels[i]);
                break;
            }
        if (simgrid && line[0] == '[')
            line = strstr(line, "] ") + 2;
        bool skip = !*line;
        for (int i = 0; noise[i] && !skip; i++)
            skip = strstr(line, noise[i]) == line;
        if (!skip)
            snprintf(simgrid ? sg : own, sizeof own, "%s", line);
    }
    free(copy);
    if (own[0] && sg[0])
        snprintf(out, len, "%.190s (%.190s)", own, sg); /* fits the 400 of sim_smpi_run */
    else
        snprintf(out, len, "%s", own[0] ? own : sg);
}

/* The program the ranks run, and where libsitu_dtl is (beside Situ's binary, or installed). */
static int locate(char *program, char *libdir, size_t len, char *err, size_t errlen)
{
    char lib[PATH_MAX];
    if (datadir_resolve("libsitu_dtl.so", lib, sizeof lib) < 0 || !realpath(lib, libdir)) {
        snprintf(err, errlen, "libsitu_dtl.so not found beside situ nor installed: run 'make'");
        return -1;
    }
    *strrchr(libdir, '/') = 0;
    if (sim_smpi_app.argc > 0) {
        snprintf(program, len, "%s", sim_smpi_app.argv[0]);
        return 0;
    }
    if (snprintf(program, len, "%.*s/situ-smpi", PATH_MAX - 16, libdir) >= (int)len) {
        snprintf(err, errlen, "the path of situ-smpi is too long");
        return -1;
    }
    if (access(program, R_OK) < 0) {
        snprintf(err, errlen, "%s: not built: run 'make'", program);
        return -1;
    }
    return 0;
}

/* smpimain's command line and environment, as smpirun would give them, but as a vector: smpirun
 * is a sh script that word-splits and globs the application's arguments (and drops empty ones),
 * and SimGrid splits every --cfg value at spaces and commas, so a path with either breaks. Here
 * nothing goes through a shell; the run's own files are named through SIM_SMPI_DIR_PATH; the
 * application's arguments come after "--", where SimGrid stops reading options (it drops that
 * "--" and any later one: Situ's command line cannot give one). The caller frees *argv. */
static char **main_argv(const struct params *p, const char *dir, const char *program,
                        const char *platform, const char *libdir, long np)
{
    static char npcfg[48], net[64], priv[96]; /* argv points into them until the exec */
    snprintf(npcfg, sizeof npcfg, "--cfg=smpi/np:%ld", np);
    snprintf(net, sizeof net, "--cfg=network/model:%s",
             param_table[P_SMPI_NETWORK].choices[p->smpi_network]);
    const char *privatize = getenv("SMPI_PRIVATIZATION"); /* smpirun's knob, kept */
    snprintf(priv, sizeof priv, "--cfg=smpi/privatization:%.60s",
             privatize && *privatize ? privatize : "1");
    char cfg[PATH_MAX + 32], ld[2 * PATH_MAX], size[32];
    snprintf(cfg, sizeof cfg, "%s/config", dir);
    setenv(SIM_SMPI_CONFIG_ENV, cfg, 1);
    const char *old = getenv("LD_LIBRARY_PATH");
    snprintf(ld, sizeof ld, "%s%s%s", libdir, old && *old ? ":" : "", old ? old : "");
    setenv("LD_LIBRARY_PATH", ld, 1);
    snprintf(size, sizeof size, "%ld", np);
    setenv("SMPI_GLOBAL_SIZE", size, 1); /* as smpirun: some applications read it */

    bool app = sim_smpi_app.argc > 0;
    char *fixed[] = {SITU_SMPIMAIN, (char *)program, priv, npcfg,
                     "--cfg=smpi/hostfile:" SIM_SMPI_DIR_PATH "/hostfile",
                     "--cfg=smpi/tmpdir:" SIM_SMPI_DIR_PATH, "--cfg=surf/precision:1e-9", net,
                     "--log=" SIMGRID_LOG_QUIET, SIM_NETWORK_OPTIM, "--cfg=smpi/display-timing:no",
                     /* every halo send is fire-and-forget, as the engine's puts are */
                     app ? NULL : "--cfg=smpi/simulate-computation:no",
                     app ? NULL : "--cfg=smpi/send-is-detached-thresh:2147483647"};
    size_t nfixed = sizeof fixed / sizeof fixed[0];
    char **argv = calloc(nfixed + 3 + (app ? sim_smpi_app.argc : 0), sizeof *argv);
    if (!argv)
        return NULL;
    int n = 0;
    for (size_t i = 0; i < nfixed; i++)
        if (fixed[i])
            argv[n++] = fixed[i];
    argv[n++] = (char *)platform;
    argv[n++] = "--";
    for (int i = 1; app && i < sim_smpi_app.argc; i++)
        argv[n++] = sim_smpi_app.argv[i];
    argv[n] = NULL;
    return argv;
}

/* A file of the run's directory: its first `max` bytes (*len of them), and its whole size. */
static char *read_bytes(const char *dir, const char *name, size_t max, size_t *len, long *size)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    *len = 0;
    *size = 0;
    FILE *f = fopen(path, "rb");
    char *buf = f ? malloc(max + 1) : NULL;
    if (buf) {
        *len = fread(buf, 1, max, f);
        buf[*len] = 0;
        struct stat st;
        *size = fstat(fileno(f), &st) == 0 ? (long)st.st_size : (long)*len;
    }
    if (f)
        fclose(f);
    return buf;
}

/* Bytes of the valid UTF-8 character at s (n bytes left), as jansson checks one (no overlong
 * form, no surrogate, nothing past U+10FFFF); 0 if there is none there, or a NUL (the result's
 * reader refuses "\u0000"). */
static size_t utf8_char(const unsigned char *s, size_t n)
{
    unsigned c = s[0], cp, min;
    size_t len;
    if (c < 0x80)
        return c ? 1 : 0;
    if (c >= 0xC2 && c <= 0xDF)
        len = 2, cp = c & 0x1F, min = 0x80;
    else if (c >= 0xE0 && c <= 0xEF)
        len = 3, cp = c & 0x0F, min = 0x800;
    else if (c >= 0xF0 && c <= 0xF4)
        len = 4, cp = c & 0x07, min = 0x10000;
    else
        return 0;
    if (n < len)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        cp = cp << 6 | (s[i] & 0x3F);
    }
    return cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF) ? 0 : len;
}

/* Bytes as a JSON string: each byte that is not part of a valid UTF-8 character (and each NUL)
 * becomes U+FFFD. `cut`: the bytes end where a cap cut them, and a character the cut split in
 * two is left out rather than replaced. */
static json_t *utf8_json(const char *bytes, size_t n, bool cut)
{
    const unsigned char *s = (const unsigned char *)bytes;
    size_t last = n;
    while (cut && last > 0 && n - last < 3 && (s[last - 1] & 0xC0) == 0x80)
        last--;
    if (cut && last > 0 && s[last - 1] >= 0xC0) { /* the lead byte of the last character */
        size_t want = s[last - 1] >= 0xF0 ? 4 : s[last - 1] >= 0xE0 ? 3 : 2;
        if (n - (last - 1) < want)
            n = last - 1;
    }
    char *out = malloc(3 * n + 1);
    if (!out)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n;) {
        size_t len = utf8_char(s + i, n - i);
        if (len) {
            memcpy(out + k, s + i, len);
            k += len;
            i += len;
        } else {
            memcpy(out + k, "\xEF\xBF\xBD", 3);
            k += 3;
            i++;
        }
    }
    json_t *j = json_stringn(out, k);
    free(out);
    return j;
}

/* The application's command and output go with the result, as "app": its output's first
 * SIM_SMPI_OUTPUT_MAX bytes, its size, and whether it was cut. */
static char *with_app_output(char *result, const char *dir)
{
    size_t n;
    long size;
    char *bytes = read_bytes(dir, "app.out", SIM_SMPI_OUTPUT_MAX, &n, &size);
    json_t *o = json_loads(result, 0, NULL), *cmd = json_array();
    for (int i = 0; cmd && i < sim_smpi_app.argc; i++)
        json_array_append_new(cmd,
                              utf8_json(sim_smpi_app.argv[i], strlen(sim_smpi_app.argv[i]), false));
    bool cut = size > (long)n;
    json_t *app = json_pack("{s:o,s:o,s:I,s:b}", "command", cmd, "output",
                            utf8_json(bytes ? bytes : "", n, cut), "output_bytes", (json_int_t)size,
                            "output_truncated", cut);
    free(bytes);
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    bool ok = o && app && json_object_set_new(o, "app", app) == 0; /* app is o's, or freed */
    if (!o)
        json_decref(app);
    ok = ok && m && report_print_json(m, o) == 0;
    json_decref(o);
    if (m)
        fclose(m);
    if (!ok) {
        free(text);
        free(result);
        return NULL;
    }
    free(result);
    return text;
}

/* Why the run failed: situ_dtl's own reason if it stopped the run, else what the processes
 * wrote (failure_reason), with how smpimain ended. */
static void why_failed(const char *dir, int status, char *err, size_t errlen)
{
    const char *name = sim_smpi_app.argc > 0 ? sim_smpi_app.argv[0] : "situ-smpi";
    size_t n;
    long size;
    char reason[400] = "", how[64] = "";
    char *own = read_bytes(dir, SIM_SMPI_REASON, sizeof reason - 1, &n, &size);
    if (own && own[0]) {
        snprintf(reason, sizeof reason, "%s", own);
        reason[strcspn(reason, "\n")] = 0;
    } else {
        char *text = read_bytes(dir, "app.err", 1 << 20, &n, &size);
        failure_reason(text, reason, sizeof reason);
        free(text);
    }
    free(own);
    const char *sig = WIFSIGNALED(status) ? strsignal(WTERMSIG(status)) : NULL;
    if (sig && strncmp(reason, sig, strlen(sig))) /* SimGrid often says it already */
        snprintf(how, sizeof how, " (%s)", sig);
    else if (WIFEXITED(status) && WEXITSTATUS(status))
        snprintf(how, sizeof how, " (exit status %d)", WEXITSTATUS(status));
    if (sim_smpi_app.argc > 0 && strstr(reason, "Deadlock")) { /* what it means first: the */
        char simgrid[sizeof reason];                           /* line may be cut after */
        snprintf(simgrid, sizeof simgrid, "%s", reason);
        snprintf(reason, sizeof reason,
                 "an MPI deadlock, or a rank that did not call situ_dtl_finalize (SimGrid: %.300s)",
                 simgrid);
    }
    /* Every process ended well, and none wrote the result: one never left (situ_dtl). */
    const char *none =
        sim_smpi_app.argc > 0 ? "no result: did every rank call situ_dtl_finalize?" : "no result";
    snprintf(err, errlen, "%s failed under SMPI%s: %s", name, how, reason[0] ? reason : none);
}

char *sim_smpi_run(const struct params *p, char *err, size_t errlen)
{
    double t0 = now();
    char dir[DIR_MAX], path[PATH_MAX], program[PATH_MAX], libdir[PATH_MAX], platform[PATH_MAX];
    const char *tmp = getenv("TMPDIR");
    if (snprintf(dir, sizeof dir, "%s/situ-smpi-XXXXXX", tmp && *tmp ? tmp : "/tmp") >=
        (int)sizeof dir)
        snprintf(dir, sizeof dir, "/tmp/situ-smpi-XXXXXX"); /* TMPDIR too long for us */
    if (locate(program, libdir, sizeof program, err, errlen) < 0)
        return NULL;
    /* SimGrid reads an argument that starts with "--" as an option: an absolute path cannot */
    if (!realpath(p->platform, platform)) {
        snprintf(err, errlen, "%s: %s", p->platform, strerror(errno));
        return NULL;
    }
    if (!mkdtemp(dir)) {
        snprintf(err, errlen, "%s: cannot create: %s", dir, strerror(errno));
        return NULL;
    }
    char *hosts = NULL, *config = NULL, **argv = NULL;
    long np = 0;
    int rc = hostfile_text(p, &hosts, &np, err, errlen);
    if (rc == 0)
        rc = config_text(p, t0, &config, err, errlen);
    snprintf(path, sizeof path, "%s/hostfile", dir);
    if (rc == 0)
        rc = write_text(path, hosts, err, errlen);
    snprintf(path, sizeof path, "%s/config", dir);
    if (rc == 0)
        rc = write_text(path, config, err, errlen);
    free(hosts);
    free(config);
    if (rc == 0 && !(argv = main_argv(p, dir, program, platform, libdir, np))) {
        snprintf(err, errlen, "out of memory");
        rc = -1;
    }
    struct sim_smpi_proc pr;
    if (rc == 0)
        rc = sim_smpi_proc_start(&pr, dir, argv, err, errlen);
    free(argv);
    if (rc < 0) {
        sim_smpi_proc_remove_dir(dir);
        return NULL;
    }
    /* From here on the warden removes the directory: sim_smpi_proc_end. */
    int status = 0, start_errno = 0;
    double limit = sim_smpi_app.argc > 0 ? script_time_limit() : 0;
    double left = limit - (now() - t0); /* the setup counts */
    int ended =
        sim_smpi_proc_wait(&pr, limit > 0 ? (left > 1e-3 ? left : 1e-3) : 0, &status, &start_errno);
    size_t n;
    long size;
    char *result = ended == 0 ? read_bytes(dir, SIM_SMPI_RESULT, 64 << 20, &n, &size) : NULL;
    const char *name = sim_smpi_app.argc > 0 ? sim_smpi_app.argv[0] : "situ-smpi";
    if (ended == -1)
        snprintf(err, errlen, "%s ran past --time-limit (%g s) and was killed", name, limit);
    else if (ended == -2)
        snprintf(err, errlen, "%s: the process that watches the run died", name);
    else if (start_errno)
        snprintf(err, errlen, "cannot fork smpimain: %s", strerror(start_errno));
    else if (!WIFEXITED(status) || WEXITSTATUS(status) || !result || !result[0])
        why_failed(dir, status, err, errlen);
    rc = ended == 0 && !start_errno && WIFEXITED(status) && !WEXITSTATUS(status) && result &&
                 result[0]
             ? 0
             : -1;
    if (rc == 0 && sim_smpi_app.argc > 0 && !(result = with_app_output(result, dir))) {
        snprintf(err, errlen, "out of memory");
        rc = -1;
    }
    sim_smpi_proc_end(&pr);
    if (rc < 0) {
        free(result);
        return NULL;
    }
    return result;
}
