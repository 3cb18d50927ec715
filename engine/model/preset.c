#include "preset.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <stdbool.h>
#include <sys/stat.h>

#include "../base/datadir.h"
#include "../base/infile.h"
#include "../base/outfile.h"

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

static void available(char *buf, size_t len)
{
    char names[32][PRESET_NAME_MAX];
    int n = preset_list(names, 32);
    size_t used = 0;
    buf[0] = 0;
    for (int i = 0; i < n && i < 32 && used < len; i++)
        used += snprintf(buf + used, len - used, "%s%s", i ? ", " : "", names[i]);
    if (n == 0)
        snprintf(buf, len, "none installed");
}

int preset_path(const char *name, char *out, size_t len, char *err, size_t errlen)
{
    if (!name[0]) {
        snprintf(err, errlen, "preset: expected a name");
        return -1;
    }
    /* A path or a file name is taken as given; a bare name is looked up in presets/. */
    if (strchr(name, '/') || ends_with(name, ".conf")) {
        if (datadir_resolve(name, out, len) == 0)
            return 0;
        snprintf(err, errlen, "preset: cannot read '%.200s': no such file", name);
        return -1;
    }
    char rel[PRESET_NAME_MAX + 16];
    if (strlen(name) >= PRESET_NAME_MAX) {
        snprintf(err, errlen, "preset: name '%.40s...' is too long", name);
        return -1;
    }
    snprintf(rel, sizeof rel, "presets/%s.conf", name);
    if (datadir_resolve(rel, out, len) == 0)
        return 0;
    /* The user's own, saved from the explorer: after the installed ones, which they cannot
     * shadow (preset_save refuses their names). */
    char dir[PATH_MAX], path[PATH_MAX + PRESET_NAME_MAX + 8];
    struct stat st;
    if (preset_user_dir(dir, sizeof dir) == 0) {
        snprintf(path, sizeof path, "%s/%s.conf", dir, name);
        if (stat(path, &st) == 0 && strlen(path) < len) {
            snprintf(out, len, "%s", path);
            return 0;
        }
    }
    char list[256];
    available(list, sizeof list);
    snprintf(err, errlen, "preset: no preset '%s' (available: %s)", name, list);
    return -1;
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    char *end = s + strlen(s);
    while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\n' || end[-1] == '\r'))
        *--end = 0;
    return s;
}

static bool needs_quotes(const char *v)
{
    size_t n = strlen(v);
    if (!n || v[0] == ' ' || v[0] == '\t' || v[n - 1] == ' ' || v[n - 1] == '\t')
        return true;
    for (const unsigned char *c = (const unsigned char *)v; *c; c++)
        if (*c == '#' || *c == '"' || *c == '\\' || *c < 0x20 || *c == 0x7f)
            return true;
    return false;
}

int preset_quote(const char *value, char *out, size_t len)
{
    if (!needs_quotes(value))
        return snprintf(out, len, "%s", value) < (int)len ? 0 : -1;
    size_t used = 0;
    /* Room for the widest escape and the closing quote, checked before each byte. */
    if (len < 2)
        return -1;
    out[used++] = '"';
    for (const unsigned char *c = (const unsigned char *)value; *c; c++) {
        if (used + 6 > len)
            return -1;
        const char *esc = *c == '"'    ? "\\\""
                          : *c == '\\' ? "\\\\"
                          : *c == '\n' ? "\\n"
                          : *c == '\r' ? "\\r"
                          : *c == '\t' ? "\\t"
                                       : NULL;
        if (esc)
            used += (size_t)snprintf(out + used, len - used, "%s", esc);
        else if (*c < 0x20 || *c == 0x7f)
            used += (size_t)snprintf(out + used, len - used, "\\x%02x", *c);
        else
            out[used++] = (char)*c;
    }
    out[used++] = '"';
    out[used] = 0;
    return 0;
}

static int hex_digit(char c)
{
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

int preset_unquote(const char *text, char *out, size_t len, char *why, size_t whylen)
{
    while (*text == ' ' || *text == '\t')
        text++;
    size_t used = 0;
    if (*text != '"') { /* bare: up to a comment, blanks at either end off */
        size_t n = strcspn(text, "#");
        while (n > 0 && strchr(" \t\r\n", text[n - 1]))
            n--;
        if (n >= len) {
            snprintf(why, whylen, "the value is longer than %zu bytes", len - 1);
            return -1;
        }
        memcpy(out, text, n);
        out[n] = 0;
        return 0;
    }
    const char *c = text + 1;
    for (; *c && *c != '"'; c++) {
        char b = *c;
        if (b == '\n' || b == '\r')
            break; /* the line ended inside the quotes */
        if (b == '\\') {
            c++;
            int hi, lo;
            b = *c == 'n' ? '\n' : *c == 'r' ? '\r' : *c == 't' ? '\t' : *c;
            if (*c == 'x' && (hi = hex_digit(c[1])) >= 0 && (lo = hex_digit(c[2])) >= 0 &&
                (hi || lo)) {
                b = (char)(hi * 16 + lo);
                c += 2;
            } else if (!strchr("nrt\"\\", *c) || !*c) {
                snprintf(why, whylen,
                         "unknown escape '\\%c' in a quoted value (\\\" \\\\ \\n \\r \\t \\xHH)",
                         *c > ' ' && *c < 0x7f ? *c : '?');
                return -1;
            }
        }
        if (used + 1 >= len) {
            snprintf(why, whylen, "the value is longer than %zu bytes", len - 1);
            return -1;
        }
        out[used++] = b;
    }
    out[used] = 0;
    if (*c != '"') {
        snprintf(why, whylen, "a quoted value without its closing quote");
        return -1;
    }
    for (c++; *c == ' ' || *c == '\t' || *c == '\r' || *c == '\n'; c++)
        ;
    if (*c && *c != '#') {
        snprintf(why, whylen, "text after the closing quote: '%.20s'", c);
        return -1;
    }
    return 0;
}

int preset_apply(const char *name, struct params *p, char *err, size_t errlen)
{
    return preset_read(name, p, NULL, NULL, err, errlen);
}

int preset_read(const char *name, struct params *p, preset_axis_cb on_axis, void *ud, char *err,
                size_t errlen)
{
    char path[PARAMS_PATH_MAX];
    if (preset_path(name, path, sizeof path, err, errlen) < 0)
        return -1;
    FILE *f = infile_open(path, "preset", 0, err, errlen);
    if (!f)
        return -1;
    struct params next = *p;
    char line[PRESET_QUOTED_MAX + 256], perr[PARAMS_ERR_MAX], value[PRESET_QUOTED_MAX];
    int lineno = 0, rc = 0, given_at[PARAM_MAX] = {0};
    while (rc == 0 && fgets(line, sizeof line, f)) {
        lineno++;
        /* A longer line would be read as two, its tail as a line of its own. */
        if (!strchr(line, '\n') && !feof(f)) {
            snprintf(err, errlen, "%s:%d: line longer than %zu bytes", path, lineno,
                     sizeof line - 2);
            rc = -1;
            break;
        }
        /* A '#' before the '=' starts a comment; after it, the value's quoting says
         * (preset_unquote): a '#' inside quotes is the value's. */
        char *s = line, *eq = strchr(line, '='), *hash = strchr(line, '#');
        if (hash && (!eq || hash < eq))
            *hash = 0, eq = NULL;
        s = trim(s);
        if (!*s)
            continue;
        if (!eq) {
            snprintf(err, errlen, "%s:%d: expected 'key = value', got '%.60s'", path, lineno, s);
            rc = -1;
            break;
        }
        *eq = 0;
        char *key = trim(s), why[128];
        if (!strncmp(key, "sweep.", 6)) {
            /* A study's axis: single-configuration readers start from the base alone. Its
             * list is in the sweep's syntax (a value of it holds no comma, so it is never
             * quoted): the line up to a comment. */
            char aerr[PARAMS_ERR_MAX], *list = eq + 1, *hash = strchr(list, '#');
            if (hash)
                *hash = 0;
            if (on_axis && on_axis(ud, key + 6, trim(list), aerr, sizeof aerr) < 0) {
                snprintf(err, errlen, "%s:%d: %s", path, lineno, aerr);
                rc = -1;
            }
            continue;
        }
        int id = params_find(key);
        if (preset_unquote(eq + 1, value, sizeof value, why, sizeof why) < 0) {
            snprintf(err, errlen, "%s:%d: %.60s: %s", path, lineno, key, why);
            rc = -1;
        } else if (id < 0) {
            snprintf(err, errlen, "%s:%d: unknown parameter '%.60s'; see 'situ --help'", path,
                     lineno, key);
            rc = -1;
        } else if (given_at[id]) { /* in either spelling: which one was meant? */
            snprintf(err, errlen, "%s:%d: %s given twice (line %d too)", path, lineno,
                     param_table[id].key, given_at[id]);
            rc = -1;
        } else if ((given_at[id] = lineno, params_set(&next, id, value, perr) < 0)) {
            snprintf(err, errlen, "%s:%d: %s", path, lineno, perr);
            rc = -1;
        }
    }
    if (rc == 0 && ferror(f)) {
        snprintf(err, errlen, "preset: cannot read %s: %s", path, strerror(errno));
        rc = -1;
    }
    fclose(f);
    if (rc < 0)
        return -1;
    /* Data paths in a preset are relative to the data directories, like the CLI's. */
    char resolved[PARAMS_PATH_MAX];
    if (next.platform[0] && datadir_resolve(next.platform, resolved, sizeof resolved) == 0)
        snprintf(next.platform, sizeof next.platform, "%s", resolved);
    if (next.hostfile[0] && datadir_resolve(next.hostfile, resolved, sizeof resolved) == 0)
        snprintf(next.hostfile, sizeof next.hostfile, "%s", resolved);
    *p = next;
    return 0;
}

static int name_cmp(const void *a, const void *b)
{
    return strcmp(a, b);
}

int preset_user_dir(char *out, size_t len)
{
    const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
    int n;
    if (xdg && xdg[0] == '/') /* the XDG spec: a relative value is invalid, ignored */
        n = snprintf(out, len, "%s/situ/presets", xdg);
    else if (home && home[0])
        n = snprintf(out, len, "%s/.config/situ/presets", home);
    else
        return -1;
    return n < 0 || (size_t)n >= len ? -1 : 0;
}

int preset_list(char names[][PRESET_NAME_MAX], int max)
{
    int n = datadir_list("presets", ".conf", names, max);
    int kept = n < max ? n : max;
    char dir[PATH_MAX];
    if (preset_user_dir(dir, sizeof dir) < 0)
        return n;
    DIR *d = opendir(dir);
    if (!d)
        return n;
    for (struct dirent *e; (e = readdir(d));) {
        size_t l = strlen(e->d_name);
        if (e->d_name[0] == '.' || l <= 5 || strcmp(e->d_name + l - 5, ".conf") ||
            l - 5 >= PRESET_NAME_MAX)
            continue;
        char name[PRESET_NAME_MAX];
        snprintf(name, sizeof name, "%.*s", (int)(l - 5), e->d_name);
        bool dup = false;
        for (int i = 0; i < kept && !dup; i++)
            dup = !strcmp(names[i], name);
        if (dup)
            continue; /* an installed one of that name wins (preset_path) */
        if (kept < max)
            memcpy(names[kept++], name, sizeof name);
        n++;
    }
    closedir(d);
    qsort(names, (size_t)kept, PRESET_NAME_MAX, name_cmp);
    return n;
}

void preset_description(const char *name, char *out, size_t len)
{
    char path[PARAMS_PATH_MAX], err[PARAMS_ERR_MAX + 256], line[512];
    out[0] = 0;
    FILE *f = preset_path(name, path, sizeof path, err, sizeof err) == 0
                  ? infile_open(path, "preset", 0, err, sizeof err)
                  : NULL;
    if (!f)
        return;
    /* The comment lines the file starts with, joined: what the preset is for. */
    size_t used = 0;
    while (fgets(line, sizeof line, f) && line[0] == '#') {
        char *t = trim(line + 1);
        if (!*t)
            continue;
        int w = snprintf(out + used, len - used, "%s%s", used ? " " : "", t);
        if (w < 0 || (size_t)w >= len - used)
            break;
        used += (size_t)w;
    }
    fclose(f);
}

static bool valid_name(const char *name)
{
    if (!name[0] || name[0] == '.' || strlen(name) >= PRESET_NAME_MAX)
        return false;
    for (const char *c = name; *c; c++)
        if (!(*c == '-' || *c == '_' || *c == '.' || (*c >= '0' && *c <= '9') ||
              (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z')))
            return false;
    return true;
}

int preset_save(const char *name, const struct params *p, const char *description, char *path,
                size_t pathlen, char *err, size_t errlen)
{
    if (!valid_name(name)) {
        snprintf(err, errlen,
                 "preset: '%.60s' is not a name (letters, digits, - _ . ; up to %d characters)",
                 name, PRESET_NAME_MAX - 1);
        return -1;
    }
    char rel[PRESET_NAME_MAX + 16], found[PATH_MAX];
    snprintf(rel, sizeof rel, "presets/%s.conf", name);
    if (datadir_resolve(rel, found, sizeof found) == 0) {
        snprintf(err, errlen, "preset: '%s' is an installed preset; choose another name", name);
        return -1;
    }
    char dir[PATH_MAX];
    if (preset_user_dir(dir, sizeof dir) < 0) {
        snprintf(err, errlen, "preset: neither XDG_CONFIG_HOME nor HOME is set");
        return -1;
    }
    /* $XDG_CONFIG_HOME/situ/presets: each level made as needed. */
    for (char *c = dir + 1;; c++) {
        if (*c == '/' || !*c) {
            char keep = *c;
            *c = 0;
            if (mkdir(dir, 0777) < 0 && errno != EEXIST) {
                snprintf(err, errlen, "preset: cannot create %s: %s", dir, strerror(errno));
                return -1;
            }
            *c = keep;
        }
        if (!*c)
            break;
    }
    if (snprintf(path, pathlen, "%s/%s.conf", dir, name) >= (int)pathlen) {
        snprintf(err, errlen, "preset: the path of '%s' is too long", name);
        return -1;
    }
    struct outfile o;
    if (outfile_open(&o, path, err, errlen) < 0)
        return -1;
    char buf[2 * PATH_MAX + PRESET_QUOTED_MAX], q[PRESET_QUOTED_MAX];
    /* One comment line: a line break in the description would start a line of its own. */
    snprintf(q, sizeof q, "%s", description && description[0] ? description : "saved by situ");
    for (char *c = q; *c; c++)
        *c = (unsigned char)*c < 0x20 || *c == 0x7f ? ' ' : *c;
    int n = snprintf(buf, sizeof buf, "# %s\n", q);
    outfile_write(&o, buf, (size_t)n);
    /* Every parameter not at its default, so that the file says the whole configuration. */
    struct params d;
    params_defaults(&d);
    for (int id = 0; id < PARAM_COUNT; id++) {
        char a[PARAMS_PATH_MAX], b[PARAMS_PATH_MAX];
        params_format(p, id, a, sizeof a);
        params_format(&d, id, b, sizeof b);
        char def[PARAMS_PATH_MAX];
        if (param_table[id].type == PARAM_PATH && b[0] && datadir_resolve(b, def, sizeof def) == 0)
            snprintf(b, sizeof b, "%s", def); /* the default platform, found where it is */
        if (!strcmp(a, b))
            continue;
        preset_quote(a, q, sizeof q); /* q holds any value: PRESET_QUOTED_MAX */
        n = snprintf(buf, sizeof buf, "%-15s = %s\n", param_table[id].key, q);
        outfile_write(&o, buf, (size_t)n);
    }
    return outfile_commit(&o, err, errlen);
}
