/* The simulation's log (sim.h: SIM_LOG_ENV): the parent XBT category of sim*.c's, and the
 * settings the user asks for. Apart from sim.c, which calls into every sim file, so that every
 * sim file can name the parent while the calls still run one way. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xbt/log.h>

#include "sim.h"
#include "sim_internal.h"

XBT_LOG_NEW_CATEGORY(situ_sim, "Situ's simulation of the workflow (engine/sim/)");

/* SIM_LOG_ENV's settings, after the quiet default they refine, and SIM_LOG_FILE_ENV's file:
 * appended to (a sweep's children share it) a line at a time, since a simulation child ends with
 * _exit and must leave nothing buffered. */
void sim_log_setup(void)
{
    const char *settings = getenv(SIM_LOG_ENV);
    if (!settings || !*settings)
        return;
    xbt_log_control_set(settings);
    const char *path = getenv(SIM_LOG_FILE_ENV);
    if (!path || !*path)
        return;
    FILE *f = fopen(path, "a");
    if (!f) {
        fprintf(stderr, "situ: %s: cannot open %s (%s): logging to stderr\n", SIM_LOG_FILE_ENV,
                path, strerror(errno));
        return;
    }
    setvbuf(f, NULL, _IOLBF, 0);
    xbt_log_category_t cat = &_XBT_LOGV(situ_sim);
    xbt_log_appender_set(cat, xbt_log_appender_stream(f));
    xbt_log_layout_set(cat, xbt_log_layout_simple_new(NULL)); /* an appender needs its own */
}
