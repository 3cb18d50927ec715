/* The model and the explorer's curves from two threads at once, under ThreadSanitizer: the
 * model is pure (numbers in, numbers out) and the curves read a shared platform, so any report
 * is a bug. The explorer computes curves on a pool thread while its main thread evaluates the
 * model of each key press: this is that, hammered. Usage: tsan_model DIGEST.json (a platform's
 * digest, as `situ __digest PLATFORM.xml` prints it: the explorer's platform, without SimGrid). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../engine/model/layout.h"
#include "../../engine/model/model.h"
#include "../../tui/scaling/scaling.h"
#include "../../tui/xover/xover.h"

static struct platform pf; /* loaded once, then only read, as the explorer's */
static const char *pf_path;

struct job {
    int id;
    double sum; /* something to compare, so nothing is optimised away */
    int failures;
};

static void *work(void *arg)
{
    struct job *j = arg;
    struct xover_curves *xc = malloc(sizeof *xc);
    struct scaling_curves *sc = malloc(sizeof *sc);
    for (int round = 0; round < 3 && xc && sc; round++) {
        struct params p;
        params_defaults(&p);
        snprintf(p.platform, sizeof p.platform, "%s", pf_path);
        p.nodes = 2 + (j->id + round) % 3;
        p.ratio = j->id ? 7 : 15;
        for (int k = 0; k < 20; k++) {
            p.data_scaling = 1 + k;
            struct layout l;
            char err[512];
            if (params_validate(&p, err) < 0 || layout_build(&p, &pf, &l, err, sizeof err) < 0) {
                j->failures++;
                continue;
            }
            struct analytics_profile prof;
            if (profile_source_builtin(&p, &l, &prof, err, sizeof err) == 0) {
                struct model_result m;
                model_eval(&p, &pf, &l, &prof, &m);
                j->sum += m.makespan;
            }
            profile_free(&prof);
            layout_free(&l);
        }
        xover_curves_eval(xc, &p, "key|insitu,intransit,inline", &pf, profile_source_builtin);
        scaling_eval(sc, &p, "key", &pf, profile_source_builtin);
        j->sum += xc->model[0][0] + sc->time[0][0];
    }
    free(xc);
    free(sc);
    return NULL;
}

int main(int argc, char **argv)
{
    char err[1024];
    if (argc != 2 || platform_read_digest(argv[1], &pf, err, sizeof err) < 0) {
        fprintf(stderr, "tsan_model: %s\n", argc == 2 ? err : "usage: tsan_model DIGEST.json");
        return 2;
    }
    pf_path = argv[1];
    struct job jobs[2] = {{.id = 0}, {.id = 1}};
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, work, &jobs[i]);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    platform_free(&pf);
    if (jobs[0].failures || jobs[1].failures || !(jobs[0].sum > 0) || !(jobs[1].sum > 0)) {
        fprintf(stderr, "tsan_model: the model gave no numbers (%d, %d failures)\n",
                jobs[0].failures, jobs[1].failures);
        return 1;
    }
    printf("tsan: model and curves from two threads, no race reported\n");
    return 0;
}
