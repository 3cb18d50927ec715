/* Lua tables <-> parameters and JSON values. The parameter keys come from the one parameter
 * table (params.c): a script reads and writes exactly the keys of the CLI, presets and
 * `situ run --json`. */
#include <lauxlib.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "../base/datadir.h"
#include "script_convert.h"

void script_push_params(lua_State *L, const struct params *p)
{
    lua_createtable(L, 0, PARAM_COUNT);
    for (int id = 0; id < PARAM_COUNT; id++) {
        const struct param_desc *d = &param_table[id];
        if (d->type == PARAM_INT)
            lua_pushinteger(L, (lua_Integer)params_get_number(p, id));
        else if (d->type == PARAM_REAL)
            lua_pushnumber(L, params_get_number(p, id));
        else {
            char v[PARAMS_PATH_MAX];
            params_format(p, id, v, sizeof v);
            lua_pushstring(L, v);
        }
        lua_setfield(L, -2, d->key);
    }
}

int script_raw_field(lua_State *L, int idx, const char *key)
{
    idx = lua_absindex(L, idx);
    lua_pushstring(L, key);
    return lua_rawget(L, idx);
}

bool script_has_nul(lua_State *L, int idx)
{
    size_t n;
    const char *s = lua_type(L, idx) == LUA_TSTRING ? lua_tolstring(L, idx, &n) : NULL;
    return s && strlen(s) != n;
}

const char *script_text(lua_State *L, int idx, const char *what)
{
    if (script_has_nul(L, idx))
        luaL_error(L, "%s: holds a NUL byte (C text would end there)", what);
    return lua_tostring(L, idx);
}

int script_set_param(lua_State *L, int idx, struct params *p, int id, char *err, size_t errlen)
{
    if (script_has_nul(L, idx)) {
        snprintf(err, errlen, "%s: holds a NUL byte", param_table[id].key);
        return -1;
    }
    char perr[PARAMS_ERR_MAX];
    int type = lua_type(L, idx);
    int rc;
    if (type == LUA_TNUMBER && param_table[id].type != PARAM_PATH &&
        param_table[id].type != PARAM_CHOICE)
        rc = params_set_number(p, id, lua_tonumber(L, idx), perr);
    else if (type == LUA_TSTRING)
        rc = params_set(p, id, lua_tostring(L, idx), perr);
    else {
        const char *want = param_table[id].type == PARAM_CHOICE ? "a string"
                           : param_table[id].type == PARAM_PATH ? "a path string"
                                                                : "a number";
        snprintf(err, errlen, "%s: expected %s, got a %s", param_table[id].key, want,
                 luaL_typename(L, idx));
        return -1;
    }
    if (rc < 0) {
        snprintf(err, errlen, "%s", perr);
        return -1;
    }
    return 0;
}

int script_param_key(lua_State *L, int idx, char *err, size_t errlen)
{
    if (lua_type(L, idx) != LUA_TSTRING) {
        snprintf(err, errlen, "parameters are named: found a %s key", luaL_typename(L, idx));
        return -1;
    }
    if (script_has_nul(L, idx)) {
        snprintf(err, errlen, "parameter name '%.64s' holds a NUL byte", lua_tostring(L, idx));
        return -1;
    }
    int id = params_find(lua_tostring(L, idx));
    if (id < 0)
        snprintf(err, errlen, "unknown parameter '%.64s' (situ --help lists them)",
                 lua_tostring(L, idx));
    return id;
}

/* The key at -2 with its value at -1; seen: the ids set so far, since one table can name a
 * parameter in both spellings ("compute_scaling" and ["compute-scaling"]) and its order is none. */
static int apply_one(lua_State *L, struct params *p, bool *seen, char *err, size_t errlen)
{
    int id = script_param_key(L, -2, err, errlen);
    if (id >= 0 && seen[id]) {
        snprintf(err, errlen, "%s: given twice", param_table[id].key);
        return -1;
    }
    if (id >= 0)
        seen[id] = true;
    return id < 0 ? -1 : script_set_param(L, -1, p, id, err, errlen);
}

int script_apply_params(lua_State *L, int idx, struct params *p, char *err, size_t errlen)
{
    idx = lua_absindex(L, idx);
    if (!lua_istable(L, idx)) {
        snprintf(err, errlen, "expected a table of parameters, got a %s", luaL_typename(L, idx));
        return -1;
    }
    struct params work = *p;
    bool seen[PARAM_MAX] = {0};
    lua_pushnil(L);
    while (lua_next(L, idx)) {
        if (apply_one(L, &work, seen, err, errlen) < 0) {
            lua_pop(L, 2);
            return -1;
        }
        lua_pop(L, 1);
    }
    *p = work;
    return 0;
}

int script_finish_params(struct params *p, char *err, size_t errlen)
{
    char resolved[PARAMS_PATH_MAX], perr[PARAMS_ERR_MAX];
    if (datadir_resolve(p->platform, resolved, sizeof resolved) == 0)
        snprintf(p->platform, sizeof p->platform, "%s", resolved);
    if (params_validate(p, perr) < 0) {
        snprintf(err, errlen, "%s", perr);
        return -1;
    }
    return 0;
}

int script_to_params(lua_State *L, int idx, struct params *p, char *err, size_t errlen)
{
    params_defaults(p);
    if (script_apply_params(L, idx, p, err, errlen) < 0)
        return -1;
    return script_finish_params(p, err, errlen);
}

void script_push_json(lua_State *L, json_t *v)
{
    luaL_checkstack(L, 4, "result too deep");
    if (json_is_object(v)) {
        lua_createtable(L, 0, (int)json_object_size(v));
        const char *key;
        json_t *item;
        json_object_foreach(v, key, item)
        {
            script_push_json(L, item);
            lua_setfield(L, -2, key);
        }
    } else if (json_is_array(v)) {
        lua_createtable(L, (int)json_array_size(v), 0);
        size_t i;
        json_t *item;
        json_array_foreach(v, i, item)
        {
            script_push_json(L, item);
            lua_rawseti(L, -2, (lua_Integer)i + 1);
        }
    } else if (json_is_integer(v))
        lua_pushinteger(L, (lua_Integer)json_integer_value(v));
    else if (json_is_real(v))
        lua_pushnumber(L, json_real_value(v));
    else if (json_is_string(v))
        lua_pushstring(L, json_string_value(v));
    else if (json_is_boolean(v))
        lua_pushboolean(L, json_is_true(v));
    else
        lua_pushnil(L);
}

void script_describe(lua_State *L, int idx, char *out, size_t len)
{
    if (lua_type(L, idx) == LUA_TSTRING)
        snprintf(out, len, "the string \"%.40s\"", lua_tostring(L, idx));
    else if (lua_isnoneornil(L, idx))
        snprintf(out, len, "nothing");
    else if (lua_type(L, idx) == LUA_TNUMBER && isnan(lua_tonumber(L, idx)))
        snprintf(out, len, "NaN");
    else if (lua_type(L, idx) == LUA_TNUMBER)
        snprintf(out, len, "%g", lua_tonumber(L, idx));
    else
        snprintf(out, len, "a %s", luaL_typename(L, idx));
}
