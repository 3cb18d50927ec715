#include "preset.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datadir.h"

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
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "preset: cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    struct params next = *p;
    char line[1024], perr[PARAMS_ERR_MAX];
    int lineno = 0, rc = 0;
    while (rc == 0 && fgets(line, sizeof line, f)) {
        lineno++;
        /* A longer line would be read as two, its tail as a line of its own. */
        if (!strchr(line, '\n') && !feof(f)) {
            snprintf(err, errlen, "%s:%d: line longer than %zu bytes", path, lineno,
                     sizeof line - 2);
            rc = -1;
            break;
        }
        char *hash = strchr(line, '#');
        if (hash)
            *hash = 0;
        char *s = trim(line);
        if (!*s)
            continue;
        char *eq = strchr(s, '=');
        if (!eq) {
            snprintf(err, errlen, "%s:%d: expected 'key = value', got '%.60s'", path, lineno, s);
            rc = -1;
            break;
        }
        *eq = 0;
        char *key = trim(s), *value = trim(eq + 1);
        if (!strncmp(key, "sweep.", 6)) {
            /* A study's axis: single-configuration readers start from the base alone. */
            char aerr[PARAMS_ERR_MAX];
            if (on_axis && on_axis(ud, key + 6, value, aerr, sizeof aerr) < 0) {
                snprintf(err, errlen, "%s:%d: %s", path, lineno, aerr);
                rc = -1;
            }
            continue;
        }
        int id = params_find(key);
        if (id < 0) {
            snprintf(err, errlen, "%s:%d: unknown parameter '%.60s'; see 'situ --help'", path,
                     lineno, key);
            rc = -1;
        } else if (params_set(&next, id, value, perr) < 0) {
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

int preset_list(char names[][PRESET_NAME_MAX], int max)
{
    return datadir_list("presets", ".conf", names, max);
}
