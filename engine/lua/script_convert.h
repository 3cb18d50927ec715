/* Lua tables <-> parameters and JSON, for the `situ` module, lessons and the
 * analytics' ctx (script_convert.c). The parameter keys come from the one parameter table. */
#ifndef SITU_SCRIPT_CONVERT_H
#define SITU_SCRIPT_CONVERT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "../model/params.h"

struct lua_State;

/* Lua strings may hold NUL bytes; C text ends at the first, so "out.csv\0.txt" would be read
 * as "out.csv" and "base\0x" as "base". Every Lua string Situ copies into C text where the cut
 * would change its meaning (a path, a key, a name, a value, a lesson's text) goes through one of
 * these. script_text: the string at idx (a number converted, as lua_tostring does; NULL for other
 * types), or a Lua error "WHAT: holds a NUL byte" (what: "situ.csv: path"). */
const char *script_text(struct lua_State *L, int idx, const char *what);
/* Whether the value at idx is a string that holds a NUL byte (for callers that return errors). */
bool script_has_nul(struct lua_State *L, int idx);

/* What the value at idx is, in words for a message: the string "...", nothing, NaN, 3.5, a
 * table. The analytics' and the simulation profiles' checks of what a function returned. */
void script_describe(struct lua_State *L, int idx, char *out, size_t len);

/* Pushes t[key] of the table at idx, read raw (lua_rawget), and returns its type. How C reads a
 * table outside a protected call: a value a user function returned (an analytics' exchange, a
 * profile's halo) once its call has ended, and the checked tables of analytics_spec.lua and
 * simulation_spec.lua. A metatable's __index there would be user code run with no protection and
 * no deadline (a throwing one aborted situ); the fields read are those a raw walk (lua_next)
 * sees, which is how the checks walk them too. */
int script_raw_field(struct lua_State *L, int idx, const char *key);

/* Pushes p as a table: every parameter of the table, numbers as numbers, choices and paths as
 * strings. */
void script_push_params(struct lua_State *L, const struct params *p);

/* Reads a table of parameters at idx over the defaults (unknown keys and bad values are errors),
 * resolves the platform, validates. -1 with a one-line message. */
int script_to_params(struct lua_State *L, int idx, struct params *p, char *err, size_t errlen);

/* The parameter id of the key at idx; -1 with a message if it is not a parameter name. */
int script_param_key(struct lua_State *L, int idx, char *err, size_t errlen);

/* Sets parameter id from the Lua value at idx (numbers, or strings as on the command line). */
int script_set_param(struct lua_State *L, int idx, struct params *p, int id, char *err,
                     size_t errlen);

/* Resolves the platform against the data directories and validates p. -1 with a message. */
int script_finish_params(struct params *p, char *err, size_t errlen);

/* Applies the parameters of the table at idx on top of p (no defaults, no validation). */
int script_apply_params(struct lua_State *L, int idx, struct params *p, char *err, size_t errlen);

/* Pushes a JSON value as Lua: objects and arrays as tables, null as nil. */
void script_push_json(struct lua_State *L, json_t *v);

#endif
