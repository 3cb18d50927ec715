/* The model for one configuration from scratch, for headless callers (situ model, Lua
 * scenarios and lessons): checks it, loads the platform, builds the layout, evaluates the
 * analytics' profile (a Lua file runs here, under script.h's limits) and runs the pure model,
 * through the path of many configurations (engine/model/advise_models.h: sweeps and the
 * advisor use it whole, loading each platform once). The explorer does not call this: it gets
 * profiles from its evaluator process. */
#ifndef SITU_EVALUATE_H
#define SITU_EVALUATE_H

#include <stddef.h>

#include "../model/model.h"
#include "../model/params.h"

/* -1 with err on bad input or a failing analytics. */
int evaluate_model(const struct params *p, struct model_result *m, char *err, size_t errlen);

#endif
