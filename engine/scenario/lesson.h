/* Lessons for workshops: a Lua file under scripts/lua/lessons/ returns
 *   { title = "...", steps = { { text = "...", config = {...}, goal = function(state) ... end,
 *                                hint = "..." or {"nudge", "more"}, solution = {...} }, ... } }
 * This API lets the explorer show a lesson without knowing Lua: the step's text, the
 * configuration it loads, and whether its goal holds for the current state. A goal gets
 * state = { params = {...}, model = {...}, sim = {...} or nil } (the tables situ.params,
 * situ.model and situ.run give scenarios) and returns true or false, and optionally a message.
 * A step may ask a question (question = "..."): its goal then finds the typed answer in
 * state.answer (nil until there is one). */
#ifndef SITU_LESSON_H
#define SITU_LESSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "../model/model.h"
#include "../base/datadir.h"
#include "../model/params.h"
#include "../model/result.h"

#define LESSON_NAME_MAX DATADIR_NAME_MAX

struct lesson;

enum lesson_goal {
    LESSON_NO_GOAL,      /* the step has no goal: reading it is enough */
    LESSON_GOAL_MET,     /* goal(state) returned true */
    LESSON_GOAL_NOT_MET, /* it returned false */
    LESSON_GOAL_ERROR,   /* it raised an error or returned something else: msg says where */
};

/* Or'd into lesson_goal_check's answer when the goal read state.sim, a simulated result: only
 * then may a goal be said to check SimGrid. */
#define LESSON_GOAL_READ_SIM 0x100

struct lesson_state {
    const struct params *params;      /* the current configuration */
    const struct model_result *model; /* its model result; NULL: computed here */
    const struct sim_result *sim;     /* the last simulation of it, or NULL */
    const char *answer;               /* the answer typed to the step's question, or NULL */
};

/* Loads NAME (scripts/lua/lessons/NAME.lua in the data directories) or a path; checks every
 * step's shape and configuration. NULL with "FILE:LINE: message" (or "FILE: step 2: ...") in
 * err. */
struct lesson *lesson_load(const char *name, char *err, size_t errlen);
void lesson_free(struct lesson *l);

/* Where the lesson's print() goes; NULL (the default) discards it (the explorer's screen). */
void lesson_set_output(struct lesson *l, FILE *out);

const char *lesson_title(const struct lesson *l);
/* The lesson's description ("" if it has none; the explorer's copy has none). */
const char *lesson_description(const struct lesson *l);
const char *lesson_path(const struct lesson *l);
int lesson_step_count(const struct lesson *l);
/* Text and hint of step i (0-based); the hint is "" when the step has none. A hint may be graded
 * (hint = {"a nudge", "more", ...} in the file): lesson_step_hint is its first level, _at(k) level
 * k ("" past the last), _count how many levels there are (0: no hint). */
const char *lesson_step_text(const struct lesson *l, int i);
const char *lesson_step_hint(const struct lesson *l, int i);
int lesson_step_hint_count(const struct lesson *l, int i);
const char *lesson_step_hint_at(const struct lesson *l, int i, int k);
/* Whether step i's last hint level is its last resort (hint = {..., last_resort = "..."}): it may
 * give the answer away, so the explorer asks before it shows it and headless prints it only with
 * --solutions. */
bool lesson_step_hint_last_resort(const struct lesson *l, int i);
int lesson_step_has_goal(const struct lesson *l, int i);
/* A quiz: step i's question ("" if none), which its goal checks through state.answer (a string,
 * absent until the student answers); and the answer the lesson gives for the instructor's check
 * (situ lesson --headless), NULL if none. */
const char *lesson_step_question(const struct lesson *l, int i);
const char *lesson_step_answer(const struct lesson *l, int i);

/* The configuration step i loads: base with the step's config on top. Returns 1 if the step has
 * one (out set), 0 if not (out = base), -1 with err. The solution (what meets the goal, for
 * checking lessons) works the same way on top of the step's configuration. */
int lesson_step_config(struct lesson *l, int i, const struct params *base, struct params *out,
                       char *err, size_t errlen);
int lesson_step_solution(struct lesson *l, int i, const struct params *base, struct params *out,
                         char *err, size_t errlen);

/* Every key step i's solution names, with its value in sol (the configuration the solution
 * gives), "ratio=15 stride=200" in the parameter table's order, defaults included: an instructor
 * must read the whole answer. Returns how many keys (0: no solution). */
int lesson_step_solution_keys(struct lesson *l, int i, const struct params *sol, char *buf,
                              size_t len);

/* Evaluates step i's goal against st. msg gets the goal's message (or the error line), "" if
 * none. Returns a lesson_goal, with LESSON_GOAL_READ_SIM or'd in if the goal read st->sim. */
int lesson_goal_check(struct lesson *l, int i, const struct lesson_state *st, char *msg,
                      size_t msglen);

/* Names of the installed lessons, sorted; returns how many. */
int lesson_list(char names[][LESSON_NAME_MAX], int max);

#endif
