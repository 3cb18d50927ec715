#include "evaluate.h"

#include "analytics.h"
#include "../model/layout.h"
#include "../model/platform.h"

int evaluate_model(const struct params *p, struct model_result *m, char *err, size_t errlen)
{
    struct platform pf;
    struct layout l;
    if (params_validate(p, err) < 0)
        return -1;
    if (platform_load(p->platform, &pf, err, errlen) < 0)
        return -1;
    int rc = layout_build(p, &pf, &l, err, errlen);
    if (rc == 0 && (rc = platform_need_layout_routes(&pf, &l, err, errlen)) < 0)
        layout_free(&l);
    if (rc == 0) {
        struct analytics_profile prof;
        rc = analytics_profile(p, &l, &prof, err, errlen);
        if (rc == 0)
            model_eval(p, &pf, &l, &prof, m);
        profile_free(&prof);
        layout_free(&l);
    }
    platform_free(&pf);
    return rc;
}
