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

#include "../engine/base/flag.h"
#include "../engine/base/outfile.h"
#include "cli.h"

#define REPORT_STEPS   64
#define REPORT_WRONG   512
#define REPORT_NAME    128
#define REPORT_HEADING 256

struct goal_cell {
    bool met;
    int hints;      /* hints asked on the step before the goal was met (or so far) */
    double entered; /* the lesson's clock when the student first reached the step; <0: never */
    double minutes; /* on the step until the goal was met */
};

struct student {
    char lesson[REPORT_NAME + 1024]; /* the lesson's path, as logged */
    char id[REPORT_NAME];
    char where[32]; /* "complete", "quit @3", "at 2" */
    bool done;      /* the lesson was completed (and not restarted since) */
    struct goal_cell cell[REPORT_STEPS];
    char wrong[REPORT_WRONG]; /* step 2: "is"; ... */
};

struct lesson_info {
    char path[1024];
    char name[REPORT_NAME];
    char title[REPORT_HEADING];
    bool goal[REPORT_STEPS]; /* step i+1 has a goal (the "start" line says which) */
};

struct class
{
    struct student *st;
    int n, cap;
    struct lesson_info ls[16];
    int nls;
};

static struct lesson_info *lesson_of(struct class *c, const char *path, json_t *o)
{
    for (int i = 0; i < c->nls; i++)
        if (!strcmp(c->ls[i].path, path))
            return &c->ls[i];
    if (c->nls == (int)(sizeof c->ls / sizeof c->ls[0]))
        return NULL;
    struct lesson_info *l = &c->ls[c->nls++];
    memset(l, 0, sizeof *l);
    snprintf(l->path, sizeof l->path, "%s", path);
    const char *name = json_string_value(json_object_get(o, "name"));
    const char *title = json_string_value(json_object_get(o, "title"));
    snprintf(l->name, sizeof l->name, "%s", name ? name : path);
    snprintf(l->title, sizeof l->title, "%s", title ? title : "");
    return l;
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
    struct student *s = &c->st[c->n++];
    memset(s, 0, sizeof *s);
    snprintf(s->lesson, sizeof s->lesson, "%s", lesson);
    snprintf(s->id, sizeof s->id, "%s", id);
    for (int k = 0; k < REPORT_STEPS; k++)
        s->cell[k].entered = -1;
    return s;
}

/* The student named by a log without --student: its file's name without directory or suffix. */
static void id_of_file(const char *file, char *out, size_t len)
{
    const char *b = strrchr(file, '/');
    b = b ? b + 1 : file;
    const char *dot = strrchr(b, '.');
    snprintf(out, len, "%.*s", (int)(dot && dot != b ? dot - b : (long)strlen(b)), b);
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
    char fid[REPORT_NAME];
    const char *id = json_string_value(json_object_get(o, "student"));
    if (!id) {
        id_of_file(file, fid, sizeof fid);
        id = fid;
    }
    struct lesson_info *l = lesson_of(c, lesson, o);
    struct student *s = l ? student_of(c, lesson, id) : NULL;
    if (!s) {
        snprintf(why, whylen, "too many lessons or students in one report");
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
        size_t used = strlen(s->wrong);
        snprintf(s->wrong + used, sizeof s->wrong - used, "%sstep %d: \"%s\"", used ? "; " : "",
                 step + 1, a ? a : "");
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

static int read_log(struct class *c, const char *file)
{
    FILE *f = fopen(file, "r");
    if (!f) {
        cli_error("%s: cannot read: %s", file, strerror(errno));
        return -1;
    }
    char *line = NULL, why[256];
    size_t cap = 0;
    int no = 0, rc = 0;
    ssize_t len;
    while (rc == 0 && (len = getline(&line, &cap, f)) > 0) {
        no++;
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

static void print_class(const struct class *c)
{
    for (int li = 0; li < c->nls; li++) {
        const struct lesson_info *l = &c->ls[li];
        int n = 0;
        for (int i = 0; i < c->n; i++)
            n += !strcmp(c->st[i].lesson, l->path);
        printf("%s%s: %s (%d student%s)\n", li ? "\n" : "", l->name, l->title, n,
               n == 1 ? "" : "s");
        printf("%-10s %-9s", "student", "where");
        for (int k = 0; k < REPORT_STEPS; k++)
            if (l->goal[k])
                printf(" step %-8d", k + 1);
        printf(" wrong answers\n");
        for (int i = 0; i < c->n; i++) {
            const struct student *s = &c->st[i];
            if (strcmp(s->lesson, l->path))
                continue;
            printf("%-10s %-9s", s->id, s->where[0] ? s->where : "at 1");
            for (int k = 0; k < REPORT_STEPS; k++) {
                char cell[32];
                cell_text(&s->cell[k], cell, sizeof cell);
                if (l->goal[k])
                    printf(" %-13s", cell);
            }
            printf(" %s\n", s->wrong[0] ? s->wrong : "-");
        }
    }
    printf("\n(met Nh Mm: met after N hints, M minutes on the step; no Nh: reached, not met; -: "
           "not reached)\n");
}

/* A CSV field, quoted when it must be. */
static void csv_field(char *out, size_t len, const char *v)
{
    if (!strpbrk(v, ",\"\n")) {
        snprintf(out, len, "%s", v);
        return;
    }
    size_t k = 0;
    out[k++] = '"';
    for (; *v && k + 3 < len; v++) {
        if (*v == '"')
            out[k++] = '"';
        out[k++] = *v;
    }
    out[k++] = '"';
    out[k] = 0;
}

static int write_csv(const struct class *c, const char *path)
{
    struct outfile o;
    char err[OUTFILE_ERR_MAX], line[4096], a[1200], b[REPORT_WRONG * 2];
    if (outfile_open(&o, path, err, sizeof err) < 0) {
        cli_error("%s", err);
        return -1;
    }
    int rows = 0;
    snprintf(line, sizeof line, "lesson,student,where,step,met,hints,minutes,wrong_answers\n");
    outfile_write(&o, line, strlen(line));
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
            csv_field(a, sizeof a, s->id);
            csv_field(b, sizeof b, s->wrong);
            char min[32] = "";
            if (g->met)
                snprintf(min, sizeof min, "%.2f", g->minutes);
            snprintf(line, sizeof line, "%s,%s,%s,%d,%s,%d,%s,%s\n", l->name, a,
                     s->where[0] ? s->where : "at 1", k + 1,
                     g->met            ? "yes"
                     : g->entered >= 0 ? "no"
                                       : "not reached",
                     g->hints, min, b);
            outfile_write(&o, line, strlen(line));
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
    free(c.st);
    return rc;
}
