/* Private to engine/platform*.c. */
#ifndef SITU_PLATFORM_INTERNAL_H
#define SITU_PLATFORM_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

/* XML's blanks, the only text SimGrid accepts between elements. */
static inline bool platform_blank(int c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* The prolog of buf (the whole file): 0, or -1 with "path: reason" in err. */
int platform_check_prolog(const char *path, const char *buf, size_t len, char *err, size_t errlen);

/* Character references between elements, which SimGrid refuses: 0, or -1 with
 * "path:line: reason" in err. */
int platform_check_references(const char *path, const char *buf, size_t len, char *err,
                              size_t errlen);

#endif
