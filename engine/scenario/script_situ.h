/* The `situ` module of scenarios and lessons: situ.params, model, run, sweep, crossover,
 * analytics (script_situ.c), situ.advise (script_advise.c), situ.table and situ.csv
 * (script_output.c). */
#ifndef SITU_SCRIPT_SITU_H
#define SITU_SCRIPT_SITU_H

#include "../lua/script.h"

struct params;
struct sim_job;

/* Registers the global `situ` (and package.loaded.situ). */
void script_open_situ(struct script *s);

/* Pushes the result table of the model for p (the keys of `situ model --json`), as situ.model
 * does (lesson goals get it too). -1 with err. */
int script_push_model(struct lua_State *L, const struct params *p, char *err, size_t errlen);

/* --- what the files of the module share --- */

/* situ.advise{...} (script_advise.c). */
int script_advise(struct lua_State *L);

/* situ.crossover of more than two strategies st[0..n) over base, by the model
 * (script_strategies.c): who is fastest where over a log scan of [from, to], each change narrowed
 * by bisection down to hi/lo <= 1 + tol. Pushes where the first fastest is crossed (nil if none is)
 * and {ranges =
 * {{strategy, from, to}, ...}, by, evaluations}; returns 2. Raises a Lua error with one line. */
struct strategy;
int script_crossover_many(struct lua_State *L, const struct params *base, const struct strategy *st,
                          int n, double from, double to, double tol);

/* situ.table and situ.csv (script_output.c). */
int script_table(struct lua_State *L);
int script_csv(struct lua_State *L);

#endif
