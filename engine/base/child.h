/* The process module: every child process of Situ starts here, and only here
 * (tools/check-forks.py holds the tree to it). A child is always a fork and an exec, of this
 * binary or the simulation helper, never a copy of us that goes on running our code: after
 * fork() only the forking thread exists in the copy, and any lock another thread held then (the
 * allocator's, stdio's, libuv's) stays held in it for ever. Between the two only
 * async-signal-safe calls run, so a process with threads may start children too.
 *
 * What every child gets: its own process group (one kill(-pid) takes whatever it starts),
 * death with its parent (PR_SET_PDEATHSIG, even a SIGKILLed one), default signal dispositions
 * and mask but a TERM, INT, HUP or PIPE the parent ignored stays ignored (nohup), and no
 * descriptor of ours but the ones it is given. What every caller gets: the same pipes, the
 * same registry of live children that a fatal-signal handler kills, the same reading of its
 * stderr into one line (child_reason) and the same words for its end (child_end_line).
 *
 * The explorer's and the runner's children are read on a libuv loop (engine/run/proc.h); the
 * digest and the lesson check wait for theirs (child_wait). */
#ifndef SITU_CHILD_H
#define SITU_CHILD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* For child_spec's in, out and err: a descriptor of ours (>= 0) is handed over as it is. */
#define CHILD_NULL (-1) /* /dev/null */
#define CHILD_PIPE (-2) /* a pipe whose other end is ours (struct child) */

#define CHILD_KEEP_MAX    2
#define CHILD_KEEP_AT_MAX 9 /* a kept descriptor's number in the child: 3 to this */

struct child_spec {
    char *const *argv; /* argv[0] a path (no PATH search), NULL-terminated */
    int in, out, err;  /* CHILD_NULL, CHILD_PIPE or a descriptor of ours */
    /* More descriptors of ours it keeps, each at its number `at` (> 2): SMPI's directory. */
    struct {
        int fd, at;
    } keep[CHILD_KEEP_MAX];
    int nkeep;
    /* Lives on when we die: only SMPI's warden, whose job is to clean up after its caller. */
    bool outlive_parent;
    /* > 0: its group runs at this niceness (background work below an interactive parent). */
    int nice;
};

struct child {
    pid_t pid;        /* the leader of its own group; 0 once reaped */
    int in, out, err; /* our ends of its pipes, -1 where it has none */
    int slot;         /* in the registry of live children */
};

/* Starts s->argv[0]. 0, or -1 with why ("cannot start PROGRAM: reason") and nothing left open.
 * An exec that fails in the child says so on its stderr ("situ: cannot run PROGRAM: ...") and
 * exits 127. */
int child_start(struct child *c, const struct child_spec *s, char *why, size_t len);

/* SIGKILL to its process group, until it is reaped (its pid may be another's after). */
void child_kill(const struct child *c);

/* waitpid for it: 1 when it has ended (*status its wait status; its group is killed, it leaves
 * the registry), 0 while it runs (block false), -1 on error. */
int child_reap(struct child *c, bool block, int *status);

/* Closes our ends of its pipes that are still open. */
void child_close_pipes(struct child *c);

/* From a fatal-signal handler: SIGKILLs every live child's group and reaps it. */
void child_kill_all_signal_safe(void);

/* ---- what it says: its stderr kept, and the one line that tells why it ended ------------ */

/* Its stderr, head and tail: SimGrid's message comes first and its backtrace after, our own
 * verdict last. */
#define CHILD_ERR_HEAD 8192
#define CHILD_ERR_KEEP 16384
struct child_err {
    char text[CHILD_ERR_KEEP + 1];
    size_t len;
    bool cut; /* bytes between the head and the tail were dropped */
};
void child_err_feed(struct child_err *e, const char *buf, size_t n);

/* The most telling line of a child's stderr, on one line: SimGrid's logged ERROR or CRITICAL
 * message (its "[clock] [category/LEVEL] " and "Uncaught exception ... by ACTOR: " go, its
 * continuation lines join), unless our own "situ: " verdict follows it; else the last line that
 * says something. Backtraces, blank lines and "Exiting now." never. "" if nothing. */
void child_reason(const struct child_err *e, char *out, size_t len);

/* How it ended, for a wait status: "WHAT timed out after S s (the time limit)", "WHAT printed
 * more than N bytes (killed)", "WHAT crashed (Signal): reason", "WHAT failed (exit N): reason".
 * "" when it exited 0 (and neither flag). */
void child_end_line(const char *what, int status, bool timed_out, double limit, bool overflow,
                    size_t out_max, const char *reason, char *out, size_t len);

/* ---- waiting for one child, for callers without a loop --------------------------------- */

struct child_wait {
    double limit;   /* seconds; past it its group is killed (timed_out) */
    size_t out_max; /* more stdout than this: killed (overflow) */
    char *out;      /* its stdout, NUL-terminated (malloc'd; the caller frees it) */
    size_t out_len;
    struct child_err err;
    int status; /* its wait status */
    bool timed_out, overflow;
};

/* Reads c's stdout and stderr until both close and it has ended, or the limit: then its group
 * is killed. Always reaps it and closes its pipes. 0, or -1 when its stdout could not be kept
 * (no memory: overflow). */
int child_wait(struct child *c, struct child_wait *w);

/* How many threads this process has now (/proc/self/task); 0 when it cannot tell. */
int child_threads(void);

#endif
