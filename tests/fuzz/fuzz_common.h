/* Helpers shared by the libFuzzer targets (tests/fuzz/fuzz_*.c): an in-memory file that the code
 * under test opens by path, and the invariants every error message must keep. */
#ifndef SITU_FUZZ_COMMON_H
#define SITU_FUZZ_COMMON_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef SITU_SRCDIR
#define SITU_SRCDIR "."
#endif

/* One memfd per process, rewritten for each input; its /proc path is a regular file that stat,
 * fopen and libxml2 read like any other. */
static inline const char *fuzz_file(const uint8_t *data, size_t size)
{
    static int fd = -1;
    static char path[64];
    if (fd < 0) {
        fd = memfd_create("situ-fuzz", 0);
        if (fd < 0) {
            perror("memfd_create");
            abort();
        }
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    }
    if (ftruncate(fd, 0) < 0 || (size && pwrite(fd, data, size, 0) != (ssize_t)size)) {
        perror("memfd write");
        abort();
    }
    return path;
}

/* A copy of the input as a C string (NUL-terminated; embedded NULs stay and end it early). */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        abort();
    memcpy(s, data, size);
    s[size] = 0;
    return s;
}

/* Every error a user sees is one non-empty line that fits its buffer. */
static inline void fuzz_check_error(const char *err, size_t cap, const char *what)
{
    size_t n = strnlen(err, cap);
    if (n == 0 || n == cap || memchr(err, '\n', n)) {
        fprintf(stderr, "%s: bad error message (%zu bytes): '%.*s'\n", what, n, (int)n, err);
        abort();
    }
}

#define FUZZ_ASSERT(cond, ...)                                                                     \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "fuzz: %s:%d: %s: ", __FILE__, __LINE__, #cond);                       \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

#endif
