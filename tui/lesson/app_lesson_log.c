/* The lesson's log, for the instructor (situ lesson report): one JSON object a line, each written
 * whole with one write() on an O_APPEND descriptor, so that a line is never half there and a
 * shared directory of logs (each student's own file) needs no locking. And the resume: a student
 * who starts the lesson again with the same log and name comes back at their last step. Part of
 * the lesson panel (app_lesson.c). */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../engine/base/infile.h"
#include "../../engine/base/outfile.h"
#include "../state/app.h"

/* The lesson's own clock: how long a student took, not the wall clock (which may jump). */
double app_lesson_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int app_lesson_goals_met(const struct app_state *s, int *goals)
{
    const struct app_lesson *ls = &s->lesson;
    int met = 0;
    *goals = 0;
    for (int i = 0; ls->l && i < lesson_step_count(ls->l) && i < APP_LESSON_STEPS; i++) {
        if (!lesson_step_has_goal(ls->l, i))
            continue;
        (*goals)++;
        met += (ls->met >> i) & 1;
    }
    return met;
}

double app_lesson_seconds(const struct app_state *s)
{
    const struct app_lesson *ls = &s->lesson;
    return (ls->done ? ls->t_end : app_lesson_now()) - ls->t_start;
}

/* The lesson's short name: its file's name without ".lua" (the report's heading). */
static void lesson_name(const char *path, char *out, size_t len)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    size_t n = strlen(b);
    if (n > 4 && !strcmp(b + n - 4, ".lua"))
        n -= 4;
    snprintf(out, len, "%.*s", (int)n, b);
}

/* One line, whole: a single write() of it on an O_APPEND descriptor. */
static int append_line(const char *path, const char *line, char *err, size_t errlen)
{
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        return -1;
    }
    size_t n = strlen(line);
    ssize_t w = write(fd, line, n);
    int e = errno;
    if (close(fd) < 0 && w == (ssize_t)n) {
        e = errno;
        w = -1;
    }
    if (w != (ssize_t)n) {
        snprintf(err, errlen, "%s: cannot write: %s", path, w < 0 ? strerror(e) : "short write");
        return -1;
    }
    return 0;
}

void app_lesson_log(struct app_state *s, const char *event, int step, const char *msg)
{
    struct app_lesson *ls = &s->lesson;
    if (!s->lesson_log[0] || !ls->l)
        return;
    char when[32], cmd[2048], name[LESSON_NAME_MAX];
    time_t t = time(NULL);
    struct tm tm;
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&t, &tm));
    lesson_name(lesson_path(ls->l), name, sizeof name);
    json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:s, s:f}", "time", when, "event", event, "lesson",
                          lesson_path(ls->l), "name", name, "title", lesson_title(ls->l), "seconds",
                          app_lesson_seconds(s));
    if (!o) {
        app_notice(s, true, "log: out of memory");
        return;
    }
    if (ls->student[0])
        json_object_set_new(o, "student", json_string(ls->student));
    if (step >= 0)
        json_object_set_new(o, "step", json_integer(step + 1));
    if (msg && msg[0])
        json_object_set_new(o, "message", json_string(msg));
    if (!strcmp(event, "start")) { /* which steps have a goal: the report's columns */
        json_t *goals = json_array();
        for (int i = 0; i < lesson_step_count(ls->l); i++)
            if (lesson_step_has_goal(ls->l, i))
                json_array_append_new(goals, json_integer(i + 1));
        json_object_set_new(o, "goals", goals);
        json_object_set_new(o, "steps", json_integer(lesson_step_count(ls->l)));
    }
    if (!strcmp(event, "complete")) {
        int goals, met = app_lesson_goals_met(s, &goals);
        json_object_set_new(o, "goals_met", json_integer(met));
        json_object_set_new(o, "goals", json_integer(goals));
    }
    if (app_command_line(s, cmd, sizeof cmd) == 0)
        json_object_set_new(o, "command", json_string(cmd));
    char *line = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    char err[OUTFILE_ERR_MAX], *nl = line ? realloc(line, strlen(line) + 2) : NULL;
    if (!nl) {
        free(line);
        app_notice(s, true, "log: out of memory");
        return;
    }
    strcat(nl, "\n");
    if (append_line(s->lesson_log, nl, err, sizeof err) < 0)
        app_notice(s, true, "log: %.*s", APP_MSG_MAX - 8, err);
    free(nl);
}

int app_lesson_log_place(const struct app_state *s, int *place, unsigned long long *met_out,
                         double *seconds_out)
{
    const struct app_lesson *ls = &s->lesson;
    char err[INFILE_ERR_MAX];
    FILE *f =
        s->lesson_log[0] ? infile_open(s->lesson_log, "lesson log", 0, err, sizeof err) : NULL;
    if (!f)
        return 0; /* a first start: nothing to resume (cli_check_log refused what is no file) */
    char *line = NULL;
    size_t cap = 0;
    int step = -1;
    unsigned long long met = 0;
    double seconds = 0;
    /* This lesson's lines of this student (a log without --student: the lines without one). */
    while (infile_line(f, &line, &cap, INFILE_LINE_MAX) > 0) { /* -2: what came before it */
        json_t *o = json_loads(line, 0, NULL);
        const char *lesson = json_string_value(json_object_get(o, "lesson"));
        const char *student = json_string_value(json_object_get(o, "student"));
        const char *event = json_string_value(json_object_get(o, "event"));
        json_t *st = json_object_get(o, "step");
        if (lesson && event && !strcmp(lesson, lesson_path(ls->l)) &&
            !strcmp(student ? student : "", ls->student)) {
            int k = json_is_integer(st) ? (int)json_integer_value(st) - 1 : -1;
            if (!strcmp(event, "restart"))
                met = 0, step = 0;
            if (k >= 0 && k < lesson_step_count(ls->l) && strcmp(event, "skip"))
                step = k;
            if (k >= 0 && k < APP_LESSON_STEPS && !strcmp(event, "goal met"))
                met |= 1ULL << k;
            double sec = json_number_value(json_object_get(o, "seconds"));
            if (!strcmp(event, "restart"))
                seconds = 0;
            else if (sec > seconds)
                seconds = sec;
        }
        json_decref(o);
    }
    free(line);
    fclose(f);
    *place = step;
    *met_out = met;
    *seconds_out = seconds;
    return step >= 0;
}
