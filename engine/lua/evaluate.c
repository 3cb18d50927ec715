#include "evaluate.h"

#include <stdio.h>

#include "analytics.h"
#include "../model/advise_models.h"

int evaluate_model(const struct params *p, struct model_result *m, char *err, size_t errlen)
{
    /* The many configurations' path for one (advise_models.h): one home for what a model is
     * checked for and how it is evaluated, so that `situ model` and a sweep's rows agree. */
    struct advise_models *c = advise_models_new(analytics_profile);
    if (!c) {
        snprintf(err, errlen, "out of memory for the model");
        return -1;
    }
    struct params q = *p; /* (its platform path is resolved in place) */
    int rc = advise_model_eval(c, &q, m, err, errlen);
    advise_models_free(c);
    return rc;
}
