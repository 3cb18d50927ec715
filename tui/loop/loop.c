/* The explorer's event loop: the one owner of the libuv loop, of the terminal (input, resize,
 * mouse), the signals and the frames, and the one place the flags of the app's handlers are acted
 * on (act). Callbacks elsewhere (loop_jobs.c, loop_curves.c, loop_watch.c, loop_helpers.c,
 * loop_platform.c) only change the state through an app call and post its flags; they are acted
 * on in order at the end of the loop turn's I/O (check) or before the loop blocks (prepare),
 * and then a frame is drawn only if something marked the state dirty, so at most one per batch
 * of events (neovim's event loop, htop's flags). Drawing reads the state and changes nothing. */
#include <curses.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <uv.h>

#include "../../engine/lua/analytics.h"
#include "../../engine/lua/script.h"
#include "../../engine/base/child.h"
#include "../../engine/base/watchdog.h"
#include "../procs/evaluator.h"
#include "loop.h"
#include "../tui.h"

static struct tui T; /* one explorer per process, like the terminal it owns */

bool tui_have_terminal(void)
{
    return isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
}

/* The configuration changed: show what the cache knows now, simulate the rest after a pause. */
static void config_changed(struct tui *t)
{
    if (!t->quitting)
        watch_sync(t);
    jobs_config_changed(t);
    curves_start(t);
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
    watch_close(t);
    uv_close((uv_handle_t *)&t->frame, NULL);
    uv_close((uv_handle_t *)&t->frame_io, NULL);
    helpers_close(t);
    curves_close(t);
    jobs_close(t); /* children die; the loop reaps them and then returns */
    uv_timer_start(&t->grace, on_grace, QUIT_GRACE_MS, 0);
    uv_unref((uv_handle_t *)&t->grace);
}

/* Acts on the flags a handler returned (APP_*): the one way state changes reach the loop. */
static void act(struct tui *t, unsigned flags)
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
    if (flags & APP_RERUN)
        jobs_rerun(t);
    if (flags & APP_CANCEL)
        jobs_cancel(t);
    if (flags & APP_REFINE)
        jobs_refine_changed(t);
    if (flags & APP_EVALUATED)
        jobs_evaluated(t);
    helpers_sync(t);
    watch_sync(t); /* a scenario may have opened or closed, a lesson reloaded */
    if (flags & APP_DIRTY) {
        t->dirty = true;
        curves_start(t); /* a view may have opened that needs its curves */
    }
}

/* Acts on what the callbacks posted, in order; acting may post more (a cached result comes back
 * inside a submission). */
static void drain(struct tui *t)
{
    unsigned flags;
    while (loop_take(t, &flags))
        act(t, flags);
}

/* An event of this file's own (a key, a click): acted on now, after whatever was posted before
 * it, so that flags are always acted on in the order their events came. */
static void act_now(struct tui *t, unsigned flags)
{
    loop_post(t, flags);
    drain(t);
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
        act_now(t, app_click(&t->app, index, frac));
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
        /* PgDn stops at the lesson text's end, which only the view can measure: the wrap
         * depends on the width, and the layout on the state (P, a). */
        struct view_layout now;
        view_layout(t->scr.rows, t->scr.cols, &t->app, &now);
        t->app.text_most = view_lesson_text_most(&t->scr, &now, &t->app);
        unsigned flags = app_key(&t->app, key);
        if (flags & APP_CONFIG)
            t->config_key_at = at;
        act_now(t, flags);
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

/* The latency statistics (--stats): the keys, results and models this frame shows. */
static void measure_frame(struct tui *t)
{
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
    if (t->faithful_key_at) {
        stats_add(&t->faithful_latency, (double)(now - t->faithful_key_at) / 1e6);
        t->faithful_key_at = 0;
    }
    if (t->model_landed && !t->app.model_pending) {
        for (int i = 0; i < t->nmodel_keys; i++)
            stats_add(&t->model_latency, (double)(now - t->model_keys[i]) / 1e6);
        t->nmodel_keys = 0;
    }
    t->model_landed = false;
}

/* The one place a frame is drawn, and only if something changed since the last one: the views
 * read the state, and nothing here changes it. */
static void draw(struct tui *t)
{
    if (!t->dirty || !t->screen_on)
        return;
    /* The theme chosen, or high contrast for a presentation from the default one. */
    int theme = t->app.present && t->app.theme == THEME_DARK ? THEME_CONTRAST : t->app.theme;
    if (theme != t->scr.theme)
        screen_set_theme(&t->scr, theme);
    view_layout(t->scr.rows, t->scr.cols, &t->app, &t->layout); /* P or a toggled */
    view_draw(&t->scr, &t->layout, &t->app, t->max_jobs);
    enum app_mode m = t->app.mode;
    if (m == APP_MAIN || m == APP_SCRIPT_PATH || m == APP_ERROR || m == APP_PRESET_SAVE ||
        m == APP_ANSWER)
        view_script_draw(&t->scr, &t->layout, &t->app);
    if (m == APP_ERROR) /* over the scenario panel, whose error it often is */
        view_error_draw(&t->scr, &t->layout, &t->app);
    wnoutrefresh(stdscr);
    doupdate();
    t->dirty = false;
    measure_frame(t);
}

static void on_frame(uv_prepare_t *h)
{
    drain(h->data);
    draw(h->data);
}

static void on_frame_io(uv_check_t *h)
{
    drain(h->data);
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
    uv_timer_init(l, &t->grace);
    watch_init(t);
    uv_prepare_init(l, &t->frame);
    t->frame.data = t;
    uv_prepare_start(&t->frame, on_frame);
    uv_check_init(l, &t->frame_io);
    t->frame_io.data = t;
    uv_check_start(&t->frame_io, on_frame_io);
    return 0;
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

/* --stats: the latency percentiles, on stderr once the terminal is back. */
static void report_latency(const struct tui *t)
{
    if (t->latency.n)
        fprintf(stderr, "situ: key-to-frame latency over %zu keys: p50 %.2f ms, p99 %.2f ms\n",
                t->latency.n, stats_percentile(&t->latency, 50), stats_percentile(&t->latency, 99));
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
    /* The faithful answer: the refinement's result (sampled full) on screen, from the last key. */
    if (t->faithful_latency.n)
        fprintf(stderr,
                "situ: key-to-faithful-result latency (the last key to the refined SimGrid "
                "result on screen) over %zu keys: p50 %.0f ms, max %.0f ms\n",
                t->faithful_latency.n, stats_percentile(&t->faithful_latency, 50),
                stats_percentile(&t->faithful_latency, 100));
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
    if (o->strategies && xover_choose(&t->app.xo, o->strategies, err, sizeof err) < 0) {
        fprintf(stderr, "situ: --strategies: %s\n", err); /* main checked it: not expected */
        app_free(&t->app);
        uv_loop_close(&t->loop);
        return 2;
    }
    xover_rebase(&t->app.xo, &t->app.p, &t->app.pf); /* the chosen strategies, if any */
    app_xover_sync(&t->app);
    loop_platform_init(t); /* from now on, new platforms are read off this thread */
    t->app.script_unsafe = o->unsafe;
    t->app.refine = !o->no_refine;
    if (o->lesson_log)
        snprintf(t->app.lesson_log, sizeof t->app.lesson_log, "%s", o->lesson_log);
    if (o->student)
        snprintf(t->app.lesson.student, sizeof t->app.lesson.student, "%s", o->student);
    const char *theme = o->theme ? o->theme : getenv("SITU_THEME");
    if (theme && *theme && (t->app.theme = theme_find(theme)) < 0) {
        const char *near = params_nearest(theme, theme_names, THEME_COUNT);
        fprintf(stderr,
                "situ: %s: '%s' is not valid; expected one of dark, contrast, light%s%s%s\n",
                o->theme ? "--theme" : "SITU_THEME", theme, near ? "; did you mean '" : "",
                near ? near : "", near ? "'?" : "");
        app_free(&t->app);
        uv_loop_close(&t->loop);
        return 2;
    }
    if (t->app.theme < 0)
        t->app.theme = THEME_DARK;
    t->scr.theme = t->app.theme;
    /* A lesson is user code: a child runs it, where a hang is stopped at the time limit, and
     * hands over what the panel needs (its text and configurations) as data; none of it runs
     * here. */
    struct lesson *lesson = NULL;
    if (o->lesson && o->lesson[0] &&
        (!(lesson = evaluator_lesson_check(o->lesson, script_time_limit(), err, sizeof err)) ||
         app_lesson_open(&t->app, lesson, err, sizeof err) < 0)) {
        fprintf(stderr, "situ: %s\n", err);
        app_free(&t->app);
        uv_loop_close(&t->loop);
        return 2;
    }
    if (jobs_open(t, err, sizeof err) < 0) {
        fprintf(stderr, "situ: %s\n", err);
        goto out;
    }
    if (screen_open(&t->scr, err, sizeof err) < 0) {
        fprintf(stderr, "situ: %s\n", err);
        goto out;
    }
    t->screen_on = true;
    screen_on_fatal(child_kill_all_signal_safe); /* every child of ours, of any kind */
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
    if (helpers_open(t) < 0 || curves_open(t) < 0)
        begin_quit(t, 1);
    else
        config_changed(t);
    if (o->script && o->script[0])
        act_now(t, app_script_open(&t->app, o->script));
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
    jobs_close(t);
    uv_walk(&t->loop, close_any, NULL);
    /* A curve computation on the thread pool may take seconds more (a large layout): the user
     * asked to quit, so it is not waited for; the process's exit ends its thread. */
    bool busy = t->curves_busy && !params_user_lua(&t->app.p);
    left_busy = busy;
    uv_run(&t->loop, busy ? UV_RUN_NOWAIT : UV_RUN_DEFAULT);
    jobs_free(t);
    /* The terminal is back: what reproduces the screen goes to stdout, for the shell's history
     * and for a script that wraps the explorer (q, not a failure). */
    char cmd[4096];
    if (rc == 0 && t->app.p.platform[0] && app_command_line(&t->app, cmd, sizeof cmd) == 0)
        printf("%s\n", cmd);
    app_free(&t->app); /* the worker has its own copies of what it reads */
    if (!busy)
        uv_loop_close(&t->loop);
    if (t->want_stats)
        report_latency(t);
    stats_free(&t->latency);
    stats_free(&t->sim_latency);
    stats_free(&t->key_result_latency);
    stats_free(&t->faithful_latency);
    stats_free(&t->model_latency);
    return rc;
}
