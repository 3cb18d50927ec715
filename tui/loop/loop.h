/* The explorer's shared state, one struct for the files of its event loop, each one concern:
 * loop.c owns the libuv loop (the terminal, signals, frames, quitting) and is the only file that
 * acts on a handler's flags; loop_jobs.c submits the simulations to the runner and receives
 * them; loop_curves.c computes the crossover and scaling curves; loop_watch.c follows the files
 * on disk; loop_helpers.c runs the helper processes where user Lua runs; loop_platform.c reads
 * new platforms. Their callbacks turn an event into an app call and post the flags it returns
 * (loop_post): loop.c acts on them before the next frame, so the arrows run one way, from
 * loop.c to the others. One explorer per process, like the terminal it owns. */
#ifndef SITU_TUI_LOOP_H
#define SITU_TUI_LOOP_H

#include <stdbool.h>
#include <stdint.h>
#include <uv.h>

#include "../../engine/run/runner.h"
#include "../state/app.h"
#include "../../engine/run/proc.h"
#include "../view/screen.h"
#include "stats.h"
#include "../view/view.h"

/* A key's simulation waits this long for the next key. Held keys repeat every 30-40 ms and are
 * coalesced still; a key pressed on its own costs a ready child (no process start: runner.h),
 * killed by the next key if it comes, so the wait no longer has to hide a process start. 80 ms
 * (from 150) brings a key's SimGrid result to the screen within 150 ms (make bench). */
#define DEBOUNCE_MS    80
#define PRIO_CURRENT   10 /* the configuration on screen preempts everything else */
#define PRIO_REFINE    9  /* ...its full-fidelity refinement, behind its fast run */
#define TAG_REFINE     2
#define REFINE_MS      400 /* the setting has stayed this long: full fidelity starts */
#define PRIO_XOVER     0
#define TAG_CURRENT    1
#define TAG_XOVER_BASE 100
#define PRIO_SCRIPT    5 /* a scenario's runs: asked for, but behind the configuration on screen */
#define PENDING_MAX    64
#define POSTED_MAX     256 /* flags waiting for loop.c; a fuller queue merges into its last */
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
    /* loop.c: the loop, the terminal, the frames */
    uv_loop_t loop;
    uv_poll_t input;
    uv_signal_t sig_winch, sig_int, sig_term, sig_hup;
    uv_timer_t grace;
    uv_prepare_t frame;  /* draws what timers changed before the loop blocks */
    uv_check_t frame_io; /* draws what keys and children changed, before anything else runs */
    struct app_state app;
    struct screen scr;
    struct view_layout layout;
    bool dirty, quitting, screen_on;
    int idle_polls; /* readable without a key: the terminal may be gone */
    int exit_code;
    /* The flags callbacks posted (loop_post), first in, first acted on. */
    unsigned posted[POSTED_MAX];
    int posted_head, nposted;

    /* loop_jobs.c: the runner, the simulation on screen and the crossover's points */
    struct runner *runner;
    uv_timer_t debounce;
    int max_jobs;
    long current_id;                       /* the submission for the configuration on screen */
    int xo_tag;                            /* tag of the crossover points' submissions */
    int xo_gen;                            /* one tag per crossover base */
    char xo_key[RUNNER_KEY_MAX];           /* crossover base they were submitted for */
    bool sim_deferred, sim_deferred_force; /* a simulation waits for its model */
    uv_timer_t progress;                   /* while it runs: how long, every second on screen */
    /* Refinement: once the setting has stayed REFINE_MS, the configuration on screen and its
     * crossover points run again at the column's target fidelity (app_sim_target). */
    uv_timer_t refine;
    long refine_id;                          /* the refining submission, or 0 */
    int current_fid, refine_fid;             /* the fidelity of each submission */
    char refine_key[RUNNER_KEY_MAX];         /* app.key it refines */
    char xo_refined[RUNNER_KEY_MAX];         /* crossover base whose points were refined */
    bool refine_deferred, refine_force;      /* it waits for a Lua model; r forces it */
    uint64_t refine_key_at, faithful_key_at; /* the key it refines; one whose answer waits */
    uint64_t running_since;                  /* when it started running (0: not running) */
    long running_job;                        /* ...which submission that is */

    /* loop_curves.c: one curve computation at a time, on the thread pool or, for a Lua
     * analytics, in the curves' evaluator process */
    bool curves_busy;
    struct evaluator *curves_ev;
    long curves_seq;

    /* loop_watch.c: the analytics, lesson and scenario files */
    struct watch watches[WATCH_KINDS];
    /* A changed lesson, read in a child: the explorer takes its lesson as data (lesson_wire.h),
     * never runs its Lua. */
    struct proc *lesson_check;

    /* loop_helpers.c: a Lua analytics' model and a lesson's goals are evaluated in child
     * processes (evaluator.h), so that neither waits for the other or for the curves. */
    struct evaluator *model_ev, *goal_ev;
    long goal_seq, goal_gen_sent;
    struct scenario_host *scenario; /* the scenario panel's process (scenario_host.h), or NULL */
    long model_seq;                 /* the latest model request; older replies are dropped */
    long model_gen_sent;            /* app.model_gen it was made for */
    int script_tag; /* tag of the scenario's submissions: -gen (never a current/xover tag) */

    /* The latency statistics (--stats): set where the events happen, taken by the frame. */
    bool want_stats;
    struct stats latency;
    uint64_t pending[PENDING_MAX]; /* when the keys not yet on screen were read */
    int npending;
    uint64_t model_keys[PENDING_MAX]; /* keys whose Lua model is not on screen yet */
    int nmodel_keys;
    bool model_landed;          /* the model came in: the next frame shows it */
    struct stats model_latency; /* key to the frame showing its Lua model (or a later key's) */
    struct stats sim_latency;   /* debounce (submission) to the simulated result on screen */
    uint64_t submitted_at;      /* when the current configuration's child was asked for */
    uint64_t result_at;         /* submission time of a result waiting for its frame */
    /* Key-to-result: the key that last changed the configuration, the one the current
     * submission was made for, and the one whose simulated result waits for its frame. */
    uint64_t config_key_at, submitted_key_at, result_key_at;
    struct stats key_result_latency;
    struct stats faithful_latency; /* key to the target fidelity's result on screen */
};

/* What a callback's app call returned (APP_*), for loop.c to act on once the callback is over:
 * callbacks only enqueue. Flags are acted on in the order posted. */
static inline void loop_post(struct tui *t, unsigned flags)
{
    if (t->nposted == POSTED_MAX) { /* never lost: merged into the newest */
        t->posted[(t->posted_head + POSTED_MAX - 1) % POSTED_MAX] |= flags;
        return;
    }
    t->posted[(t->posted_head + t->nposted++) % POSTED_MAX] = flags;
}

/* The oldest flags posted (loop.c's drain); false when none wait. */
static inline bool loop_take(struct tui *t, unsigned *flags)
{
    if (t->nposted == 0)
        return false;
    *flags = t->posted[t->posted_head];
    t->posted_head = (t->posted_head + 1) % POSTED_MAX;
    t->nposted--;
    return true;
}

/* ---- loop_jobs.c: the simulations, through the runner ---- */

/* The runner (its children are this binary exec'd) and the jobs' timers; -1 with a reason in
 * err if the runner cannot start. */
int jobs_open(struct tui *t, char *err, size_t errlen);
/* The configuration changed: the cache's answers now (posted), a simulation after a pause. */
void jobs_config_changed(struct tui *t);
/* Simulates the configuration on screen again, now, ignoring the cache (r). */
void jobs_rerun(struct tui *t);
/* Drops the simulation of the configuration on screen and its curve's points (C). */
void jobs_cancel(struct tui *t);
/* Refinement was turned on (it starts now) or off (its runs go). */
void jobs_refine_changed(struct tui *t);
/* A Lua analytics' model landed: a simulation deferred for it starts. */
void jobs_evaluated(struct tui *t);
/* Quitting: the timers close, the children die (the loop reaps them); safe to call twice. */
void jobs_close(struct tui *t);
/* Once the loop has drained. */
void jobs_free(struct tui *t);

/* ---- loop_curves.c: the crossover and scaling curves ---- */

/* The curves' evaluator, for a Lua analytics; -1 if out of memory. */
int curves_open(struct tui *t);
/* Starts the computation of the curves on screen if they are stale and none runs. */
void curves_start(struct tui *t);
void curves_close(struct tui *t);

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
/* Starts the scenario the app opened and submits what it waits for. */
void helpers_script_pump(struct tui *t);
/* The scenario panel closed: its process and its runs go. */
void helpers_script_close(struct tui *t);

/* ---- loop_platform.c ---- */

/* Lets the app read new platforms on the thread pool. */
void loop_platform_init(struct tui *t);

#endif
