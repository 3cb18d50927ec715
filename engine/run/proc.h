/* A child process on a libuv loop (neovim's process wrapper): started by the process module
 * (engine/base/child.h: fork and exec, its own group, death with us), its stdout and stderr
 * read as they come, its time limit, its reaping, and its end said once, whole. The runner's
 * simulations and the explorer's Lua helpers are all children of this kind.
 *
 * Its stdout either streams to on_out as it arrives (out_max 0), or is kept whole, up to
 * out_max bytes (more: it is killed, "overflow"). Its stderr is kept for the reason
 * (child_reason). on_exit runs once it has been reaped and both pipes have closed, so nothing
 * it wrote is lost; then the proc is gone. proc_close forgets it: killed if it runs, no callback
 * after, freed once its handles have closed. Callbacks run on the loop's thread. */
#ifndef SITU_PROC_H
#define SITU_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <uv.h>

#include "../base/child.h"

struct proc_end {
    int status; /* the wait status */
    bool timed_out, overflow;
    double limit;    /* the time limit it had, seconds (0: none) */
    const char *out; /* what it printed (out_max > 0), NUL-terminated; "" otherwise */
    size_t out_len;
    const struct child_err *err; /* its stderr: child_reason reads it */
    double secs;                 /* from its start to its end */
};

struct proc_cbs {
    void (*on_out)(void *ud, const char *buf, size_t n);
    void (*on_exit)(void *ud, const struct proc_end *end);
    void *ud;
};

struct proc_opts {
    struct child_spec spec; /* out and err are pipes whatever they say */
    double time_limit;      /* seconds, counted from proc_start (or proc_limit); <= 0 none */
    size_t out_max;         /* > 0: stdout kept whole, up to this */
};

struct proc;

/* NULL with why ("cannot start PROGRAM: reason"). */
struct proc *proc_start(uv_loop_t *loop, const struct proc_opts *o, const struct proc_cbs *cbs,
                        char *why, size_t len);

/* Hands it to someone else: the callbacks change, and its time limit starts now (the runner's
 * ready child, started ahead and given its job later). */
void proc_hand_over(struct proc *p, const struct proc_cbs *cbs, double time_limit);

/* Writes n bytes (copied) to its stdin, a pipe. -1 if it cannot (its end says why). */
int proc_write(struct proc *p, const void *buf, size_t n);

/* Closes its stdin once what was written has gone: it sees EOF. */
void proc_close_in(struct proc *p);

/* SIGKILL to its process group; on_exit follows. */
void proc_kill(struct proc *p);

/* True once it has been reaped (on_exit may still be waiting for its pipes). */
bool proc_exited(const struct proc *p);

/* Its pid (the leader of its group). */
int proc_pid(const struct proc *p);

/* Forgets p: kills it if it runs, no more callbacks, freed once its handles have closed. */
void proc_close(struct proc *p);

#endif
