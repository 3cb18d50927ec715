/* Wall-clock deadlines for user code, kept by one thread. Lua's count hook stops a runaway
 * script at its next instruction (watchdog_expired), but never fires inside a C function (a
 * pathological string.find) or a finalizer (hooks are off there): such code is stopped by
 * ending the process, with one line on stderr and exit 2, a grace period after the deadline.
 * Processes that must survive their user code (the explorer) run it in a child instead. */
#ifndef SITU_WATCHDOG_H
#define SITU_WATCHDOG_H

#include <stdbool.h>

/* Between the deadline and the hard stop: time for the hook to stop Lua code cleanly. */
#define WATCHDOG_GRACE 0.25

/* Starts a deadline `seconds` from now for code named `what` (a file path, for the message).
 * Returns a handle >= 0, or -1 when seconds <= 0 (no limit) or every slot is taken (nested
 * interpreters deeper than that run without a hard stop of their own; the outer one holds). */
int watchdog_arm(double seconds, const char *what);
void watchdog_disarm(int handle);

/* Whether the deadline of handle has passed (any thread; -1: never). */
bool watchdog_expired(int handle);

/* Waiting for simulations is not user code running: pause every deadline meanwhile. The pause
 * also ends the watchdog's thread (the next deadline or the resume starts it again), so that a
 * process waiting for its simulations has no thread of ours: its children may be copies. */
void watchdog_pause(void);
void watchdog_resume(void);

/* Runs just before the process ends on a hard stop (async-signal-safe work only: kill
 * children, restore a terminal). */
void watchdog_on_fire(void (*fn)(void));

#endif
