/* The explorer's state and everything that changes it. No curses and no libuv here: events come
 * in as calls (a key, a click, a simulation result), the state changes, and the call returns
 * flags saying what the loop must do (htop's Panel style). The screen is a function of this
 * state, so all of it is testable without a terminal. */
#ifndef SITU_TUI_APP_H
#define SITU_TUI_APP_H

#include <stdbool.h>

#include "../view/theme.h"
#include "../../engine/scenario/lesson.h"
#include "../../engine/model/model.h"
#include "../../engine/model/params.h"
#include "../../engine/model/platform.h"
#include "../../engine/model/preset.h"
#include "../../engine/model/result.h"
#include "../../engine/run/runner.h"
#include "../../engine/lua/script.h"
#include "../advise/advise_map.h"
#include "app_sizes.h"
#include "../lesson/lesson_state.h"
#include "../scaling/scaling.h"
#include "../script/script_state.h"
#include "../xover/xover.h"

/* Keys as the app sees them: printable ASCII as itself, the rest above Unicode's range. */
enum app_keycode {
    APP_KEY_UP = 0x110000,
    APP_KEY_DOWN,
    APP_KEY_LEFT,
    APP_KEY_RIGHT,
    APP_KEY_PGUP,
    APP_KEY_PGDN,
    APP_KEY_HOME,
    APP_KEY_END,
    APP_KEY_ENTER,
    APP_KEY_ESC,
    APP_KEY_BACKSPACE,
    APP_KEY_TAB,
    APP_KEY_BTAB,
    APP_KEY_CTRL_C,
    APP_KEY_CTRL_U,
};

/* What a handler asks the loop to do. */
enum app_flags {
    APP_DIRTY = 1,  /* the screen changed */
    APP_CONFIG = 2, /* the configuration changed: look up the cache, debounce a simulation */
    APP_RERUN = 4,  /* simulate the current configuration again, now, ignoring the cache */
    APP_QUIT = 8,
    APP_SCRIPT = 16,        /* the scenario has a request to submit or its results are in */
    APP_SCRIPT_CANCEL = 32, /* the scenario closed: drop the runs it was waiting for */
    APP_EVALUATED = 64,     /* a Lua analytics' model landed: simulations may start */
    APP_CANCEL = 128,       /* drop the simulation of the configuration on screen (C) */
    APP_REFINE = 256,       /* refinement turned on or off (f): start it, or drop its runs */
};

/* APP_SCRIPT_PATH: typing the path of a scenario to run (x). */
/* APP_ERROR: the last error in full, wrapped, over the screen (!). APP_PRESET_SAVE: typing the
 * name (and description) to save the configuration as a preset under (w). */
enum app_mode {
    APP_MAIN,
    APP_EDIT,
    APP_HELP,
    APP_PRESETS,
    APP_SCRIPT_PATH,
    APP_ERROR,
    APP_PRESET_SAVE,
    APP_ANSWER /* typing the answer to a lesson step's question (a) */
};

/* What the block under the sliders shows: the crossover, the lesson, the links of the latest
 * simulation, or the static scaling of the model. One at a time: the screen has room for one. */
enum app_pane {
    APP_PANE_XOVER,
    APP_PANE_LESSON,
    APP_PANE_LINKS,
    APP_PANE_SCALING,
    APP_PANE_STAGES /* the per-stage table, model against SimGrid (t) */
};

/* The simulation of the current configuration. */
enum sim_phase {
    SIM_NONE,
    SIM_WAITING,
    SIM_QUEUED,
    SIM_RUNNING,
    SIM_DONE,
    SIM_FAILED,
    SIM_CANCELLED
};

#define APP_PRESETS_MAX 32
#define APP_DESC_MAX    160
#define APP_EDIT_MAX    96
#define APP_ERR_LONG    1024 /* an analytics error: a whole path, then the message */

struct app_state {
    struct params p;
    char preset[PRESET_NAME_MAX];  /* "" when the configuration came from flags alone */
    char key[RUNNER_KEY_MAX];      /* params_canonical(p) */
    char base_key[RUNNER_KEY_MAX]; /* ... of the preset (or the defaults) as loaded */
    bool modified;                 /* key differs from base_key: moved away from the preset */

    int sliders[PARAM_MAX]; /* parameter ids with slider=true, in table order */
    int nsliders;
    int focus; /* index into sliders */

    enum app_mode mode;
    char edit[APP_EDIT_MAX]; /* the value being typed */
    int edit_len;
    bool edit_prefilled;        /* edit holds the last value: typing replaces it, Enter keeps it */
    char edit_err[APP_MSG_MAX]; /* why the typed value was refused; stays until the next key */
    char notice[APP_MSG_MAX];   /* one line under the sliders: a refused step, a loaded preset */
    /* A key that asks before it acts (q in a lesson, n past an unmet goal, the last-resort hint):
     * the key that asked, and the one pressed before this one (app_confirm). */
    int confirm_key, confirm_prev;
    bool notice_error;

    struct platform pf; /* loaded once per platform path */
    bool pf_loaded;
    char pf_path[PARAMS_PATH_MAX];
    /* A platform not yet digested, or routes a large one has not given yet, are read by SimGrid
     * off the UI thread (load_platform, set by the loop; NULL: here and now): pf_pending is
     * applied when app_platform_loaded says they are cached, the old numbers staying up. */
    void (*load_platform)(void *ud, const struct params *cand);
    void *load_ud;
    struct params pf_pending;
    bool pf_loading, pf_pending_preset;
    struct model_result model; /* of p when model_valid (while pending: of the last p) */
    bool model_valid;          /* model holds numbers (false: none yet, or the analytics failed) */
    bool model_pending;        /* a Lua analytics is being evaluated for p (evaluator.h) */
    long model_gen;            /* bumped whenever p's model must be evaluated anew */
    bool reloading;            /* ...because the analytics file changed: say so when it lands */

    enum sim_phase sim_phase;
    struct sim_result sim; /* valid when has_sim; owned */
    bool has_sim, sim_cached;
    double sim_seconds;
    double sim_running_for; /* seconds the current simulation has run (the loop's clock) */
    char sim_err[RUNNER_ERR_MAX];
    /* Refinement (f; --no-refine starts without it): after a change the column shows the model at
     * once, then the fast engine's numbers, then sampled full fidelity's once the setting has
     * stayed a moment (loop_jobs.c). A result supersedes a less faithful one, never the reverse. */
    bool refine;
    int sim_fid;  /* fidelity of the numbers shown (has_sim): enum fidelity */
    int sim_next; /* fidelity of the run under way for the column (QUEUED, RUNNING); -1 none */

    struct xover xo;

    int running, queued; /* the runner's counts */
    char last_error[RUNNER_ERR_MAX + 128];

    char presets[APP_PRESETS_MAX][PRESET_NAME_MAX];
    char preset_desc[APP_PRESETS_MAX][APP_DESC_MAX]; /* each one's description, for the picker */
    int npresets, preset_sel;

    enum app_pane pane;
    int links_scroll; /* links skipped at the top of the link view ([ ]) */
    struct app_lesson lesson;
    double alert;                      /* link utilisation threshold, 0..1 */
    bool script_unsafe;                /* scenarios get the whole standard library */
    char analytics_err[APP_ERR_LONG];  /* why a Lua analytics gives no numbers, whole; "" if it does
                                        */
    struct scaling sc;                 /* the static scaling view's curves */
    struct app_script script;          /* the scenario panel */
    struct advise_map adv;             /* the advisor view (a), in place of the results */
    bool present;                      /* presentation: a big plot, the focused slider only (P) */
    int theme;                         /* enum screen_theme (theme.h) chosen: --theme, T */
    int text_scroll;                   /* lines of the lesson's step text skipped (PgUp PgDn) */
    int text_most;                     /* ... at most (the loop measures it before each key) */
    int help_scroll;                   /* rows of the key help skipped */
    char last_script[PARAMS_PATH_MAX]; /* the scenario last run: x prefills it */
    char lesson_log[PARAMS_PATH_MAX];  /* --log FILE: JSON lines of goals met; "" for none */
};

/* ---- the key table (app_keys.c) ---- */

/* Where a binding applies, within its mode: all the bits set must hold. */
enum app_keyctx {
    APP_CTX_LESSON = 1,    /* a lesson is open */
    APP_CTX_DONE = 2,      /* ... and finished (the summary shows) */
    APP_CTX_SCRIPT = 4,    /* the scenario panel is open */
    APP_CTX_LINKS = 8,     /* the link view shows */
    APP_CTX_TEXT = 16,     /* text that scrolls shows: the lesson or the scenario panel */
    APP_CTX_NOLESSON = 32, /* no lesson open */
    APP_CTX_ADVISE = 64,   /* the advisor view is open (a) */
};

/* One binding: its keys, how the help and the footer name it, and what it does. Each mode has a
 * table; the first active row holding the key handles it, so the footer, the help (?) and the
 * dispatch cannot disagree. Adding a key is adding a row. */
struct app_keydef {
    unsigned ctx; /* APP_CTX_* that must all hold; 0: anywhere in the mode */
    int keys[6];  /* key codes (app_keycode or ASCII), 0-terminated */
    /* The help's key column; "<ud>", "<lr>" and "<enter>" stand for the screen's glyphs. NULL
     * with help NULL: a row the help does not list (its keys are in another row's line). */
    const char *names;
    const char *help;     /* the help line */
    const char *foot_key; /* the footer's name of the key; NULL: not in the footer */
    const char *foot;     /* the footer's label */
    int foot_prio;        /* 1: always in the footer; 2: when there is room */
    unsigned (*fn)(struct app_state *s, int key, int arg);
    int arg;
    unsigned (*act)(struct app_state *s); /* when fn is NULL: an action that needs no key */
};

struct app_keymap {
    const struct app_keydef *defs;
    int n;
    const char *title; /* of the help box */
    /* Keys no row holds (a prompt's typing); NULL: they do nothing. */
    unsigned (*other)(struct app_state *s, int key);
};

/* The table of mode m. */
const struct app_keymap *app_keymap(enum app_mode m);
/* Whether row d applies to the state as it is. */
bool app_keydef_active(const struct app_state *s, const struct app_keydef *d);
/* Whether row i's first key (the one the footer names) is taken by an earlier active row now:
 * the advisor's arrows, say, over the sliders' step. */
bool app_keydef_shadowed(const struct app_state *s, const struct app_keymap *map, int i);

/* A line under the sliders: a notice, or (error) a refusal. */
void app_notice(struct app_state *s, bool error, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The configuration, its model, its simulation or the lesson's step changed: the step's goal is
 * due to be checked again (the loop asks the evaluator process: app_lesson_goal_due). */
void app_goal_recheck(struct app_state *s);
/* Applies cand as a user's move: the flags of a configuration change, or a notice saying why not.
 */
unsigned app_try_apply(struct app_state *s, const struct params *cand);

/* Starts from p (validated by the caller's parser). -1 with err if the model cannot evaluate p.
 * app_life.c, as app_free. */
int app_init(struct app_state *s, const struct params *p, const char *preset, char *err,
             size_t errlen);
void app_free(struct app_state *s);

unsigned app_key(struct app_state *s, int key);

/* A click on slider `index` at `frac` (0..1) along its track, or on its name when frac < 0. */
unsigned app_click(struct app_state *s, int index, double frac);

/* The background read of pf_pending's platform ended (err NULL: its digest is cached): applies
 * pf_pending, or says why the platform was refused. Returns APP_* flags. */
unsigned app_platform_loaded(struct app_state *s, const char *err);
/* Makes cand the configuration if it is valid and the model evaluates it; -1 with err if not
 * (nothing changes). */
int app_apply(struct app_state *s, const struct params *cand, char *err, size_t errlen);

/* A simulation finished (or came from the cache): p is its configuration; exactly one of r and
 * error is set. Applies it to the current configuration and/or the crossover points. */
unsigned app_on_result(struct app_state *s, const struct params *p, const struct sim_result *r,
                       const char *error, bool cached, double seconds);

/* The crossover curves: computed here and now (tests, start-up), or installed when the loop's
 * background computation lands (ignored if the configuration has moved on since). */
void app_xover_sync(struct app_state *s);
unsigned app_on_curves(struct app_state *s, const struct xover_curves *c);

/* The runner's counts and the phase of the column's run under way at fidelity `next` (-1: none),
 * whenever they change (loop_jobs.c). */
unsigned app_set_jobs(struct app_state *s, int running, int queued, enum sim_phase current,
                      int next);

/* The fidelity the SimGrid column ends at: with refinement, full (smpi when the fidelity
 * parameter says smpi); without, the fidelity parameter's own. */
int app_sim_target(const struct app_state *s);
/* The fidelity of the first run after a change: fast with refinement, else the target. */
int app_sim_first(const struct app_state *s);
/* p at fidelity f: the column's runs and the crossover's points differ from p in that alone. */
void app_at_fidelity(const struct params *p, int f, struct params *out);
/* f: refinement on or off. */
unsigned app_refine_toggle(struct app_state *s);

/* How long the current configuration's simulation has run (0: it is not running). */
unsigned app_set_running_for(struct app_state *s, double seconds);

/* The analytics file changed on disk: evaluate the model anew, drop results of the old
 * content, simulate anew once the model is in. */
unsigned app_on_analytics_changed(struct app_state *s);

/* The evaluator's answer for model_gen gen: the model of p, or why there is none (shown in
 * place of the numbers; no simulation starts for a failing analytics). Ignored if stale. */
unsigned app_on_model(struct app_state *s, long gen, const struct model_result *m, const char *err);

/* Whether simulations of p may start: its model is in and the analytics did not fail. */
bool app_sim_allowed(const struct app_state *s);

/* The static scaling curves landed from the loop's background computation (ignored if stale). */
unsigned app_on_scaling(struct app_state *s, const struct scaling_curves *c);
/* Computes them here and now (tests). */
void app_scaling_sync(struct app_state *s);

/* ---- the advisor view (app_advise.c); its keys are rows of the key table ---- */

/* a: opens (building the map) or closes the advisor view. */
unsigned app_advise_open(struct app_state *s);
/* Moves the cursor (the two sliders of its axes) by dx, dy cells; to the best cell; the next
 * parameter on axis 'X' or 'Y'; the next objective. */
unsigned app_advise_move(struct app_state *s, int dx, int dy);
unsigned app_advise_best(struct app_state *s);
unsigned app_advise_axis(struct app_state *s, int axis);
unsigned app_advise_objective(struct app_state *s);

/* ---- lessons (app_lesson.c) ---- */

/* Opens lesson l (the app owns it from now on, even on failure) at step 1, loading its
 * configuration. In the explorer l is the checking child's copy (evaluator_lesson_check): no
 * Lua of the lesson runs here. -1 with err; else APP_* flags. */
int app_lesson_open(struct app_state *s, struct lesson *l, char *err, size_t errlen);
void app_lesson_close(struct app_state *s);
/* Goes to step i (0-based): forward keeps what the user set and loads the step's configuration
 * on top; backward keeps the configuration as it is (the student's work is theirs). Past the last
 * step it finishes the lesson: the summary shows. */
unsigned app_lesson_goto(struct app_state *s, int i);
/* R: back to step 1 from the configuration the lesson started with; goals and clock reset. */
unsigned app_lesson_restart(struct app_state *s);
/* The summary: goals met of how many steps have one; seconds taken (until done, or now). */
int app_lesson_goals_met(const struct app_state *s, int *goals);
double app_lesson_seconds(const struct app_state *s);
/* The lesson's own clock (monotonic seconds): how long a student took. */
double app_lesson_now(void);
/* i: one more level of the step's hint; past the last, hides it. The last resort asks first. */
unsigned app_lesson_hint(struct app_state *s);
/* n: the next step; on an unmet goal it asks once first (a notice: n again moves on). */
unsigned app_lesson_next(struct app_state *s);
/* b: the step before, its setup loaded (the student's changes put aside); R: this step's setup
 * again, the same way. y swaps the changes put aside with the configuration on screen. */
unsigned app_lesson_back(struct app_state *s);
unsigned app_lesson_reset_step(struct app_state *s);
unsigned app_lesson_yours(struct app_state *s);
/* q in a lesson: asks once (the place is kept in the log); returns APP_QUIT when confirmed. */
unsigned app_lesson_quit(struct app_state *s);
/* Whether key was pressed twice in a row (the second press confirms); if not, asks with msg. */
bool app_confirm(struct app_state *s, int key, const char *msg);

/* ---- the lesson's log (app_lesson_log.c) ---- */

/* One JSON object a line, appended whole (O_APPEND, one write) to the --log file: a shared
 * directory of students' logs works. event: "start", "step", "goal met", "hint", "answer",
 * "back", "reset", "skip", "quit", "complete", "restart". step < 0: none; msg may be NULL. A failed
 * write says so on screen and the lesson goes on. */
void app_lesson_log(struct app_state *s, const char *event, int step, const char *msg);
/* The student's place in the log: their last step, goals met and clock, from their earlier lines
 * of the same lesson. 1 if there is one, 0 if not (a first start, no log). */
int app_lesson_log_place(const struct app_state *s, int *step, unsigned long long *met,
                         double *seconds);
/* At the start of a lesson: back at the student's place in the log, the step's setup loaded, and
 * the start logged. 1 if the configuration changed. */
int app_lesson_resume(struct app_state *s);
/* The goal check the loop must have the evaluator process make (the goal is user code, never run
 * here): the lesson's file, the step and the state; returns the check's generation, 0 if none is
 * due (no goal, or the model is not in yet). */
long app_lesson_goal_due(const struct app_state *s, const char **lesson, int *step,
                         const struct sim_result **sim, const char **answer);
/* The lesson's file changed and its checking child ran it within the limit: the panel takes l,
 * the child's copy (the app owns it), at the same step (the last, if it has fewer now), the
 * configuration and the goals met kept. _failed: why it did not (the old lesson stays). */
unsigned app_lesson_reload(struct app_state *s, struct lesson *l);
unsigned app_lesson_reload_failed(struct app_state *s, const char *why);
/* A: the prompt for the answer to the step's question (a notice if it asks none); Enter on it
 * records the answer, which the goal then checks (state.answer). */
unsigned app_lesson_answer_begin(struct app_state *s);
unsigned app_lesson_answer_commit(struct app_state *s);
/* The evaluator's answer for check gen (goal: enum lesson_goal; msg its message or error). */
unsigned app_lesson_on_goal(struct app_state *s, long gen, int goal, const char *msg);

/* ---- scenarios (app_script.c) ---- */

/* Opens the scenario panel running "FILE [ARG ...]" (words as a shell splits them; the whole
 * line if it names a file), its arguments in the script's `arg` as `situ script` gives them.
 * A Lua error shows in the panel. APP_* flags. */
unsigned app_script_open(struct app_state *s, const char *cmdline);
/* Closes the panel; the flags ask the loop to kill its process and cancel its runs. */
unsigned app_script_close(struct app_state *s);
/* The process the loop must start now: its file and arguments into words (up to max), how many
 * (0: none). Marks it started. */
int app_script_start(struct app_state *s, char **words, int max);
/* What the scenario's process says (scenario_host.h): its output, a request, its end (err: the
 * error and its traceback, or NULL when it finished). APP_* flags; APP_SCRIPT: a request. */
unsigned app_script_on_output(struct app_state *s, const char *text, size_t len);
unsigned app_script_on_request(struct app_state *s, const struct params *p, int n);
unsigned app_script_on_end(struct app_state *s, const char *err);
/* The request the loop must submit now: n configurations (0: none), valid until the next
 * request or the end. Marks it submitted. */
int app_script_request(struct app_state *s, const struct params **p);
/* Result i of the request of scenario gen (one of r and error set) came: counted. 0 if the
 * result is for no request of the current scenario (the loop then feeds nothing). */
unsigned app_script_on_result(struct app_state *s, int gen, int i, const struct sim_result *r,
                              const char *error);
/* The scenario's file changed: it runs again, with the same arguments. */
unsigned app_script_reload(struct app_state *s);
/* Enter on the scenario prompt (APP_SCRIPT_PATH): opens "FILE [ARG ...]" as typed. */
unsigned app_script_path_commit(struct app_state *s);
/* Line k of the output, 0 the oldest of the nlines kept. */
const char *app_script_line(const struct app_state *s, int k);

/* The error to show first (status bar, !): a broken analytics file, then the simulation of the
 * configuration on screen, then the scenario's, then the last of any other; "" if none. *what
 * says whose ("analytics: ", ...). */
const char *app_error(const struct app_state *s, const char **what);

/* What to take with caution when no error shows (status bar, !): the finished simulation's
 * warning, else the model's (model_warning); "" if none. Written into buf. */
const char *app_caution(const struct app_state *s, char *buf, size_t len);

/* "situ run --ratio 31 ...": the command that simulates the configuration on screen (every
 * parameter that is not at its default, shell-quoted). -1 if it does not fit in buf. */
int app_command_line(const struct app_state *s, char *buf, size_t len);

/* Enter on the save prompt (APP_PRESET_SAVE): "NAME [description ...]" saves the configuration as
 * preset NAME (preset_save); it becomes the current preset. */
unsigned app_preset_save_commit(struct app_state *s);

/* E: exports what is on screen into the working directory: the results (model and SimGrid, per
 * stage) as JSON and CSV, and the plot in view (the crossover, else the bars) as SVG and PNG, each
 * through outfile (whole or absent). The notice names the files, or says why not (export.c). */
unsigned app_export(struct app_state *s);

/* The focused parameter id. */
int app_focused(const struct app_state *s);

/* Where parameter id sits on its slider track, 0..1: ratios among the realisable values, nodes
 * among the platform's hosts, the rest in the parameter table's range. */
double app_position(const struct app_state *s, int id);

#endif
