/* Named configurations: presets/NAME.conf holds `key = value` lines (keys from the parameter
 * table, # comments). The explorer's `p`, `situ --preset NAME` and every subcommand read them. */
#ifndef SITU_PRESET_H
#define SITU_PRESET_H

#include <stddef.h>

#include "datadir.h"
#include "params.h"

#define PRESET_NAME_MAX DATADIR_NAME_MAX

/* Where preset NAME lives: NAME itself if it names a file (a path or a .conf), otherwise
 * presets/NAME.conf under the data directories. -1 with a message if there is no such preset. */
int preset_path(const char *name, char *out, size_t len, char *err, size_t errlen);

/* Applies preset NAME on top of p (callers start from params_defaults for a clean slate). Each
 * value goes through params_set; relative data paths are resolved against the data directories.
 * On error p is unchanged and err says "presets/x.conf:3: ratio: ..." (one line). */
int preset_apply(const char *name, struct params *p, char *err, size_t errlen);

/* The same, and each `sweep.KEYS = LIST` line (a study's axis, ignored by preset_apply) goes to
 * on_axis(ud, "KEYS", "LIST", err, errlen), which returns 0 or -1 with a message. */
typedef int (*preset_axis_cb)(void *ud, const char *keys, const char *list, char *err,
                              size_t errlen);
int preset_read(const char *name, struct params *p, preset_axis_cb on_axis, void *ud, char *err,
                size_t errlen);

/* Names of the installed presets (every .conf file in presets/, without the suffix), sorted.
 * Returns how many exist; writes at most max into names. */
int preset_list(char names[][PRESET_NAME_MAX], int max);

#endif
