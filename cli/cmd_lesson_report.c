/* `situ lesson report LOG... [--csv FILE]`: the class, from the students' lesson logs (each a
 * JSON object a line, tui/lesson/app_lesson_log.c). One table per lesson: a row per student, a
 * column per step with a goal (met or not, after how many hints and how many minutes on the step),
 * and the quiz answers that were wrong. --csv writes the same, a row per student and goal. A line
 * that is not a lesson's log line is bad input naming its file and line: a report that skipped
 * it would count a student short. */
#include <errno.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/base/csv.h"
#include "../engine/base/escape.h"
#include "../engine/base/flag.h"
#include "../engine/base/infile.h"
#include "../engine/base/outfile.h"
#include "cli.h"

#define REPORT_STEPS   64
#define REPORT_LESSONS 16

struct goal_cell {
    bool met;
    int hints;      /* hints asked on the step before the goal was met (or so far) */
    double entered; /* the lesson's clock when the student first reached the step; <0: never */
    double minutes; /* on the step until the goal was met */
};

/* The texts that come from the logs are kept whole (malloc'd): two students whose ids differ
 * only past some length are two students, and the report shows each as it was logged. */
struct student {
    char *lesson; /* the lesson's path, as logged */
    char *id;
    char where[32]; /* "complete", "quit @3", "at 2" */
    bool done;      /* the lesson was completed (and not restarted since) */
    struct goal_cell cell[REPORT_STEPS];
    char *wrong; /* step 2: "is"; ... (NULL: none) */
};

struct lesson_info {
    char *path, *name, *title;
    bool goal[REPORT_STEPS]; /* step i+1 has a goal (the "start" line says which) */
};

struct class
{
    struct student *st;
    int n, cap;
    struct lesson_info ls[REPORT_LESSONS];
    int nls;
};

static void class_free(struct class *c)
{
    for (int i = 0; i < c->n; i++) {
        free(c->st[i].lesson);
        free(c->st[i].id);
        free(c->st[i].wrong);
    }
    free(c->st);
    for (int i = 0; i < c->nls; i++) {
        free(c->ls[i].path);
        free(c->ls[i].name);
        free(c->ls[i].title);
    }
}

static struct lesson_info *lesson_of(struct class *c, const char *path, json_t *o)
{
    for (int i = 0; i < c->nls; i++)
        if (!strcmp(c->ls[i].path, path))
            return &c->ls[i];
    if (c->nls == REPORT_LESSONS)
        return NULL;
    const char *name = json_string_value(json_object_get(o, "name"));
    const char *title = json_string_value(json_object_get(o, "title"));
    struct lesson_info l = {.path = strdup(path),
                            .name = strdup(name ? name : path),
                            .title = strdup(title ? title : "")};
    if (!l.path || !l.name || !l.title) {
        free(l.path), free(l.name), free(l.title);
        return NULL;
    }
    c->ls[c->nls] = l;
    return &c->ls[c->nls++];
}

static struct student *student_of(struct class *c, const char *lesson, const char *id)
{
    for (int i = 0; i < c->n; i++)
        if (!strcmp(c->st[i].lesson, lesson) && !strcmp(c->st[i].id, id))
            return &c->st[i];
    if (c->n == c->cap) {
        int cap = c->cap ? 2 * c->cap : 32;
        struct student *m = realloc(c->st, (size_t)cap * sizeof *m);
        if (!m)
            return NULL;
        c->st = m;
        c->cap = cap;
    }
    struct student s = {.lesson = strdup(lesson), .id = strdup(id)};
    if (!s.lesson || !s.id) {
        free(s.lesson), free(s.id);
        return NULL;
    }
    for (int k = 0; k < REPORT_STEPS; k++)
        s.cell[k].entered = -1;
    c->st[c->n] = s;
    return &c->st[c->n++];
}

/* Appends "; step N: "answer"" to the student's wrong answers; -1 when out of memory. */
static int add_wrong(struct student *s, int step, const char *answer)
{
    size_t used = s->wrong ? strlen(s->wrong) : 0, more = strlen(answer) + 32;
    char *w = realloc(s->wrong, used + more);
    if (!w)
        return -1;
    snprintf(w + used, more, "%sstep %d: \"%s\"", used ? "; " : "", step, answer);
    s->wrong = w;
    return 0;
}

/* The student named by a log without --student: its file's name without directory or suffix
 * (malloc'd; NULL when out of memory). */
static char *id_of_file(const char *file)
{
    const char *b = strrchr(file, '/');
    b = b ? b + 1 : file;
    const char *dot = strrchr(b, '.');
    return strndup(b, dot && dot != b ? (size_t)(dot - b) : strlen(b));
}

/* One line of a log into the class; -1 with why. */
static int take_line(struct class *c, const char *file, json_t *o, char *why, size_t whylen)
{
    const char *event = json_string_value(json_object_get(o, "event"));
    const char *lesson = json_string_value(json_object_get(o, "lesson"));
    json_t *jstep = json_object_get(o, "step"), *jsec = json_object_get(o, "seconds");
    if (!json_is_object(o) || !event || !lesson || !json_is_number(jsec)) {
        snprintf(why, whylen,
                 "not a lesson log line (a JSON object with event, lesson and "
                 "seconds)");
        return -1;
    }
    if (jstep && (!json_is_integer(jstep) || json_integer_value(jstep) < 1)) {
        snprintf(why, whylen, "step must be a step number (1 or more)");
        return -1;
    }
    int step = jstep ? (int)json_integer_value(jstep) - 1 : -1;
    double sec = json_number_value(jsec);
    const char *id = json_string_value(json_object_get(o, "student"));
    char *fid = id ? NULL : id_of_file(file);
    struct lesson_info *l = lesson_of(c, lesson, o);
    struct student *s = l && (id || fid) ? student_of(c, lesson, id ? id : fid) : NULL;
    free(fid);
    if (!s) {
        if (!l && c->nls == REPORT_LESSONS)
            snprintf(why, whylen, "more than %d lessons in one report", REPORT_LESSONS);
        else
            snprintf(why, whylen, "out of memory");
        return -1;
    }
    if (!strcmp(event, "start")) {
        json_t *goals = json_object_get(o, "goals"), *g;
        size_t k;
        json_array_foreach(goals, k, g)
        {
            json_int_t v = json_integer_value(g);
            if (v >= 1 && v <= REPORT_STEPS)
                l->goal[v - 1] = true;
        }
        if (s->cell[0].entered < 0)
            s->cell[0].entered = sec;
    }
    if (!strcmp(event, "restart")) {
        for (int k = 0; k < REPORT_STEPS; k++)
            s->cell[k] = (struct goal_cell){.entered = k ? -1 : sec};
    }
    struct goal_cell *cell = step >= 0 && step < REPORT_STEPS ? &s->cell[step] : NULL;
    if (cell && !strcmp(event, "step") && cell->entered < 0)
        cell->entered = sec;
    if (cell && !strcmp(event, "hint") && !cell->met)
        cell->hints++;
    if (cell && !strcmp(event, "goal met") && !cell->met) {
        cell->met = true;
        cell->minutes = (sec - (cell->entered >= 0 ? cell->entered : 0)) / 60;
        l->goal[step] = true; /* a log cut before its start line still shows the goal */
    }
    if (cell && !strcmp(event, "answer wrong")) {
        const char *a = json_string_value(json_object_get(o, "message"));
        if (add_wrong(s, step + 1, a ? a : "") < 0) {
            snprintf(why, whylen, "out of memory");
            return -1;
        }
    }
    if (!strcmp(event, "complete") || (s->done && strcmp(event, "restart")))
        s->done = true; /* finished: a quit from the summary, a look back, change nothing */
    else if (!strcmp(event, "restart"))
        s->done = false;
    if (s->done)
        snprintf(s->where, sizeof s->where, "complete");
    else if (!strcmp(event, "quit"))
        snprintf(s->where, sizeof s->where, step >= 0 ? "quit @%d" : "quit", step + 1);
    else if (step >= 0)
        snprintf(s->where, sizeof s->where, "at %d", step + 1);
    return 0;
}

/* One student's log into the class. A log that is no regular file (a directory of logs, a
 * FIFO) is refused, never read as an empty log: the report would be a student short. */
static int read_log(struct class *c, const char *file)
{
    char err[INFILE_ERR_MAX];
    FILE *f = infile_open(file, "lesson log", 0, err, sizeof err);
    if (!f) {
        cli_error("%s%s", err, strstr(err, ": a directory,") ? " (give its logs: DIR/*.log)" : "");
        return -1;
    }
    char *line = NULL, why[256];
    size_t cap = 0;
    int no = 0, rc = 0;
    long len;
    while (rc == 0 && (len = infile_line(f, &line, &cap, INFILE_LINE_MAX)) != -1) {
        no++;
        if (len == -2) {
            cli_error("%s:%d: line longer than %ld bytes", file, no, INFILE_LINE_MAX);
            rc = -1;
            break;
        }
        if (len == 1 && line[0] == '\n')
            continue;
        json_error_t je;
        json_t *o = json_loadb(line, (size_t)len, 0, &je);
        if (!o) {
            cli_error("%s:%d: not JSON: %s", file, no, je.text);
            rc = -1;
        } else if (take_line(c, file, o, why, sizeof why) < 0) {
            cli_error("%s:%d: %s", file, no, why);
            rc = -1;
        }
        json_decref(o);
    }
    if (rc == 0 && ferror(f)) {
        cli_error("%s: cannot read lesson log: %s", file, strerror(errno));
        rc = -1;
    }
    free(line);
    fclose(f);
    return rc;
}

static void cell_text(const struct goal_cell *g, char *buf, size_t len)
{
    if (g->met)
        snprintf(buf, len, "met %dh %.1fm", g->hints, g->minutes);
    else if (g->entered >= 0)
        snprintf(buf, len, "no %dh", g->hints);
    else
        snprintf(buf, len, "-");
}

static int by_id(const void *a, const void *b)
{
    const struct student *x = a, *y = b;
    int d = strcmp(x->lesson, y->lesson);
    return d ? d : strcmp(x->id, y->id);
}

/* What the logs say, as the terminal shows it: escaped (escape.h), so that a student's id
 * cannot drive the instructor's terminal; "?" only when out of memory. */
static void put_text(const char *format, const char *text)
{
    char *shown = escape_visible(text);
    printf(format, shown ? shown : "?");
    free(shown);
}

static void print_class(const struct class *c)
{
    for (int li = 0; li < c->nls; li++) {
        const struct lesson_info *l = &c->ls[li];
        int n = 0;
        for (int i = 0; i < c->n; i++)
            n += !strcmp(c->st[i].lesson, l->path);
        if (li)
            printf("\n");
        put_text("%s: ", l->name);
        put_text("%s", l->title);
        printf(" (%d student%s)\n", n, n == 1 ? "" : "s");
        printf("%-10s %-9s", "student", "where");
        for (int k = 0; k < REPORT_STEPS; k++)
            if (l->goal[k])
                printf(" step %-8d", k + 1);
        printf(" wrong answers\n");
        for (int i = 0; i < c->n; i++) {
            const struct student *s = &c->st[i];
            if (strcmp(s->lesson, l->path))
                continue;
            put_text("%-10s", s->id);
            printf(" %-9s", s->where[0] ? s->where : "at 1");
            for (int k = 0; k < REPORT_STEPS; k++) {
                char cell[32];
                cell_text(&s->cell[k], cell, sizeof cell);
                if (l->goal[k])
                    printf(" %-13s", cell);
            }
            put_text(" %s\n", s->wrong ? s->wrong : "-");
        }
    }
    printf("\n(met Nh Mm: met after N hints, M minutes on the step; no Nh: reached, not met; -: "
           "not reached)\n");
}

/* A row per student and goal; every text field through csv_field, whatever the logs hold. */
static int write_csv(const struct class *c, const char *path)
{
    struct outfile o;
    char err[OUTFILE_ERR_MAX];
    if (outfile_open(&o, path, err, sizeof err) < 0) {
        cli_error("%s", err);
        return -1;
    }
    int rows = 0;
    fputs("lesson,student,where,step,met,hints,minutes,wrong_answers\n", o.f);
    for (int i = 0; i < c->n; i++) {
        const struct student *s = &c->st[i];
        const struct lesson_info *l = NULL;
        for (int li = 0; li < c->nls; li++)
            if (!strcmp(c->ls[li].path, s->lesson))
                l = &c->ls[li];
        for (int k = 0; l && k < REPORT_STEPS; k++) {
            if (!l->goal[k])
                continue;
            const struct goal_cell *g = &s->cell[k];
            csv_field(o.f, l->name);
            fputc(',', o.f);
            csv_field(o.f, s->id);
            fprintf(o.f, ",%s,%d,%s,%d,", s->where[0] ? s->where : "at 1", k + 1,
                    g->met            ? "yes"
                    : g->entered >= 0 ? "no"
                                      : "not reached",
                    g->hints);
            if (g->met)
                fprintf(o.f, "%.2f", g->minutes);
            fputc(',', o.f);
            csv_field(o.f, s->wrong ? s->wrong : "");
            fputc('\n', o.f);
            rows++;
        }
    }
    if (outfile_commit(&o, err, sizeof err) < 0) {
        cli_error("%s", err);
        return -1;
    }
    cli_wrote("%s (%d rows, a student and goal each)", path, rows);
    return 0;
}

int cmd_lesson_report(int argc, char **argv)
{
    const char *csv = NULL;
    const char *files[argc];
    int nfiles = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            printf("usage: situ lesson report LOG... [--csv FILE]\n\n"
                   "The class from the students' lesson logs (situ lesson NAME --student ID):\n"
                   "a row per student, a column per goal (met after N hints and M minutes on\n"
                   "the step), the quiz answers that were wrong. --csv FILE writes a row per\n"
                   "student and goal. A line that is not a lesson log's: exit 2, FILE:LINE.\n");
            return 0;
        }
        if (flag_take(argc, argv, &i, "csv", &csv)) {
            if (!csv || !*csv) {
                cli_error("--csv: missing value");
                return EXIT_BAD_INPUT;
            }
            continue;
        }
        if (argv[i][0] == '-') {
            cli_error("lesson report: unexpected '%s'; see 'situ lesson report --help'", argv[i]);
            return EXIT_BAD_INPUT;
        }
        files[nfiles++] = argv[i];
    }
    if (nfiles == 0) {
        cli_error("lesson report: expected the students' logs (situ lesson report LOG...)");
        return EXIT_BAD_INPUT;
    }
    char err[OUTFILE_ERR_MAX];
    if (csv && outfile_check(csv, err, sizeof err) < 0) {
        cli_error("--csv: %s", err);
        return EXIT_BAD_INPUT;
    }
    struct class c = {0};
    int rc = 0;
    for (int i = 0; i < nfiles && rc == 0; i++)
        if (read_log(&c, files[i]) < 0)
            rc = EXIT_BAD_INPUT;
    if (rc == 0) {
        qsort(c.st, (size_t)c.n, sizeof *c.st, by_id);
        print_class(&c);
        if (csv && write_csv(&c, csv) < 0)
            rc = 1;
    }
    class_free(&c);
    return rc;
}
