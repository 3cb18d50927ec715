/* Visible escapes (escape.h). */
#include "escape.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bytes of the valid UTF-8 character of two bytes or more at s (no overlong form, no
 * surrogate, nothing past U+10FFFF); 0 if there is none there. Its code point in *cp. */
static size_t utf8_char(const unsigned char *s, unsigned *cp)
{
    size_t n = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
    if (!n || s[0] > 0xf4)
        return 0;
    unsigned v = s[0] & (0x7f >> n);
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0; /* a NUL ends the text here too */
        v = v << 6 | (s[i] & 0x3f);
    }
    static const unsigned least[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (v < least[n] || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
        return 0;
    *cp = v;
    return n;
}

char *escape_visible(const char *text)
{
    /* At most 6 bytes for each byte of text ("\u009b" for two of them, "\xff" for one). */
    size_t len = strlen(text);
    char *out = malloc(4 * len + 1), *o = out;
    if (!out)
        return NULL;
    const unsigned char *s = (const unsigned char *)text;
    while (*s) {
        unsigned cp;
        size_t n = *s >= 0x80 ? utf8_char(s, &cp) : 0;
        static const char named[] = "\033e\nn\rr\tt";
        const char *name = *s && *s < 0x20 ? memchr(named, *s, sizeof named - 1) : NULL;
        if (*s == '\\') {
            o += sprintf(o, "\\\\");
            s++;
        } else if (name && (name - named) % 2 == 0) {
            o += sprintf(o, "\\%c", name[1]);
            s++;
        } else if (*s < 0x20 || *s == 0x7f || (*s >= 0x80 && !n)) {
            o += sprintf(o, "\\x%02x", *s);
            s++;
        } else if (n && cp <= 0x9f) {
            o += sprintf(o, "\\u%04x", cp);
            s += n;
        } else {
            size_t k = n ? n : 1;
            memcpy(o, s, k);
            o += k;
            s += k;
        }
    }
    *o = 0;
    return out;
}
