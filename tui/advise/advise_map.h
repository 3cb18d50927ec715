/* The advisor view's state: the model's objective over two sliders around the configuration on
 * screen (the other parameters as they are), its best cell, the eta-best and balance-best cells
 * of each row (the paper's Fig. 8 contradiction), and the cells SimGrid has simulated. Built in
 * the key path: the model is pure and a map is at most ADVISE_MAP_MAX^2 evaluations (measured
 * by make bench: well under a frame). No curses here. */
#ifndef SITU_TUI_ADVISE_MAP_H
#define SITU_TUI_ADVISE_MAP_H

#include <stdbool.h>
#include <stdint.h>

#include "../../engine/model/advise.h"
#include "../../engine/model/params.h"
#include "../../engine/model/platform.h"
#include "../../engine/model/result.h"

#define ADVISE_MAP_MAX  32  /* values per axis: a window around the current one */
#define ADVISE_MAP_SEEN 512 /* simulated results remembered for the marks */

struct advise_cell {
    bool valid;   /* the model evaluates it */
    uint64_t key; /* its configuration's identity (the marks match simulations by it) */
    struct advise_metrics model;
    bool simulated; /* SimGrid's result is in */
    struct advise_metrics sim;
    int sim_fid;        /* its fidelity: a more faithful result replaces a less faithful one */
    const char *engine; /* result_engine's name of it ("full sampled") */
};

struct advise_map {
    bool open;
    int xid, yid; /* the axes: parameter ids among the sliders */
    enum advise_objective objective;
    int nx, ny;
    double xv[ADVISE_MAP_MAX], yv[ADVISE_MAP_MAX];
    struct advise_cell cell[ADVISE_MAP_MAX][ADVISE_MAP_MAX]; /* [y][x] */
    int cx, cy;                                              /* the configuration on screen */
    int bx, by; /* the best cell by the objective; -1 if none */
    int row_eta[ADVISE_MAP_MAX], row_bal[ADVISE_MAP_MAX]; /* per row: the eta-best and
                                                           * balance-best column, -1 if none */
    char why[160];                                        /* no map: why (a Lua analytics) */
    double build_ms;
    uint64_t seen_key[ADVISE_MAP_SEEN];
    struct advise_metrics seen[ADVISE_MAP_SEEN];
    int seen_fid[ADVISE_MAP_SEEN];
    const char *seen_engine[ADVISE_MAP_SEEN];
    int nseen, seen_next;
};

void advise_map_init(struct advise_map *m);

/* Evaluates the map around p on pf (the built-in analytics only: a Lua analytics runs in the
 * evaluator process, never here). */
void advise_map_build(struct advise_map *m, const struct params *p, const struct platform *pf);

/* A simulation of p finished: remembered, and its cell marked if it is on the map, unless a more
 * faithful result of p is (p names the configuration as the map does: the engine is r's). */
void advise_map_seen(struct advise_map *m, const struct params *p, const struct sim_result *r);

/* The next slider after (dir > 0) or before id that is not `other`. */
int advise_map_next_axis(int id, int other, int dir);

#endif
