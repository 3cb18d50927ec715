/* What runs in a simulation's child: SimGrid cannot be reset, may abort on a bad platform or a
 * deadlock, and writes assertion failures to stderr, so each simulation is a `situ-sim
 * __simulate` of its own, started by the runner through the process module (engine/run/proc.h),
 * which turns its end into one line. sim_child_main is the child's whole life: one simulation,
 * its JSON line on stdout. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "../base/cache_dir.h"
#include "../base/datadir.h"
#include "../base/watchdog.h"
#include "../lua/script.h"
#include "../model/report.h"
#include "../run/runner.h"
#include "sim.h"
#include "sim_smpi.h"

static void write_all(int fd, const char *buf, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, buf, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            _exit(3);
        buf += n;
        len -= (size_t)n;
    }
}

/* Test hook: SITU_TEST_FAULT=KIND[:KEY=VALUE][:once=FILE] makes the simulation child of the
 * configurations whose parameter KEY formats as VALUE misbehave: segv, abort, hang, garbage
 * (prints a non-JSON line), partial (half a JSON line), kill (SIGKILL), exit (status 3, no
 * message). With once=FILE only the first such child does, creating FILE. Lets the tests check
 * that every consumer of children reports, reaps and keeps the other results. */
static void inject_fault(const struct params *p, int out_fd)
{
    const char *spec = getenv("SITU_TEST_FAULT");
    if (!spec || !*spec)
        return;
    char buf[512], *save = NULL;
    snprintf(buf, sizeof buf, "%s", spec);
    const char *kind = strtok_r(buf, ":", &save);
    for (char *item = strtok_r(NULL, ":", &save); item; item = strtok_r(NULL, ":", &save)) {
        char *eq = strchr(item, '=');
        if (!eq)
            return;
        *eq = 0;
        if (!strcmp(item, "once")) {
            int fd = open(eq + 1, O_CREAT | O_EXCL | O_WRONLY, 0644);
            if (fd < 0)
                return; /* already happened once */
            close(fd);
            continue;
        }
        int id = params_find(item);
        char value[PARAMS_PATH_MAX];
        if (id < 0)
            return;
        params_format(p, id, value, sizeof value);
        if (strcmp(value, eq + 1))
            return;
    }
    static const char garbage[] = "this is not JSON\n", partial[] = "{\"particles\": 13720";
    if (!strcmp(kind, "segv"))
        raise(SIGSEGV);
    else if (!strcmp(kind, "abort"))
        abort();
    else if (!strcmp(kind, "kill"))
        raise(SIGKILL);
    else if (!strcmp(kind, "hang"))
        for (;;)
            pause();
    else if (!strcmp(kind, "exit"))
        _exit(3);
    else if (!strcmp(kind, "garbage") || !strcmp(kind, "partial")) {
        bool g = kind[0] == 'g';
        write_all(out_fd, g ? garbage : partial, g ? sizeof garbage - 1 : sizeof partial - 1);
        _exit(0);
    }
}

/* The process says what it runs, "situ-sim:full" (ps, top): a ready child's parameters came on
 * its stdin, so its command line does not say it, and the tests find simulations by this name in
 * the explorer's process tree (tests/tui/lib.sh, tests/proctree.py), never by a command line. */
static void name_process(const struct params *p)
{
    char name[16] = "situ-sim:"; /* the kernel keeps 15 bytes */
    size_t used = strlen(name);
    params_format(p, params_find("fidelity"), name + used, sizeof name - used);
    prctl(PR_SET_NAME, name);
}

_Noreturn void sim_child_main(const struct params *p)
{
    name_process(p);
    inject_fault(p, STDOUT_FILENO);
    struct sim_measure r;
    char err[512];
    if (p->fidelity == FIDELITY_SMPI) { /* SMPI's processes render the result */
        char *text = sim_smpi_run(p, err, sizeof err);
        if (!text) {
            fprintf(stderr, "situ: %s\n", err);
            fflush(stderr);
            _exit(3);
        }
        write_all(STDOUT_FILENO, text, strlen(text));
        _exit(0);
    }
    if (sim_run(p, &r, err, sizeof err) < 0) {
        fprintf(stderr, "situ: %s\n", err);
        fflush(stderr);
        _exit(3);
    }
    json_t *j = report_sim_json(p, &r, report_link_alert);
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!j || !mem || report_print_json(mem, j) < 0 || fclose(mem) != 0)
        _exit(3);
    write_all(STDOUT_FILENO, text, len);
    _exit(0);
}
