/* The caches cannot lie: the key is what the input files held before the run, and a result whose
 * files changed meanwhile is kept out of the disk and of the runner's memory (said once). A cache
 * directory that cannot be written is said once and left alone; platform digests then go to a
 * private directory that the process that made it removes at exit. Run from the repository root
 * after `make situ` (the runner's children are ./situ). */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <uv.h>

#include "../../engine/base/cache_dir.h"
#include "../../engine/run/cache.h"
#include "../../engine/run/runner.h"
#include "fixtures.h"

TestSuite(cache, .init = fixture_dir_make, .fini = fixture_dir_remove, .timeout = 30);

/* stderr into a file of the scratch directory, read back by said(). */
static char err_path[128];

static void capture_stderr(void)
{
    snprintf(err_path, sizeof err_path, "%s/stderr", fixture_dir);
    fflush(stderr);
    int fd = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    cr_assert_geq(fd, 0);
    dup2(fd, STDERR_FILENO);
    close(fd);
}

/* How many lines stderr got; its first one stays in said_line. */
static char said_line[4096];

static int said(void)
{
    fflush(stderr);
    FILE *f = fopen(err_path, "r");
    cr_assert_not_null(f);
    char buf[4096];
    int n = 0;
    said_line[0] = 0;
    while (fgets(buf, sizeof buf, f))
        if (n++ == 0)
            memcpy(said_line, buf, sizeof buf);
    fclose(f);
    return n;
}

static int entries(const char *dir)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "ls %s/*.json 2>/dev/null | wc -l", dir);
    FILE *p = popen(cmd, "r");
    int n = -1;
    cr_assert_eq(fscanf(p, "%d", &n), 1);
    pclose(p);
    return n;
}

/* A configuration with a hostfile and a Lua analytics of our own, besides the platform. */
static struct params with_files(char *hosts, char *lua)
{
    struct params p;
    params_defaults(&p);
    fixture_write("hosts", "dahu-2.grid5000.fr slots=2\n", hosts, PATH_MAX);
    fixture_write("a.lua", "return { name = 'a', cost = 1, bytes = 0 }\n", lua, PATH_MAX);
    p.mapping = MAPPING_HOSTFILE;
    snprintf(p.hostfile, sizeof p.hostfile, "%s", hosts);
    snprintf(p.analytics, sizeof p.analytics, "%s", lua);
    char sim[PARAMS_PATH_MAX]; /* a simulation profile: never evaluated here, only hashed */
    fixture_write("sim.lua", "return { name = 's', particles = 1e6, cost = 1, halo = {} }\n", sim,
                  sizeof sim);
    snprintf(p.simulation, sizeof p.simulation, "%s", sim);
    return p;
}

/* The same size and the same mtime, another content: only reading it can tell. */
static void rewrite_keeping_stat(const char *path, const char *text)
{
    struct stat st;
    cr_assert_eq(stat(path, &st), 0);
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
    struct timespec t[2] = {st.st_atim, st.st_mtim};
    cr_assert_eq(utimensat(AT_FDCWD, path, t, 0), 0);
    struct stat now;
    cr_assert_eq(stat(path, &now), 0);
    cr_assert_eq(now.st_size, st.st_size, "the test's edit must keep the size");
}

static const char result[] = "{\"makespan\":12.5,\"efficiency\":0.5}";

Test(cache, every_file_parameter_is_an_input)
{
    char hosts[PATH_MAX], lua[PATH_MAX];
    struct params p = with_files(hosts, lua);
    int files = 0;
    for (int id = 0; id < PARAM_COUNT; id++)
        files += param_table[id].type == PARAM_PATH && !params_is_name(id);
    cr_assert_leq(files, CACHE_INPUTS_MAX, "a new file parameter: raise CACHE_INPUTS_MAX");
    struct cache_inputs in;
    cache_inputs_take(&p, &in);
    cr_assert_eq(in.n, files, "%d inputs taken, %d file parameters", in.n, files);
    /* Each file's content is in the key: editing any one changes the digest. */
    const char *paths[] = {hosts, lua, p.simulation};
    const char *edits[] = {"dahu-3.grid5000.fr slots=2\n",
                           "return { name = 'a', cost = 9, bytes = 0 }\n",
                           "return { name = 's', particles = 1e6, cost = 2, halo = {} }\n"};
    for (int k = 0; k < 3; k++) {
        uint64_t before = cache_inputs_digest(&in);
        rewrite_keeping_stat(paths[k], edits[k]);
        cache_inputs_take(&p, &in);
        cr_assert_neq(cache_inputs_digest(&in), before, "%s is not in the key", paths[k]);
    }
}

Test(cache, a_file_edited_during_the_run_keeps_its_result_out)
{
    char hosts[PATH_MAX], lua[PATH_MAX], dir[PATH_MAX], changed[PATH_MAX];
    struct params p = with_files(hosts, lua);
    snprintf(dir, sizeof dir, "%s/results", fixture_dir);
    capture_stderr();

    /* Nothing changed: stored, and found again under what the files hold. */
    struct cache_inputs before, now;
    cache_inputs_take(&p, &before);
    cr_assert_eq(cache_put(dir, &p, &before, result, changed, sizeof changed), 0);
    char *json = NULL;
    cache_inputs_take(&p, &now);
    cr_assert_eq(cache_get(dir, &p, &now, &json), 0);
    free(json);

    /* The analytics edited between the start and the end (same size, same mtime). */
    p.stride = 40;
    cache_inputs_take(&p, &before);
    rewrite_keeping_stat(lua, "return { name = 'a', cost = 5, bytes = 0 }\n");
    cr_assert_eq(cache_put(dir, &p, &before, result, changed, sizeof changed), CACHE_CHANGED);
    cr_assert_str_eq(changed, lua);
    cr_assert_eq(entries(dir), 1, "the run's result was stored");
    cache_inputs_take(&p, &now);
    cr_assert_eq(cache_get(dir, &p, &now, &json), -1, "the new content hits the old result");
    cr_assert_eq(cache_get(dir, &p, &before, &json), -1, "the old content hits a mixed result");

    /* The same bytes written again (an editor's save) is a change too: the run may have read
     * anything in between. Said once per file, however many runs it spoils. */
    p.stride = 80;
    cache_inputs_take(&p, &before);
    FILE *f = fopen(lua, "r+");
    fputc('r', f);
    fclose(f);
    cr_assert_eq(cache_put(dir, &p, &before, result, NULL, 0), CACHE_CHANGED);
    cr_assert_eq(said(), 1, "said %d times", said());
    char want[PATH_MAX + 64];
    snprintf(want, sizeof want, "situ: %s changed during the run: result not cached\n", lua);
    cr_assert_str_eq(said_line, want);

    /* The hostfile is an input too. */
    cache_inputs_take(&p, &before);
    rewrite_keeping_stat(hosts, "dahu-4.grid5000.fr slots=2\n");
    cr_assert_eq(cache_put(dir, &p, &before, result, changed, sizeof changed), CACHE_CHANGED);
    cr_assert_str_eq(changed, hosts);
    cr_assert_eq(entries(dir), 1);
}

Test(cache, an_unwritable_results_directory_is_said_once)
{
    char hosts[PATH_MAX], lua[PATH_MAX], file[PATH_MAX];
    struct params p = with_files(hosts, lua);
    fixture_write("file", "", file, sizeof file); /* a file where the directory should be */
    capture_stderr();
    struct cache_inputs in;
    cache_inputs_take(&p, &in);
    cr_assert_eq(cache_put(file, &p, &in, result, NULL, 0), -1);
    p.stride = 40;
    cr_assert_eq(cache_put(file, &p, &in, result, NULL, 0), -1);
    cr_assert_not(cache_dir_usable(file));
    cr_assert_eq(said(), 1);
    char want[PATH_MAX + 64];
    snprintf(want, sizeof want, "situ: cache directory %s unusable (", file);
    cr_assert(strstr(said_line, want) == said_line, "%s", said_line);
    cr_assert(strstr(said_line, "): nothing is cached\n"), "%s", said_line);
}

/* In a child (its own cleanup, its own environment): XDG_CACHE_HOME as given, a digest written and
 * read back; prints where it went. The parent sees the private directory after the exit. */
static void write_digest_in_child(const char *xdg, char *where, size_t len, int *lines)
{
    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        char tmpdir[PATH_MAX], path[PATH_MAX], back[64] = "";
        snprintf(tmpdir, sizeof tmpdir, "%s/tmp", fixture_dir);
        mkdir(tmpdir, 0755);
        setenv("TMPDIR", tmpdir, 1);
        setenv("XDG_CACHE_HOME", xdg, 1);
        unsetenv(CACHE_PRIVATE_ENV);
        capture_stderr();
        if (cache_file_write("platforms/0123.json", "{\"digest\":1}", 12) < 0 ||
            cache_file_path("platforms/0123.json", path, sizeof path) < 0)
            _exit(1);
        FILE *f = fopen(path, "r");
        if (!f || !fgets(back, sizeof back, f) || strcmp(back, "{\"digest\":1}"))
            _exit(2);
        fclose(f);
        /* A forked child (a simulation's) that cleans up does not take the directory with it.
         * (_exit and explicit cleanups: a sanitizer's leak check in a forked child of this
         * threaded process would report its threads; situ's own exits are checked by the CLI
         * suite, TMPDIR empty after each.) */
        pid_t sim = fork();
        if (sim == 0) {
            cache_dir_cleanup();
            _exit(0);
        }
        waitpid(sim, NULL, 0);
        if (access(path, F_OK) < 0)
            _exit(3);
        cache_dir_say(); /* as the runner does when a simulation starts */
        const char *env = getenv(CACHE_PRIVATE_ENV);

        dprintf(fds[1], "%d %s\n", said(), env ? env : path);
        cache_dir_cleanup(); /* what exit does */
        _exit(0);
    }
    close(fds[1]);
    FILE *r = fdopen(fds[0], "r");
    cr_assert_eq(fscanf(r, "%d %4095s", lines, where), 2, "the child failed");
    fclose(r);
    int status;
    waitpid(pid, &status, 0);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status %d", status);
    (void)len;
}

static void digest_falls_back(const char *xdg)
{
    char where[PATH_MAX];
    int lines;
    write_digest_in_child(xdg, where, sizeof where, &lines);
    cr_assert_eq(lines, 1, "%d lines on stderr", lines);
    char tmpdir[PATH_MAX];
    snprintf(tmpdir, sizeof tmpdir, "%s/tmp/situ-cache-", fixture_dir);
    cr_assert(strstr(where, tmpdir) == where, "the digest went to %s", where);
    struct stat st;
    cr_assert_neq(stat(where, &st), 0, "%s is left behind", where);
}

Test(cache, digests_go_private_when_xdg_cache_home_is_a_file)
{
    char file[PATH_MAX];
    fixture_write("xdg", "", file, sizeof file);
    digest_falls_back(file);
}

Test(cache, digests_go_private_when_a_directory_stands_in_for_one)
{
    char xdg[PATH_MAX], d[PATH_MAX + 64];
    snprintf(xdg, sizeof xdg, "%s/xdg", fixture_dir);
    snprintf(d, sizeof d, "%s/situ/platforms/0123.json", xdg);
    cr_assert_eq(cache_mkdir_p(d), 0);
    digest_falls_back(xdg);
}

Test(cache, digests_go_private_when_a_file_stands_in_for_their_directory)
{
    char xdg[PATH_MAX], d[PATH_MAX + 64];
    snprintf(xdg, sizeof xdg, "%s/xdg", fixture_dir);
    snprintf(d, sizeof d, "%s/situ", xdg);
    cr_assert_eq(cache_mkdir_p(d), 0);
    strcat(d, "/platforms");
    fclose(fopen(d, "w"));
    digest_falls_back(xdg);
}

Test(cache, a_usable_directory_keeps_the_digests_and_says_nothing)
{
    char xdg[PATH_MAX], where[PATH_MAX], want[PATH_MAX + 64];
    snprintf(xdg, sizeof xdg, "%s/xdg", fixture_dir);
    int lines;
    write_digest_in_child(xdg, where, sizeof where, &lines);
    cr_assert_eq(lines, 0);
    snprintf(want, sizeof want, "%s/situ/platforms/0123.json", xdg);
    cr_assert_str_eq(where, want);
    cr_assert_eq(access(want, F_OK), 0);
}

/* ---- the runner: its memory and the disk follow the rule ------------------------------------ */

struct seen {
    int n;
    bool ok;
    char changed[PATH_MAX];
};

static void on_done(void *ud, const struct runner_done *d)
{
    struct seen *s = ud;
    s->n++;
    s->ok = d->status == RUNNER_OK;
    snprintf(s->changed, sizeof s->changed, "%s", d->changed ? d->changed : "");
}

/* Runs p through r (whose child is `sh -c SCRIPT`) until its callback. */
static void run_one(uv_loop_t *loop, struct runner *r, const struct params *p, struct seen *s)
{
    *s = (struct seen){0};
    cr_assert_gt(runner_submit(r, p, 1, 1, 0, on_done, s), 0, "served from a cache");
    uint64_t end = uv_hrtime() + 20000000000ull;
    while (s->n < 1 && uv_hrtime() < end)
        uv_run(loop, UV_RUN_ONCE);
    cr_assert(s->n == 1 && s->ok, "the child failed");
}

static bool on_disk(const char *disk, const struct params *p)
{
    struct cache_inputs now;
    char *json = NULL;
    cache_inputs_take(p, &now);
    int rc = cache_get(disk, p, &now, &json);
    free(json);
    return rc == 0;
}

Test(cache, the_runner_keeps_no_result_whose_files_changed_during_its_run)
{
    cr_assert_eq(access("./situ", X_OK), 0, "run from the repository root after make situ");
    char hosts[PATH_MAX], lua[PATH_MAX], disk[PATH_MAX], script[2 * PATH_MAX];
    struct params p = with_files(hosts, lua);
    snprintf(disk, sizeof disk, "%s/results", fixture_dir);
    /* The child edits the analytics before the model reads it when $EDIT is a file name: the
     * explorer's case, a file saved while its simulation runs. */
    snprintf(script, sizeof script,
             "[ -z \"$EDIT\" ] || echo 'return { name = \"b\", cost = 40, bytes = 0 }' "
             "> \"$EDIT\"; exec ./situ model --json \"$@\"");
    uv_loop_t loop;
    uv_loop_init(&loop);
    const char *argv[] = {"/bin/sh", "-c", script, "sh", NULL};
    struct runner_opts o = {.argv = argv, .disk_cache = disk};
    char err[256] = "";
    struct runner *r = runner_new(&loop, &o, err, sizeof err);
    cr_assert_not_null(r, "%s", err);
    capture_stderr();

    /* Not vacuous: untouched, the result is kept in memory and on disk. */
    struct seen s;
    unsetenv("EDIT");
    run_one(&loop, r, &p, &s);
    cr_assert(!s.changed[0] && runner_lookup(r, &p) && on_disk(disk, &p));

    /* Edited during the run, then put back exactly as it was at the submission (content and
     * times): nothing may answer for that content with the edited file's result. */
    p.stride = 40;
    struct stat st;
    cr_assert_eq(stat(lua, &st), 0);
    setenv("EDIT", lua, 1);
    run_one(&loop, r, &p, &s);
    unsetenv("EDIT");
    cr_assert_str_eq(s.changed, lua, "the callback does not say the file changed");
    fixture_write("a.lua", "return { name = 'a', cost = 1, bytes = 0 }\n", lua, sizeof lua);
    struct timespec t[2] = {st.st_atim, st.st_mtim};
    cr_assert_eq(utimensat(AT_FDCWD, lua, t, 0), 0);
    cr_assert_null(runner_lookup(r, &p), "the memory answers with the edited file's result");
    cr_assert_not(on_disk(disk, &p), "the disk answers with the edited file's result");
    cr_assert_eq(said(), 1);
    cr_assert(strstr(said_line, "changed during the run: result not cached"), "%s", said_line);
    runner_shutdown(r);
    uv_run(&loop, UV_RUN_DEFAULT);
    runner_free(r);
    cr_assert_eq(uv_loop_close(&loop), 0);
}

/* The files a platform names (its traces) are inputs like the platform: each one's content is in
 * the key, and one edited during the run keeps the result out, named; past CACHE_INPUTS_MAX
 * files, the rest share the last slot and still count. */
Test(cache, the_files_a_platform_names_are_inputs)
{
    char xml[8192], trace[PATH_MAX], plat[PATH_MAX], dir[PATH_MAX], changed[PATH_MAX];
    enum { TRACES = CACHE_INPUTS_MAX + 4 };
    int n = snprintf(xml, sizeof xml,
                     "<?xml version='1.0'?>\n<platform version=\"4.1\">"
                     "<zone id=\"w\" routing=\"Full\">\n");
    for (int k = 0; k < TRACES; k++) {
        char name[32];
        snprintf(name, sizeof name, "t%d.trace", k);
        fixture_write(name, "0 1.0\n", trace, sizeof trace);
        n += snprintf(xml + n, sizeof xml - (size_t)n,
                      "<host id=\"h%d\" speed=\"1Gf\" speed_file=\"t%d.trace\"/>\n", k, k);
    }
    snprintf(xml + n, sizeof xml - (size_t)n, "</zone></platform>\n");
    fixture_write("p.xml", xml, plat, sizeof plat);
    snprintf(dir, sizeof dir, "%s/results", fixture_dir);
    struct params p;
    params_defaults(&p);
    cr_assert_lt(strlen(plat), sizeof p.platform);
    memcpy(p.platform, plat, strlen(plat) + 1);
    capture_stderr();
    struct cache_inputs before, now;
    for (int k = 0; k < TRACES; k += TRACES - 1) { /* the first, and one in the shared slot */
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/t%d.trace", fixture_dir, k);
        cache_inputs_take(&p, &before);
        cr_assert_eq(before.files, 1 + TRACES, "%d files taken", before.files);
        rewrite_keeping_stat(path, "0 0.5\n");
        cache_inputs_take(&p, &now);
        cr_assert_neq(cache_inputs_digest(&now), cache_inputs_digest(&before),
                      "%s is not in the key", path);
        p.stride = 40 + k;
        cr_assert_eq(cache_put(dir, &p, &before, result, changed, sizeof changed), CACHE_CHANGED);
        if (k == 0)
            cr_assert_str_eq(changed, path);
        else
            cr_assert(strstr(changed, plat), "%s", changed);
    }
    cr_assert_eq(entries(dir), 0, "a result of a run whose trace changed was stored");
}
