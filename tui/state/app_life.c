/* The explorer state's lifetime: made from the starting configuration, freed with every part it
 * holds. It sits above the other app_*.c files, since freeing closes the lesson (app_lesson.c)
 * and the scenario (app_script.c), so that app.c, which they build on, calls none of them. */
#include <stdio.h>
#include <string.h>

#include "../../engine/lua/simulation.h"
#include "../../engine/model/report.h"
#include "app.h"

int app_init(struct app_state *s, const struct params *p, const char *preset, char *err,
             size_t errlen)
{
    memset(s, 0, sizeof *s);
    advise_map_init(&s->adv);
    s->alert = REPORT_ALERT_DEFAULT;
    s->refine = true; /* the faithful answer comes on its own (tui_opts.no_refine: not) */
    s->sim_next = -1;
    for (int id = 0; id < PARAM_COUNT; id++) {
        if (!param_table[id].slider || !simulation_uses(id)) /* not the profile's parameter */
            continue;
        if (id == P_RATIO)
            s->focus = s->nsliders; /* the paper's first question: how to split the cores */
        s->sliders[s->nsliders++] = id;
    }
    snprintf(s->preset, sizeof s->preset, "%s", preset ? preset : "");
    if (app_apply(s, p, err, errlen) < 0) {
        app_free(s);
        return -1;
    }
    /* Flags that moved away from the preset (or the defaults) show as a modification, as a
     * slider would. */
    struct params def;
    char perr[PARAMS_ERR_MAX + PARAMS_PATH_MAX];
    params_defaults(&def);
    if (s->preset[0])
        preset_apply(s->preset, &def, perr, sizeof perr);
    snprintf(def.platform, sizeof def.platform, "%s", p->platform);
    char a[RUNNER_KEY_MAX], b[RUNNER_KEY_MAX];
    params_canonical(&def, a, sizeof a);
    params_canonical(p, b, sizeof b);
    snprintf(s->base_key, sizeof s->base_key, "%s", a);
    s->modified = strcmp(a, b) != 0;
    app_xover_sync(s);
    return 0;
}

void app_free(struct app_state *s)
{
    app_lesson_close(s);
    app_script_close(s);
    result_free(&s->sim);
    if (s->pf_loaded)
        platform_free(&s->pf);
    s->pf_loaded = false;
}
