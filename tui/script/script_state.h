/* The explorer's state of a Lua scenario (app_script.c changes it, view_script.c shows it): one
 * part of struct app_state (app.h). */
#ifndef SITU_TUI_SCRIPT_STATE_H
#define SITU_TUI_SCRIPT_STATE_H

#include <stdbool.h>

#include "../../engine/model/params.h"
#include "../state/app_sizes.h"

/* A Lua scenario in the explorer (x, or situ --script FILE): it runs in its own process
 * (scenario_host.h), which the loop starts, feeds and kills; each request it makes is submitted to
 * the runner by the loop, each result counted here and fed to it. Its output lines (the last
 * APP_SCRIPT_LINES) and its status show in the scenario panel. */
#define APP_SCRIPT_LINES 256
#define APP_SCRIPT_ARGS  32 /* arguments after the scenario's file */
#define APP_SCRIPT_COLS  160

enum app_script_phase {
    APP_SCRIPT_OFF,     /* no panel */
    APP_SCRIPT_RUNNING, /* Lua is running (between two resumes) */
    APP_SCRIPT_WAITING, /* for `pending` simulations */
    APP_SCRIPT_DONE,
    APP_SCRIPT_FAILED, /* err: "FILE:LINE: message", trace: its first traceback line in a file */
};

struct app_script {
    enum app_script_phase phase;
    bool start;                          /* the loop must start its process */
    char words_buf[2 * PARAMS_PATH_MAX]; /* the file and its arguments, split */
    int nwords;
    int word_at[APP_SCRIPT_ARGS + 1]; /* offsets into words_buf */
    struct params *req;               /* the configurations it waits for (owned) */
    int nreq;
    char path[PARAMS_PATH_MAX];
    int gen;     /* one per scenario opened: results for an older one are ignored */
    bool submit; /* a request the loop has not submitted yet */
    int pending; /* results of the current request still missing */
    int total;   /* simulations asked for since the start */
    char lines[APP_SCRIPT_LINES][APP_SCRIPT_COLS]; /* a ring: first is the oldest */
    int first, nlines;
    char partial[APP_SCRIPT_COLS]; /* the line being written (no newline yet) */
    int partial_len;
    int scroll; /* lines up from the newest */
    char err[APP_MSG_MAX], trace[APP_MSG_MAX];
};

#endif
