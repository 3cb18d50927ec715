/* A lesson handed over as data (lesson_wire.h): what the explorer gets from its checking child
 * is the lesson the child loaded, byte for byte (texts, hints, questions, answers, goals'
 * places, every step's configuration and solution), without its Lua; anything cut short or
 * garbled is refused with a reason, never a crash. Run from the repository root. */
#include <criterion/criterion.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../engine/scenario/lesson.h"
#include "../../engine/scenario/lesson_internal.h"
#include "../../engine/scenario/lesson_wire.h"
#include "fixtures.h"

static char *wire_of(const struct lesson *l, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    cr_assert_not_null(f);
    cr_assert_eq(lesson_wire_write(l, f), 0);
    fclose(f);
    return buf;
}

static void same_sets(const struct lesson *a, const struct lesson *b, int i, bool solution)
{
    struct params pa, pb, base;
    params_defaults(&base);
    char ea[1024] = "", eb[1024] = "";
    int ra = solution ? lesson_step_solution((struct lesson *)a, i, &base, &pa, ea, sizeof ea)
                      : lesson_step_config((struct lesson *)a, i, &base, &pa, ea, sizeof ea);
    int rb = solution ? lesson_step_solution((struct lesson *)b, i, &base, &pb, eb, sizeof eb)
                      : lesson_step_config((struct lesson *)b, i, &base, &pb, eb, sizeof eb);
    cr_assert_eq(ra, rb, "step %d: %s / %s", i + 1, ea, eb);
    cr_assert_str_eq(ea, eb);
    char ka[PARAMS_CANONICAL_MAX], kb[PARAMS_CANONICAL_MAX];
    params_canonical(&pa, ka, sizeof ka);
    params_canonical(&pb, kb, sizeof kb);
    cr_assert_str_eq(ka, kb, "step %d's %s differs", i + 1, solution ? "solution" : "config");
    char sa[2048], sb[2048];
    cr_assert_eq(lesson_step_solution_keys((struct lesson *)a, i, &pa, sa, sizeof sa),
                 lesson_step_solution_keys((struct lesson *)b, i, &pb, sb, sizeof sb));
    cr_assert_str_eq(sa, sb);
}

static void same_lesson(const struct lesson *a, const struct lesson *b)
{
    cr_assert_str_eq(lesson_title(a), lesson_title(b));
    cr_assert_str_eq(lesson_path(a), lesson_path(b));
    cr_assert_eq(lesson_step_count(a), lesson_step_count(b));
    for (int i = 0; i < lesson_step_count(a); i++) {
        cr_assert_str_eq(lesson_step_text(a, i), lesson_step_text(b, i));
        cr_assert_eq(lesson_step_hint_count(a, i), lesson_step_hint_count(b, i));
        for (int k = 0; k < lesson_step_hint_count(a, i); k++)
            cr_assert_str_eq(lesson_step_hint_at(a, i, k), lesson_step_hint_at(b, i, k));
        cr_assert_str_eq(lesson_step_question(a, i), lesson_step_question(b, i));
        cr_assert_eq(!lesson_step_answer(a, i), !lesson_step_answer(b, i));
        if (lesson_step_answer(a, i))
            cr_assert_str_eq(lesson_step_answer(a, i), lesson_step_answer(b, i));
        cr_assert_eq(lesson_step_has_goal(a, i), lesson_step_has_goal(b, i));
        cr_assert_str_eq(a->steps[i].goal_pos, b->steps[i].goal_pos);
        same_sets(a, b, i, false);
        same_sets(a, b, i, true);
    }
}

static struct lesson *round_trip(struct lesson *l)
{
    size_t len;
    char *buf = wire_of(l, &len), err[1024] = "";
    struct lesson *back = lesson_wire_read(buf, len, err, sizeof err);
    cr_assert_not_null(back, "%s: %s", lesson_path(l), err);
    free(buf);
    same_lesson(l, back);
    return back;
}

Test(lesson_wire, installed_lessons_arrive_whole)
{
    glob_t g;
    char err[1024];
    cr_assert_eq(glob("scripts/lua/lessons/*.lua", 0, NULL, &g), 0, "no lessons installed");
    for (size_t i = 0; i < g.gl_pathc; i++) {
        struct lesson *l = lesson_load(g.gl_pathv[i], err, sizeof err);
        cr_assert_not_null(l, "%s: %s", g.gl_pathv[i], err);
        lesson_free(round_trip(l));
        lesson_free(l);
    }
    globfree(&g);
}

static const char special[] =
    "return { title = 'Odd \\n bytes: end 0\\nstep 0\\n', steps = {\n"
    "  { text = 'line\\nend 0\\n', hint = { 'a\\n', 'b', '', '\\255' },\n"
    "    config = { ['compute-scaling'] = 2.5, mapping = 'intransit', nodes = 4,\n"
    "               analytics_zone = 'z one\\n#\"' },\n"
    "    question = 'q?', answer = 'a\\nb', goal = function(s) return true end,\n"
    "    solution = { ['cores-per-node'] = '16', ratio = 7, stride = 0.1e3 } },\n"
    "  { text = '' } } }\n";

Test(lesson_wire, every_byte_and_both_spellings, .init = fixture_dir_make,
     .fini = fixture_dir_remove)
{
    char path[512], err[1024] = "";
    fixture_write("odd.lua", special, path, sizeof path);
    struct lesson *l = lesson_load(path, err, sizeof err);
    cr_assert_not_null(l, "%s", err);
    struct lesson *back = round_trip(l);
    /* The solution names its keys in the table's order, whatever their spelling. */
    struct params base, sol;
    params_defaults(&base);
    cr_assert_eq(lesson_step_solution(back, 0, &base, &sol, err, sizeof err), 1, "%s", err);
    char keys[512];
    cr_assert_eq(lesson_step_solution_keys(back, 0, &sol, keys, sizeof keys), 3);
    cr_assert_str_eq(keys, "cores_per_node=16 ratio=7 stride=100");
    struct params cfg;
    cr_assert_eq(lesson_step_config(back, 0, &base, &cfg, err, sizeof err), 1, "%s", err);
    cr_assert_eq(cfg.compute_scaling, 2.5);
    cr_assert_str_eq(cfg.analytics_zone, "z one\n#\"");
    /* The copy has no Lua: its goals are checked where the lesson's Lua runs. */
    char msg[256];
    struct lesson_state st = {&cfg, NULL, NULL, NULL};
    cr_assert_eq(lesson_goal_check(back, 0, &st, msg, sizeof msg), LESSON_GOAL_ERROR);
    cr_assert(strstr(msg, "no Lua"), "%s", msg);
    lesson_free(back);
    lesson_free(l);
}

/* A NUL byte in any of a lesson's texts or config strings is refused, naming the file and the
 * field: C text (and the wire) would have cut it there. */
Test(lesson_wire, a_nul_byte_is_refused_not_cut, .init = fixture_dir_make,
     .fini = fixture_dir_remove)
{
    static const char *const cases[][2] = {
        {"return { title = 't', steps = { { text = 'a\\0b' } } }", "step 1: text: holds a NUL"},
        {"return { title = 't\\0', steps = { { text = 'a' } } }", "title: holds a NUL"},
        {"return { title = 't', steps = { { text = 'a' }, { text = 'b', hint = { 'x', 'y\\0' } } } "
         "}",
         "step 2: hint: holds a NUL"},
        {"return { title = 't', steps = { { text = 'a', config = { platform = 'p.xml\\0x' } } } }",
         "step 1: config: platform: holds a NUL"}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        char path[512], err[1024] = "";
        fixture_write("nul.lua", cases[k][0], path, sizeof path);
        struct lesson *l = lesson_load(path, err, sizeof err);
        cr_assert_null(l, "case %zu loaded", k);
        cr_assert(strstr(err, path) && strstr(err, cases[k][1]), "case %zu: %s", k, err);
    }
}

Test(lesson_wire, one_table_naming_a_parameter_twice_is_refused, .init = fixture_dir_make,
     .fini = fixture_dir_remove)
{
    char path[512], err[1024] = "";
    fixture_write("twice.lua",
                  "return { title = 't', steps = { { text = 'x',\n"
                  "  config = { compute_scaling = 2, ['compute-scaling'] = 3 } } } }\n",
                  path, sizeof path);
    cr_assert_null(lesson_load(path, err, sizeof err));
    cr_assert(strstr(err, "step 1: config: compute_scaling: given twice"), "%s", err);
}

Test(lesson_wire, cut_or_garbled_is_refused, .init = fixture_dir_make, .fini = fixture_dir_remove)
{
    char path[512], err[1024] = "";
    fixture_write("odd.lua", special, path, sizeof path);
    struct lesson *l = lesson_load(path, err, sizeof err);
    cr_assert_not_null(l, "%s", err);
    size_t len;
    char *buf = wire_of(l, &len);
    for (size_t cut = 0; cut < len; cut++) {
        err[0] = 0;
        cr_assert_null(lesson_wire_read(buf, cut, err, sizeof err), "cut at %zu accepted", cut);
        cr_assert_neq(err[0], 0, "cut at %zu: no reason", cut);
    }
    /* Any one byte changed: refused, or a lesson whose every configuration loads. */
    for (size_t at = 0; at < len; at++) {
        char *copy = malloc(len);
        memcpy(copy, buf, len);
        copy[at] ^= 0x21;
        struct lesson *g = lesson_wire_read(copy, len, err, sizeof err);
        lesson_free(g);
        free(copy);
    }
    cr_assert_null(lesson_wire_read("", 0, err, sizeof err));
    cr_assert(strstr(err, "lesson"), "%s", err);
    free(buf);
    lesson_free(l);
}
