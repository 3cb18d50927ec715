/* The explorer's entry points for cli/main.c. */
#ifndef SITU_TUI_H
#define SITU_TUI_H

#include <stdbool.h>

#include "../engine/params.h"

/* Whether stdin and stdout are both terminals (the explorer needs them). */
bool tui_have_terminal(void);

/* Runs the explorer from configuration p (already parsed and validated); preset names where p
 * came from ("" if nowhere). With stats, prints key-to-frame latency percentiles on stderr at
 * exit. Returns the process exit status. */
int tui_run(const struct params *p, const char *preset, bool stats);

#endif
