/* The model of many configurations: the one evaluation path of every headless caller, the
 * advisor's search (advise.h), `situ sweep --model` and the model check of every sweep
 * (cli/study.c), and `situ model` with every other caller of one configuration
 * (evaluate_model, engine/lua/evaluate.h). Each platform file is loaded once (its digest read
 * from the cache or made by SimGrid), the last layout is kept while the configurations place
 * their ranks alike, and the halo exchange is remembered per layout (model_eval_memo: the same
 * numbers, bit for bit). A sweep that read the platform's digest again for each row spent
 * 2 ms a row there: 15 s for 6,400 rows that the advisor evaluates in 7 ms.
 * Pure but for the platform files it loads, the routes it asks SimGrid for and the analytics'
 * profile source; an instance belongs to one thread. */
#ifndef SITU_ADVISE_MODELS_H
#define SITU_ADVISE_MODELS_H

#include <stddef.h>

#include "model.h"
#include "params.h"
#include "platform.h"
#include "profile.h"

/* src gives each analytics profile (analytics_profile where user Lua may run,
 * profile_source_builtin elsewhere). NULL when out of memory. */
struct advise_models;
struct advise_models *advise_models_new(profile_source src);
void advise_models_free(struct advise_models *c);

/* What a configuration can be refused for before anything is evaluated: resolves p's platform
 * path (engine/base/datadir.h) and checks p (params_validate), then checks it against its
 * platform: the file loads, the layout places p's ranks and actors on its hosts (nodes,
 * cores_per_node, ratio, hostfile, analytics_zone) and the routes that layout reads are known
 * (asked of SimGrid once where the digest does not hold them all, digest.h) and join every pair
 * the workflow sends between. No profile, no model. -1 with err. */
int advise_model_check(struct advise_models *c, struct params *p, char *err, size_t errlen);

/* advise_model_check, then the analytics' profile and the model: the result `situ model` prints.
 * An overflow (a cost of 1e308) is left to the caller, who names its stage (cli_model_check).
 * -1 with err: the check's, or a failing analytics'. */
int advise_model_eval(struct advise_models *c, struct params *p, struct model_result *m, char *err,
                      size_t errlen);

/* advise_model_eval for the advisor's ranking: an overflowing or zero makespan is refused too, a
 * candidate with no result to rank. */
int advise_model(struct advise_models *c, struct params *p, struct model_result *m, char *err,
                 size_t errlen);

/* The same on a platform already loaded (p's platform path is not read, no route is asked for):
 * the explorer's. */
int advise_model_on(const struct platform *pf, profile_source src, const struct params *p,
                    struct model_result *m, char *err, size_t errlen);

#endif
