/* What script.c shares with script_async.c, and nothing else includes. */
#ifndef SITU_SCRIPT_INTERNAL_H
#define SITU_SCRIPT_INTERNAL_H

#include <stdbool.h>

#include "script.h"

/* The wall clock (watchdog.h) and the collector around an outermost call: user code, finalizers
 * included, runs only between the two. */
void script_clock_start(struct script *s);
void script_clock_stop(struct script *s);

/* Whether a message already says where ("file.lua:12: ..."). */
bool script_has_position(const char *msg);

/* s->err from a failed call (memory errors get the hook's last position). */
void script_set_error(struct script *s, int status, const char *msg);

#endif
