/* The scenario process (scenario_host.h): the engine's async coroutine, its requests and its end as
 * JSON lines on stdout, results read from stdin. Dies with the explorer. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "../../engine/model/report.h"
#include "../../engine/lua/script_async.h"
#include "../../engine/scenario/script_situ.h"
#include "../../engine/base/watchdog.h"
#include "scenario_host.h"

static FILE *protocol; /* the explorer's end: stdout as it was, before it became stderr */

static int emit(json_t *o)
{
    if (!o)
        return -1;
    int rc = report_print_json(protocol, o);
    json_decref(o);
    return rc < 0 || fflush(protocol) != 0 ? -1 : 0;
}

static int emit_output(struct script *s)
{
    char buf[8192];
    size_t n;
    while ((n = script_take_output(s, buf, sizeof buf)) > 0)
        if (emit(json_pack("{s:s%}", "output", buf, n)) < 0)
            return -1;
    return 0;
}

static int emit_waiting(const struct script *s)
{
    const struct params *p;
    int n;
    script_async_wanted(s, &p, &n);
    json_t *list = json_array();
    for (int i = 0; list && i < n; i++)
        json_array_append_new(list, report_params_json(&p[i]));
    return emit(json_pack("{s:o}", "waiting", list));
}

/* Reads results until every configuration of the request has one. -1 when stdin ends. */
static int read_results(struct script *s)
{
    char *line = NULL;
    size_t cap = 0;
    while (!script_async_ready(s)) {
        if (getline(&line, &cap, stdin) < 0) {
            free(line);
            return -1;
        }
        json_error_t jerr;
        json_t *o = json_loads(line, 0, &jerr);
        json_int_t i = -1;
        json_t *result = NULL;
        const char *error = NULL;
        if (!o ||
            json_unpack(o, "{s:I,s?o,s?s}", "i", &i, "result", &result, "error", &error) < 0 ||
            (!result && !error)) {
            json_decref(o);
            free(line);
            return -1; /* not the explorer talking */
        }
        char *text = result ? json_dumps(result, JSON_COMPACT) : NULL;
        script_async_feed_json(s, (int)i, text, result ? NULL : error);
        free(text);
        json_decref(o);
    }
    free(line);
    return 0;
}

static struct script *running; /* for the watchdog's last words */

/* The watchdog is about to end this process (a hang where Lua cannot be interrupted): what the
 * scenario printed before it hung still reaches the panel. On the watchdog's thread, while the
 * main thread is stuck in user code: plain writes, no allocation. */
static void flush_on_fire(void)
{
    static char buf[4096], line[6 * 4096 + 32];
    size_t n;
    while (running && (n = script_take_output(running, buf, sizeof buf)) > 0) {
        size_t o = (size_t)snprintf(line, sizeof line, "{\"output\": \"");
        for (size_t k = 0; k < n; k++) {
            unsigned char c = (unsigned char)buf[k];
            if (c == '"' || c == '\\')
                o += (size_t)snprintf(line + o, sizeof line - o, "\\%c", c);
            else if (c < 0x20 || c >= 0x7f) /* the panel shows ASCII only anyway */
                o += (size_t)snprintf(line + o, sizeof line - o, "\\u%04x", c);
            else
                line[o++] = (char)c;
        }
        o += (size_t)snprintf(line + o, sizeof line - o, "\"}\n");
        (void)!write(fileno(protocol), line, o);
    }
}

int scenario_host_main(int argc, char **argv)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* an explorer killed with SIGKILL takes us along */
    if (getppid() == 1)
        return 1;
    signal(SIGPIPE, SIG_IGN);
    /* The protocol gets a descriptor of its own; stdout becomes stderr, so that nothing else
     * (an analytics' io.write through situ.model, a library) can slip into it. */
    int fd = dup(STDOUT_FILENO);
    if (fd < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0 || !(protocol = fdopen(fd, "w")))
        return 1;
    struct script_opts o = {.async = true,
                            .max_instructions = SCRIPT_MAX_INSTRUCTIONS,
                            .max_memory = SCRIPT_MAX_MEMORY,
                            .time_limit = SCRIPT_TIME_LIMIT};
    int i = 2;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (!strcmp(argv[i], "--unsafe"))
            o.unsafe = true;
        else if (!strcmp(argv[i], "--time-limit") && i + 1 < argc)
            script_set_time_limit(strtod(argv[++i], NULL));
        else if (!strcmp(argv[i], "--"))
            break;
    }
    if (argv[i] && !strcmp(argv[i], "--"))
        i++;
    if (i >= argc)
        return 2;
    struct script *s = script_new(&o);
    if (!s)
        return emit(json_pack("{s:s}", "failed", "out of memory starting Lua")) < 0 ? 1 : 0;
    script_open_situ(s);
    running = s;
    watchdog_on_fire(flush_on_fire);
    enum script_status st = script_async_start(s, argv[i], argc - i - 1, argv + i + 1) < 0
                                ? SCRIPT_FAILED
                                : SCRIPT_READY;
    while (st != SCRIPT_FAILED && st != SCRIPT_DONE) {
        st = script_async_resume(s);
        if (emit_output(s) < 0)
            return 1;
        if (st == SCRIPT_WAITING && (emit_waiting(s) < 0 || read_results(s) < 0))
            return 1;
    }
    int rc = emit(st == SCRIPT_DONE ? json_pack("{s:b}", "done", 1)
                                    : json_pack("{s:s}", "failed", script_error(s)));
    script_free(s);
    return rc < 0 ? 1 : 0;
}
