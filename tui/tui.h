/* The explorer's entry points for cli/main.c. */
#ifndef SITU_TUI_H
#define SITU_TUI_H

#include <stdbool.h>

#include "../engine/params.h"

/* Whether stdin and stdout are both terminals (the explorer needs them). */
bool tui_have_terminal(void);

struct tui_opts {
    const struct params *p; /* the starting configuration, parsed and validated */
    const char *preset;     /* where p came from ("" if nowhere), for the header */
    bool stats;             /* print key-to-frame latency percentiles on stderr at exit */
    const char *lesson;     /* a lesson to open (name or path), or NULL */
    double alert;           /* link utilisation alert threshold; <= 0: the default */
    const char *script;     /* a scenario to open at start-up, "FILE [ARG ...]", or NULL */
    bool unsafe;            /* scenarios get the whole standard library (situ script --unsafe) */
};

/* Runs the explorer. Returns the process exit status (2 if the lesson cannot be loaded). */
int tui_run(const struct tui_opts *o);

#endif
