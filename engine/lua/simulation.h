/* Simulation profiles in Lua: the simulation side of a configuration (what one rank computes per
 * iteration, the halo it exchanges and how often, the state it hands the analytics, the
 * decomposition) as functions of the configuration, the twin of analytics.h. The parameter
 * `simulation` selects a file (a path, or NAME for scripts/lua/simulations/NAME.lua); empty is
 * the built-in ExaMiniMD melt (simprofile_melt). docs/lua.md has the reference.
 *
 * A profile is a property of the process: its declared parameters enter the parameter table and
 * its decomposition sets how layouts cut the domain, both at start-up (simulation_activate,
 * before any thread), so that every reader of the table sees them. The functions are evaluated
 * with the analytics' (analytics_profile), where user Lua may run, sandboxed (self-contained,
 * as analytics files) and under the same limits. */
#ifndef SITU_SIMULATION_H
#define SITU_SIMULATION_H

#include <stdbool.h>
#include <stddef.h>

#include "../base/datadir.h"
#include "../model/layout.h"
#include "../model/params.h"
#include "../model/simprofile.h"

#define SIMULATION_NAME_MAX DATADIR_NAME_MAX

/* Loads the profile `name` ("" : the built-in, nothing to do), declares its parameters into the
 * table (params_declare) and sets the process's shape (simprofile_set_shape). Once, at start-up,
 * before threads; again only with the same file. -1 with "FILE[:LINE]: message" in err. */
int simulation_activate(const char *name, char *err, size_t errlen);

/* simulation_activate of the value of the last --simulation NAME or --simulation=NAME in argv
 * (none: nothing). The one place a command line's profile is read before its flags are parsed,
 * so that its parameters' flags parse wherever they stand. -1 with err. */
int simulation_activate_argv(int argc, char **argv, char *err, size_t errlen);

/* Whether the active profile reads parameter id: every parameter but the built-in melt's
 * (region, sim_cost, halo_period), which a profile reads only if it names them in its `uses`;
 * the built-in reads them all. The explorer offers sliders only for these. */
bool simulation_uses(int id);

/* The profile activated ("" : the built-in), as given. */
const char *simulation_active(void);

/* The simulation side of p on l: the built-in melt, or the active Lua profile evaluated (p's
 * simulation must be the active one). Runs user Lua under the limits: call it where a hang can
 * be killed, never on a UI thread. -1 with err. */
int simulation_eval(const struct params *p, const struct layout *l, struct sim_profile *out,
                    char *err, size_t errlen);

/* The same at analysis step `step` (0-based, the profile's ctx.step: the stride iterations that
 * end with that step's analysis); *step_used: whether the profile read ctx.step, so that each
 * step must be evaluated (analytics_profile groups the steps into classes). */
int simulation_eval_step(const struct params *p, const struct layout *l, long step,
                         struct sim_profile *out, bool *step_used, char *err, size_t errlen);

/* The file behind a name: a path, or scripts/lua/simulations/NAME.lua in the data directories.
 * -1 with a message listing the names installed. */
int simulation_resolve(const char *name, char *path, size_t len, char *err, size_t errlen);

/* Names of the shipped profiles, sorted; returns how many. */
int simulation_list(char names[][SIMULATION_NAME_MAX], int max);

/* Forgets the active profile, its parameters and shape (tests). */
void simulation_forget(void);

#endif
