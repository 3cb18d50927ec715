/* A lesson as bytes between processes (lesson_wire.h). Each record is "TAG LEN\n" and LEN bytes
 * and "\n", so that any byte of a text or a path goes through as it is; the first record says
 * what this is, the last is "end". A step's parameters are "KEY nNUMBER" (%.17g: the double
 * itself) or "KEY sTEXT", as the lesson's Lua gave them. */
#include "lesson_wire.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lesson_internal.h"

#define WIRE_MAGIC     "situ-lesson"
#define WIRE_VERSION   "2"
#define WIRE_STEPS_MAX 100000

static int put(FILE *out, const char *tag, const char *s)
{
    size_t n = s ? strlen(s) : 0;
    if (fprintf(out, "%s %zu\n", tag, n) < 0 || (n && fwrite(s, 1, n, out) != n) ||
        fputc('\n', out) == EOF)
        return -1;
    return 0;
}

static int put_sets(FILE *out, const char *tag, const struct lesson_sets *sets)
{
    for (int k = 0; k < sets->n; k++) {
        const struct lesson_set *v = &sets->v[k];
        size_t len = strlen(param_table[v->id].key) + (v->text ? strlen(v->str) : 0) + 64;
        char *rec = malloc(len);
        if (!rec)
            return -1;
        if (v->text)
            snprintf(rec, len, "%s s%s", param_table[v->id].key, v->str);
        else
            snprintf(rec, len, "%s n%.17g", param_table[v->id].key, v->num);
        int rc = put(out, tag, rec);
        free(rec);
        if (rc < 0)
            return -1;
    }
    return 0;
}

int lesson_wire_write(const struct lesson *l, FILE *out)
{
    int rc = put(out, WIRE_MAGIC, WIRE_VERSION) | put(out, "path", l->path) |
             put(out, "title", l->title);
    for (int i = 0; i < l->n && rc == 0; i++) {
        const struct lesson_step *st = &l->steps[i];
        rc |= put(out, "step", NULL) | put(out, "text", st->text);
        for (int k = 0; k < st->nhints; k++)
            rc |= put(out, st->last_resort && k == st->nhints - 1 ? "hintlast" : "hint",
                      st->hints[k]);
        if (st->question)
            rc |= put(out, "question", st->question);
        if (st->answer)
            rc |= put(out, "answer", st->answer);
        if (st->has_goal)
            rc |= put(out, "goal", st->goal_pos);
        if (st->has_config)
            rc |= put(out, "config", NULL) | put_sets(out, "cset", &st->config);
        if (st->has_solution)
            rc |= put(out, "solution", NULL) | put_sets(out, "sset", &st->solution);
    }
    rc |= put(out, "end", NULL);
    return rc || fflush(out) != 0 || ferror(out) ? -1 : 0;
}

/* ---- reading ---- */

struct reader {
    const char *p, *end;
    char tag[16];
    const char *bytes;
    size_t n;
};

/* The next record into r; false (why set) if the bytes are not one. */
static bool next(struct reader *r, char *why, size_t whylen)
{
    const char *nl = memchr(r->p, '\n', (size_t)(r->end - r->p));
    const char *sp = nl ? memchr(r->p, ' ', (size_t)(nl - r->p)) : NULL;
    if (!sp || sp == r->p || (size_t)(sp - r->p) >= sizeof r->tag || nl - sp < 2 || nl - sp > 11) {
        snprintf(why, whylen, nl ? "a record without its tag and length" : "cut short");
        return false;
    }
    size_t n = 0;
    for (const char *c = sp + 1; c < nl; c++) {
        if (*c < '0' || *c > '9') {
            snprintf(why, whylen, "a record whose length is not a number");
            return false;
        }
        n = n * 10 + (size_t)(*c - '0');
    }
    if (n >= (size_t)(r->end - nl - 1) || nl[1 + n] != '\n') {
        snprintf(why, whylen, "cut short");
        return false;
    }
    memcpy(r->tag, r->p, (size_t)(sp - r->p));
    r->tag[sp - r->p] = 0;
    r->bytes = nl + 1;
    r->n = n;
    r->p = nl + 2 + n;
    return true;
}

/* The record's bytes as a string (an embedded NUL ends it, as it would in C). */
static char *text(const struct reader *r)
{
    char *s = malloc(r->n + 1);
    if (s) {
        memcpy(s, r->bytes, r->n);
        s[r->n] = 0;
    }
    return s;
}

static bool read_set(const struct reader *r, struct lesson_sets *sets, char *why, size_t whylen)
{
    const char *sp = memchr(r->bytes, ' ', r->n);
    int id = sp ? params_find_n(r->bytes, (size_t)(sp - r->bytes)) : -1;
    size_t rest = sp ? r->n - (size_t)(sp - r->bytes) - 1 : 0;
    char kind = rest ? sp[1] : 0;
    bool twice = false;
    for (int k = 0; id >= 0 && k < sets->n; k++)
        twice = twice || sets->v[k].id == id;
    enum param_type t = id >= 0 ? param_table[id].type : PARAM_PATH;
    if (id < 0 || twice || (kind != 's' && (kind != 'n' || t == PARAM_PATH || t == PARAM_CHOICE))) {
        snprintf(why, whylen, "a parameter that is not one");
        return false;
    }
    struct lesson_set *v = &sets->v[sets->n];
    v->id = id;
    v->text = kind == 's';
    if (v->text) {
        struct reader value = {.bytes = sp + 2, .n = rest - 1};
        if (!(v->str = text(&value))) {
            snprintf(why, whylen, "out of memory");
            return false;
        }
    } else {
        char num[64], *end;
        snprintf(num, sizeof num, "%.*s", (int)(rest - 1 < 63 ? rest - 1 : 63), sp + 2);
        errno = 0;
        v->num = strtod(num, &end);
        if (end == num || *end || rest - 1 >= sizeof num) {
            snprintf(why, whylen, "a parameter whose number is not one");
            return false;
        }
    }
    sets->n++;
    return true;
}

/* One record of a step (its fields, in any order after "step"). */
static bool step_record(const struct reader *r, struct lesson_step *st, char *why, size_t whylen)
{
    char **str =
        !strcmp(r->tag, "text")       ? &st->text
        : !strcmp(r->tag, "question") ? &st->question
        : !strcmp(r->tag, "answer")   ? &st->answer
        : (!strcmp(r->tag, "hint") || !strcmp(r->tag, "hintlast")) && st->nhints < LESSON_HINTS_MAX
            ? &st->hints[st->nhints++]
            : NULL;
    if (!strcmp(r->tag, "hintlast"))
        st->last_resort = true;
    if (str) {
        free(*str);
        if (!(*str = text(r)))
            snprintf(why, whylen, "out of memory");
        return *str != NULL;
    }
    if (!strcmp(r->tag, "goal")) {
        st->has_goal = true;
        snprintf(st->goal_pos, sizeof st->goal_pos, "%.*s",
                 (int)(r->n < sizeof st->goal_pos ? r->n : sizeof st->goal_pos - 1), r->bytes);
        return true;
    }
    if (!strcmp(r->tag, "config") || !strcmp(r->tag, "solution")) {
        *(r->tag[0] == 'c' ? &st->has_config : &st->has_solution) = true;
        return true;
    }
    if (!strcmp(r->tag, "cset") && st->has_config)
        return read_set(r, &st->config, why, whylen);
    if (!strcmp(r->tag, "sset") && st->has_solution)
        return read_set(r, &st->solution, why, whylen);
    snprintf(why, whylen, "an unknown record '%s'", r->tag);
    return false;
}

struct lesson *lesson_wire_read(const char *buf, size_t len, char *err, size_t errlen)
{
    struct reader r = {.p = buf, .end = buf + len};
    struct lesson *l = calloc(1, sizeof *l);
    char why[128] = "out of memory";
    bool ok = l != NULL && next(&r, why, sizeof why);
    if (ok && (strcmp(r.tag, WIRE_MAGIC) || r.n != strlen(WIRE_VERSION) ||
               memcmp(r.bytes, WIRE_VERSION, r.n))) {
        snprintf(why, sizeof why, "not a lesson of this version of situ");
        ok = false;
    }
    bool ended = false;
    while (ok && !ended && next(&r, why, sizeof why)) {
        struct lesson_step *st = l->n ? &l->steps[l->n - 1] : NULL;
        if (!strcmp(r.tag, "end")) {
            ended = true;
        } else if (!strcmp(r.tag, "path") || !strcmp(r.tag, "title")) {
            if (r.tag[0] == 'p')
                snprintf(l->path, sizeof l->path, "%.*s",
                         (int)(r.n < sizeof l->path ? r.n : sizeof l->path - 1), r.bytes);
            else if (!l->title && !(l->title = text(&r)))
                ok = false;
        } else if (!strcmp(r.tag, "step")) {
            struct lesson_step *grown = l->n < WIRE_STEPS_MAX
                                            ? realloc(l->steps, sizeof *grown * (size_t)(l->n + 1))
                                            : NULL;
            if ((ok = grown != NULL)) {
                l->steps = grown;
                memset(&l->steps[l->n++], 0, sizeof *grown);
            }
        } else if (!st) {
            snprintf(why, sizeof why, "a step's record before any step");
            ok = false;
        } else {
            ok = step_record(&r, st, why, sizeof why);
        }
    }
    if (ok && (!ended || r.p != r.end || !l->title || !l->path[0] || !l->n)) {
        snprintf(why, sizeof why, !ended ? "cut short" : "incomplete");
        ok = false;
    }
    for (int i = 0; ok && i < l->n; i++)
        if (!l->steps[i].text && !(l->steps[i].text = strdup("")))
            ok = false;
    if (ok && lesson_check_steps(l, err, errlen) < 0) {
        lesson_free(l);
        return NULL;
    }
    if (!ok) {
        snprintf(err, errlen, "the lesson's checking process sent %s (%s)",
                 l ? "garbled data" : "nothing usable", why);
        lesson_free(l);
        return NULL;
    }
    return l;
}
