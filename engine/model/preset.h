/* Named configurations: presets/NAME.conf holds `key = value` lines (keys from the parameter
 * table, # comments). The explorer's `p`, `situ --preset NAME` and every subcommand read them. */
#ifndef SITU_PRESET_H
#define SITU_PRESET_H

#include <stddef.h>

#include "../base/datadir.h"
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

/* The one quoting rule of preset values, for the writer and the reader alike. A value is written
 * bare unless it is empty, has blanks at either end, or holds '#', '"', '\\' or a control byte;
 * then it is written in double quotes, with \" \\ \n \r \t and \xHH (any other byte below
 * 0x20, and 0x7f) escaped. preset_quote writes value so into out; -1 if out is too small (a
 * buffer of PRESET_QUOTED_MAX always holds a parameter's value). */
#define PRESET_QUOTED_MAX (4 * PARAMS_PATH_MAX + 3)
int preset_quote(const char *value, char *out, size_t len);

/* Reads back what follows "key =" on a line: a quoted value (then only blanks or a # comment
 * may follow), or a bare one, which ends at a '#' and loses its blanks at either end. 0 with the
 * value in out; -1 with why (one phrase) if the quoting is broken or out is too small. */
int preset_unquote(const char *text, char *out, size_t len, char *why, size_t whylen);

/* Names of the presets (every .conf file in presets/, without the suffix, then the user's own in
 * preset_user_dir), sorted. Returns how many exist; writes at most max into names. */
int preset_list(char names[][PRESET_NAME_MAX], int max);

/* The user's presets: $XDG_CONFIG_HOME/situ/presets, else ~/.config/situ/presets. -1 if
 * neither variable gives a directory. A bare name is looked up there after presets/. */
int preset_user_dir(char *out, size_t len);

/* What preset NAME is for: the comment lines its file starts with, joined ("" if none). */
void preset_description(const char *name, char *out, size_t len);

/* Writes p as preset NAME in preset_user_dir (made if needed): `# description`, then every
 * parameter not at its default. The name must be letters, digits, - _ . and not an installed
 * preset's. The file is whole or absent (outfile.h). path gets where it went. -1 with err. */
int preset_save(const char *name, const struct params *p, const char *description, char *path,
                size_t pathlen, char *err, size_t errlen);

#endif
