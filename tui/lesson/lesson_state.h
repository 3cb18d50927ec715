/* The explorer's state of a lesson (app_lesson.c changes it, view_lesson.c shows it): one part
 * of struct app_state (app.h). */
#ifndef SITU_TUI_LESSON_STATE_H
#define SITU_TUI_LESSON_STATE_H

#include <stdbool.h>

#include "../../engine/model/params.h"
#include "../../engine/scenario/lesson.h"
#include "../state/app_sizes.h"

/* A lesson in the explorer: which step, how much of its hint shows, and its goal's status for the
 * configuration on screen (re-checked on every model update and every simulated result). The
 * steps whose goal was met at some point are remembered for the completion summary. */
#define APP_LESSON_STEPS 64 /* steps counted in the summary (a lesson may have more) */

struct app_lesson {
    struct lesson *l; /* NULL: no lesson open */
    int step;
    int hint_level; /* hint levels shown: 0 none, 1 the nudge, 2 more... (h) */
    enum lesson_goal goal;
    bool goal_sim;          /* the goal read a simulated result of this configuration */
    bool goal_pending;      /* the goal is user code: the evaluator process checks it */
    long goal_gen;          /* bumped for every check asked for */
    char msg[APP_MSG_MAX];  /* the goal's message, or its Lua error */
    struct params start;    /* the configuration before step 1: R restarts from it */
    unsigned long long met; /* bit i: step i's goal was met */
    double t_start, t_end;  /* seconds on a monotonic clock: opened, finished */
    bool done;              /* n past the last step: the summary shows */
    bool answered;          /* the step's question has an answer (a) */
    bool answer_logged;     /* ... and the log has it, judged */
    char answer[128];       /* ... this one, as typed */
    /* Each step's setup as it was loaded on entry (or, after a resume, as the lesson builds it):
     * b and R bring it back, so the step's text matches the screen again. n entries. */
    struct params *setup;
    unsigned char *setup_set;
    struct params aside; /* the student's changes that b or R put aside: y brings them back */
    bool has_aside;
    char student[64]; /* --student ID: named in every line of the log; "" for none */
};

/* Keys of the lesson that other code names (the panel's text says which key does what): one home,
 * the key table uses these too. */
#define APP_KEY_LESSON_HINT  'i'
#define APP_KEY_LESSON_YOURS 'y'
#define APP_KEY_LESSON_RESET 'R'

#endif
