/* fidelity=smpi, the simulation child's side: places the processes, writes the hostfile and the
 * configuration, runs smpirun and judges what it left. See sim_smpi.h. */
#include "sim_smpi.h"

#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../lua/analytics.h"
#include "../base/datadir.h"
#include "../base/outfile.h"
#include "../model/digest.h"
#include "../model/platform.h"
#include "../model/report.h"
#include "../lua/script.h"
#include "sim.h"

struct sim_smpi_app sim_smpi_app;

#define DIR_MAX        256        /* of the run's temporary directory ($TMPDIR/situ-smpi-XXXXXX) */
#define APP_OUTPUT_MAX (64 << 10) /* of the application's own output, kept in the result */

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
    /* the collector, and the postmen that send its copies to each node's ranks (sim_actors.c) */
    for (int k = 0; k <= l->sim_nodes; k++, n++)
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

static char *read_text(const char *path, size_t max)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    char *buf = malloc(max + 1);
    size_t n = buf ? fread(buf, 1, max, f) : 0;
    fclose(f);
    if (buf)
        buf[n] = 0;
    return buf;
}

/* Paths the processes can open from anywhere: the platform, the analytics file. */
static int config_text(const struct params *p, double t0, const char *out, char **text, char *err,
                       size_t errlen)
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
    fprintf(m, "--situ-out=%s\n--situ-t0=%.9f\n--situ-app=%d\n", out, t0, sim_smpi_app.argc > 0);
    /* smpirun's processes are smpimain's: a platform they must read again (no cache) is read by
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

static void remove_tree(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    char path[PATH_MAX];
    for (struct dirent *e; (e = readdir(d));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unlink(path);
    }
    closedir(d);
    rmdir(dir);
}

/* The program smpirun runs, and where libsitu_dtl is (beside Situ's binary, or installed). */
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

static void exec_smpirun(const struct params *p, const char *dir, const char *program,
                         const char *libdir, long np)
{
    char npbuf[32], hosts[DIR_MAX + 32], cfg[DIR_MAX + 32], tmp[DIR_MAX + 32], net[64],
        out[DIR_MAX + 32];
    snprintf(npbuf, sizeof npbuf, "%ld", np);
    snprintf(hosts, sizeof hosts, "%s/hostfile", dir);
    snprintf(cfg, sizeof cfg, "%s/config", dir);
    snprintf(tmp, sizeof tmp, "--cfg=smpi/tmpdir:%s", dir);
    snprintf(net, sizeof net, "--cfg=network/model:%s",
             param_table[P_SMPI_NETWORK].choices[p->smpi_network]);
    setenv(SIM_SMPI_CONFIG_ENV, cfg, 1);
    const char *old = getenv("LD_LIBRARY_PATH");
    char ld[2 * PATH_MAX];
    snprintf(ld, sizeof ld, "%s%s%s", libdir, old && *old ? ":" : "", old ? old : "");
    setenv("LD_LIBRARY_PATH", ld, 1);
    snprintf(out, sizeof out, "%s/app.out", dir);
    if (!freopen(out, "w", stdout))
        _exit(127);
    snprintf(out, sizeof out, "%s/app.err", dir);
    if (!freopen(out, "w", stderr))
        _exit(127);
    /* Nothing of ours stays open in smpirun's processes: above all not the pipe our result goes
     * through, whose reader waits for its end. */
    for (int fd = 3; fd < 4096; fd++)
        close(fd);
    bool app = sim_smpi_app.argc > 0;
    /* The proxy computes through smpi_execute_flops only: its own CPU time is not the ranks'.
     * smpimain runs in smpirun's background: setpriv makes it die with smpirun too. */
    char *argv[32 + (app ? sim_smpi_app.argc : 0)];
    int n = 0;
    char *fixed[] = {"smpirun",
                     "-np",
                     npbuf,
                     "-platform",
                     (char *)p->platform,
                     "-hostfile",
                     hosts,
                     "-wrapper",
                     "setpriv --pdeathsig KILL",
                     net,
                     tmp,
                     "--log=" SIMGRID_LOG_QUIET,
                     SIM_NETWORK_OPTIM,
                     "--cfg=smpi/display-timing:no"};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        argv[n++] = fixed[i];
    if (!app) { /* every halo send is fire-and-forget, as the engine's puts are */
        argv[n++] = "--cfg=smpi/simulate-computation:no";
        argv[n++] = "--cfg=smpi/send-is-detached-thresh:2147483647";
    }
    argv[n++] = (char *)program;
    for (int i = 1; app && i < sim_smpi_app.argc; i++)
        argv[n++] = sim_smpi_app.argv[i];
    argv[n] = NULL;
    execvp("smpirun", argv);
    fprintf(stderr, "situ-smpi: cannot run smpirun: %s (make deps installs libsimgrid-dev)\n",
            strerror(errno));
    _exit(127);
}

/* Waits for smpirun; past the limit (0: none) kills it: its smpimain dies with it. */
static int wait_smpirun(pid_t pid, double limit, double t0, int *status)
{
    for (;;) {
        pid_t r = waitpid(pid, status, WNOHANG);
        if (r == pid)
            return 0;
        if (r < 0 && errno != EINTR)
            return 0;
        if (limit > 0 && now() - t0 > limit) {
            kill(pid, SIGKILL);
            while (waitpid(pid, status, 0) < 0 && errno == EINTR)
                ;
            return -1;
        }
        struct timespec d = {0, 20 * 1000 * 1000};
        nanosleep(&d, NULL);
    }
}

/* The application's output goes with the result, as a key of its JSON line. */
static char *with_app_output(char *result, const char *dir)
{
    char path[DIR_MAX + 32];
    snprintf(path, sizeof path, "%s/app.out", dir);
    char *app = read_text(path, APP_OUTPUT_MAX);
    if (!app)
        return result;
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    json_t *o = json_loads(result, 0, NULL);
    if (!m || !o) {
        if (m)
            fclose(m);
        free(text);
        json_decref(o);
        free(app);
        return result;
    }
    json_t *cmd = json_array();
    for (int i = 0; i < sim_smpi_app.argc; i++)
        json_array_append_new(cmd, json_string(sim_smpi_app.argv[i]));
    json_object_set_new(o, "app", json_pack("{s:o,s:s}", "command", cmd, "output", app));
    report_print_json(m, o);
    json_decref(o);
    fclose(m);
    free(app);
    free(result);
    return text;
}

char *sim_smpi_run(const struct params *p, char *err, size_t errlen)
{
    double t0 = now();
    char dir[DIR_MAX], path[DIR_MAX + 32], program[PATH_MAX], libdir[PATH_MAX];
    const char *tmp = getenv("TMPDIR");
    if (snprintf(dir, sizeof dir, "%s/situ-smpi-XXXXXX", tmp && *tmp ? tmp : "/tmp") >=
        (int)sizeof dir)
        snprintf(dir, sizeof dir, "/tmp/situ-smpi-XXXXXX"); /* TMPDIR too long for us */
    if (locate(program, libdir, sizeof program, err, errlen) < 0)
        return NULL;
    if (!mkdtemp(dir)) {
        snprintf(err, errlen, "%s: cannot create: %s", dir, strerror(errno));
        return NULL;
    }
    char *hosts = NULL, *config = NULL, result_path[DIR_MAX + 32];
    long np = 0;
    snprintf(result_path, sizeof result_path, "%s/result", dir);
    int rc = hostfile_text(p, &hosts, &np, err, errlen);
    if (rc == 0)
        rc = config_text(p, t0, result_path, &config, err, errlen);
    snprintf(path, sizeof path, "%s/hostfile", dir);
    if (rc == 0)
        rc = write_text(path, hosts, err, errlen);
    snprintf(path, sizeof path, "%s/config", dir);
    if (rc == 0)
        rc = write_text(path, config, err, errlen);
    free(hosts);
    free(config);
    if (rc < 0) {
        remove_tree(dir);
        return NULL;
    }
    fflush(NULL);
    /* Fork and exec (exec_smpirun). What the child does before its exec (setenv, freopen) is not
     * async-signal-safe, which a fork allows in a process of one thread: this is a simulation
     * child, a copy the runner made only of a one-thread command, or `situ __simulate`, whose
     * only other thread can be Lua's watchdog (a Lua analytics), which holds no lock but its own
     * (reset by its fork handler): no allocator or stdio lock can be held here at the fork. */
    pid_t pid = fork();
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        exec_smpirun(p, dir, program, libdir, np);
    }
    if (pid < 0) {
        snprintf(err, errlen, "cannot fork: %s", strerror(errno));
        remove_tree(dir);
        return NULL;
    }
    int status = 0;
    double limit = sim_smpi_app.argc > 0 ? script_time_limit() : 0;
    bool timed_out = wait_smpirun(pid, limit, t0, &status) < 0;
    char *result = read_text(result_path, 64 << 20);
    const char *name = sim_smpi_app.argc > 0 ? sim_smpi_app.argv[0] : "situ-smpi";
    if (timed_out) {
        snprintf(err, errlen, "%s ran past --time-limit (%g s) and was killed", name, limit);
        rc = -1;
    } else if (!WIFEXITED(status) || WEXITSTATUS(status) || !result || !result[0]) {
        snprintf(path, sizeof path, "%s/app.err", dir);
        char *text = read_text(path, 1 << 20), reason[400];
        failure_reason(text, reason, sizeof reason);
        free(text);
        char how[64] = "";
        if (WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status)))
            snprintf(how, sizeof how, " (exit status %d)",
                     WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
        if (sim_smpi_app.argc > 0 && strstr(reason, "Deadlock") && strlen(reason) < 300)
            strcat(reason, " [an MPI deadlock, or a rank that did not call situ_dtl_finalize]");
        /* Every process ended well, and none wrote the result: one never left (situ_dtl). */
        const char *none = sim_smpi_app.argc > 0
                               ? "no result: did every rank call situ_dtl_finalize?"
                               : "no result";
        snprintf(err, errlen, "%s failed under smpirun%s: %s", name, how,
                 reason[0] ? reason : none);
        rc = -1;
    }
    if (rc == 0 && sim_smpi_app.argc > 0)
        result = with_app_output(result, dir);
    remove_tree(dir);
    if (rc < 0) {
        free(result);
        return NULL;
    }
    return result;
}
