/* The prolog of a platform file as SimGrid 3.32's generated (FleXML) scanner reads it, which is
 * stricter than libxml2: the XML declaration's form, the DOCTYPE SimGrid requires, no byte-order
 * mark, and only literal blanks between elements. */
#include "platform_internal.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* "path: message"; returns -1. */
__attribute__((format(printf, 4, 5))) static int refuse(const char *path, char *err, size_t errlen,
                                                        const char *fmt, ...)
{
    int k = snprintf(err, errlen, "%s: ", path);
    if (k >= 0 && (size_t)k < errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err + k, errlen - k, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static const char *skip_blanks(const char *s, const char *e)
{
    while (s < e && platform_blank(*s))
        s++;
    return s;
}

static bool at(const char *s, const char *e, const char *lit)
{
    size_t n = strlen(lit);
    return (size_t)(e - s) >= n && !memcmp(s, lit, n);
}

/* A quoted literal at s: its end (after the closing quote), or NULL. When `only` is set, every
 * character must be in it. */
static const char *quoted(const char *s, const char *e, const char *only)
{
    if (s >= e || (*s != '"' && *s != '\''))
        return NULL;
    char q = *s++;
    const char *start = s;
    while (s < e && *s != q && (!only || (*s && strchr(only, *s))))
        s++;
    return s < e && *s == q && (!only || s > start) ? s + 1 : NULL;
}

/* name = 'value' with blanks around "=": the end, or NULL. */
static const char *decl_attribute(const char *s, const char *e, const char *name, const char *only)
{
    if (!at(s, e, name))
        return NULL;
    s = skip_blanks(s + strlen(name), e);
    if (s >= e || *s != '=')
        return NULL;
    return quoted(skip_blanks(s + 1, e), e, only);
}

/* <?xml version="1.0" encoding="UTF-8"?>: nothing else, and no blank before "?>". */
static const char *xml_declaration(const char *s, const char *e)
{
    const char *p = s + 5, *q;
    q = skip_blanks(p, e);
    if (q > p && (q = decl_attribute(q, e, "version",
                                     "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                     "0123456789_.:-")))
        p = q;
    q = skip_blanks(p, e);
    if (q > p && (q = decl_attribute(q, e, "encoding", NULL)))
        p = q;
    return at(p, e, "?>") ? p + 2 : NULL;
}

/* Blanks, comments and processing instructions; NULL if one is not closed. Before the XML
 * declaration (decl_seen false), SimGrid takes any "<?xml..." for a bad declaration. */
static const char *skip_misc(const char *s, const char *e, bool decl_seen, bool *bad_decl)
{
    for (;;) {
        s = skip_blanks(s, e);
        const char *close = NULL;
        if (at(s, e, "<!--"))
            close = "-->";
        else if (at(s, e, "<?"))
            close = "?>";
        if (!close)
            return s;
        if (!decl_seen && at(s, e, "<?xml"))
            *bad_decl = true;
        const char *p = s + 2;
        while (p < e && !at(p, e, close))
            p++;
        if (p >= e)
            return NULL;
        s = p + strlen(close);
    }
}

int platform_check_prolog(const char *path, const char *buf, size_t len, char *err, size_t errlen)
{
    static const char *const sysids[] = {"https://simgrid.org/simgrid.dtd",
                                         "http://simgrid.gforge.inria.fr/simgrid/simgrid.dtd"};
    const char *s = buf, *e = buf + len;
    bool bad_decl = false, decl_seen = at(s, e, "<?xml");
    if (at(s, e, "\xEF\xBB\xBF"))
        return refuse(path, err, errlen,
                      "starts with a byte-order mark, which SimGrid 3.32 does not read");
    if (decl_seen && !(s = xml_declaration(s, e)))
        bad_decl = true;
    if (s && !(s = skip_misc(s, e, decl_seen, &bad_decl)))
        return 0; /* an unclosed comment: libxml2 has refused the file already */
    if (bad_decl)
        return refuse(path, err, errlen,
                      "SimGrid 3.32 reads only <?xml version=\"1.0\" encoding=\"...\"?> as the XML "
                      "declaration (no standalone, no blank before \"?>\")");
    bool ok = at(s, e, "<!DOCTYPE");
    const char *p = ok ? s + 9 : s;
    if (ok && (ok = skip_blanks(p, e) > p))
        ok = at(p = skip_blanks(p, e), e, "platform");
    if (ok && (ok = skip_blanks(p + 8, e) > p + 8))
        ok = at(p = skip_blanks(p + 8, e), e, "SYSTEM");
    if (ok && (ok = skip_blanks(p + 6, e) > p + 6)) {
        p = skip_blanks(p + 6, e);
        ok = false;
        for (size_t i = 0; i < 2 && !ok; i++) {
            size_t n = strlen(sysids[i]);
            ok = (size_t)(e - p) >= n + 2 && (*p == '"' || *p == '\'') &&
                 !memcmp(p + 1, sysids[i], n) && p[n + 1] == *p;
            if (ok)
                p += n + 2;
        }
    }
    if (ok)
        ok = at(p = skip_blanks(p, e), e, ">");
    if (!ok)
        return refuse(path, err, errlen,
                      "expected <!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\"> "
                      "before <platform> (SimGrid 3.32 requires it)");
    return 0;
}

/* Between elements SimGrid accepts literal blanks only: not "&#32;", which libxml2 turns into a
 * blank like any other. Text that is not blank is refused on the tree already. */
int platform_check_references(const char *path, const char *buf, size_t len, char *err,
                              size_t errlen)
{
    const char *s = buf, *e = buf + len;
    long line = 1;
    while (s < e) {
        const char *close = NULL;
        if (at(s, e, "<!--"))
            close = "-->";
        else if (at(s, e, "<?"))
            close = "?>";
        else if (at(s, e, "<![CDATA["))
            close = "]]>";
        else if (*s == '<')
            close = ">";
        if (close) { /* a comment, PI, CDATA, declaration or tag: quotes may hold '>' in a tag */
            char quote = 0;
            bool tag = !strcmp(close, ">");
            for (s++; s < e && (quote || !at(s, e, close)); s++) {
                line += *s == '\n';
                if (tag && (*s == '"' || *s == '\''))
                    quote = quote == *s ? 0 : quote ? quote : *s;
            }
            s += strlen(close);
            continue;
        }
        if (*s == '&') {
            snprintf(err, errlen,
                     "%s:%ld: a character reference between elements: SimGrid accepts only "
                     "literal blanks there",
                     path, line);
            return -1;
        }
        line += *s++ == '\n';
    }
    return 0;
}
