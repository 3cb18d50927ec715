/* One simulation per child process: SimGrid cannot be reset, may abort on a bad platform or a
 * deadlock, and writes assertion failures to stderr. The parent keeps stdout clean and turns any
 * failure into one line. No child outlives its parent: each runs in its own process group with
 * PR_SET_PDEATHSIG (a SIGKILLed parent), and while children run, TERM, INT and HUP kill and reap
 * their groups before the parent goes (see struct guard). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "report.h"
#include "sim.h"

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

static void render(const struct params *p, const struct sim_measure *r, bool json, FILE *out)
{
    if (json) {
        json_t *j = sim_result_json(p, r);
        report_print_json(out, j);
        json_decref(j);
        return;
    }
    report_result_table(out, "situ run: SimGrid simulation (measured)", p, &r->m);
    fprintf(out, "  %-20s %.3f s, %ld activities, fidelity %s\n", "simulated in", r->wall_seconds,
            r->activities, r->fidelity == FIDELITY_FULL ? "full" : "fast");
    if (r->warning[0])
        fprintf(out, "  warning: %s\n", r->warning);
    fprintf(out, "  links that carried traffic (mean utilisation; about 50%% is best)\n");
    for (int i = 0; i < r->nlinks; i++) {
        double u = r->links[i].utilisation;
        fprintf(out, "    %-34s %-8s %12.4g B  %6.2f %%  %s\n", r->links[i].name, r->links[i].place,
                r->links[i].bytes, 100 * u,
                u > sim_link_alert ? "ALERT: above threshold"
                : u < 0.25         ? "under-used"
                : u <= 0.6         ? "good"
                                   : "busy");
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

static void child(const struct params *p, bool json, int out_fd)
{
    inject_fault(p, out_fd);
    struct sim_measure r;
    char err[512];
    if (sim_run(p, &r, err, sizeof err) < 0) {
        fprintf(stderr, "%s\n", err);
        _exit(3);
    }
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem)
        _exit(3);
    render(p, &r, json, mem);
    fclose(mem);
    write_all(out_fd, text, len);
    _exit(0);
}

volatile sig_atomic_t sim_pool_stop;

static const int caught[] = {SIGTERM, SIGINT, SIGHUP};

static void on_stop(int sig)
{
    sim_pool_stop = sig;
}

/* While children run, TERM, INT and HUP only set sim_pool_stop: the loops below then kill and
 * reap the children. A caller's own handler (a sweep's, which reports what was cached) or an
 * ignored signal (nohup) is left alone; where the default (death) was in force, the process
 * dies of the same signal once its children are gone, so its status is still 128+N. */
struct guard {
    struct sigaction old[sizeof caught / sizeof caught[0]];
    bool ours[sizeof caught / sizeof caught[0]];
};

static void guard_begin(struct guard *g)
{
    struct sigaction sa = {.sa_handler = on_stop};
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof caught / sizeof caught[0]; i++) {
        sigaction(caught[i], NULL, &g->old[i]);
        g->ours[i] = g->old[i].sa_handler == SIG_DFL;
        if (g->ours[i])
            sigaction(caught[i], &sa, NULL);
    }
}

static void guard_end(struct guard *g)
{
    int sig = sim_pool_stop;
    for (size_t i = 0; i < sizeof caught / sizeof caught[0]; i++) {
        if (!g->ours[i])
            continue;
        sigaction(caught[i], &g->old[i], NULL);
        if (sig == caught[i]) {
            fflush(stdout); /* what the caller printed before the signal is not lost */
            raise(sig);
        }
    }
}

struct sim_child {
    pid_t pid;
    struct timespec start;
    double timed_out; /* the limit it was killed at, 0 if it was not */
    int fd[2];        /* stdout, stderr of the child; -1 once at EOF */
    char *buf[2];
    size_t len[2], cap[2];
};

static int child_start(struct sim_child *c, const struct params *p, bool json, char *err,
                       size_t errlen)
{
    int out[2], errp[2];
    memset(c, 0, sizeof *c);
    if (pipe(out) < 0) {
        snprintf(err, errlen, "cannot create pipes: %s", strerror(errno));
        return -3;
    }
    if (pipe(errp) < 0) {
        snprintf(err, errlen, "cannot create pipes: %s", strerror(errno));
        close(out[0]);
        close(out[1]);
        return -3;
    }
    fflush(stdout);
    fflush(stderr);
    pid_t parent = getpid();
    c->pid = fork();
    if (c->pid < 0) {
        snprintf(err, errlen, "cannot fork: %s", strerror(errno));
        close(out[0]);
        close(out[1]);
        close(errp[0]);
        close(errp[1]);
        return -3;
    }
    if (c->pid == 0) {
        /* Its own group, so that one kill(-pid) takes whatever it starts; the parent's signal
         * handlers are not its own (an ignored one stays ignored: nohup); and it dies with the
         * parent, even a SIGKILLed one (the parent may have died before prctl: then getppid()
         * is no longer it). */
        setpgid(0, 0);
        for (size_t i = 0; i < sizeof caught / sizeof caught[0]; i++) {
            struct sigaction cur;
            if (sigaction(caught[i], NULL, &cur) == 0 && cur.sa_handler != SIG_IGN)
                signal(caught[i], SIG_DFL);
        }
        if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
            _exit(3);
        close(out[0]);
        close(errp[0]);
        dup2(errp[1], STDERR_FILENO);
        close(errp[1]);
        child(p, json, out[1]);
    }
    setpgid(c->pid, c->pid); /* as the child does: whichever runs first, the group exists */
    close(out[1]);
    close(errp[1]);
    clock_gettime(CLOCK_MONOTONIC, &c->start);
    c->fd[0] = out[0];
    c->fd[1] = errp[0];
    return 0;
}

/* Reads what stream i of the child has; closes it at EOF. */
static void child_pump(struct sim_child *c, int i)
{
    char chunk[65536];
    ssize_t n = read(c->fd[i], chunk, sizeof chunk);
    if (n < 0 && errno == EINTR)
        return;
    if (n > 0 && c->len[i] + (size_t)n + 1 > c->cap[i]) {
        size_t grown = (c->cap[i] ? c->cap[i] * 2 : 65536) + (size_t)n;
        char *b = realloc(c->buf[i], grown);
        if (!b)
            n = -1;
        else {
            c->buf[i] = b;
            c->cap[i] = grown;
        }
    }
    if (n <= 0) {
        close(c->fd[i]);
        c->fd[i] = -1;
        return;
    }
    memcpy(c->buf[i] + c->len[i], chunk, (size_t)n);
    c->len[i] += (size_t)n;
    c->buf[i][c->len[i]] = 0;
}

/* A line of a SimGrid backtrace ("  ->  3# ...", "Backtrace:"): never the reason. */
static bool backtrace_line(const char *msg, const char *end)
{
    while (msg < end && *msg == ' ')
        msg++;
    size_t n = (size_t)(end - msg);
    return (n >= 2 && !strncmp(msg, "->", 2)) || (n >= 9 && !strncmp(end - 9, "acktrace:", 9));
}

/* The child's most telling stderr line: the last one that is not SimGrid's "Exiting now." nor a
 * backtrace, without SimGrid's "[clock] file:line: [category/LEVEL] " prefix. */
void sim_reason_line(const char *text, char *out, size_t len)
{
    out[0] = 0;
    if (!text)
        return;
    const char *end = text + strlen(text);
    while (end > text) {
        while (end > text && (end[-1] == '\n' || end[-1] == ' '))
            end--;
        const char *start = end;
        while (start > text && start[-1] != '\n')
            start--;
        const char *tag = strstr(start, "/ERROR] ");
        if (!tag || tag > end)
            tag = strstr(start, "/CRITICAL] ");
        const char *msg = tag && tag < end ? strstr(tag, "] ") + 2 : start;
        if (end > msg && strncmp(msg, "Exiting now.", 12) && !backtrace_line(msg, end)) {
            snprintf(out, len, "%.*s", (int)(end - msg), msg);
            return;
        }
        end = start;
    }
}

/* Reaps the child (both streams at EOF) and judges it. */
static int child_finish(struct sim_child *c, char **output, char *err, size_t errlen)
{
    int status = 0;
    while (waitpid(c->pid, &status, 0) < 0 && errno == EINTR)
        ;
    char reason[384];
    sim_reason_line(c->buf[1], reason, sizeof reason);
    int rc = 0;
    if (c->timed_out > 0) {
        snprintf(err, errlen, "simulation timed out after %g s and was killed", c->timed_out);
        rc = -3;
    } else if (WIFSIGNALED(status)) {
        snprintf(err, errlen, "simulation crashed (%s)%s%s", strsignal(WTERMSIG(status)),
                 reason[0] ? ": " : "", reason);
        rc = -3;
    } else if (WEXITSTATUS(status) != 0 || c->len[0] == 0) {
        snprintf(err, errlen, "simulation failed: %s", reason[0] ? reason : "no result");
        rc = -3;
    }
    free(c->buf[1]);
    *output = rc == 0 ? c->buf[0] : NULL;
    if (rc != 0)
        free(c->buf[0]);
    return rc;
}

static double child_elapsed(const struct sim_child *c)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (now.tv_sec - c->start.tv_sec) + (now.tv_nsec - c->start.tv_nsec) * 1e-9;
}

static bool child_running(const struct sim_child *c)
{
    return c->fd[0] >= 0 || c->fd[1] >= 0;
}

/* What a child printed is only passed on whole: one JSON object, or the table's first line. */
static bool result_looks_whole(const char *text, bool json)
{
    if (!json)
        return !strncmp(text, "situ run:", 9);
    json_error_t jerr;
    json_t *v = json_loads(text, 0, &jerr);
    bool ok = json_is_object(v);
    json_decref(v);
    return ok;
}

int sim_run_isolated(const struct params *p, bool json, char **output, char *err, size_t errlen)
{
    struct sim_child c;
    struct guard g;
    *output = NULL;
    guard_begin(&g);
    int rc = child_start(&c, p, json, err, errlen);
    if (rc < 0) {
        guard_end(&g);
        return rc;
    }
    while (child_running(&c) && !sim_pool_stop) {
        struct pollfd fds[2] = {{c.fd[0], POLLIN, 0}, {c.fd[1], POLLIN, 0}};
        /* A timeout, so that a signal landing just before poll is still seen. */
        if (poll(fds, 2, 200) < 0 && errno != EINTR)
            break;
        for (int i = 0; i < 2; i++)
            if (fds[i].fd >= 0 && (fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                child_pump(&c, i);
    }
    if (sim_pool_stop || child_running(&c)) {
        kill(-c.pid, SIGKILL);
        for (int i = 0; i < 2; i++)
            if (c.fd[i] >= 0)
                close(c.fd[i]);
        c.fd[0] = c.fd[1] = -1;
    }
    rc = child_finish(&c, output, err, errlen);
    if (sim_pool_stop) {
        free(*output);
        *output = NULL;
        snprintf(err, errlen, "interrupted (%s)", strsignal(sim_pool_stop));
        rc = -2;
    }
    guard_end(&g);
    if (rc < 0)
        return rc;
    if (rc == 0 && !result_looks_whole(*output, json)) {
        snprintf(err, errlen, "simulation printed an unreadable result");
        free(*output);
        *output = NULL;
        rc = -3;
    }
    return rc;
}

/* Kills the running children of the pool and fails their jobs and every job not started. */
static void pool_abandon(struct sim_job *jobs, int n, struct sim_child *kids, int *job_of,
                         int parallel, int next)
{
    for (int k = 0; k < parallel; k++) {
        if (job_of[k] < 0)
            continue;
        kill(-kids[k].pid, SIGKILL);
        for (int i = 0; i < 2; i++)
            if (kids[k].fd[i] >= 0)
                close(kids[k].fd[i]);
        char *out = NULL, err[8];
        child_finish(&kids[k], &out, err, sizeof err);
        free(out);
        struct sim_job *j = &jobs[job_of[k]];
        j->rc = -3;
        snprintf(j->err, sizeof j->err, "interrupted");
        job_of[k] = -1;
    }
    for (int k = next; k < n; k++) {
        jobs[k].rc = -3;
        snprintf(jobs[k].err, sizeof jobs[k].err, "interrupted");
    }
}

int sim_pool_run(struct sim_job *jobs, int n, int parallel,
                 void (*progress)(void *ud, struct sim_job *job, int done, int total), void *ud)
{
    if (parallel < 1)
        parallel = 1;
    struct sim_child *kids = calloc(parallel, sizeof *kids);
    int *job_of = calloc(parallel, sizeof *job_of);
    struct pollfd *fds = calloc(2 * (size_t)parallel, sizeof *fds);
    if (!kids || !job_of || !fds) {
        free(kids);
        free(job_of);
        free(fds);
        return -1;
    }
    int next = 0, done = 0, failed = 0, live = 0;
    for (int k = 0; k < parallel; k++)
        job_of[k] = -1;
    struct guard g;
    guard_begin(&g);
    while (done < n) {
        if (sim_pool_stop) {
            pool_abandon(jobs, n, kids, job_of, parallel, next);
            failed = -2;
            break;
        }
        for (int k = 0; k < parallel && next < n; k++) {
            if (job_of[k] >= 0)
                continue;
            struct sim_job *j = &jobs[next];
            j->output = NULL;
            j->rc = child_start(&kids[k], &j->p, true, j->err, sizeof j->err);
            if (j->rc < 0) {
                failed++;
                done++;
                next++;
                if (progress)
                    progress(ud, j, done, n);
                continue;
            }
            job_of[k] = next++;
            live++;
        }
        if (!live)
            continue;
        for (int k = 0; k < parallel; k++)
            for (int i = 0; i < 2; i++)
                fds[2 * k + i] = (struct pollfd){job_of[k] >= 0 ? kids[k].fd[i] : -1, POLLIN, 0};
        /* With time limits, wake up to enforce them even when no child says anything. */
        if (poll(fds, 2 * (nfds_t)parallel, 200) < 0 && errno != EINTR) {
            pool_abandon(jobs, n, kids, job_of, parallel, next); /* no child left running */
            failed = -1;
            break;
        }
        for (int k = 0; k < parallel; k++) {
            if (job_of[k] < 0)
                continue;
            double limit = jobs[job_of[k]].time_limit;
            if (limit > 0 && child_elapsed(&kids[k]) > limit) {
                kill(-kids[k].pid, SIGKILL);
                for (int i = 0; i < 2; i++)
                    if (kids[k].fd[i] >= 0) {
                        close(kids[k].fd[i]);
                        kids[k].fd[i] = -1;
                        fds[2 * k + i].fd = -1;
                    }
                kids[k].timed_out = limit;
            }
            for (int i = 0; i < 2; i++)
                if (fds[2 * k + i].fd >= 0 &&
                    (fds[2 * k + i].revents & (POLLIN | POLLHUP | POLLERR)))
                    child_pump(&kids[k], i);
            if (child_running(&kids[k]))
                continue;
            struct sim_job *j = &jobs[job_of[k]];
            j->rc = child_finish(&kids[k], &j->output, j->err, sizeof j->err);
            failed += j->rc < 0;
            job_of[k] = -1;
            live--;
            done++;
            if (progress)
                progress(ud, j, done, n);
        }
    }
    free(kids);
    free(job_of);
    free(fds);
    guard_end(&g);
    return failed;
}
