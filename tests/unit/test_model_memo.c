/* The model's memo (model_eval_memo): what a search remembers of one layout must never change a
 * result. Each configuration of a sequence that comes back to layouts, changes only what the memo
 * keys on (the halo's bytes, the DTL, the platform) or only what it does not (the stride, the
 * costs, the file DTL on a layout seen), is evaluated with the memo and without it: the two
 * results must be the same bytes. */
#include <criterion/criterion.h>
#include <string.h>

#include "../../engine/lua/analytics.h"
#include "../../engine/lua/evaluate.h"
#include "../../engine/model/layout.h"
#include "../../engine/model/model.h"
#include "fixtures.h"

/* p on pf with and without the memo; the results compared byte for byte. */
static void same_with_memo(struct params *p, const struct platform *pf, struct model_memo *memo,
                           int step)
{
    char err[256] = "";
    cr_assert_eq(params_validate(p, err), 0, "step %d: %s", step, err);
    struct layout l;
    cr_assert_eq(layout_build(p, pf, &l, err, sizeof err), 0, "step %d: %s", step, err);
    struct analytics_profile prof;
    cr_assert_eq(analytics_profile(p, &l, &prof, err, sizeof err), 0, "step %d: %s", step, err);
    struct model_result plain, memoised;
    memset(&plain, 0x5a, sizeof plain);
    memset(&memoised, 0xa5, sizeof memoised);
    model_eval(p, pf, &l, &prof, &plain);
    model_eval_memo(p, pf, &l, &prof, &memoised, memo);
    cr_assert(plain.makespan > 0, "step %d: no makespan", step);
    cr_assert(!memcmp(&plain, &memoised, sizeof plain),
              "step %d: makespan %.17g without the memo, %.17g with it (halo %.17g, %.17g)", step,
              plain.makespan, memoised.makespan, plain.halo, memoised.halo);
    profile_free(&prof);
    layout_free(&l);
}

Test(model_memo, results_are_the_same_bytes)
{
    struct platform dahu = fixture_dahu_platform(), small = fixture_small_platform();
    /* dahu's last two nodes a file system's servers: the file DTL on the memo's layouts */
    dahu.ndisks = 2;
    dahu.disk = calloc(2, sizeof *dahu.disk);
    cr_assert_not_null(dahu.disk);
    for (int s = 0; s < 2; s++)
        dahu.disk[s] = (struct platform_disk){dahu.hosts - 1 - s, 2.8e9, 2.8e9};
    struct model_memo *memo = model_memo_new();
    cr_assert_not_null(memo);
    /* mapping, nodes, ratio, stride, region, dtl, platform: runs of one layout (the stride, the
     * cost move), then what the memo keys on: the halo's bytes (region), the DTL, the platform,
     * the mapping, and back to a layout seen before. */
    static const struct {
        enum mapping mapping;
        long nodes, ratio, stride, region;
        enum dtl_mode dtl;
        bool small;
        double cost;
    } seq[] = {
        {MAPPING_INSITU, 4, 7, 20, 70, DTL_MAILBOX, false, 1},
        {MAPPING_INSITU, 4, 7, 200, 70, DTL_MAILBOX, false, 1},
        {MAPPING_INSITU, 4, 7, 200, 70, DTL_MAILBOX, false, 25},
        {MAPPING_INSITU, 4, 7, 200, 40, DTL_MAILBOX, false, 25},
        {MAPPING_INSITU, 4, 7, 200, 40, DTL_QUEUE, false, 25},
        {MAPPING_INSITU, 4, 7, 200, 40, DTL_MAILBOX, false, 25},
        {MAPPING_INSITU, 4, 7, 200, 40, DTL_FILE, false, 25}, /* its run's end differs */
        {MAPPING_INSITU, 4, 7, 200, 40, DTL_MAILBOX, false, 25},
        {MAPPING_INTRANSIT, 4, 7, 20, 70, DTL_MAILBOX, false, 1},
        {MAPPING_INTRANSIT, 4, 7, 500, 70, DTL_MAILBOX, false, 50},
        {MAPPING_INTRANSIT, 4, 3, 500, 70, DTL_MAILBOX, false, 50},
        {MAPPING_INSITU, 4, 7, 20, 70, DTL_MAILBOX, false, 1},
        {MAPPING_INSITU, 4, 7, 20, 70, DTL_MAILBOX, true, 1},
        {MAPPING_INSITU, 4, 7, 20, 70, DTL_MAILBOX, false, 1},
        {MAPPING_INLINE, 2, 1, 20, 70, DTL_MAILBOX, false, 1},
        {MAPPING_INLINE, 2, 1, 50, 70, DTL_MAILBOX, false, 1},
        {MAPPING_INTRANSIT, 3, 1, 20, 30, DTL_MAILBOX, true, 1},
        {MAPPING_INTRANSIT, 3, 1, 20, 30, DTL_QUEUE, true, 1},
        {MAPPING_INSITU, 1, 31, 1000, 70, DTL_MAILBOX, false, 10},
        {MAPPING_INSITU, 8, 31, 1000, 70, DTL_MAILBOX, false, 10},
    };
    for (int i = 0; i < (int)(sizeof seq / sizeof seq[0]); i++) {
        struct params p;
        params_defaults(&p);
        p.mapping = seq[i].mapping;
        p.nodes = seq[i].nodes;
        p.ratio = seq[i].ratio;
        p.stride = seq[i].stride;
        p.region = seq[i].region;
        p.dtl = seq[i].dtl;
        p.compute_scaling = seq[i].cost;
        if (seq[i].small)
            p.cores_per_node = 8;
        same_with_memo(&p, seq[i].small ? &small : &dahu, memo, i);
        /* Again at once: the memo's own hit. */
        same_with_memo(&p, seq[i].small ? &small : &dahu, memo, i);
    }
    model_memo_free(memo);
    platform_free(&dahu);
    platform_free(&small);
}
