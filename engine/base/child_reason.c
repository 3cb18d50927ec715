/* What a child says (child.h): its stderr kept head and tail, the one line that tells why it
 * ended, and the words for its end. The one reader of a child's stderr in the tree: the
 * runner's simulations, the digest, the explorer's Lua helpers and the lesson check all end
 * through here. */
#define _GNU_SOURCE /* memmem */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "child.h"

void child_err_feed(struct child_err *e, const char *buf, size_t n)
{
    size_t tail_room = CHILD_ERR_KEEP - CHILD_ERR_HEAD;
    if (e->len + n > CHILD_ERR_KEEP) { /* the head stays; the tail keeps the newest bytes */
        e->cut = true;
        if (n >= tail_room) {
            buf += n - tail_room;
            n = tail_room;
            e->len = CHILD_ERR_HEAD < e->len ? CHILD_ERR_HEAD : e->len;
        } else {
            size_t drop = e->len + n - CHILD_ERR_KEEP;
            memmove(e->text + CHILD_ERR_HEAD, e->text + CHILD_ERR_HEAD + drop,
                    e->len - CHILD_ERR_HEAD - drop);
            e->len -= drop;
        }
    }
    memcpy(e->text + e->len, buf, n);
    e->len += n;
    e->text[e->len] = 0;
}

/* A line of a SimGrid backtrace ("  ->  3# ...", "Backtrace (displayed in actor maestro):",
 * "[...] Current backtrace:"): never the reason. */
static bool backtrace_line(const char *msg, size_t n)
{
    while (n && *msg == ' ')
        msg++, n--;
    return (n >= 2 && !strncmp(msg, "->", 2)) || (n >= 9 && !strncmp(msg, "Backtrace", 9)) ||
           (n >= 18 && !strncmp(msg, "Current backtrace:", 18)) ||
           (n >= 9 && !strncmp(msg + n - 9, "acktrace:", 9));
}

/* SimGrid's logged message: "Uncaught exception TYPE by ACTOR: " goes; a standard library's
 * terse message keeps its type ("std::out_of_range: stoi": a number too large). */
static const char *without_uncaught(const char *msg, size_t n)
{
    static const char uncaught[] = "Uncaught exception ";
    const char *colon = memmem(msg, n, ": ", 2);
    if (n > sizeof uncaught && !strncmp(msg, uncaught, sizeof uncaught - 1) && colon) {
        const char *by = memmem(msg, (size_t)(colon - msg), " by ", 4);
        return by ? colon + 2 : msg + sizeof uncaught - 1;
    }
    return msg;
}

void child_reason(const struct child_err *e, char *out, size_t len)
{
    out[0] = 0;
    size_t used = 0;
    bool in_msg = false, logged = false; /* logged: a SimGrid message was taken */
    const char *last = NULL, *last_end = NULL;
    /* Cut: the head, then the tail from its first whole line. */
    char joined[CHILD_ERR_KEEP + 2];
    const char *text = e->text;
    if (e->cut) {
        const char *tail = e->text + CHILD_ERR_HEAD, *stop = e->text + e->len;
        const char *nl = memchr(tail, '\n', (size_t)(stop - tail));
        tail = nl ? nl + 1 : stop;
        memcpy(joined, e->text, CHILD_ERR_HEAD);
        joined[CHILD_ERR_HEAD] = '\n';
        memcpy(joined + CHILD_ERR_HEAD + 1, tail, (size_t)(stop - tail));
        joined[CHILD_ERR_HEAD + 1 + (size_t)(stop - tail)] = 0;
        text = joined;
    }
    for (const char *line = text; *line;) {
        const char *end = line + strcspn(line, "\n"), *next = *end ? end + 1 : end;
        while (end > line && (end[-1] == ' ' || end[-1] == '\r' || end[-1] == '\t'))
            end--;
        const char *tag = memmem(line, (size_t)(end - line), "/ERROR] ", 8);
        if (!tag)
            tag = memmem(line, (size_t)(end - line), "/CRITICAL] ", 11);
        const char *msg = tag ? strstr(tag, "] ") + 2 : line;
        while (msg < end && (*msg == ' ' || *msg == '\t'))
            msg++;
        size_t n = (size_t)(end - msg);
        bool quiet = !n || backtrace_line(msg, n) || (n >= 12 && !strncmp(msg, "Exiting now.", 12));
        bool ours = !tag && n > 6 && !strncmp(msg, "situ: ", 6);
        if (in_msg && !(line[0] == '[' || quiet || ours || used >= len)) {
            /* a message goes on until the next logged line, blank line or backtrace */
            used += (size_t)snprintf(out + used, len - used, " %.*s", (int)n, msg);
        } else if (tag && !quiet && !logged) {
            msg = without_uncaught(msg, n);
            used = (size_t)snprintf(out, len, "%.*s", (int)(end - msg), msg);
            in_msg = logged = true;
            last = NULL;
        } else {
            in_msg = false;
            /* After SimGrid's message only our own verdict says more; before it, any line. */
            if (!quiet && (!logged || ours)) {
                last = ours ? msg + 6 : msg;
                last_end = end;
            }
        }
        line = next;
    }
    if (last) {
        used = (size_t)snprintf(out, len, "%.*s", (int)(last_end - last), last);
    }
    if (used >= len && len > 4) /* cut: say so */
        memcpy(out + len - 4, "...", 4);
}

void child_end_line(const char *what, int status, bool timed_out, double limit, bool overflow,
                    size_t out_max, const char *reason, char *out, size_t len)
{
    const char *sep = reason && reason[0] ? ": " : "";
    reason = reason ? reason : "";
    out[0] = 0;
    if (timed_out)
        snprintf(out, len, "%s timed out after %g s (the time limit)", what, limit);
    else if (overflow)
        snprintf(out, len, "%s printed more than %zu bytes (killed)", what, out_max);
    else if (WIFSIGNALED(status))
        snprintf(out, len, "%s crashed (%s)%s%.200s", what, strsignal(WTERMSIG(status)), sep,
                 reason);
    else if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
        snprintf(out, len, "%s failed (exit %d)%s%.200s", what, WEXITSTATUS(status), sep, reason);
}
