/* The explorer's event loop, shared by its two files: loop.c (the terminal, signals, frames,
 * simulations, curves) and loop_helpers.c (the helper processes where user Lua runs). One
 * explorer per process, like the terminal it owns. */
#ifndef SITU_TUI_LOOP_H
#define SITU_TUI_LOOP_H

#include <stdbool.h>
#include <stdint.h>
#include <uv.h>

#include "../engine/runner.h"
#include "app.h"
#include "proc.h"
#include "screen.h"
#include "stats.h"
#include "view.h"

#define DEBOUNCE_MS    150
#define PRIO_CURRENT   10 /* the configuration on screen preempts everything else */
#define PRIO_XOVER     0
#define TAG_CURRENT    1
#define TAG_XOVER_BASE 100
#define PRIO_SCRIPT    5 /* a scenario's runs: asked for, but behind the configuration on screen */
#define PENDING_MAX    64
#define QUIT_GRACE_MS  2000
#define PROGRESS_MS    250 /* how often the running simulation's time is looked at */
#define RELOAD_MS      100 /* an editor's save is several events: act once they settle */

/* A file the explorer follows: its directory is watched (an editor's save replaces the file)
 * and a change acts once the burst of events has settled. */
enum watch_kind { WATCH_ANALYTICS, WATCH_LESSON, WATCH_SCENARIO, WATCH_KINDS };

struct watch {
    uv_fs_event_t ev;
    uv_timer_t settle;
    bool on;
    enum watch_kind kind;
    struct tui *t;
    char dir[PARAMS_PATH_MAX + 16], base[PARAMS_PATH_MAX];
};

struct tui {
    uv_loop_t loop;
    uv_poll_t input;
    uv_signal_t sig_winch, sig_int, sig_term, sig_hup;
    uv_timer_t debounce, grace;
    struct watch watches[WATCH_KINDS]; /* the analytics, lesson and scenario files (loop_watch.c) */
    struct proc *lesson_check;         /* a changed lesson's top level, run in a child first */
    uv_prepare_t frame;                /* draws what timers changed before the loop blocks */
    uv_check_t frame_io; /* draws what keys and children changed, before anything else runs */
    struct runner *runner;
    struct app_state app;
    struct screen scr;
    struct view_layout layout;
    bool dirty, quitting, screen_on;
    int max_jobs;
    long current_id;             /* the submission for the configuration on screen */
    int xo_tag;                  /* tag of the crossover points' submissions */
    int xo_gen;                  /* one tag per crossover base */
    char xo_key[RUNNER_KEY_MAX]; /* crossover base they were submitted for */
    int idle_polls;              /* readable without a key: the terminal may be gone */
    bool curves_busy;            /* a model computation (crossover, scaling) is on its way */
    /* A Lua analytics is evaluated in child processes (evaluator.h): one for the model of the
     * configuration on screen, one for the curves, so that neither waits for the other. */
    struct evaluator *model_ev, *curves_ev, *goal_ev; /* goal_ev: the lesson's goals */
    long goal_seq, goal_gen_sent;
    struct scenario_host *scenario; /* the scenario panel's process (scenario_host.h), or NULL */
    long model_seq;                 /* the latest model request; older replies are dropped */
    long model_gen_sent;            /* app.model_gen it was made for */
    long curves_seq;
    bool sim_deferred, sim_deferred_force; /* a simulation waits for its model */
    uint64_t model_keys[PENDING_MAX];      /* keys whose Lua model is not on screen yet */
    int nmodel_keys;
    bool model_landed;          /* the model came in: the next frame shows it */
    struct stats model_latency; /* key to the frame showing its Lua model (or a later key's) */
    bool want_stats;
    struct stats latency;
    struct stats sim_latency; /* debounce (submission) to the simulated result on screen */
    uint64_t submitted_at;    /* when the current configuration's child was asked for */
    uint64_t result_at;       /* submission time of a result waiting for its frame */
    uv_timer_t progress;      /* while it runs: how long, every second on screen */
    uint64_t running_since;   /* when it started running (0: not running) */
    /* Key-to-result: the key that last changed the configuration, the one the current
     * submission was made for, and the one whose simulated result waits for its frame. */
    uint64_t config_key_at, submitted_key_at, result_key_at;
    struct stats key_result_latency;
    uint64_t pending[PENDING_MAX]; /* when the keys not yet on screen were read */
    int npending;
    int exit_code;
    int script_tag;    /* tag of the scenario's submissions: -gen (never a current/xover tag) */
    bool script_busy;  /* script_pump is on the stack (a cache hit calls back inside submit) */
    bool script_again; /* ...and a result asked it to go round once more */
};

/* The explorer of this process. */
struct tui *loop_tui(void);

/* Acts on the flags a handler returned (APP_*): the one way state changes reach the loop. */
/* Lets the app read new platforms on the thread pool (loop_platform.c). */
void loop_platform_init(struct tui *t);
void loop_act(struct tui *t, unsigned flags);

/* Starts the computation of the curves on screen if they are stale and none runs. */
void loop_start_curves(struct tui *t);

/* ---- loop_watch.c: the files the explorer follows ---- */

void watch_init(struct tui *t);
/* Watches the files of the state as it is now (the analytics, the open lesson and scenario). */
void watch_sync(struct tui *t);
void watch_close(struct tui *t);

/* ---- loop_helpers.c: the helper processes (evaluator.h, scenario_host.h) ---- */

/* The evaluators; -1 if out of memory. They start their processes when first asked. */
int helpers_open(struct tui *t);
/* Kills every helper process (quitting). */
void helpers_close(struct tui *t);
/* Asks for what the app waits for: a Lua analytics' model, a lesson goal's check. */
void helpers_sync(struct tui *t);
/* The curves of a Lua analytics (scaling or crossover), from the curves' evaluator. */
void helpers_curves(struct tui *t, bool scaling);
/* Starts the scenario the app opened and submits what it waits for. */
void helpers_script_pump(struct tui *t);
/* The scenario panel closed: its process and its runs go. */
void helpers_script_close(struct tui *t);

#endif
