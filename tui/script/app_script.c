/* The scenario panel's state. The scenario itself runs in a process of its own (scenario_host.h),
 * never here: the loop starts it (app_script_start), and turns what it says into calls below.
 * Nothing here waits or runs Lua. Output lines are kept as plain ASCII, so a script can never
 * put control sequences on the screen. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../state/app.h"

const char *app_script_line(const struct app_state *s, int k)
{
    const struct app_script *sp = &s->script;
    if (k < 0 || k >= sp->nlines)
        return "";
    return sp->lines[(sp->first + k) % APP_SCRIPT_LINES];
}

static void push_line(struct app_script *sp)
{
    sp->partial[sp->partial_len] = 0;
    int slot;
    if (sp->nlines < APP_SCRIPT_LINES) {
        slot = (sp->first + sp->nlines++) % APP_SCRIPT_LINES;
    } else {
        slot = sp->first;
        sp->first = (sp->first + 1) % APP_SCRIPT_LINES;
    }
    memcpy(sp->lines[slot], sp->partial, (size_t)sp->partial_len + 1);
    sp->partial_len = 0;
}

/* Bytes of output into lines: tabs to the next multiple of 8, anything else that is not
 * printable ASCII to '?', lines longer than the panel can keep cut. */
static void add_output(struct app_script *sp, const char *buf, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)buf[i];
        if (c == '\n') {
            push_line(sp);
            continue;
        }
        int reps = 1;
        if (c == '\t') {
            reps = 8 - sp->partial_len % 8;
            c = ' ';
        } else if (c == '\r') {
            continue;
        } else if (c < 0x20 || c >= 0x7f) {
            c = '?';
        }
        while (reps-- > 0 && sp->partial_len < APP_SCRIPT_COLS - 1)
            sp->partial[sp->partial_len++] = (char)c;
    }
}

/* The first traceback line that points into a file (not "[C]: in ..."), trimmed. */
static void first_trace_line(const char *err, char *out, size_t len)
{
    out[0] = 0;
    const char *t = strstr(err, "stack traceback:");
    if (!t)
        return;
    for (const char *line = strchr(t, '\n'); line; line = strchr(line, '\n')) {
        line++;
        while (*line == '\t' || *line == ' ')
            line++;
        const char *end = strchr(line, '\n');
        int n = end ? (int)(end - line) : (int)strlen(line);
        if (n > 0 && line[0] != '[' && line[0] != '(') {
            snprintf(out, len, "%.*s", n, line);
            return;
        }
    }
}

static void failed(struct app_script *sp, const char *err)
{
    const char *nl = strchr(err, '\n');
    snprintf(sp->err, sizeof sp->err, "%.*s", nl ? (int)(nl - err) : (int)strlen(err), err);
    first_trace_line(err, sp->trace, sizeof sp->trace);
    sp->phase = APP_SCRIPT_FAILED;
}

unsigned app_script_close(struct app_state *s)
{
    struct app_script *sp = &s->script;
    bool was = sp->phase != APP_SCRIPT_OFF;
    free(sp->req);
    int gen = sp->gen;
    memset(sp, 0, sizeof *sp);
    sp->gen = gen; /* the next scenario gets a new one */
    if (s->mode == APP_SCRIPT_PATH)
        s->mode = APP_MAIN;
    return was ? APP_DIRTY | APP_SCRIPT_CANCEL : APP_DIRTY;
}

/* "FILE [ARG ...]" as a shell splits words: blanks separate them, '...' and "..." keep blanks,
 * a backslash keeps the next character. The whole line is one word if it names a file, so a
 * path with blanks needs no quotes. The words point into buf. Returns how many, or -1 with the
 * reason in err. */
static int split_words(const char *line, char *buf, size_t buflen, char **words, int max, char *err,
                       size_t errlen)
{
    struct stat st;
    if (strlen(line) >= buflen) {
        snprintf(err, errlen, "the scenario's command line is over %zu bytes", buflen - 1);
        return -1;
    }
    if (stat(line, &st) == 0 && S_ISREG(st.st_mode)) {
        snprintf(buf, buflen, "%s", line);
        words[0] = buf;
        return 1;
    }
    int n = 0;
    char *o = buf, quote = 0;
    bool in_word = false;
    for (const char *c = line;; c++) {
        if (!*c || (!quote && (*c == ' ' || *c == '\t'))) {
            if (quote) {
                snprintf(err, errlen, "%c is not closed in '%s'", quote, line);
                return -1;
            }
            if (in_word) {
                *o++ = 0;
                in_word = false;
            }
            if (!*c)
                return n;
            continue;
        }
        if (!in_word) {
            if (n == max) {
                snprintf(err, errlen, "more than %d arguments", max - 1);
                return -1;
            }
            words[n++] = o;
            in_word = true;
        }
        if (quote ? *c == quote : *c == '\'' || *c == '"')
            quote = quote ? 0 : *c;
        else if (*c == '\\' && quote != '\'' && c[1])
            *o++ = *++c;
        else
            *o++ = *c;
    }
}

unsigned app_script_open(struct app_state *s, const char *cmdline)
{
    unsigned flags = app_script_close(s);
    struct app_script *sp = &s->script;
    /* x prefills it: re-running a scenario is Enter, however it was opened. */
    snprintf(s->last_script, sizeof s->last_script, "%s", cmdline);
    sp->gen++;
    sp->phase = APP_SCRIPT_RUNNING;
    char buf[2 * PARAMS_PATH_MAX], *words[APP_SCRIPT_ARGS + 1];
    int n =
        split_words(cmdline, buf, sizeof buf, words, APP_SCRIPT_ARGS + 1, sp->err, sizeof sp->err);
    if (n < 1) {
        if (n == 0)
            snprintf(sp->err, sizeof sp->err, "no scenario file given");
        snprintf(sp->path, sizeof sp->path, "%s", cmdline);
        sp->phase = APP_SCRIPT_FAILED;
        return flags | APP_DIRTY;
    }
    const char *path = words[0];
    if (strlen(path) >= sizeof sp->path) {
        snprintf(sp->err, sizeof sp->err, "the scenario's path is over %zu bytes",
                 sizeof sp->path - 1);
        sp->phase = APP_SCRIPT_FAILED;
        return flags | APP_DIRTY;
    }
    memcpy(sp->path, path, strlen(path) + 1);
    for (int k = 0; k < n; k++)
        sp->word_at[k] = (int)(words[k] - buf);
    memcpy(sp->words_buf, buf, sizeof sp->words_buf);
    sp->nwords = n;
    sp->start = true;
    return flags | APP_DIRTY | APP_SCRIPT;
}

int app_script_start(struct app_state *s, char **words, int max)
{
    struct app_script *sp = &s->script;
    if (!sp->start)
        return 0;
    sp->start = false;
    int n = sp->nwords < max ? sp->nwords : max;
    for (int k = 0; k < n; k++)
        words[k] = sp->words_buf + sp->word_at[k];
    return n;
}

unsigned app_script_on_output(struct app_state *s, const char *text, size_t len)
{
    add_output(&s->script, text, len);
    return APP_DIRTY;
}

unsigned app_script_on_request(struct app_state *s, const struct params *p, int n)
{
    struct app_script *sp = &s->script;
    struct params *copy = malloc((size_t)(n ? n : 1) * sizeof *copy);
    if (!copy)
        return app_script_on_end(s, "out of memory for the scenario's simulations");
    memcpy(copy, p, (size_t)n * sizeof *copy);
    free(sp->req);
    sp->req = copy;
    sp->nreq = n;
    sp->phase = APP_SCRIPT_WAITING;
    sp->submit = true;
    sp->pending = n;
    sp->total += n;
    return APP_DIRTY | APP_SCRIPT;
}

unsigned app_script_on_end(struct app_state *s, const char *err)
{
    struct app_script *sp = &s->script;
    if (sp->phase != APP_SCRIPT_RUNNING && sp->phase != APP_SCRIPT_WAITING)
        return 0;
    if (sp->partial_len)
        push_line(sp);
    free(sp->req);
    sp->req = NULL;
    sp->nreq = sp->pending = 0;
    sp->submit = false;
    if (err)
        failed(sp, err);
    else
        sp->phase = APP_SCRIPT_DONE;
    return APP_DIRTY;
}

int app_script_request(struct app_state *s, const struct params **p)
{
    struct app_script *sp = &s->script;
    if (!sp->req || !sp->submit)
        return 0;
    sp->submit = false;
    *p = sp->req;
    return sp->nreq;
}

unsigned app_script_on_result(struct app_state *s, int gen, int i, const struct sim_result *r,
                              const char *error)
{
    struct app_script *sp = &s->script;
    (void)r;
    (void)error;
    if (gen != sp->gen || sp->phase != APP_SCRIPT_WAITING || i < 0 || i >= sp->nreq)
        return 0;
    if (--sp->pending == 0)
        sp->phase = APP_SCRIPT_RUNNING; /* it resumes by itself once fed */
    return APP_DIRTY;
}

unsigned app_script_reload(struct app_state *s)
{
    if (s->script.phase == APP_SCRIPT_OFF || !s->last_script[0])
        return 0;
    char line[sizeof s->last_script];
    snprintf(line, sizeof line, "%s", s->last_script);
    unsigned flags = app_script_open(s, line);
    app_notice(s, false, "scenario changed: running it again");
    return flags | APP_DIRTY;
}

unsigned app_script_path_commit(struct app_state *s)
{
    if (s->edit_len == 0) {
        snprintf(s->edit_err, sizeof s->edit_err,
                 "type the path of a .lua scenario, then its arguments if any");
        return APP_DIRTY;
    }
    s->mode = APP_MAIN;
    return app_script_open(s, s->edit);
}
