/* Lessons: loading and checking a lesson file, the configuration each step loads, and its goal
 * evaluated against a state. The explorer and `situ lesson --headless` share this; neither needs
 * to know Lua. */
#include "lesson.h"

#include <lauxlib.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "../base/datadir.h"
#include "../model/report.h"
#include "../lua/script.h"
#include "../lua/script_convert.h"
#include "lesson_internal.h"
#include "script_situ.h"
#include "embedded/lesson_shape_lua.h" /* scripts/lua/internal/lesson_shape.lua, compiled in */

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && !strcmp(s + n - m, suffix);
}

static int resolve(const char *name, char *path, size_t len, char *err, size_t errlen)
{
    char rel[PATH_MAX];
    if (strchr(name, '/') || ends_with(name, ".lua"))
        snprintf(rel, sizeof rel, "%s", name);
    else
        snprintf(rel, sizeof rel, "scripts/lua/lessons/%.200s.lua", name);
    if (datadir_resolve(rel, path, len) == 0)
        return 0;
    char names[32][LESSON_NAME_MAX], list[32 * (LESSON_NAME_MAX + 2)] = "";
    const char *ptrs[32];
    int n = lesson_list(names, 32);
    for (int i = 0; i < n && i < 32; i++) {
        if (i)
            strcat(list, ", ");
        strcat(list, names[i]);
        ptrs[i] = names[i];
    }
    const char *near = params_nearest(name, ptrs, n < 32 ? n : 32);
    if (snprintf(err, errlen, "lesson: no lesson '%s'%s%s%s (a .lua file, or one of: %s)", name,
                 near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "",
                 n ? list : "none installed") >= (int)errlen)
        err[errlen - 1] = 0;
    return -1;
}

/* Pushes field `key` of step i (1-based in Lua). Raw: no metamethod of the lesson's runs from
 * here, outside a protected call (load_steps checked that these are tables). */
static void push_step_field(struct lesson *l, int i, const char *key)
{
    lua_State *L = script_lua(l->s);
    lua_rawgeti(L, LUA_REGISTRYINDEX, l->ref);
    lua_pushliteral(L, "steps");
    lua_rawget(L, -2);
    lua_rawgeti(L, -1, i + 1);
    lua_pushstring(L, key);
    lua_rawget(L, -2);
    lua_replace(L, -4);
    lua_pop(L, 2);
}

/* Field key of the table at idx, raw, as a new string ("" if it is not one); NULL: no memory. */
static char *dup_field(lua_State *L, int idx, const char *key)
{
    idx = lua_absindex(L, idx);
    lua_pushstring(L, key);
    lua_rawget(L, idx);
    char *s = strdup(lua_isstring(L, -1) ? lua_tostring(L, -1) : "");
    lua_pop(L, 1);
    return s;
}

/* The parameters of the table at idx, each checked as script_set_param checks it (the key a
 * parameter in either spelling, once; the value's type and range), kept as given. */
static int read_sets(lua_State *L, int idx, struct lesson_sets *out, char *err, size_t errlen)
{
    idx = lua_absindex(L, idx);
    struct params scratch;
    params_defaults(&scratch);
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        int id = script_param_key(L, -2, err, errlen);
        for (int k = 0; id >= 0 && k < out->n; k++)
            if (out->v[k].id == id) {
                snprintf(err, errlen, "%s: given twice", param_table[id].key);
                id = -1;
            }
        if (id < 0 || script_set_param(L, -1, &scratch, id, err, errlen) < 0) {
            lua_pop(L, 2);
            return -1;
        }
        struct lesson_set *v = &out->v[out->n++];
        v->id = id;
        v->text = lua_type(L, -1) == LUA_TSTRING;
        if (v->text && !(v->str = strdup(lua_tostring(L, -1)))) {
            lua_pop(L, 2);
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        v->num = v->text ? 0 : lua_tonumber(L, -1);
        lua_pop(L, 1);
    }
    return 0;
}

/* Applies sets on top of p, as script_apply_params would have applied their table. */
static int apply_sets(const struct lesson_sets *sets, struct params *p, char *err, size_t errlen)
{
    char perr[PARAMS_ERR_MAX];
    for (int k = 0; k < sets->n; k++) {
        const struct lesson_set *v = &sets->v[k];
        if ((v->text ? params_set(p, v->id, v->str, perr)
                     : params_set_number(p, v->id, v->num, perr)) < 0) {
            snprintf(err, errlen, "%s", perr);
            return -1;
        }
    }
    return 0;
}

/* Applies step i's config (or solution) on top of base; 1 if there is one, 0 if not. */
static int step_params(struct lesson *l, int i, bool solution, const struct params *base,
                       struct params *out, char *err, size_t errlen)
{
    *out = *base;
    if (i < 0 || i >= l->n) {
        snprintf(err, errlen, "%s: no step %d", l->path, i + 1);
        return -1;
    }
    const struct lesson_step *st = &l->steps[i];
    if (!(solution ? st->has_solution : st->has_config))
        return 0;
    char perr[PARAMS_ERR_MAX + 128];
    int rc = apply_sets(solution ? &st->solution : &st->config, out, perr, sizeof perr);
    if (rc == 0)
        rc = script_finish_params(out, perr, sizeof perr);
    if (rc < 0) {
        if (snprintf(err, errlen, "%s: step %d: %s: %s", l->path, i + 1,
                     solution ? "solution" : "config", perr) >= (int)errlen)
            err[errlen - 1] = 0;
        *out = *base;
        return -1;
    }
    return 1;
}

int lesson_step_config(struct lesson *l, int i, const struct params *base, struct params *out,
                       char *err, size_t errlen)
{
    return step_params(l, i, false, base, out, err, errlen);
}

int lesson_step_solution(struct lesson *l, int i, const struct params *base, struct params *out,
                         char *err, size_t errlen)
{
    return step_params(l, i, true, base, out, err, errlen);
}

/* The step's hint (on top of the stack): a string is one level, a list is graded. */
static int load_hints(lua_State *L, struct lesson_step *st)
{
    lua_pushliteral(L, "hint");
    lua_rawget(L, -2);
    if (lua_isstring(L, -1)) {
        st->hints[st->nhints] = strdup(lua_tostring(L, -1));
        if (!st->hints[st->nhints++]) {
            lua_pop(L, 1);
            return -1;
        }
    } else if (lua_istable(L, -1)) {
        int n = (int)lua_rawlen(L, -1);
        for (int k = 1; k <= n && k <= LESSON_HINTS_MAX; k++) {
            lua_rawgeti(L, -1, k);
            st->hints[st->nhints] = strdup(lua_isstring(L, -1) ? lua_tostring(L, -1) : "");
            lua_pop(L, 1);
            if (!st->hints[st->nhints++]) {
                lua_pop(L, 1);
                return -1;
            }
        }
        lua_pushliteral(L, "last_resort");
        lua_rawget(L, -2);
        if (lua_isstring(L, -1) && st->nhints < LESSON_HINTS_MAX) {
            st->last_resort = true;
            st->hints[st->nhints] = strdup(lua_tostring(L, -1));
            if (!st->hints[st->nhints++]) {
                lua_pop(L, 2);
                return -1;
            }
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return 0;
}

/* Step i's config or solution (the step's table on top of the stack) into sets. */
static int load_sets(lua_State *L, struct lesson *l, int i, const char *key, bool *has,
                     struct lesson_sets *sets, char *err, size_t errlen)
{
    lua_pushstring(L, key);
    lua_rawget(L, -2);
    *has = !lua_isnil(L, -1);
    char perr[PARAMS_ERR_MAX + 128];
    int rc = 0;
    if (*has && !lua_istable(L, -1)) {
        snprintf(perr, sizeof perr, "must be a table of parameters");
        rc = -1;
    } else if (*has) {
        rc = read_sets(L, -1, sets, perr, sizeof perr);
    }
    lua_pop(L, 1);
    if (rc < 0 &&
        snprintf(err, errlen, "%s: step %d: %s: %s", l->path, i + 1, key, perr) >= (int)errlen)
        err[errlen - 1] = 0;
    return rc;
}

/* The first of a step's texts (or the lesson's title, at the top level) that holds a NUL byte,
 * which C text would cut: its field name, or NULL. */
static const char *nul_text(lua_State *L, int idx, bool top)
{
    static const char *const step_keys[] = {"text", "question", "answer", "hint", NULL};
    static const char *const top_keys[] = {"title", NULL};
    idx = lua_absindex(L, idx);
    for (const char *const *k = top ? top_keys : step_keys; *k; k++) {
        lua_pushstring(L, *k);
        lua_rawget(L, idx);
        bool nul = script_has_nul(L, -1);
        for (int i = 1; !nul && lua_istable(L, -1) && i <= (int)lua_rawlen(L, -1); i++) {
            lua_rawgeti(L, -1, i); /* a graded hint */
            nul = script_has_nul(L, -1);
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
        if (nul)
            return *k;
    }
    return NULL;
}

/* Everything the panel shows and loads, read once out of the checked lesson table (raw reads:
 * the shape check ran the lesson's metamethods, if any, under the limits; nothing here does). */
static int load_steps(struct lesson *l, char *err, size_t errlen)
{
    lua_State *L = script_lua(l->s);
    lua_rawgeti(L, LUA_REGISTRYINDEX, l->ref);
    if (nul_text(L, -1, true)) {
        lua_pop(L, 1);
        snprintf(err, errlen, "%s: title: holds a NUL byte", l->path);
        return -1;
    }
    l->title = dup_field(L, -1, "title");
    l->description = dup_field(L, -1, "description");
    lua_pushliteral(L, "steps");
    lua_rawget(L, -2);
    if (!lua_istable(L, -1) || lua_rawlen(L, -1) == 0) { /* 0 raw steps: metamethods lied */
        lua_pop(L, 2);
        snprintf(err, errlen, "%s: steps must be a non-empty list of steps", l->path);
        return -1;
    }
    l->n = (int)lua_rawlen(L, -1);
    l->steps = calloc(l->n ? l->n : 1, sizeof *l->steps);
    if (!l->title || !l->description || !l->steps) {
        lua_pop(L, 2);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (int i = 0; i < l->n; i++) {
        struct lesson_step *st = &l->steps[i];
        if (lua_rawgeti(L, -1, i + 1) != LUA_TTABLE) {
            lua_pop(L, 3);
            snprintf(err, errlen, "%s: step %d: expected a table", l->path, i + 1);
            return -1;
        }
        const char *nul = nul_text(L, -1, false);
        if (nul) {
            lua_pop(L, 3);
            snprintf(err, errlen, "%s: step %d: %s: holds a NUL byte", l->path, i + 1, nul);
            return -1;
        }
        st->text = dup_field(L, -1, "text");
        bool oom = !st->text || load_hints(L, st) < 0;
        const char *keys[] = {"question", "answer"};
        char **to[] = {&st->question, &st->answer};
        for (int k = 0; k < 2; k++) {
            lua_pushstring(L, keys[k]);
            lua_rawget(L, -2);
            bool has = lua_isstring(L, -1);
            lua_pop(L, 1);
            if (has && !(*to[k] = dup_field(L, -1, keys[k])))
                oom = true;
        }
        lua_pushliteral(L, "goal");
        lua_rawget(L, -2);
        st->has_goal = lua_isfunction(L, -1);
        if (st->has_goal) {
            lua_Debug ar;
            lua_getinfo(L, ">S", &ar);
            snprintf(st->goal_pos, sizeof st->goal_pos, "%s:%d", script_source(&ar),
                     ar.linedefined);
        } else {
            lua_pop(L, 1);
        }
        if (oom) {
            lua_pop(L, 3);
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        if (load_sets(L, l, i, "config", &st->has_config, &st->config, err, errlen) < 0 ||
            load_sets(L, l, i, "solution", &st->has_solution, &st->solution, err, errlen) < 0) {
            lua_pop(L, 3);
            return -1;
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 2);
    return lesson_check_steps(l, err, errlen);
}

int lesson_check_steps(struct lesson *l, char *err, size_t errlen)
{
    /* Every configuration must load, each step on top of the one before, as in the explorer. */
    struct params p, q;
    params_defaults(&p);
    for (int i = 0; i < l->n; i++) {
        if (step_params(l, i, false, &p, &q, err, errlen) < 0)
            return -1;
        p = q;
        if (step_params(l, i, true, &p, &q, err, errlen) < 0)
            return -1;
    }
    return 0;
}

struct lesson *lesson_load(const char *name, char *err, size_t errlen)
{
    struct lesson *l = calloc(1, sizeof *l);
    if (!l) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    l->ref = LUA_NOREF;
    if (resolve(name, l->path, sizeof l->path, err, errlen) < 0)
        goto fail;
    struct script_opts o = {.unsafe = false,
                            .out = NULL,
                            .max_instructions = ANALYTICS_MAX_INSTRUCTIONS,
                            .max_memory = ANALYTICS_MAX_MEMORY,
                            .time_limit = ANALYTICS_TIME_LIMIT,
                            .model_only = true};
    if (!(l->s = script_new(&o))) {
        snprintf(err, errlen, "out of memory starting Lua");
        goto fail;
    }
    script_open_situ(l->s);
    lua_State *L = script_lua(l->s);
    if (script_redirect_io(l->s, NULL) < 0 || script_load(l->s, l->path) < 0 ||
        script_pcall(l->s, 0, 1, false) < 0)
        goto lua_fail;
    if (script_load_chunk(l->s, (const char *)lesson_shape_lua, sizeof lesson_shape_lua - 1,
                          "=lesson") < 0)
        goto lua_fail;
    lua_insert(L, -2);
    lua_pushstring(L, l->path);
    if (script_pcall(l->s, 2, 1, false) < 0)
        goto lua_fail;
    l->ref = luaL_ref(L, LUA_REGISTRYINDEX);
    if (load_steps(l, err, errlen) < 0)
        goto fail;
    return l;
lua_fail:
    script_error_line(l->s, err, errlen);
fail:
    lesson_free(l);
    return NULL;
}

void lesson_free(struct lesson *l)
{
    if (!l)
        return;
    for (int i = 0; l->steps && i < l->n; i++) {
        free(l->steps[i].text);
        free(l->steps[i].question);
        free(l->steps[i].answer);
        for (int k = 0; k < l->steps[i].nhints; k++)
            free(l->steps[i].hints[k]);
        for (int k = 0; k < l->steps[i].config.n; k++)
            free(l->steps[i].config.v[k].str);
        for (int k = 0; k < l->steps[i].solution.n; k++)
            free(l->steps[i].solution.v[k].str);
    }
    free(l->steps);
    free(l->title);
    free(l->description);
    script_free(l->s);
    free(l);
}

void lesson_set_output(struct lesson *l, FILE *out)
{
    if (l->s)
        script_redirect_io(l->s, out); /* print moves; io keeps its old target if this fails */
}

const char *lesson_title(const struct lesson *l)
{
    return l->title;
}

const char *lesson_description(const struct lesson *l)
{
    return l->description ? l->description : "";
}

const char *lesson_path(const struct lesson *l)
{
    return l->path;
}

int lesson_step_count(const struct lesson *l)
{
    return l->n;
}

const char *lesson_step_text(const struct lesson *l, int i)
{
    return i >= 0 && i < l->n ? l->steps[i].text : "";
}

const char *lesson_step_hint(const struct lesson *l, int i)
{
    return lesson_step_hint_at(l, i, 0);
}

int lesson_step_hint_count(const struct lesson *l, int i)
{
    return i >= 0 && i < l->n ? l->steps[i].nhints : 0;
}

bool lesson_step_hint_last_resort(const struct lesson *l, int i)
{
    return i >= 0 && i < l->n && l->steps[i].last_resort;
}

const char *lesson_step_hint_at(const struct lesson *l, int i, int k)
{
    if (i < 0 || i >= l->n || k < 0 || k >= l->steps[i].nhints)
        return "";
    return l->steps[i].hints[k];
}

int lesson_step_solution_keys(struct lesson *l, int i, const struct params *sol, char *buf,
                              size_t len)
{
    buf[0] = 0;
    if (i < 0 || i >= l->n || !l->steps[i].has_solution)
        return 0;
    const struct lesson_sets *sets = &l->steps[i].solution;
    size_t used = 0;
    int n = 0;
    for (int id = 0; id < PARAM_COUNT; id++) { /* the table's order, whatever the file's */
        bool named = false;
        for (int k = 0; k < sets->n; k++)
            named = named || sets->v[k].id == id;
        if (!named)
            continue;
        char v[PARAMS_PATH_MAX];
        params_format(sol, id, v, sizeof v);
        int w = snprintf(buf + used, len - used, "%s%s=%s", n ? " " : "", param_table[id].key, v);
        if (w < 0 || (size_t)w >= len - used) {
            buf[used] = 0; /* a key cut in half would be a wrong answer: stop before it */
            break;
        }
        used += (size_t)w;
        n++;
    }
    return n;
}

const char *lesson_step_question(const struct lesson *l, int i)
{
    return i >= 0 && i < l->n && l->steps[i].question ? l->steps[i].question : "";
}

const char *lesson_step_answer(const struct lesson *l, int i)
{
    return i >= 0 && i < l->n && l->steps[i].answer ? l->steps[i].answer : NULL;
}

int lesson_step_has_goal(const struct lesson *l, int i)
{
    return i >= 0 && i < l->n && l->steps[i].has_goal;
}

#define READ_SIM_KEY "situ.lesson.read_sim"

/* state.sim: the simulated result (upvalue 1), noting that the goal read it. */
static int state_index(lua_State *L)
{
    const char *key = lua_tostring(L, 2);
    if (lua_type(L, 2) != LUA_TSTRING || strcmp(key, "sim"))
        return 0;
    lua_pushboolean(L, 1);
    lua_setfield(L, LUA_REGISTRYINDEX, READ_SIM_KEY);
    lua_pushvalue(L, lua_upvalueindex(1));
    return 1;
}

/* state = {params = ..., model = ..., sim = ...} as scenarios see them. */
static int push_state(lua_State *L, const struct lesson_state *st, char *err, size_t errlen)
{
    lua_createtable(L, 0, 3);
    script_push_params(L, st->params);
    lua_setfield(L, -2, "params");
    if (st->model) {
        json_t *j = report_result_json(st->params, st->model);
        script_push_json(L, j);
        json_decref(j);
    } else if (script_push_model(L, st->params, err, errlen) < 0) {
        lua_pop(L, 1);
        return -1;
    }
    lua_setfield(L, -2, "model");
    if (st->answer) { /* the student's answer to the step's question, as typed */
        lua_pushstring(L, st->answer);
        lua_setfield(L, -2, "answer");
    }
    if (st->sim) {
        /* state.sim is reached through __index, which notes that the goal read it. */
        lua_createtable(L, 0, 1);
        json_t *j = report_result_json(st->params, &st->sim->m);
        json_object_set_new(j, "wall_seconds", json_real(st->sim->wall_seconds));
        json_object_set_new(j, "fidelity", json_string(st->sim->fidelity));
        script_push_json(L, j);
        json_decref(j);
        lua_pushcclosure(L, state_index, 1);
        lua_setfield(L, -2, "__index");
        lua_setmetatable(L, -2);
    }
    lua_pushboolean(L, 0);
    lua_setfield(L, LUA_REGISTRYINDEX, READ_SIM_KEY);
    return 0;
}

int lesson_goal_check(struct lesson *l, int i, const struct lesson_state *st, char *msg,
                      size_t msglen)
{
    msg[0] = 0;
    if (i < 0 || i >= l->n || !l->steps[i].has_goal)
        return LESSON_NO_GOAL;
    if (!l->s) { /* lesson_wire_read's copy: its goals are checked where its Lua runs */
        snprintf(msg, msglen, "%s: step %d: no Lua here to check the goal", l->path, i + 1);
        return LESSON_GOAL_ERROR;
    }
    lua_State *L = script_lua(l->s);
    push_step_field(l, i, "goal");
    if (push_state(L, st, msg, msglen) < 0) {
        lua_pop(L, 1);
        return LESSON_GOAL_ERROR;
    }
    script_budget_reset(l->s);
    if (script_pcall(l->s, 1, 2, false) < 0) {
        script_error_line(l->s, msg, msglen);
        return LESSON_GOAL_ERROR;
    }
    enum lesson_goal rc;
    if (!lua_isboolean(L, -2)) {
        snprintf(msg, msglen,
                 "%s: the goal of step %d returned %s%s; expected true or false (and a message)",
                 l->steps[i].goal_pos, i + 1, lua_isnil(L, -2) ? "" : "a ",
                 lua_isnil(L, -2) ? "nothing" : luaL_typename(L, -2));
        lua_pop(L, 2);
        return LESSON_GOAL_ERROR;
    }
    rc = lua_toboolean(L, -2) ? LESSON_GOAL_MET : LESSON_GOAL_NOT_MET;
    if (lua_type(L, -1) == LUA_TSTRING || lua_type(L, -1) == LUA_TNUMBER)
        snprintf(msg, msglen, "%s", lua_tostring(L, -1));
    lua_pop(L, 2);
    lua_getfield(L, LUA_REGISTRYINDEX, READ_SIM_KEY);
    bool read_sim = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return (int)rc | (read_sim ? LESSON_GOAL_READ_SIM : 0);
}

int lesson_list(char names[][LESSON_NAME_MAX], int max)
{
    return datadir_list("scripts/lua/lessons", ".lua", names, max);
}
