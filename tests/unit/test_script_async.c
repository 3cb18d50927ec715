/* The async protocol of scenarios, without curses or children: a scenario runs as a coroutine,
 * situ.run and situ.sweep yield requests, the test feeds fake results (as the explorer's runner
 * would) and resumes; output goes to a buffer; errors come back with file:line and a
 * traceback. Also the scenario panel's state (tui/script/app_script.c). Run from the repository
 * root. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../engine/model/params.h"
#include "../../engine/lua/script_async.h"
#include "../../engine/scenario/script_situ.h"
#include "../../tui/state/app.h"
#include "fixtures.h"

TestSuite(script_async, .init = fixture_dir_make, .fini = fixture_dir_remove);
TestSuite(script_panel, .init = fixture_dir_make, .fini = fixture_dir_remove);

static const char *write_lua(const char *name, const char *text)
{
    static char path[512];
    fixture_write(name, text, path, sizeof path);
    return path;
}

/* The current request's configurations, and how many. */
static int req_n(const struct script *s)
{
    int n;
    script_async_wanted(s, NULL, &n);
    return n;
}

static const struct params *req_p(const struct script *s)
{
    const struct params *p;
    script_async_wanted(s, &p, NULL);
    return p;
}

static struct script *start(const char *text)
{
    struct script_opts o = {.async = true,
                            .max_instructions = SCRIPT_MAX_INSTRUCTIONS,
                            .max_memory = SCRIPT_MAX_MEMORY};
    struct script *s = script_new(&o);
    cr_assert_not_null(s);
    script_open_situ(s);
    cr_assert_eq(script_async_start(s, write_lua("scenario.lua", text), 0, NULL), 0, "%s",
                 script_error(s));
    return s;
}

static char *output(struct script *s)
{
    static char buf[8192];
    size_t n = 0, k;
    while ((k = script_take_output(s, buf + n, sizeof buf - 1 - n)) > 0)
        n += k;
    buf[n] = 0;
    return buf;
}

/* A fake measurement of configuration i: makespan 100 + ratio. */
static void feed(struct script *s, int i)
{
    const struct params *p = &req_p(s)[i];
    char json[512];
    snprintf(json, sizeof json,
             "{\"makespan\": %g, \"efficiency\": 0.5, \"sim_active\": 1, \"sim_idle\": 0,"
             " \"analytics_active\": 1, \"analytics_idle\": 0, \"steps\": 4, \"sim_cores\": 30,"
             " \"analytics_cores\": 2, \"scenario\": \"IS\", \"config\": {\"ratio\": %ld}}",
             100.0 + (double)p->ratio, (long)p->ratio);
    cr_assert_eq(script_async_feed_json(s, i, json, NULL), 0);
}

Test(script_async, sweep_yields_a_request_and_resumes_with_results)
{
    struct script *s = start("print('start')\n"
                             "local rs = situ.sweep{ base = situ.params{iterations = 400},\n"
                             "                       ratio = {7, 15} }\n"
                             "print('got', #rs, rs[1].makespan, rs[2].config.ratio)\n"
                             "situ.table(rs, {'ratio', 'makespan'})\n");
    cr_assert_eq(script_async_resume(s), SCRIPT_WAITING);
    cr_assert_str_eq(output(s), "start\n");
    cr_assert_eq(script_async_wanted(s, NULL, NULL), SCRIPT_REQ_SWEEP);
    cr_assert_eq(req_n(s), 2);
    cr_assert_eq(req_p(s)[0].ratio, 7);
    cr_assert_eq(req_p(s)[1].ratio, 15);
    cr_assert_eq(req_p(s)[0].iterations, 400);
    /* Nothing runs until every result is in; results come in any order. */
    feed(s, 1);
    cr_assert_not(script_async_ready(s));
    cr_assert_eq(script_async_resume(s), SCRIPT_WAITING);
    cr_assert_eq(script_async_feed_json(s, 1, "{}", NULL), -1, "fed twice");
    feed(s, 0);
    cr_assert(script_async_ready(s));
    cr_assert_eq(script_async_resume(s), SCRIPT_DONE);
    char *out = output(s);
    cr_assert(strstr(out, "got\t2\t107\t15\n"), "%s", out);
    cr_assert(strstr(out, "ratio  makespan\n"), "%s", out);
    cr_assert(strstr(out, "   15       115\n"), "%s", out);
    cr_assert_eq(script_async_wanted(s, NULL, NULL), SCRIPT_REQ_NONE);
    script_free(s);
}

Test(script_async, run_resumes_with_the_result_or_raises_the_failure)
{
    struct script *s = start("local r = situ.run{ratio = 3}\n"
                             "print(r.makespan, r.scenario)\n"
                             "local ok, e = pcall(situ.run, {ratio = 7})\n"
                             "print(ok, e)\n"
                             "situ.run{ratio = 1}\n");
    cr_assert_eq(script_async_resume(s), SCRIPT_WAITING);
    cr_assert_eq(script_async_wanted(s, NULL, NULL), SCRIPT_REQ_RUN);
    feed(s, 0);
    cr_assert_eq(script_async_resume(s), SCRIPT_WAITING);
    cr_assert_eq(req_p(s)[0].ratio, 7);
    cr_assert_eq(script_async_feed(s, 0, NULL, "exit 3: run: boom"), 0);
    cr_assert_eq(script_async_resume(s), SCRIPT_WAITING);
    char *out = output(s);
    cr_assert(strstr(out, "103\tIS\n"), "%s", out);
    /* pcall sees what it sees headless: the message raised from C, without a position. */
    cr_assert(strstr(out, "false\tsitu.run: exit 3: run: boom\n"), "%s", out);
    cr_assert_eq(script_async_feed(s, 0, NULL, "killed"), 0);
    cr_assert_eq(script_async_resume(s), SCRIPT_FAILED);
    cr_assert(strstr(script_error(s), "scenario.lua:5: situ.run: killed"), "%s", script_error(s));
    cr_assert_eq(script_exit_status(s, 2), 3); /* a failed simulation ended it */
    script_free(s);
}

Test(script_async, feed_a_parsed_result)
{
    struct script *s = start("local r = situ.run{ratio = 3}\n"
                             "print(r.makespan, r.config.ratio, #r.per_step.sim_active)\n");
    cr_assert_eq(script_async_resume(s), SCRIPT_WAITING);
    struct sim_result r;
    memset(&r, 0, sizeof r);
    r.m.makespan = 42;
    r.m.efficiency = 0.9;
    r.wall_seconds = -1;
    r.activities = -1;
    cr_assert_eq(script_async_feed(s, 0, &r, NULL), 0);
    cr_assert_eq(script_async_resume(s), SCRIPT_DONE, "%s", script_error(s));
    cr_assert_str_eq(output(s), "42.0\t3\t0\n");
    script_free(s);
}

Test(script_async, runtime_error_has_file_line_and_traceback)
{
    struct script *s = start("local function f()\n"
                             "  local t = nil\n"
                             "  return t.x\n"
                             "end\n"
                             "print('before')\n"
                             "f()\n");
    cr_assert_eq(script_async_resume(s), SCRIPT_FAILED);
    char line[512];
    script_error_line(s, line, sizeof line);
    cr_assert(strstr(line, "scenario.lua:3: attempt to index"), "%s", line);
    cr_assert(strstr(script_error(s), "stack traceback:"), "%s", script_error(s));
    cr_assert(strstr(script_error(s), "scenario.lua:6: in main chunk"), "%s", script_error(s));
    cr_assert_str_eq(output(s), "before\n");
    script_free(s);
}

Test(script_async, error_after_a_resume_and_from_c)
{
    struct script *s = start("local rs = situ.sweep{ratio = {7}}\n"
                             "situ.params{ratio = 'x'}\n");
    cr_assert_eq(script_async_resume(s), SCRIPT_WAITING);
    feed(s, 0);
    cr_assert_eq(script_async_resume(s), SCRIPT_FAILED);
    cr_assert(strstr(script_error(s), "scenario.lua:2: situ.params:"), "%s", script_error(s));
    script_free(s);
}

Test(script_async, syntax_error_at_start)
{
    struct script_opts o = {.async = true};
    struct script *s = script_new(&o);
    script_open_situ(s);
    cr_assert_eq(script_async_start(s, write_lua("bad.lua", "local x = = 1\n"), 0, NULL), -1);
    cr_assert(strstr(script_error(s), "bad.lua:1:"), "%s", script_error(s));
    cr_assert_eq(script_async_resume(s), SCRIPT_FAILED);
    script_free(s);
}

Test(script_async, limits_and_sandbox_apply)
{
    struct script_opts o = {.async = true, .max_instructions = 100000, .max_memory = 8u << 20};
    struct script *s = script_new(&o);
    script_open_situ(s);
    cr_assert_eq(script_async_start(s, write_lua("loop.lua", "while true do end\n"), 0, NULL), 0);
    cr_assert_eq(script_async_resume(s), SCRIPT_FAILED);
    cr_assert(strstr(script_error(s), "loop.lua:1: stopped after"), "%s", script_error(s));
    script_free(s);

    o.max_instructions = 0;
    s = script_new(&o);
    script_open_situ(s);
    cr_assert_eq(script_async_start(s,
                                    write_lua("bomb.lua", "local t = {}\n"
                                                          "for i = 1, 1e8 do t[i] = i end\n"),
                                    0, NULL),
                 0);
    cr_assert_eq(script_async_resume(s), SCRIPT_FAILED);
    cr_assert(strstr(script_error(s), "out of memory"), "%s", script_error(s));
    script_free(s);

    s = start("os.execute('true')\n");
    cr_assert_eq(script_async_resume(s), SCRIPT_FAILED);
    cr_assert(strstr(script_error(s), "scenario.lua:1: os.execute is not available"), "%s",
              script_error(s));
    script_free(s);
}

/* The sandbox's dofile is a C function: the code it loads still waits for simulations (it
 * continues after a yield, as Lua's own dofile does). */
Test(script_async, code_loaded_by_dofile_can_wait)
{
    char helper[512], text[1024];
    fixture_write("helper.lua",
                  "local r = situ.run{ratio = 3}\n"
                  "return r.makespan, r.scenario\n",
                  helper, sizeof helper);
    snprintf(text, sizeof text, "print(dofile('%s'))\n", helper);
    struct script *s = start(text);
    cr_assert_eq(script_async_resume(s), SCRIPT_WAITING, "%s", script_error(s));
    cr_assert_eq(req_p(s)[0].ratio, 3);
    feed(s, 0);
    cr_assert_eq(script_async_resume(s), SCRIPT_DONE, "%s", script_error(s));
    cr_assert_str_eq(output(s), "103\tIS\n");
    script_free(s);
}

Test(script_async, io_goes_to_the_buffer_and_reads_nothing)
{
    struct script *s = start("io.write('a', 1, '\\n')\n"
                             "io.stdout:write('b\\n')\n"
                             "print(io.read('l'))\n");
    cr_assert_eq(script_async_resume(s), SCRIPT_DONE, "%s", script_error(s));
    cr_assert_str_eq(output(s), "a1\nb\nnil\n");
    script_free(s);
}

Test(script_async, what_cannot_wait_says_so)
{
    struct script *s = start("local co = coroutine.wrap(function() situ.run{} end)\n"
                             "co()\n");
    cr_assert_eq(script_async_resume(s), SCRIPT_FAILED);
    cr_assert(strstr(script_error(s), "scenario.lua:1: situ.run: in the explorer"), "%s",
              script_error(s));
    script_free(s);

    /* The model needs no waiting: a model sweep and a crossover by model run straight on. */
    s = start("local rs = situ.sweep{ratio = {1, 3}, model = true}\n"
              "print(#rs, situ.crossover{base = {nodes = 16}} ~= false)\n");
    cr_assert_eq(script_async_resume(s), SCRIPT_DONE, "%s", script_error(s));
    cr_assert_str_eq(output(s), "2\ttrue\n");
    script_free(s);
}

/* A crossover by run in the explorer: each round is a sweep request; the search goes on when
 * the results are fed. Fake makespans: in situ 10 * data_scaling, in transit 100, so the
 * mappings cross at 10. */
Test(script_async, crossover_by_run_waits_for_each_round)
{
    struct script *s = start("local x, info = situ.crossover{base = {nodes = 4}, by = 'run', "
                             "jobs = 4}\n"
                             "print(string.format('%.3f', x), info.by, info.below, "
                             "info.evaluations)\n");
    int rounds = 0, evaluations = 0;
    enum script_status st;
    while ((st = script_async_resume(s)) == SCRIPT_WAITING) {
        cr_assert_eq(script_async_wanted(s, NULL, NULL), SCRIPT_REQ_SWEEP);
        cr_assert_eq(req_n(s), rounds ? 4 : 10, "round %d asks for %d", rounds, req_n(s));
        for (int i = 0; i < req_n(s); i++) {
            const struct params *p = &req_p(s)[i];
            char json[256];
            snprintf(json, sizeof json, "{\"makespan\": %.17g}",
                     p->mapping == MAPPING_INSITU ? 10 * p->data_scaling : 100.0);
            cr_assert_eq(script_async_feed_json(s, i, json, NULL), 0);
        }
        evaluations += req_n(s);
        cr_assert_lt(++rounds, 20, "the search does not end");
    }
    cr_assert_eq(st, SCRIPT_DONE, "%s", script_error(s));
    double x;
    char by[16], below[16];
    int evals;
    cr_assert_eq(sscanf(output(s), "%lf %15s %15s %d", &x, by, below, &evals), 4, "%s", output(s));
    cr_assert(fabs(x - 10) < 0.5, "crossover at %g, expected 10", x);
    cr_assert_str_eq(by, "run");
    cr_assert_str_eq(below, "insitu");
    cr_assert_eq(evals, evaluations);
    cr_assert_gt(rounds, 1);
    script_free(s);
}

/* The panel's state; the scenario itself runs in its own process (tui/procs/scenario_host.c, tested
 * through the explorer in tests/tui and tests/lua/isolation.py): open hands the loop the file and
 * its arguments, as a shell splits them (a file whose name has blanks needs no quotes). */
Test(script_panel, arguments)
{
    struct app_state *a = calloc(1, sizeof *a);
    struct params p;
    params_defaults(&p);
    char err[1024] = "", line[1200], *words[APP_SCRIPT_ARGS + 1];
    cr_assert_eq(app_init(a, &p, "", err, sizeof err), 0, "%s", err);
    const char *args = write_lua("args.lua", "print(#arg)\n");
    snprintf(line, sizeof line, "%s one 'two words' three\\ x", args);
    cr_assert(app_script_open(a, line) & APP_SCRIPT);
    cr_assert_eq(app_script_start(a, words, APP_SCRIPT_ARGS + 1), 4);
    cr_assert_str_eq(words[0], args);
    cr_assert_str_eq(words[1], "one");
    cr_assert_str_eq(words[2], "two words");
    cr_assert_str_eq(words[3], "three x");
    cr_assert_eq(app_script_start(a, words, APP_SCRIPT_ARGS + 1), 0, "started once");
    cr_assert_eq(a->script.phase, APP_SCRIPT_RUNNING);

    const char *blanks = write_lua("with blanks.lua", "print(#arg)\n");
    app_script_open(a, blanks);
    cr_assert_eq(app_script_start(a, words, APP_SCRIPT_ARGS + 1), 1);
    cr_assert_str_eq(words[0], blanks);

    snprintf(line, sizeof line, "%s 'open", args);
    app_script_open(a, line);
    cr_assert_eq(a->script.phase, APP_SCRIPT_FAILED);
    cr_assert(strstr(a->script.err, "' is not closed"), "%s", a->script.err);
    cr_assert_eq(app_script_start(a, words, APP_SCRIPT_ARGS + 1), 0, "nothing to start");
    app_free(a);
    free(a);
}

/* What the process says, as the loop hands it over: output lines, a request to submit, results
 * counted (stale ones ignored), the end; an error with file:line and its traceback line; x
 * closes. */
Test(script_panel, request_results_output_and_close)
{
    struct app_state *a = calloc(1, sizeof *a);
    struct params p;
    params_defaults(&p);
    char err[1024] = "", *words[APP_SCRIPT_ARGS + 1];
    cr_assert_eq(app_init(a, &p, "", err, sizeof err), 0, "%s", err);
    app_script_open(a, write_lua("panel.lua", "-- run by its process\n"));
    app_script_start(a, words, APP_SCRIPT_ARGS + 1);
    const char *out1 = "a\tb\nno newline ", *out2 = "2\texit 3: boom\n";
    app_script_on_output(a, out1, strlen(out1));
    struct params req[2] = {p, p};
    req[1].ratio = 15;
    req[0].ratio = 7;
    cr_assert(app_script_on_request(a, req, 2) & APP_SCRIPT);
    cr_assert_eq(a->script.phase, APP_SCRIPT_WAITING);
    const struct params *ps;
    cr_assert_eq(app_script_request(a, &ps), 2);
    cr_assert_eq(app_script_request(a, &ps), 0, "submitted once");
    cr_assert_eq(ps[1].ratio, 15);
    struct sim_result r;
    memset(&r, 0, sizeof r);
    r.m.makespan = 1;
    cr_assert_eq(app_script_on_result(a, a->script.gen - 1, 0, &r, NULL), 0u, "stale gen");
    cr_assert_eq(app_script_on_result(a, a->script.gen, 2, &r, NULL), 0u, "no such slot");
    cr_assert(app_script_on_result(a, a->script.gen, 0, &r, NULL) & APP_DIRTY);
    cr_assert_eq(a->script.pending, 1);
    cr_assert_eq(a->script.phase, APP_SCRIPT_WAITING);
    cr_assert(app_script_on_result(a, a->script.gen, 1, NULL, "exit 3: boom") & APP_DIRTY);
    cr_assert_eq(a->script.phase, APP_SCRIPT_RUNNING, "the process resumes once fed");
    app_script_on_output(a, out2, strlen(out2));
    app_script_on_end(a, NULL);
    cr_assert_eq(a->script.phase, APP_SCRIPT_DONE);
    cr_assert_eq(a->script.nlines, 2);
    cr_assert_str_eq(app_script_line(a, 0), "a       b");
    cr_assert_str_eq(app_script_line(a, 1), "no newline 2    exit 3: boom");
    cr_assert_eq(app_script_on_end(a, "late"), 0u, "one end");
    cr_assert(app_key(a, 'x') & APP_SCRIPT_CANCEL);
    cr_assert_eq(a->script.phase, APP_SCRIPT_OFF);

    app_script_open(a, write_lua("broken.lua", "-- run by its process\n"));
    app_script_on_end(a, "broken.lua:2: attempt to index a nil value (local 't')\n"
                         "stack traceback:\n\t[C]: in ?\n\tbroken.lua:2: in main chunk\n");
    cr_assert_eq(a->script.phase, APP_SCRIPT_FAILED);
    cr_assert(strstr(a->script.err, "broken.lua:2: attempt to index"), "%s", a->script.err);
    cr_assert(!strchr(a->script.err, '\n'), "one line");
    cr_assert(strstr(a->script.trace, "broken.lua:2: in main chunk"), "%s", a->script.trace);
    cr_assert(app_key(a, APP_KEY_ESC) & APP_SCRIPT_CANCEL);
    app_free(a);
    free(a);
}
