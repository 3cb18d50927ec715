/* A lesson as bytes, from the process that runs its Lua (`situ __lesson-check`) to the
 * explorer, which must never run a line of it: the path, the title, and each step's text,
 * hints, question, answer, where its goal is, and the parameters its configuration and
 * solution set. What comes back is a lesson without Lua: everything but lesson_goal_check
 * works on it (goals are checked in the evaluator process, which loads the file itself). */
#ifndef SITU_LESSON_WIRE_H
#define SITU_LESSON_WIRE_H

#include <stddef.h>
#include <stdio.h>

#include "lesson.h"

/* More than any lesson needs (its texts and parameters): a reader keeps no more of it. */
#define LESSON_WIRE_MAX (16 << 20)

/* Writes l to out. -1 if a write failed. */
int lesson_wire_write(const struct lesson *l, FILE *out);

/* The lesson in buf (len bytes, as lesson_wire_write wrote them), checked as lesson_load checks
 * a file's (every configuration loads). NULL with a one-line reason. */
struct lesson *lesson_wire_read(const char *buf, size_t len, char *err, size_t errlen);

#endif
