/* One child process of the explorer (neovim's process wrapper): this binary with arguments, in
 * its own session, its stdin, stdout and stderr on pipes. Its stdout reaches on_out as it
 * arrives, all of it before on_exit; the tail of its stderr is kept for on_exit, which runs once
 * it has been reaped (the reason it died: a watchdog's line, say). proc_close kills it if it
 * runs and frees everything once its handles are closed; no callback runs after it. Callbacks
 * run on the loop thread. */
#ifndef SITU_TUI_PROC_H
#define SITU_TUI_PROC_H

#include <stddef.h>
#include <uv.h>

#define PROC_ERR_TAIL 1024

struct proc_cbs {
    void (*on_out)(void *ud, const char *buf, size_t n);
    /* status: the exit status, or 128 + the signal that killed it; err_tail: its last stderr */
    void (*on_exit)(void *ud, int status, const char *err_tail);
    void *ud;
};

struct proc;

/* Starts /proc/self/exe with args (NULL-terminated, without argv[0]). NULL with a reason. */
struct proc *proc_start(uv_loop_t *loop, const char *const *args, const struct proc_cbs *cbs,
                        char *err, size_t errlen);

/* Writes n bytes (copied) to its stdin. -1 if it cannot (it died: on_exit will say). */
int proc_write(struct proc *p, const void *buf, size_t n);

/* SIGKILL (to its process group); on_exit follows. */
void proc_kill(struct proc *p);

/* The last line of err_tail without its "situ: " (the child's one-line reason, as the watchdog
 * writes it) into out; "" if it said nothing. */
void proc_last_line(const char *err_tail, char *out, size_t len);

/* Forgets p: kills it if it runs, no more callbacks, freed when its handles are closed. */
void proc_close(struct proc *p);

#endif
