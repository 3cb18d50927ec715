/* What the explorer tells the world outside its panels: the error to show first (the status bar
 * and !), and the command line that reproduces the configuration on screen (printed on quit). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../engine/base/datadir.h"
#include "../../engine/model/preset.h"
#include "app.h"

const char *app_error(const struct app_state *s, const char **what)
{
    /* A broken analytics file first: it is why the numbers are missing or old. Then the
     * configuration on screen: its failure is the one the numbers above lack. */
    if (s->analytics_err[0]) {
        *what = "analytics: ";
        return s->analytics_err;
    }
    if (s->sim_phase == SIM_FAILED && s->sim_err[0]) {
        *what = "simulation: ";
        return s->sim_err;
    }
    if (s->script.phase == APP_SCRIPT_FAILED) {
        *what = "scenario: ";
        return s->script.err;
    }
    /* Every panel that shows an error has it in the status bar and behind !: never "no errors"
     * beside a failing lesson goal. */
    if (s->lesson.l && !s->lesson.goal_pending && s->lesson.goal == LESSON_GOAL_ERROR) {
        *what = "lesson goal: ";
        return s->lesson.msg;
    }
    *what = "";
    return s->last_error;
}

const char *app_caution(const struct app_state *s, char *buf, size_t len)
{
    /* The simulation's is about the configuration on screen only once it is done; the model's
     * always is, and shares fast mode's assumptions. */
    snprintf(buf, len, "%s", "");
    if (s->has_sim && s->sim_phase == SIM_DONE && s->sim.warning[0])
        snprintf(buf, len, "%s", s->sim.warning);
    else if (s->model_valid)
        model_warning(&s->model, buf, len);
    return buf;
}

/* Appends `value` quoted for a POSIX shell; false if buf is full. */
static bool put_quoted(char *buf, size_t len, size_t *used, const char *value)
{
    char q[2 * PATH_MAX + 8];
    size_t n = 0;
    if (value[0] && !strpbrk(value, " \t\n'\"\\$`*?[]{}()<>|&;#~!^")) {
        n = (size_t)snprintf(q, sizeof q, "%s", value);
    } else {
        q[n++] = '\'';
        for (const char *c = value; *c && n + 5 < sizeof q; c++) {
            if (*c == '\'') {
                memcpy(q + n, "'\\''", 4);
                n += 4;
            } else {
                q[n++] = *c;
            }
        }
        q[n++] = '\'';
        q[n] = 0;
    }
    int w = snprintf(buf + *used, len - *used, " %s", q);
    if (w < 0 || (size_t)w >= len - *used)
        return false;
    *used += (size_t)w;
    return true;
}

int app_command_line(const struct app_state *s, char *buf, size_t len)
{
    /* Every parameter that differs from the defaults, whatever preset the session started from:
     * the line must not depend on a preset file that may change. Paths absolute, as
     * sweep --emit-commands gives them, so that it runs from anywhere. */
    struct params d;
    params_defaults(&d);
    char def_pf[PARAMS_PATH_MAX];
    if (datadir_resolve(d.platform, def_pf, sizeof def_pf) == 0)
        snprintf(d.platform, sizeof d.platform, "%s", def_pf);
    /* At the engine of the numbers on screen: refinement may have shown full fidelity's. */
    struct params p = s->p;
    if (s->has_sim)
        p.fidelity = s->sim_fid;
    size_t used = (size_t)snprintf(buf, len, "situ run");
    if (used >= len)
        return -1;
    for (int id = 0; id < PARAM_COUNT; id++) {
        char a[PATH_MAX], b[PARAMS_PATH_MAX], abs[PATH_MAX];
        params_format(&p, id, a, sizeof a);
        params_format(&d, id, b, sizeof b);
        if (param_table[id].type == PARAM_PATH && a[0] && realpath(a, abs)) {
            snprintf(a, sizeof a, "%s", abs);
            if (realpath(b, abs) && !strcmp(a, abs))
                continue; /* the default platform, by another name */
        }
        if (!strcmp(a, b))
            continue;
        char flag[64];
        snprintf(flag, sizeof flag, "--%s", param_table[id].key);
        if (!put_quoted(buf, len, &used, flag) || !put_quoted(buf, len, &used, a))
            return -1;
    }
    return 0;
}

unsigned app_preset_save_commit(struct app_state *s)
{
    char line[APP_EDIT_MAX], *name = line, *desc;
    snprintf(line, sizeof line, "%s", s->edit);
    while (*name == ' ')
        name++;
    if (!*name) { /* nothing typed: nothing saved */
        s->mode = APP_MAIN;
        return APP_DIRTY;
    }
    desc = strchr(name, ' ');
    if (desc) {
        *desc++ = 0;
        while (*desc == ' ')
            desc++;
    }
    /* No description typed: say where it came from, which is what the picker can show. */
    char auto_desc[APP_DESC_MAX];
    snprintf(auto_desc, sizeof auto_desc, "saved from the explorer (from %.40s%s)",
             s->preset[0] ? s->preset : "the defaults", s->modified ? ", modified" : "");
    char path[PATH_MAX], err[APP_MSG_MAX + PATH_MAX];
    if (preset_save(name, &s->p, desc && *desc ? desc : auto_desc, path, sizeof path, err,
                    sizeof err) < 0) {
        snprintf(s->edit_err, sizeof s->edit_err, "%.*s", APP_MSG_MAX - 1, err);
        return APP_DIRTY;
    }
    s->mode = APP_MAIN;
    snprintf(s->preset, sizeof s->preset, "%.*s", (int)sizeof s->preset - 1, name); /* checked */
    snprintf(s->base_key, sizeof s->base_key, "%s", s->key);
    s->modified = false;
    snprintf(s->notice, sizeof s->notice, "saved preset %s (%.*s); p lists it", name,
             APP_MSG_MAX - 64 - PRESET_NAME_MAX, path);
    s->notice_error = false;
    return APP_DIRTY;
}
