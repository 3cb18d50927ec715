#include "links.h"

#include <stdlib.h>
#include <string.h>

enum links_class links_classify(double u)
{
    return u >= 0.85 ? LINKS_HOT : u >= 0.65 ? LINKS_HIGH : u >= 0.25 ? LINKS_GOOD : LINKS_LOW;
}

const char *links_class_name(enum links_class c)
{
    static const char *const names[] = {"low", "good", "high", "HOT"};
    return names[c];
}

/* qsort has no context argument: the links being sorted, for this call only (one thread). */
static const struct result_link *sort_links;

static int by_use(const void *a, const void *b)
{
    const struct result_link *x = &sort_links[*(const int *)a], *y = &sort_links[*(const int *)b];
    if (x->utilisation != y->utilisation)
        return x->utilisation < y->utilisation ? 1 : -1;
    return strcmp(x->name, y->name);
}

int links_sorted(const struct sim_result *r, int *order, int max)
{
    int n = r->nlinks < max ? r->nlinks : max;
    for (int i = 0; i < n; i++)
        order[i] = i;
    if (r->nlinks > max) {
        /* More links than room: keep the busiest, found by sorting them all. */
        int *all = malloc(sizeof *all * (size_t)r->nlinks);
        if (all) {
            for (int i = 0; i < r->nlinks; i++)
                all[i] = i;
            sort_links = r->links;
            qsort(all, (size_t)r->nlinks, sizeof *all, by_use);
            memcpy(order, all, sizeof *order * (size_t)n);
            free(all);
            return n;
        }
    }
    sort_links = r->links;
    qsort(order, (size_t)n, sizeof *order, by_use);
    return n;
}

int links_over(const struct sim_result *r, double alert)
{
    int n = 0;
    for (int i = 0; i < r->nlinks; i++)
        n += r->links[i].utilisation > alert;
    return n;
}

const struct result_link *links_first_saturated(const struct sim_result *r, double alert)
{
    const struct result_link *top = NULL;
    for (int i = 0; i < r->nlinks; i++)
        if (r->links[i].utilisation > alert && (!top || r->links[i].utilisation > top->utilisation))
            top = &r->links[i];
    return top;
}
