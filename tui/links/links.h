/* The link utilisation view's logic, without curses (after the INAM cross-layer view): links
 * sorted busiest first and a utilisation classed on a scale where about half is best, near full
 * is a bottleneck and little use is wasted capacity. */
#ifndef SITU_TUI_LINKS_H
#define SITU_TUI_LINKS_H

#include "../../engine/model/result.h"

enum links_class {
    LINKS_LOW,  /* below 25%: capacity paid for and unused */
    LINKS_GOOD, /* 25-65%: room for bursts, well used */
    LINKS_HIGH, /* 65-85%: queuing starts */
    LINKS_HOT,  /* 85% and up: a bottleneck */
};

enum links_class links_classify(double utilisation);

/* A short word for a class, so the scale reads without colour (NO_COLOR, monochrome). */
const char *links_class_name(enum links_class c);

/* Indices of r's links, busiest first (ties by name), into order[max]; returns how many. */
int links_sorted(const struct sim_result *r, int *order, int max);

/* How many links of r are above the alert threshold. */
int links_over(const struct sim_result *r, double alert);

/* The level of the topology that saturates first as the load grows: the busiest link above the
 * alert threshold (its place says which level: node, spine, global, uplink...), NULL if none. */
const struct result_link *links_first_saturated(const struct sim_result *r, double alert);

#endif
