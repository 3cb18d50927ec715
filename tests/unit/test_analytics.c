/* Custom analytics, the Lua sandbox and lessons, below the command line: the exchange law by
 * hand, the built-in's values, Lua values and errors, reloading a changed file, the sandbox's
 * write rule, and the lesson API the explorer uses. */
#include <criterion/criterion.h>
#include <lauxlib.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../engine/lua/analytics.h"
#include "../../engine/scenario/lesson.h"
#include "../../engine/model/model.h"
#include "../../engine/lua/sandbox.h"
#include "../../engine/lua/script.h"
#include "fixtures.h"

#define LATF 13.01
#define BWF  0.97

static double network(double bytes)
{
    return 2 * 1e-5 * LATF + bytes / (1.25e9 * BWF);
}

/* Both ways at once: SimGrid's cross-traffic (acknowledgements) takes 5% of each link. */
static double duplex(double bytes)
{
    return network(bytes * 1.05);
}

/* In situ on `nodes` nodes, ratio 3: 6 ranks and 2 actors per node. */
static struct params small_params(long nodes)
{
    struct params p;
    params_defaults(&p);
    p.nodes = nodes;
    p.cores_per_node = 8;
    p.ratio = 3;
    p.region = 10;
    p.iterations = 100;
    p.stride = 10;
    return p;
}

/* Each suite's tests write into their own scratch directory, removed afterwards. */
TestSuite(analytics, .init = fixture_dir_make, .fini = fixture_dir_remove);
TestSuite(script, .init = fixture_dir_make, .fini = fixture_dir_remove);
TestSuite(lesson, .init = fixture_dir_make, .fini = fixture_dir_remove);

static const char *write_file(const char *name, const char *text)
{
    static char path[256];
    fixture_write(name, text, path, sizeof path);
    return path;
}

static void close_to(double actual, double expected, const char *what)
{
    double tol = 1e-12 * fmax(fabs(expected), 1e-300);
    cr_assert(fabs(actual - expected) <= tol, "%s = %.17g, expected %.17g", what, actual, expected);
}

static void layout_of(struct params *p, struct platform *pf, struct layout *l)
{
    char err[256] = "";
    cr_assert_eq(params_validate(p, err), 0, "%s", err);
    cr_assert_eq(layout_build(p, pf, l, err, sizeof err), 0, "%s", err);
}

Test(analytics, exchange_law)
{
    struct platform pf = fixture_small_platform();
    struct params p = small_params(4);
    struct layout l;
    layout_of(&p, &pf, &l);
    double B = 1e6;
    struct analytics_value v = {.pattern = ANALYTICS_NONE, .exchange_bytes = B};
    cr_assert_eq(model_exchange_time(&pf, &l, &v), 0);
    /* n = 4 hosts, k = 2 actors each, K = 8. */
    v.pattern = ANALYTICS_ALLREDUCE;
    close_to(model_exchange_time(&pf, &l, &v), 2 * duplex(B), "allreduce: log2(4) rounds");
    v.pattern = ANALYTICS_ALLGATHER;
    close_to(model_exchange_time(&pf, &l, &v), duplex(6 * B), "allgather: (n-1) k B");
    v.pattern = ANALYTICS_GATHER; /* one way: the root only receives */
    close_to(model_exchange_time(&pf, &l, &v), network(6 * B), "gather: (K - k_root) B");
    layout_free(&l);

    p = small_params(3); /* n = 3: ceil(log2 3) = 2 rounds */
    layout_of(&p, &pf, &l);
    v.pattern = ANALYTICS_ALLREDUCE;
    close_to(model_exchange_time(&pf, &l, &v), 2 * duplex(B), "allreduce on 3 hosts");
    layout_free(&l);

    p = small_params(2);
    p.mapping = MAPPING_INTRANSIT; /* one analytics host: nothing to exchange */
    layout_of(&p, &pf, &l);
    v.pattern = ANALYTICS_ALLGATHER;
    cr_assert_eq(model_exchange_time(&pf, &l, &v), 0);
    layout_free(&l);
}

Test(analytics, builtin_values)
{
    struct platform pf = fixture_small_platform();
    struct params p = small_params(2);
    struct layout l;
    layout_of(&p, &pf, &l);
    struct analytics_ctx c;
    struct analytics_value v;
    char err[512];
    analytics_ctx_init(&c, &p, &l, 0);
    cr_assert_eq(c.particles, 4000);
    cr_assert_eq(c.sim_cores, 12);
    cr_assert_eq(c.analytics_cores, 4);
    cr_assert_eq(c.analytics_nodes, 2);
    cr_assert_eq(c.steps, 10);
    cr_assert_eq(analytics_eval(&p, &c, &v, err, sizeof err), 0, "%s", err);
    cr_assert_eq(v.cost, 4000 * p.analytics_cost * p.compute_scaling);
    cr_assert_eq(v.bytes, 4000 * p.data_size * p.data_scaling);
    cr_assert_eq(v.pattern, ANALYTICS_NONE);
    layout_free(&l);
}

Test(analytics, lua_values_and_ctx)
{
    struct platform pf = fixture_small_platform();
    struct params p = small_params(4);
    snprintf(p.analytics, sizeof p.analytics, "%s",
             write_file("ctx.lua", "return { name = 'ctx',\n"
                                   "  cost = function(ctx) return ctx.analytics_nodes * 1000 +"
                                   " ctx.step end,\n"
                                   "  bytes = function(ctx) return ctx.sim_cores * ctx.ratio end,\n"
                                   "  exchange = function(ctx) return { pattern = 'gather',"
                                   " bytes = #ctx.mapping } end }\n"));
    struct layout l;
    layout_of(&p, &pf, &l);
    struct analytics_ctx c;
    struct analytics_value v;
    char err[512], name[ANALYTICS_NAME_MAX];
    analytics_ctx_init(&c, &p, &l, 7);
    cr_assert_eq(analytics_eval(&p, &c, &v, err, sizeof err), 0, "%s", err);
    cr_assert_eq(v.cost, 4007);
    cr_assert_eq(v.bytes, 24 * 3);
    cr_assert_eq(v.pattern, ANALYTICS_GATHER);
    cr_assert_eq(v.exchange_bytes, 6); /* "insitu" */
    cr_assert_eq(analytics_check(p.analytics, name, sizeof name, err, sizeof err), 0);
    cr_assert_str_eq(name, "ctx");

    /* Every step has its own value: one class each, in step order. */
    struct analytics_profile prof;
    cr_assert_eq(analytics_profile(&p, &l, &prof, err, sizeof err), 0, "%s", err);
    cr_assert_eq(prof.steps, p.iterations / p.stride);
    cr_assert_eq(prof.nclasses, prof.steps);
    for (long i = 0; i < prof.steps; i++) {
        cr_assert_eq(profile_step(&prof, i)->cost, 4000 + i, "step %ld", i);
        cr_assert_eq(prof.classes[i].count, 1);
    }
    profile_free(&prof);
    layout_free(&l);
}

Test(analytics, errors_name_the_line)
{
    struct platform pf = fixture_small_platform();
    struct params p = small_params(2);
    struct layout l;
    layout_of(&p, &pf, &l);
    struct analytics_ctx c;
    struct analytics_value v;
    char err[512], want[512];
    analytics_ctx_init(&c, &p, &l, 0);
    const char *path = write_file("neg.lua", "return {\n  name = 'neg',\n"
                                             "  bytes = function(ctx) return -5 end,\n}\n");
    snprintf(p.analytics, sizeof p.analytics, "%s", path);
    cr_assert_eq(analytics_eval(&p, &c, &v, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s:3: bytes returned -5;", path);
    cr_assert(strstr(err, want), "%s", err);

    struct analytics_profile prof;
    cr_assert_eq(analytics_profile(&p, &l, &prof, err, sizeof err), -1,
                 "no profile from a broken file");
    cr_assert(strstr(err, want), "%s", err);
    layout_free(&l);
}

Test(analytics, reloads_a_changed_file)
{
    struct platform pf = fixture_small_platform();
    struct params p = small_params(2);
    struct layout l;
    layout_of(&p, &pf, &l);
    struct analytics_ctx c;
    struct analytics_value v;
    char err[512];
    analytics_ctx_init(&c, &p, &l, 0);
    snprintf(p.analytics, sizeof p.analytics, "%s",
             write_file("edit.lua", "return { name = 'a', cost = 1 }\n"));
    cr_assert_eq(analytics_eval(&p, &c, &v, err, sizeof err), 0, "%s", err);
    cr_assert_eq(v.cost, 1);
    write_file("edit.lua", "return { name = 'a', cost = 22 }\n"); /* a new size */
    cr_assert_eq(analytics_eval(&p, &c, &v, err, sizeof err), 0, "%s", err);
    cr_assert_eq(v.cost, 22);
    layout_free(&l);
}

/* The file is saved again while its profile is evaluated (the explorer reloads on save, a
 * simulation child evaluates it at its start): the profile must come whole from one version. */
struct editor {
    int rfd;
    const char *path;
};

/* The analytics prints "started", then more than a pipe holds: it blocks in that print until
 * this editor, having saved the file, reads it all. So the save falls inside the evaluation
 * (an analytics file cannot wait on a marker file: it reads no file). */
#define MIX_FLOOD 200000
static void *save_when_started(void *ud)
{
    struct editor *e = ud;
    char buf[4096];
    size_t want = sizeof "started\n" - 1 + MIX_FLOOD + 1, got = 0;
    ssize_t n = read(e->rfd, buf, sizeof buf);
    if (n > 0) {
        FILE *f = fopen(e->path, "w");
        fputs("return { name = 'mix', cost = 2, bytes = 0 } -- the new version\n", f);
        fclose(f);
    }
    for (got = n > 0 ? (size_t)n : 0; n > 0 && got < want; got += (size_t)n)
        n = read(e->rfd, buf, sizeof buf);
    return NULL;
}

Test(analytics, a_profile_is_evaluated_from_one_version_of_its_file, .timeout = 30)
{
    struct platform pf = fixture_small_platform();
    struct params p = small_params(2);
    struct layout l;
    layout_of(&p, &pf, &l);
    char text[512];
    snprintf(text, sizeof text,
             "return { name = 'mix', bytes = 0, cost = function(ctx)\n"
             "  if ctx.step == 1 then\n"
             "    print('started')\n"
             "    print(string.rep('x', %d))\n"
             "  end\n"
             "  return 1\n"
             "end }\n",
             MIX_FLOOD);
    snprintf(p.analytics, sizeof p.analytics, "%s", write_file("mix.lua", text));
    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    FILE *out = fdopen(fds[1], "w");
    setvbuf(out, NULL, _IONBF, 0);
    analytics_set_output(out);
    struct editor e = {fds[0], p.analytics};
    pthread_t t;
    cr_assert_eq(pthread_create(&t, NULL, save_when_started, &e), 0);
    struct analytics_profile prof;
    char err[512];
    int rc = analytics_profile(&p, &l, &prof, err, sizeof err);
    pthread_join(t, NULL);
    cr_assert_eq(rc, 0, "%s", err);
    cr_assert_gt(prof.steps, 2);
    for (long i = 0; i < prof.steps; i++)
        cr_assert_eq(profile_step(&prof, i)->cost, 1, "step %ld has the new version's cost %g", i,
                     profile_step(&prof, i)->cost);
    profile_free(&prof);
    analytics_set_output(NULL);
    fclose(out);
    close(fds[0]);
    layout_free(&l);
}

Test(script, write_rule)
{
    char err[512];
    cr_assert_eq(sandbox_check_write("out.csv", err, sizeof err), 0);
    cr_assert_eq(sandbox_check_write("./a..b.csv", err, sizeof err), 0);
    cr_assert_eq(sandbox_check_write("/tmp/x", err, sizeof err), -1);
    cr_assert_eq(sandbox_check_write("../x", err, sizeof err), -1);
    cr_assert_eq(sandbox_check_write("a/../../x", err, sizeof err), -1);
    cr_assert_eq(sandbox_check_write("~/x", err, sizeof err), -1);
    cr_assert_eq(sandbox_check_write("", err, sizeof err), -1);
}

Test(script, limits_and_errors)
{
    struct script_opts o = {.out = NULL, .max_instructions = 100000, .max_memory = 8u << 20};
    struct script *s = script_new(&o);
    cr_assert_not_null(s);
    const char *path = write_file("loop.lua", "local x = 0\nwhile true do x = x + 1 end\n");
    cr_assert_eq(script_load(s, path), 0, "%s", script_error(s));
    cr_assert_eq(script_pcall(s, 0, 0, false), -1);
    cr_assert(strstr(script_error(s), ":2: stopped after 100000 instructions"), "%s",
              script_error(s));
    script_budget_reset(s);
    path = write_file("bomb.lua", "local t = {}\nfor i = 1, 1e9 do\n"
                                  "  t[i] = string.rep('x', 1e5) .. i\nend\n");
    cr_assert_eq(script_load(s, path), 0, "%s", script_error(s));
    cr_assert_eq(script_pcall(s, 0, 0, false), -1);
    cr_assert(strstr(script_error(s), "out of memory: over the limit of 8 MiB"), "%s",
              script_error(s));
    /* The interpreter is still usable after both. */
    script_budget_reset(s);
    cr_assert_eq(luaL_loadstring(script_lua(s), "return 6 * 7"), 0);
    cr_assert_eq(script_pcall(s, 0, 1, false), 0, "%s", script_error(s));
    cr_assert_eq(lua_tointeger(script_lua(s), -1), 42);
    script_free(s);
}

/* Lua cuts a chunk name longer than 60 bytes to "...TAIL"; the user is still told the whole path,
 * wherever the file lives (CI checks out deeper than a developer's tree). */
Test(script, errors_name_a_long_path_whole)
{
    char dir[PATH_MAX / 2], path[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/a-directory-name-long-enough-to-be-shortened-by-lua",
             fixture_dir);
    cr_assert_eq(mkdir(dir, 0700), 0);
    const char *cases[][2] = {
        {"local x = = 1\n", ":1: unexpected symbol"},
        {"\nerror('boom')\n", ":2: boom"},
        {"local t = nil\nreturn t.x\n", ":2: attempt to index"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(path, sizeof path, "%s/case-%zu.lua", dir, i);
        FILE *f = fopen(path, "w");
        cr_assert_not_null(f);
        fputs(cases[i][0], f);
        fclose(f);
        struct script_opts o = {.max_instructions = 100000, .max_memory = 8u << 20};
        struct script *s = script_new(&o);
        cr_assert_not_null(s);
        int rc = script_load(s, path);
        if (rc == 0)
            rc = script_pcall(s, 0, 0, true);
        cr_assert_eq(rc, -1, "case %zu", i);
        char want[PATH_MAX + 64];
        snprintf(want, sizeof want, "%s%s", path, cases[i][1]);
        cr_assert(!strncmp(script_error(s), want, strlen(want)), "case %zu: %s", i,
                  script_error(s));
        script_free(s);
    }
}

Test(lesson, api)
{
    const char *path =
        write_file("lesson.lua", "return { title = 'T', steps = {\n"
                                 "  { text = 'read me' },\n"
                                 "  { text = 'find R', config = { ratio = 7 }, hint = 'h',\n"
                                 "    goal = function(s) return s.params.ratio == 31,"
                                 " 'ratio ' .. s.params.ratio end,\n"
                                 "    solution = { ratio = 31 } },\n} }\n");
    char err[512], msg[512];
    struct lesson *l = lesson_load(path, err, sizeof err);
    cr_assert_not_null(l, "%s", err);
    cr_assert_str_eq(lesson_title(l), "T");
    cr_assert_eq(lesson_step_count(l), 2);
    cr_assert_str_eq(lesson_step_text(l, 0), "read me");
    cr_assert_str_eq(lesson_step_hint(l, 0), "");
    cr_assert_str_eq(lesson_step_hint(l, 1), "h");
    cr_assert(!lesson_step_has_goal(l, 0) && lesson_step_has_goal(l, 1));

    struct params base, p, sol;
    params_defaults(&base);
    snprintf(base.platform, sizeof base.platform, "platforms/dahu.xml");
    cr_assert_eq(lesson_step_config(l, 0, &base, &p, err, sizeof err), 0);
    cr_assert_eq(lesson_step_config(l, 1, &base, &p, err, sizeof err), 1, "%s", err);
    cr_assert_eq(p.ratio, 7);
    struct lesson_state st = {&p, NULL, NULL, NULL};
    cr_assert_eq(lesson_goal_check(l, 0, &st, msg, sizeof msg), LESSON_NO_GOAL);
    cr_assert_eq(lesson_goal_check(l, 1, &st, msg, sizeof msg), LESSON_GOAL_NOT_MET, "%s", msg);
    cr_assert_str_eq(msg, "ratio 7");
    cr_assert_eq(lesson_step_solution(l, 1, &p, &sol, err, sizeof err), 1, "%s", err);
    st.params = &sol;
    cr_assert_eq(lesson_goal_check(l, 1, &st, msg, sizeof msg), LESSON_GOAL_MET, "%s", msg);
    lesson_free(l);

    /* Only a goal that reads state.sim, when there is one, may be said to check SimGrid. */
    path = write_file("sim.lesson.lua",
                      "return { title = 'T', steps = {\n"
                      "  { text = 'm', goal = function(s) return s.model.makespan > 0 end },\n"
                      "  { text = 's', goal = function(s) return s.sim ~= nil and"
                      " s.sim.makespan < 2 * s.model.makespan, 'sim' end },\n} }\n");
    l = lesson_load(path, err, sizeof err);
    cr_assert_not_null(l, "%s", err);
    struct model_result m = {.makespan = 10, .makespan_eq5 = 9, .efficiency = 1};
    struct sim_result r = {.m = m};
    r.m.makespan = 11;
    struct lesson_state with = {&p, &m, &r, NULL}, without = {&p, &m, NULL, NULL};
    cr_assert_eq(lesson_goal_check(l, 0, &with, msg, sizeof msg), LESSON_GOAL_MET, "%s", msg);
    cr_assert_eq(lesson_goal_check(l, 1, &with, msg, sizeof msg),
                 LESSON_GOAL_MET | LESSON_GOAL_READ_SIM, "%s", msg);
    cr_assert_eq(lesson_goal_check(l, 1, &without, msg, sizeof msg), LESSON_GOAL_NOT_MET, "%s",
                 msg);
    cr_assert_eq(lesson_goal_check(l, 0, &with, msg, sizeof msg), LESSON_GOAL_MET, "flag reset");
    lesson_free(l);

    path = write_file("bad.lesson.lua", "return { title = 'T', steps = {} }\n");
    cr_assert_null(lesson_load(path, err, sizeof err));
    cr_assert(strstr(err, "steps must be a non-empty list"), "%s", err);
    /* Steps that only metamethods give: the lesson is read raw, and so is its check. */
    path = write_file(
        "meta.lesson.lua",
        "return { title = 'T', steps = setmetatable({}, {\n"
        "  __len = function() return 1 end,\n"
        "  __index = function(_, i) if i == 1 then return { text = 'x' } end end }) }\n");
    cr_assert_null(lesson_load(path, err, sizeof err));
    cr_assert(strstr(err, "steps must be a non-empty list"), "%s", err);
}

/* Graded hints: a nudge first, then more; and a solution says every key it sets, even one equal
 * to the default (ratio 15), or an instructor reads half an answer. */
Test(lesson, graded_hints_and_solution_keys)
{
    const char *path = write_file(
        "graded.lua", "return { title = 'T', steps = {\n"
                      "  { text = 'a', config = { ratio = 7 }, hint = { 'nudge', 'more' },\n"
                      "    solution = { stride = 200, ratio = 15 } },\n} }\n");
    char err[512], keys[256];
    struct lesson *l = lesson_load(path, err, sizeof err);
    cr_assert_not_null(l, "%s", err);
    cr_assert_eq(lesson_step_hint_count(l, 0), 2);
    cr_assert_str_eq(lesson_step_hint(l, 0), "nudge");
    cr_assert_str_eq(lesson_step_hint_at(l, 0, 1), "more");
    cr_assert_str_eq(lesson_step_hint_at(l, 0, 2), "");
    struct params base, p, sol;
    params_defaults(&base);
    snprintf(base.platform, sizeof base.platform, "platforms/dahu.xml");
    cr_assert_eq(lesson_step_config(l, 0, &base, &p, err, sizeof err), 1, "%s", err);
    cr_assert_eq(lesson_step_solution(l, 0, &p, &sol, err, sizeof err), 1, "%s", err);
    cr_assert_eq(lesson_step_solution_keys(l, 0, &sol, keys, sizeof keys), 2);
    cr_assert_str_eq(keys, "ratio=15 stride=200");
    lesson_free(l);

    path = write_file("badhint.lua", "return { title = 'T', steps = {\n"
                                     "  { text = 'a', hint = { 'x', 3 } },\n} }\n");
    cr_assert_null(lesson_load(path, err, sizeof err));
    cr_assert(strstr(err, "step 1: hint must be a string, or a list"), "%s", err);
}
