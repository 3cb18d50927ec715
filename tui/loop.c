/* The explorer's event loop: one libuv loop owns the tty, the signals, the debounce timer and the
 * simulation children (through the runner). Callbacks only turn events into app calls and act on
 * the flags those return; a frame is drawn only when something marked the state dirty, at the
 * end of the loop turn's I/O (check) or before the loop blocks (prepare), whichever comes first,
 * so at most one per batch of events (neovim's event loop, htop's flags). */
#include <curses.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <uv.h>

#include "../engine/analytics.h"
#include "../engine/cache.h"
#include "../engine/script.h"
#include "../engine/watchdog.h"
#include "evaluator.h"
#include "loop.h"
#include "tui.h"

static struct tui T; /* one explorer per process, like the terminal it owns */

struct tui *loop_tui(void)
{
    return &T;
}

bool tui_have_terminal(void)
{
    return isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
}

/* ---- simulations ---------------------------------------------------------------------------- */

static void on_sim_done(void *ud, const struct runner_done *d)
{
    struct tui *t = ud;
    if (d->id && d->id == t->current_id) {
        t->current_id = 0;
        if (d->status == RUNNER_OK) {
            t->result_at = t->submitted_at;
            t->result_key_at = t->submitted_key_at;
        }
    }
    loop_act(t, app_on_result(&t->app, d->params, d->result, d->error, d->cached, d->seconds));
}

static void on_runner_change(void *ud)
{
    ((struct tui *)ud)->dirty = true;
}

/* Submits the current configuration, then the crossover points behind it; a submission made
 * stale is cancelled only after its replacement is queued, so an identical job survives. */
static void submit(struct tui *t, bool force)
{
    if (!app_sim_allowed(&t->app)) {
        /* No simulation of an analytics that is still being evaluated, or that failed: the
         * model's answer decides (act, APP_EVALUATED). */
        t->sim_deferred = true;
        t->sim_deferred_force = t->sim_deferred_force || force;
        return;
    }
    t->sim_deferred = false;
    long old = t->current_id;
    t->current_id = 0;
    long id = runner_submit(t->runner, &t->app.p, PRIO_CURRENT, TAG_CURRENT,
                            force ? RUNNER_FORCE : 0, on_sim_done, t);
    if (id > 0) {
        t->current_id = id;
        t->submitted_at = uv_hrtime();
        t->submitted_key_at = t->config_key_at;
    }
    if (old > 0 && old != id)
        runner_cancel(t->runner, old);

    struct xover *xo = &t->app.xo;
    bool new_base = strcmp(t->xo_key, xo->base_key) != 0;
    if (!new_base && !force)
        return;
    int old_tag = t->xo_tag;
    t->xo_tag = TAG_XOVER_BASE + ++t->xo_gen; /* never TAG_CURRENT: that is another job */
    for (int m = 0; m < XO_MAPPINGS; m++) {
        for (int i = 0; i < XO_POINTS; i++) {
            if (xo->pstate[m][i] == XO_PT_DONE)
                continue;
            struct params q;
            xover_point_params(xo, m, i, &q);
            runner_submit(t->runner, &q, PRIO_XOVER, t->xo_tag, 0, on_sim_done, t);
        }
    }
    if (old_tag)
        runner_cancel_tag(t->runner, old_tag);
    snprintf(t->xo_key, sizeof t->xo_key, "%s", xo->base_key);
}

static void on_debounce(uv_timer_t *h)
{
    submit(h->data, false);
}

/* ---- crossover curves, on the thread pool -------------------------------------------------- */

/* One background model computation: the crossover's curves or the static scaling's. One at a
 * time, which also keeps a Lua analytics interpreter to one thread. */
struct curves_work {
    uv_work_t req;
    struct tui *t;
    bool scaling;
    struct params base;
    char key[RUNNER_KEY_MAX];
    struct platform pf; /* a private copy: the app may load another while this runs */
    struct xover_curves c;
    struct scaling_curves sc;
};

static void curves_run(uv_work_t *req)
{
    struct curves_work *w = req->data;
    /* This thread (not the process): on a machine whose cores the simulations fill, the thread
     * reading keys must win over the one drawing curves. */
    setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 5);
    if (w->scaling)
        scaling_eval(&w->sc, &w->base, w->key, &w->pf, profile_source_builtin);
    else
        xover_curves_eval(&w->c, &w->base, w->key, &w->pf, profile_source_builtin);
}

static void curves_done(uv_work_t *req, int status)
{
    struct curves_work *w = req->data;
    struct tui *t = w->t;
    t->curves_busy = false;
    if (status == 0)
        loop_act(t, w->scaling ? app_on_scaling(&t->app, &w->sc) : app_on_curves(&t->app, &w->c));
    platform_free(&w->pf);
    free(w);
    loop_start_curves(t); /* the configuration may have moved on while this ran */
}

/* One computation at a time: a burst of keys costs one more, for the last configuration. */
void loop_start_curves(struct tui *t)
{
    if (t->curves_busy || t->quitting)
        return;
    /* The crossover is always on screen or a key away; the scaling only when its view is. */
    bool scaling = xover_current(&t->app.xo);
    if (scaling && (t->app.pane != APP_PANE_SCALING || scaling_current(&t->app.sc)))
        return;
    if (t->app.p.analytics[0]) { /* user Lua: in the curves' evaluator process */
        helpers_curves(t, scaling);
        return;
    }
    struct curves_work *w = calloc(1, sizeof *w);
    if (!w || xover_platform_copy(&w->pf, &t->app.pf) < 0) {
        free(w);
        scaling ? app_scaling_sync(&t->app) : app_xover_sync(&t->app); /* no memory: here */
        t->dirty = true;
        return;
    }
    w->t = t;
    w->req.data = w;
    w->scaling = scaling;
    w->base = scaling ? t->app.sc.base : t->app.xo.base;
    snprintf(w->key, sizeof w->key, "%s", scaling ? t->app.sc.base_key : t->app.xo.base_key);
    if (uv_queue_work(&t->loop, &w->req, curves_run, curves_done) < 0) {
        platform_free(&w->pf);
        free(w);
        scaling ? app_scaling_sync(&t->app) : app_xover_sync(&t->app);
        t->dirty = true;
        return;
    }
    t->curves_busy = true;
}

/* The configuration changed: show what the cache knows now, simulate the rest after a pause. */
static void config_changed(struct tui *t)
{
    if (!t->quitting)
        watch_sync(t);
    const struct sim_result *r = runner_lookup(t->runner, &t->app.p);
    if (r)
        loop_act(t, app_on_result(&t->app, &t->app.p, r, NULL, true, 0));
    struct xover *xo = &t->app.xo;
    for (int m = 0; m < XO_MAPPINGS; m++) {
        for (int i = 0; i < XO_POINTS; i++) {
            if (xo->pstate[m][i] != XO_PT_NONE)
                continue;
            struct params q;
            xover_point_params(xo, m, i, &q);
            if ((r = runner_lookup(t->runner, &q)) != NULL)
                loop_act(t, app_on_result(&t->app, &q, r, NULL, true, 0));
        }
    }
    loop_start_curves(t);
    uv_timer_start(&t->debounce, on_debounce, DEBOUNCE_MS, 0);
}

/* ---- quitting ------------------------------------------------------------------------------- */

static void on_grace(uv_timer_t *h)
{
    /* Children that outlive SIGKILL this long are beyond us; let the process end. */
    uv_stop(h->loop);
}

static void begin_quit(struct tui *t, int code)
{
    if (t->quitting)
        return;
    t->quitting = true;
    t->exit_code = code;
    /* The terminal first: whatever follows, the user gets their shell back now. */
    if (t->screen_on) {
        screen_close(&t->scr);
        t->screen_on = false;
    }
    uv_close((uv_handle_t *)&t->input, NULL);
    uv_close((uv_handle_t *)&t->sig_winch, NULL);
    uv_close((uv_handle_t *)&t->sig_int, NULL);
    uv_close((uv_handle_t *)&t->sig_term, NULL);
    uv_close((uv_handle_t *)&t->sig_hup, NULL);
    uv_close((uv_handle_t *)&t->debounce, NULL);
    uv_close((uv_handle_t *)&t->progress, NULL);
    watch_close(t);
    uv_close((uv_handle_t *)&t->frame, NULL);
    uv_close((uv_handle_t *)&t->frame_io, NULL);
    helpers_close(t);
    runner_shutdown(t->runner); /* children die; the loop reaps them and then returns */
    uv_timer_start(&t->grace, on_grace, QUIT_GRACE_MS, 0);
    uv_unref((uv_handle_t *)&t->grace);
}

void loop_act(struct tui *t, unsigned flags)
{
    if (t->quitting)
        return;
    if (flags & APP_QUIT) {
        begin_quit(t, 0);
        return;
    }
    if (flags & APP_SCRIPT_CANCEL)
        helpers_script_close(t);
    if (flags & APP_SCRIPT)
        helpers_script_pump(t);
    if (flags & APP_CONFIG)
        config_changed(t);
    if (flags & APP_RERUN) {
        uv_timer_stop(&t->debounce);
        submit(t, true);
    }
    if (flags & APP_CANCEL) { /* the curve's points too: they may share its child */
        uv_timer_stop(&t->debounce);
        if (t->current_id > 0)
            runner_cancel(t->runner, t->current_id);
        if (t->xo_tag)
            runner_cancel_tag(t->runner, t->xo_tag);
        t->current_id = 0;
        t->xo_key[0] = 0; /* r submits them again */
        t->sim_deferred = false;
    }
    if ((flags & APP_EVALUATED) && t->sim_deferred) {
        uv_timer_stop(&t->debounce);
        submit(t, t->sim_deferred_force);
        t->sim_deferred_force = false;
    }
    helpers_sync(t);
    watch_sync(t); /* a scenario may have opened or closed, a lesson reloaded */
    if (flags & APP_DIRTY) {
        t->dirty = true;
        loop_start_curves(t); /* a view may have opened that needs its curves */
    }
}

/* ---- input, signals, frames ----------------------------------------------------------------- */

static void resize(struct tui *t)
{
    screen_resize(&t->scr);
    view_layout(t->scr.rows, t->scr.cols, &t->app, &t->layout);
    t->dirty = true;
}

static void handle_mouse(struct tui *t)
{
    MEVENT ev;
    int index;
    double frac;
    if (getmouse(&ev) == OK && view_hit(&t->layout, &t->app, ev.y, ev.x, &index, &frac))
        loop_act(t, app_click(&t->app, index, frac));
}

static void on_input(uv_poll_t *h, int status, int events)
{
    struct tui *t = h->data;
    (void)events;
    if (status < 0) {
        begin_quit(t, 1);
        return;
    }
    int keys = 0, ch;
    while (!t->quitting && (ch = getch()) != ERR) {
        keys++;
        uint64_t at = uv_hrtime();
        if (ch == KEY_RESIZE) {
            resize(t);
            continue;
        }
        if (ch == KEY_MOUSE) {
            handle_mouse(t);
            continue;
        }
        int key = screen_map_key(ch);
        if (key < 0)
            continue;
        /* While the screen is too small to show them, keys change nothing but quit. */
        if (t->layout.too_small && key != 'q' && key != APP_KEY_CTRL_C)
            continue;
        unsigned flags = app_key(&t->app, key);
        if (flags & APP_CONFIG)
            t->config_key_at = at;
        loop_act(t, flags);
        if ((flags & APP_DIRTY) && t->npending < PENDING_MAX)
            t->pending[t->npending++] = at;
        if (t->app.model_pending && t->nmodel_keys < PENDING_MAX)
            t->model_keys[t->nmodel_keys++] = at;
    }
    /* Readable again and again with nothing to read: the terminal has hung up. */
    t->idle_polls = keys ? 0 : t->idle_polls + 1;
    if (t->idle_polls > 100)
        begin_quit(t, 1);
}

static void on_signal(uv_signal_t *h, int sig)
{
    struct tui *t = h->data;
    if (sig == SIGWINCH)
        resize(t);
    else
        begin_quit(t, 128 + sig);
}

static enum sim_phase current_phase(struct tui *t);

/* A simulation that takes a while (fidelity full, smpi) shows how long it has run, each second. */
static void on_progress(uv_timer_t *h)
{
    struct tui *t = h->data;
    uint64_t now = uv_hrtime();
    bool running = current_phase(t) == SIM_RUNNING;
    if (!running)
        t->running_since = 0;
    else if (!t->running_since)
        t->running_since = now;
    unsigned flags =
        app_set_running_for(&t->app, running ? (double)(now - t->running_since) * 1e-9 : 0);
    if (flags)
        loop_act(t, flags);
}

static enum sim_phase current_phase(struct tui *t)
{
    switch (t->current_id ? runner_job_state(t->runner, t->current_id) : RUNNER_JOB_NONE) {
    case RUNNER_JOB_QUEUED:
        return SIM_QUEUED;
    case RUNNER_JOB_RUNNING:
        return SIM_RUNNING;
    default:
        return SIM_NONE;
    }
}

/* The one place a frame is drawn, and only if something changed since the last one. */
static void draw(struct tui *t)
{
    int running, queued;
    runner_counts(t->runner, &running, &queued);
    loop_act(t, app_set_jobs(&t->app, running, queued, current_phase(t)));
    if (!t->dirty || !t->screen_on)
        return;
    view_layout(t->scr.rows, t->scr.cols, &t->app, &t->layout); /* P or a toggled */
    view_draw(&t->scr, &t->layout, &t->app, t->max_jobs);
    enum app_mode m = t->app.mode;
    if (m == APP_MAIN || m == APP_SCRIPT_PATH || m == APP_ERROR || m == APP_PRESET_SAVE ||
        m == APP_ANSWER)
        view_script_draw(&t->scr, &t->layout, &t->app);
    if (m == APP_ERROR) /* over the scenario panel, whose error it often is */
        view_error_draw(&t->scr, &t->layout, &t->app);
    t->app.text_most = view_lesson_text_most(); /* PgDn stops at the text's end */
    wnoutrefresh(stdscr);
    doupdate();
    t->dirty = false;
    uint64_t now = uv_hrtime();
    for (int i = 0; i < t->npending; i++)
        stats_add(&t->latency, (double)(now - t->pending[i]) / 1e6);
    t->npending = 0;
    if (t->result_at) {
        stats_add(&t->sim_latency, (double)(now - t->result_at) / 1e6);
        t->result_at = 0;
    }
    if (t->result_key_at) {
        stats_add(&t->key_result_latency, (double)(now - t->result_key_at) / 1e6);
        t->result_key_at = 0;
    }
    if (t->model_landed && !t->app.model_pending) {
        for (int i = 0; i < t->nmodel_keys; i++)
            stats_add(&t->model_latency, (double)(now - t->model_keys[i]) / 1e6);
        t->nmodel_keys = 0;
    }
    t->model_landed = false;
}

static void on_frame(uv_prepare_t *h)
{
    draw(h->data);
}

static void on_frame_io(uv_check_t *h)
{
    draw(h->data);
}

/* ---- set-up and tear-down ------------------------------------------------------------------- */

static int start_handles(struct tui *t)
{
    uv_loop_t *l = &t->loop;
    int rc = uv_poll_init(l, &t->input, STDIN_FILENO);
    if (rc < 0)
        return rc;
    uv_signal_t *sigs[] = {&t->sig_winch, &t->sig_int, &t->sig_term, &t->sig_hup};
    int nums[] = {SIGWINCH, SIGINT, SIGTERM, SIGHUP};
    for (int i = 0; i < 4; i++) {
        uv_signal_init(l, sigs[i]);
        sigs[i]->data = t;
        uv_signal_start(sigs[i], on_signal, nums[i]);
    }
    t->input.data = t;
    uv_poll_start(&t->input, UV_READABLE, on_input);
    uv_timer_init(l, &t->debounce);
    t->debounce.data = t;
    uv_timer_init(l, &t->grace);
    uv_timer_init(l, &t->progress);
    t->progress.data = t;
    uv_timer_start(&t->progress, on_progress, PROGRESS_MS, PROGRESS_MS);
    watch_init(t);
    uv_prepare_init(l, &t->frame);
    t->frame.data = t;
    uv_prepare_start(&t->frame, on_frame);
    uv_check_init(l, &t->frame_io);
    t->frame_io.data = t;
    uv_check_start(&t->frame_io, on_frame_io);
    return 0;
}

static struct runner *make_runner(struct tui *t, char *err, size_t errlen)
{
    const char *limit = getenv("SITU_TIME_LIMIT");
    double seconds = limit ? atof(limit) : 0;
    /* The results directory `situ sweep` fills: what any earlier run measured is instant. */
    char cache_dir[4096];
    bool disk = cache_default_dir(cache_dir, sizeof cache_dir) == 0;
    /* The children are this binary exec'd (the runner's default): this process has threads, and
     * a fork that is not followed by an exec may only make async-signal-safe calls. */
    struct runner_opts o = {
        .time_limit = seconds > 0 ? seconds : 60,
        .on_change = on_runner_change,
        .on_change_ud = t,
        .disk_cache = disk ? cache_dir : NULL,
    };
    t->max_jobs = (int)uv_available_parallelism();
    o.max_jobs = t->max_jobs;
    return runner_new(&t->loop, &o, err, errlen);
}

static int saved_stderr = -1; /* the user's stderr while the screen is ours */
static bool left_busy;        /* quit while a curve computation ran (tui_must_exit_now) */

bool tui_must_exit_now(void)
{
    return left_busy;
}

/* The watchdog's hard stop (async-signal-safe): the terminal, the children, and stderr back for
 * its one line. */
static void emergency_exit(void)
{
    screen_emergency_restore();
    if (saved_stderr >= 0)
        dup2(saved_stderr, STDERR_FILENO);
}

static void close_any(uv_handle_t *h, void *arg)
{
    (void)arg;
    if (!uv_is_closing(h))
        uv_close(h, NULL);
}

int tui_run(const struct tui_opts *o)
{
    struct tui *t = &T;
    char err[1024];
    int rc = 1;
    memset(t, 0, sizeof *t);
    t->want_stats = o->stats;
    /* Lua's print() in an analytics file would write over the screen. */
    analytics_set_output(NULL);
    signal(SIGPIPE, SIG_IGN);
    if (uv_loop_init(&t->loop) < 0) {
        fprintf(stderr, "situ: cannot start the event loop\n");
        return 1;
    }
    if (app_init(&t->app, o->p, o->preset, err, sizeof err) < 0) {
        fprintf(stderr, "situ: %s\n", err);
        uv_loop_close(&t->loop);
        return 2;
    }
    if (o->alert > 0)
        t->app.alert = o->alert;
    loop_platform_init(t); /* from now on, new platforms are read off this thread */
    t->app.script_unsafe = o->unsafe;
    if (o->lesson_log)
        snprintf(t->app.lesson_log, sizeof t->app.lesson_log, "%s", o->lesson_log);
    /* A lesson's top-level code runs here (the panel needs its text and configurations), but
     * first in a child, where a hang is stopped at the time limit. */
    if (o->lesson && o->lesson[0] &&
        (evaluator_lesson_check(o->lesson, script_time_limit(), err, sizeof err) < 0 ||
         app_lesson_open(&t->app, o->lesson, err, sizeof err) < 0)) {
        fprintf(stderr, "situ: %s\n", err);
        app_free(&t->app);
        uv_loop_close(&t->loop);
        return 2;
    }
    t->runner = make_runner(t, err, sizeof err);
    if (!t->runner) {
        fprintf(stderr, "situ: %s\n", err);
        goto out;
    }
    if (screen_open(&t->scr, err, sizeof err) < 0) {
        fprintf(stderr, "situ: %s\n", err);
        goto out;
    }
    t->screen_on = true;
    screen_on_fatal(runner_kill_all_signal_safe);
    /* A scenario or a lesson's goal stuck past its time limit where Lua cannot be interrupted
     * ends the explorer with one line: the terminal and the children first. */
    watchdog_on_fire(emergency_exit);
    if (start_handles(t) < 0) {
        screen_close(&t->scr);
        t->screen_on = false;
        fprintf(stderr, "situ: cannot watch the terminal for input\n");
        goto out;
    }
    /* Nothing may write over the screen (a library's warning, say): stderr goes nowhere until
     * the terminal is ours no more. The children's stderr is piped by the runner. */
    int saved_err = saved_stderr = dup(STDERR_FILENO), devnull = open("/dev/null", O_WRONLY);
    if (saved_err >= 0 && devnull >= 0)
        dup2(devnull, STDERR_FILENO);
    if (devnull >= 0)
        close(devnull);
    view_layout(t->scr.rows, t->scr.cols, &t->app, &t->layout);
    t->dirty = true;
    if (helpers_open(t) < 0)
        begin_quit(t, 1);
    else
        config_changed(t);
    if (o->script && o->script[0])
        loop_act(t, app_script_open(&t->app, o->script));
    uv_run(&t->loop, UV_RUN_DEFAULT);
    rc = t->exit_code;
    if (saved_err >= 0) {
        dup2(saved_err, STDERR_FILENO);
        close(saved_err);
        saved_stderr = -1;
    }
out:
    if (t->screen_on)
        screen_close(&t->scr);
    /* Close whatever is still open (a grace-timer stop or a failed start) and drain. */
    if (t->runner)
        runner_shutdown(t->runner);
    uv_walk(&t->loop, close_any, NULL);
    /* A curve computation on the thread pool may take seconds more (a large layout): the user
     * asked to quit, so it is not waited for; the process's exit ends its thread. */
    bool busy = t->curves_busy && !t->app.p.analytics[0];
    left_busy = busy;
    uv_run(&t->loop, busy ? UV_RUN_NOWAIT : UV_RUN_DEFAULT);
    runner_free(t->runner);
    /* The terminal is back: what reproduces the screen goes to stdout, for the shell's history
     * and for a script that wraps the explorer (q, not a failure). */
    char cmd[4096];
    if (rc == 0 && t->app.p.platform[0] && app_command_line(&t->app, cmd, sizeof cmd) == 0)
        printf("%s\n", cmd);
    app_free(&t->app); /* the worker has its own copies of what it reads */
    if (!busy)
        uv_loop_close(&t->loop);
    if (t->want_stats) {
        if (t->latency.n)
            fprintf(stderr, "situ: key-to-frame latency over %zu keys: p50 %.2f ms, p99 %.2f ms\n",
                    t->latency.n, stats_percentile(&t->latency, 50),
                    stats_percentile(&t->latency, 99));
        else
            fprintf(stderr, "situ: key-to-frame latency: no keys measured\n");
        if (t->model_latency.n)
            fprintf(stderr,
                    "situ: key-to-result latency (a Lua analytics' model on screen) over %zu "
                    "keys: p50 %.0f ms, p99 %.0f ms\n",
                    t->model_latency.n, stats_percentile(&t->model_latency, 50),
                    stats_percentile(&t->model_latency, 99));
        if (t->sim_latency.n)
            fprintf(stderr,
                    "situ: debounce-to-simulated-result over %zu runs: p50 %.0f ms, p99 %.0f ms\n",
                    t->sim_latency.n, stats_percentile(&t->sim_latency, 50),
                    stats_percentile(&t->sim_latency, 99));
        if (t->key_result_latency.n)
            fprintf(stderr,
                    "situ: key-to-simulated-result latency (a slider key to its SimGrid result on "
                    "screen) over %zu keys: p50 %.0f ms, p99 %.0f ms\n",
                    t->key_result_latency.n, stats_percentile(&t->key_result_latency, 50),
                    stats_percentile(&t->key_result_latency, 99));
    }
    stats_free(&t->latency);
    stats_free(&t->sim_latency);
    stats_free(&t->key_result_latency);
    stats_free(&t->model_latency);
    return rc;
}
