#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct proc {
    uv_process_t proc;
    uv_pipe_t in, out, err;
    struct proc_cbs cbs;
    bool exited, closed; /* closed: proc_close was called, no more callbacks */
    int open;            /* handles not closed yet */
    char out_buf[65536];
    char err_tail[PROC_ERR_TAIL];
    size_t err_len;
};

static void handle_closed(uv_handle_t *h)
{
    struct proc *p = h->data;
    if (--p->open == 0)
        free(p);
}

static void close_pipes(struct proc *p)
{
    uv_close((uv_handle_t *)&p->in, handle_closed);
    uv_close((uv_handle_t *)&p->out, handle_closed);
    uv_close((uv_handle_t *)&p->err, handle_closed);
}

static void alloc_cb(uv_handle_t *h, size_t suggested, uv_buf_t *buf);
static void on_out(uv_stream_t *s, ssize_t n, const uv_buf_t *buf);
static void on_err(uv_stream_t *s, ssize_t n, const uv_buf_t *buf);

/* What the child wrote just before it exited may not have been read yet: read it now, before
 * on_exit closes the pipes, so that its output (a lesson handed over, its last line) arrives
 * whole. The child is gone; a bounded number of reads stops at once at an empty pipe
 * (non-blocking) or at one something it left behind keeps writing to. */
static void drain(uv_pipe_t *pipe, uv_read_cb cb)
{
    uv_os_fd_t fd;
    if (uv_fileno((uv_handle_t *)pipe, &fd) < 0 ||
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) < 0)
        return;
    for (int k = 0; k < 1024; k++) {
        uv_buf_t b;
        alloc_cb((uv_handle_t *)pipe, 65536, &b);
        ssize_t n = read(fd, b.base, b.len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return;
        cb((uv_stream_t *)pipe, n, &b);
    }
}

static void on_exit_cb(uv_process_t *h, int64_t status, int sig)
{
    struct proc *p = h->data;
    p->exited = true;
    uv_close((uv_handle_t *)h, handle_closed);
    if (p->closed)
        return;
    drain(&p->out, on_out);
    drain(&p->err, on_err);
    p->closed = true; /* one on_exit, then nothing */
    close_pipes(p);
    if (p->cbs.on_exit)
        p->cbs.on_exit(p->cbs.ud, sig ? 128 + sig : (int)status, p->err_tail);
}

static void alloc_cb(uv_handle_t *h, size_t suggested, uv_buf_t *buf)
{
    struct proc *p = h->data;
    (void)suggested;
    if (h == (uv_handle_t *)&p->err) {
        if (p->err_len + 1 >= sizeof p->err_tail) { /* keep the newer half */
            size_t keep = p->err_len / 2;
            memmove(p->err_tail, p->err_tail + p->err_len - keep, keep);
            p->err_len = keep;
        }
        *buf =
            uv_buf_init(p->err_tail + p->err_len, (unsigned)(sizeof p->err_tail - 1 - p->err_len));
    } else {
        *buf = uv_buf_init(p->out_buf, sizeof p->out_buf);
    }
}

static void on_err(uv_stream_t *s, ssize_t n, const uv_buf_t *buf)
{
    struct proc *p = s->data;
    (void)buf;
    if (n > 0) {
        p->err_len += (size_t)n;
        p->err_tail[p->err_len] = 0;
    } else if (n < 0) {
        uv_read_stop(s);
    }
}

static void on_out(uv_stream_t *s, ssize_t n, const uv_buf_t *buf)
{
    struct proc *p = s->data;
    if (n < 0) {
        uv_read_stop(s);
        return;
    }
    if (n > 0 && !p->closed && p->cbs.on_out)
        p->cbs.on_out(p->cbs.ud, buf->base, (size_t)n);
}

struct proc *proc_start(uv_loop_t *loop, const char *const *args, const struct proc_cbs *cbs,
                        char *err, size_t errlen)
{
    struct proc *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    p->cbs = *cbs;
    char *argv[32];
    int n = 0;
    argv[n++] = "/proc/self/exe";
    for (; args[n - 1] && n < 31; n++)
        argv[n] = (char *)args[n - 1];
    argv[n] = NULL;
    uv_pipe_init(loop, &p->in, 0);
    uv_pipe_init(loop, &p->out, 0);
    uv_pipe_init(loop, &p->err, 0);
    p->in.data = p->out.data = p->err.data = p->proc.data = p;
    p->open = 4;
    uv_stdio_container_t stdio[3] = {
        {.flags = UV_CREATE_PIPE | UV_READABLE_PIPE, .data.stream = (uv_stream_t *)&p->in},
        {.flags = UV_CREATE_PIPE | UV_WRITABLE_PIPE, .data.stream = (uv_stream_t *)&p->out},
        {.flags = UV_CREATE_PIPE | UV_WRITABLE_PIPE, .data.stream = (uv_stream_t *)&p->err},
    };
    uv_process_options_t po = {
        .exit_cb = on_exit_cb,
        .file = argv[0],
        .args = argv,
        .stdio = stdio,
        .stdio_count = 3,
        .flags = UV_PROCESS_DETACHED, /* no terminal of ours to touch; one group to kill */
    };
    int rc = uv_spawn(loop, &p->proc, &po);
    if (rc < 0) {
        snprintf(err, errlen, "cannot start a helper process: %s", uv_strerror(rc));
        p->closed = p->exited = true;
        close_pipes(p);
        uv_close((uv_handle_t *)&p->proc, handle_closed);
        return NULL;
    }
    uv_read_start((uv_stream_t *)&p->out, alloc_cb, on_out);
    uv_read_start((uv_stream_t *)&p->err, alloc_cb, on_err);
    return p;
}

static void on_written(uv_write_t *w, int status)
{
    (void)status; /* a child gone before reading: on_exit says so */
    free(w);
}

int proc_write(struct proc *p, const void *buf, size_t n)
{
    if (p->closed)
        return -1;
    uv_write_t *w = malloc(sizeof *w + n); /* the request and its bytes, freed together */
    if (!w)
        return -1;
    memcpy(w + 1, buf, n);
    uv_buf_t b = uv_buf_init((char *)(w + 1), (unsigned)n);
    if (uv_write(w, (uv_stream_t *)&p->in, &b, 1, on_written) < 0) {
        free(w);
        return -1;
    }
    return 0;
}

void proc_last_line(const char *err_tail, char *out, size_t len)
{
    const char *line = err_tail, *nl;
    while ((nl = strchr(line, '\n')) && nl[1])
        line = nl + 1;
    int n = (nl = strchr(line, '\n')) ? (int)(nl - line) : (int)strlen(line);
    if (!strncmp(line, "situ: ", 6)) {
        line += 6;
        n -= 6;
    }
    snprintf(out, len, "%.*s", n, line);
}

void proc_kill(struct proc *p)
{
    if (!p->exited)
        uv_kill(-p->proc.pid, SIGKILL); /* its group: anything it started goes too */
}

void proc_close(struct proc *p)
{
    if (!p)
        return;
    proc_kill(p);
    if (!p->closed) {
        p->closed = true;
        close_pipes(p);
    }
}
