/* Reading the user's files (infile.h). */
#include "infile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *kind_of(mode_t m)
{
    if (S_ISDIR(m))
        return "a directory";
    if (S_ISFIFO(m))
        return "a FIFO";
    if (S_ISCHR(m))
        return "a character device";
    if (S_ISBLK(m))
        return "a block device";
    if (S_ISSOCK(m))
        return "a socket";
    return "not a file";
}

static void size_text(off_t n, char *buf, size_t len)
{
    if (n >= (1 << 20) && n % (1 << 20) == 0)
        snprintf(buf, len, "%lld MiB", (long long)(n >> 20));
    else
        snprintf(buf, len, "%lld bytes", (long long)n);
}

/* The descriptor of a regular file of at most max_bytes, blocking again; -1 with err. */
static int open_regular(const char *path, const char *what, off_t max_bytes, char *err,
                        size_t errlen)
{
    /* O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer, for ever. */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) < 0) {
        snprintf(err, errlen, "%s: cannot read %s: %s", path, what, strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "%s: cannot read %s: %s, not a regular file", path, what,
                 kind_of(st.st_mode));
        close(fd);
        return -1;
    }
    if (max_bytes > 0 && st.st_size > max_bytes) {
        char size[32];
        size_text(max_bytes, size, sizeof size);
        snprintf(err, errlen, "%s: cannot read %s: larger than %s", path, what, size);
        close(fd);
        return -1;
    }
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0) {
        snprintf(err, errlen, "%s: cannot read %s: %s", path, what, strerror(errno));
        close(fd);
        return -1;
    }
    return fd;
}

FILE *infile_open(const char *path, const char *what, off_t max_bytes, char *err, size_t errlen)
{
    int fd = open_regular(path, what, max_bytes, err, errlen);
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, "r");
    if (!f) {
        snprintf(err, errlen, "%s: cannot read %s: %s", path, what, strerror(errno));
        close(fd);
    }
    return f;
}

int infile_check(const char *path, const char *what, off_t max_bytes, char *err, size_t errlen)
{
    int fd = open_regular(path, what, max_bytes, err, errlen);
    if (fd < 0)
        return -1;
    close(fd);
    return 0;
}

int infile_read(const char *path, const char *what, size_t max_bytes, char **buf, size_t *len,
                char *err, size_t errlen)
{
    *buf = NULL;
    *len = 0;
    int fd = open_regular(path, what, (off_t)max_bytes, err, errlen);
    if (fd < 0)
        return -1;
    /* Read to the end, not to the size fstat said: a file may grow while it is read (never past
     * the bound, though). */
    size_t cap = 0, n = 0;
    char *b = NULL;
    for (;;) {
        if (n + 65536 + 1 > cap) {
            size_t want = cap ? 2 * cap : 65536 + 1;
            char *grown = realloc(b, want);
            if (!grown) {
                snprintf(err, errlen, "%s: cannot read %s: out of memory", path, what);
                break;
            }
            b = grown;
            cap = want;
        }
        ssize_t got = read(fd, b + n, 65536);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            snprintf(err, errlen, "%s: cannot read %s: %s", path, what, strerror(errno));
            break;
        }
        if (got == 0) {
            close(fd);
            b[n] = 0;
            *buf = b;
            *len = n;
            return 0;
        }
        n += (size_t)got;
        if (n > max_bytes) {
            char size[32];
            size_text((off_t)max_bytes, size, sizeof size);
            snprintf(err, errlen, "%s: cannot read %s: larger than %s", path, what, size);
            break;
        }
    }
    close(fd);
    free(b);
    return -1;
}

long infile_line(FILE *f, char **line, size_t *cap, size_t max)
{
    size_t n = 0;
    for (;;) {
        int c = getc(f);
        if (c == EOF)
            break;
        if (n + 2 > *cap) {
            size_t want = *cap ? 2 * *cap : 256;
            char *grown = realloc(*line, want);
            if (!grown)
                return -2; /* as good as too long: nothing more of it can be held */
            *line = grown;
            *cap = want;
        }
        (*line)[n++] = (char)c;
        if (c == '\n')
            break;
        if (n > max)
            return -2;
    }
    if (n == 0)
        return -1;
    (*line)[n] = 0;
    return (long)n;
}
