/* The explorer's entry points for cli/main.c. */
#ifndef SITU_TUI_H
#define SITU_TUI_H

#include <stdbool.h>
#include <stddef.h>

#include "../engine/model/params.h"

/* Whether stdin and stdout are both terminals (the explorer needs them). */
bool tui_have_terminal(void);

/* Whether TERM names a terminal the explorer can draw on (set, known to terminfo, able to place
 * the cursor). -1 with a one-line reason and a hint. */
int tui_term_usable(char *err, size_t errlen);

struct tui_opts {
    const struct params *p; /* the starting configuration, parsed and validated */
    const char *preset;     /* where p came from ("" if nowhere), for the header */
    bool stats;             /* print key-to-frame latency percentiles on stderr at exit */
    const char *lesson;     /* a lesson to open (name or path), or NULL */
    const char *lesson_log; /* --log FILE: the lesson's events as JSON lines, or NULL */
    const char *student;    /* --student ID: named in the log, resumed from it; or NULL */
    const char *theme;      /* --theme NAME (else SITU_THEME, else dark), or NULL */
    double alert;           /* link utilisation alert threshold; <= 0: the default */
    const char *script;     /* a scenario to open at start-up, "FILE [ARG ...]", or NULL */
    bool unsafe;            /* scenarios get the whole standard library (situ script --unsafe) */
    const char *strategies; /* --strategies: the crossover's list (strategy.h), or NULL */
    bool no_refine;         /* --no-refine: no full-fidelity refinement until f (slow machines) */
};

/* Runs the explorer. Returns the process exit status (2 if the lesson cannot be loaded). */
int tui_run(const struct tui_opts *o);

/* After tui_run: whether a curve computation was still running on libuv's thread pool when the
 * explorer quit. The process must then end with _exit once its output is checked: libuv's exit
 * handler joins the pool's threads, and would wait seconds for the computation to finish. */
bool tui_must_exit_now(void);

#endif
