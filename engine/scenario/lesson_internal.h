/* A lesson as plain data: what lesson.c reads out of the lesson's Lua once (in the process that
 * runs it), and lesson_wire.c carries to the explorer, which shows the lesson and loads its
 * configurations without ever running a line of it. Part of module lesson. */
#ifndef SITU_LESSON_INTERNAL_H
#define SITU_LESSON_INTERNAL_H

#include <limits.h>
#include <stdbool.h>

#include "lesson.h"

#define LESSON_HINTS_MAX 5 /* 4 graded levels and a last resort */

struct script;

/* One parameter a step's config or solution table sets: a number, or text as the command line
 * takes it (Lua's own value, applied as script_set_param would). */
struct lesson_set {
    int id;
    bool text;
    double num;
    char *str;
};

/* A config or solution table: each parameter at most once, in no particular order. */
struct lesson_sets {
    int n;
    struct lesson_set v[PARAM_MAX];
};

struct lesson_step {
    char *text;
    char *hints[LESSON_HINTS_MAX]; /* graded: a nudge first, then more */
    int nhints;
    bool last_resort; /* the last level is the last resort (it may give the answer away) */
    bool has_config, has_goal, has_solution;
    char goal_pos[PATH_MAX + 16]; /* "FILE:LINE" of the goal function */
    char *question;               /* a quiz: the goal checks state.answer; NULL: none */
    char *answer;                 /* an answer that meets the goal (the instructor's check) */
    struct lesson_sets config, solution;
};

struct lesson {
    struct script *s; /* the lesson's Lua, for its goals; NULL: data only (lesson_wire_read) */
    int ref;          /* the lesson table in s */
    char path[PATH_MAX];
    char *title;
    char *description; /* "" if the lesson has none */
    int n;
    struct lesson_step *steps;
};

/* Every step's configuration and solution load, each on top of the one before (from the
 * defaults), as in the explorer. -1 with "FILE: step N: config: why". */
int lesson_check_steps(struct lesson *l, char *err, size_t errlen);

#endif
