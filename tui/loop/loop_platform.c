/* The explorer's platforms, read off the UI thread: a platform whose digest is not cached yet,
 * or a large one's routes for a new layout (app.h's load_platform), are loaded on the loop's
 * thread pool, where platform_load and platform_need_layout_routes start the SimGrid child (an
 * exec'd `situ __digest`, never a copy of this process and its threads) and cache what it says;
 * the app then applies the configuration that wanted them. */
#include <stdlib.h>
#include <string.h>

#include "../../engine/model/layout.h"
#include "loop.h"

struct platform_work {
    uv_work_t req;
    struct tui *t;
    struct params p;
    char err[1024];
    bool ok;
};

static void platform_run(uv_work_t *req)
{
    struct platform_work *w = req->data;
    struct platform pf;
    struct layout l;
    w->ok = platform_load(w->p.platform, &pf, w->err, sizeof w->err) == 0;
    if (!w->ok)
        return;
    /* The layout's routes too; a layout that cannot be built says why when the app applies. */
    if (layout_build(&w->p, &pf, &l, w->err, sizeof w->err) == 0) {
        w->ok = platform_need_layout_routes(&pf, &l, w->err, sizeof w->err) == 0;
        layout_free(&l);
    }
    platform_free(&pf); /* the cache holds it now: the app reads it from there */
}

static void platform_done(uv_work_t *req, int status)
{
    struct platform_work *w = req->data;
    if (status == 0)
        loop_post(w->t, app_platform_loaded(&w->t->app, w->ok ? NULL : w->err));
    free(w);
}

static void platform_start(void *ud, const struct params *cand)
{
    struct tui *t = ud;
    struct platform_work *w = calloc(1, sizeof *w);
    if (w) {
        w->t = t;
        w->req.data = w;
        w->p = *cand;
    }
    if (!w || uv_queue_work(&t->loop, &w->req, platform_run, platform_done) < 0) {
        free(w);
        loop_post(t, app_platform_loaded(&t->app, "cannot read the platform: out of memory"));
    }
}

void loop_platform_init(struct tui *t)
{
    t->app.load_platform = platform_start;
    t->app.load_ud = t;
}
