/* situ.table and situ.csv: results (or configurations) as an aligned table or a CSV file. A
 * column names a result key ("makespan"), a stage ("A" or "stage.A") or a parameter ("ratio",
 * looked up in the result's config). */
#include <lauxlib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../base/csv.h"
#include "../base/outfile.h"
#include "../model/report.h"
#include "../lua/script_convert.h"
#include "../lua/sandbox.h"
#include "../lua/script_internal.h"
#include "script_situ.h"

#define MAX_COLS 64
#define CELL_MAX 96

static const char *const table_results[] = {"makespan", "efficiency", "scenario", NULL};

/* Pushes the value of column key in the row at idx (nil if it has none). */
static void lookup(lua_State *L, int row, const char *key)
{
    if (strchr(key, '.')) {
        lua_pushvalue(L, row);
        const char *part = key;
        while (part && lua_istable(L, -1)) {
            const char *dot = strchr(part, '.');
            size_t n = dot ? (size_t)(dot - part) : strlen(part);
            lua_pushlstring(L, part, n);
            lua_gettable(L, -2);
            lua_remove(L, -2);
            part = dot ? dot + 1 : NULL;
        }
        if (part) {
            lua_pop(L, 1);
            lua_pushnil(L);
        }
        return;
    }
    int param = params_find(key); /* a parameter in either spelling, as everywhere */
    /* A parameter's value is a result's config's first: a simulation's result has a "sampling"
     * of its own (the steps it simulated), which is not the parameter's. A configuration (no
     * config) has it at the top. */
    const char *const result_first[] = {NULL, "stage", "config"};
    const char *const config_first[] = {"config", NULL, "stage"};
    const char *const *where = param >= 0 ? config_first : result_first;
    for (int i = 0; i < 3; i++) {
        if (!where[i])
            lua_pushvalue(L, row);
        else
            lua_getfield(L, row, where[i]);
        if (lua_istable(L, -1)) {
            lua_getfield(L, -1,
                         where[i] && param >= 0 && !strcmp(where[i], "config")
                             ? param_table[param].key
                             : key);
            lua_remove(L, -2);
            if (!lua_isnil(L, -1))
                return;
        }
        lua_pop(L, 1);
    }
    lua_pushnil(L);
}

/* Text of the value at the top (popped); csv keeps full precision. */
static void cell(lua_State *L, char *out, size_t len, bool csv)
{
    if (lua_isinteger(L, -1))
        snprintf(out, len, "%lld", (long long)lua_tointeger(L, -1));
    else if (lua_type(L, -1) == LUA_TNUMBER) {
        double x = lua_tonumber(L, -1);
        if (csv)
            snprintf(out, len, "%.12g", x);
        else if (isfinite(x) && x == floor(x) && fabs(x) < 1e12)
            snprintf(out, len, "%.0f", x);
        else
            snprintf(out, len, "%.4g", x);
    } else if (lua_type(L, -1) == LUA_TSTRING)
        snprintf(out, len, "%s", script_text(L, -1, "a value"));
    else if (lua_isboolean(L, -1))
        snprintf(out, len, "%s", lua_toboolean(L, -1) ? "true" : "false");
    else if (lua_isnil(L, -1))
        snprintf(out, len, "%s", csv ? "" : "-");
    else
        snprintf(out, len, "(%s)", luaL_typename(L, -1));
    lua_pop(L, 1);
}

/* Rows: a list of results, or one result (a table with a config or a makespan). Leaves a list
 * at the top of the stack and returns its length. */
static int rows(lua_State *L, int idx)
{
    luaL_checktype(L, idx, LUA_TTABLE);
    lua_getfield(L, idx, "config");
    lua_getfield(L, idx, "makespan");
    lua_getfield(L, idx, "nodes");
    bool single = !lua_isnil(L, -1) || !lua_isnil(L, -2) || !lua_isnil(L, -3);
    lua_pop(L, 3);
    if (single) {
        lua_createtable(L, 1, 0);
        lua_pushvalue(L, idx);
        lua_rawseti(L, -2, 1);
    } else
        lua_pushvalue(L, idx);
    int n = (int)luaL_len(L, -1);
    for (int i = 1; i <= n; i++)
        if (lua_rawgeti(L, -1, i) != LUA_TTABLE)
            luaL_error(L, "row %d is a %s, not a result table", i, luaL_typename(L, -1));
        else
            lua_pop(L, 1);
    return n;
}

static bool any_error(lua_State *L, int list, int n)
{
    bool any = false;
    for (int i = 1; i <= n && !any; i++) {
        lua_rawgeti(L, list, i);
        lua_getfield(L, -1, "error");
        any = !lua_isnil(L, -1);
        lua_pop(L, 2);
    }
    return any;
}

/* Columns from a list of names at idx; -1 if there is none. Names stay valid while the list is
 * on the stack. */
static int given_columns(lua_State *L, int idx, const char **cols)
{
    if (lua_isnoneornil(L, idx))
        return -1;
    luaL_checktype(L, idx, LUA_TTABLE);
    int n = (int)luaL_len(L, idx);
    if (n < 1 || n > MAX_COLS)
        luaL_error(L, "expected a list of 1 to %d column names", MAX_COLS);
    for (int i = 1; i <= n; i++) {
        lua_rawgeti(L, idx, i);
        if (lua_type(L, -1) != LUA_TSTRING)
            luaL_error(L, "column %d is a %s, not a name", i, luaL_typename(L, -1));
        cols[i - 1] = script_text(L, -1, "a column name");
        lua_pop(L, 1);
    }
    return n;
}

/* The default table: the parameters that differ between rows, then the headline results. */
static int default_columns(lua_State *L, int list, int n, const char **cols)
{
    int nc = 0;
    for (int id = 0; id < PARAM_COUNT && nc < MAX_COLS - 4; id++) {
        char first[CELL_MAX], v[CELL_MAX];
        bool differs = false;
        for (int i = 1; i <= n && !differs; i++) {
            lua_rawgeti(L, list, i);
            lookup(L, lua_gettop(L), param_table[id].key);
            cell(L, i == 1 ? first : v, CELL_MAX, true);
            lua_pop(L, 1);
            differs = i > 1 && strcmp(first, v);
        }
        if (differs)
            cols[nc++] = param_table[id].key;
    }
    for (int k = 0; table_results[k]; k++)
        cols[nc++] = table_results[k];
    return nc;
}

int script_table(lua_State *L)
{
    struct script *s = script_of(L);
    const char *cols[MAX_COLS + 1];
    lua_settop(L, 2); /* rs, cols: what rows() pushes comes after */
    int n = rows(L, 1);
    int list = lua_gettop(L);
    int nc = given_columns(L, 2, cols);
    if (nc < 0)
        nc = default_columns(L, list, n, cols);
    bool errors = any_error(L, list, n);
    if (errors)
        cols[nc++] = "error";
    char(*text)[CELL_MAX] = calloc((size_t)(n + 1) * nc, CELL_MAX);
    bool *right = calloc(nc, sizeof *right);
    int *width = calloc(nc, sizeof *width);
    if (!text || !right || !width) {
        free(text);
        free(right);
        free(width);
        return luaL_error(L, "situ.table: out of memory");
    }
    for (int c = 0; c < nc; c++) {
        snprintf(text[c], CELL_MAX, "%s", cols[c]);
        width[c] = (int)strlen(cols[c]);
    }
    for (int i = 1; i <= n; i++) {
        lua_rawgeti(L, list, i);
        for (int c = 0; c < nc; c++) {
            lookup(L, lua_gettop(L), cols[c]);
            right[c] = right[c] || lua_type(L, -1) == LUA_TNUMBER;
            cell(L, text[i * nc + c], CELL_MAX, false);
            int w = (int)strlen(text[i * nc + c]);
            width[c] = w > width[c] ? w : width[c];
        }
        lua_pop(L, 1);
    }
    for (int i = 0; s->o.out && i <= n; i++) {
        for (int c = 0; c < nc; c++) {
            bool last = c == nc - 1;
            if (right[c])
                fprintf(s->o.out, "%*s%s", width[c], text[i * nc + c], last ? "" : "  ");
            else
                fprintf(s->o.out, "%-*s%s", last ? 0 : width[c], text[i * nc + c],
                        last ? "" : "  ");
        }
        fputc('\n', s->o.out);
    }
    if (s->o.out)
        fflush(s->o.out);
    free(text);
    free(right);
    free(width);
    return 0;
}

struct text_box {
    FILE *f; /* open_memstream over text, until the text is complete */
    char *text;
    size_t len;
};

static int text_box_gc(lua_State *L)
{
    struct text_box *box = lua_touserdata(L, 1);
    if (box->f)
        fclose(box->f);
    free(box->text);
    box->f = NULL;
    box->text = NULL;
    return 0;
}

/* Through an outfile: the file is complete or absent. */
int script_csv(lua_State *L)
{
    struct script *s = script_of(L);
    luaL_checkstring(L, 1);
    const char *path = script_text(L, 1, "situ.csv: the file name");
    char err[OUTFILE_ERR_MAX];
    if (!s->o.unsafe && sandbox_check_write(path, err, sizeof err) < 0)
        return luaL_error(L, "situ.csv: %s", err);
    /* Each column's header and where its value is (a dotted path): the same for given names,
     * `situ sweep`'s own for the default (report_columns), so that the two files merge. */
    const char *cols[PARAM_COUNT + MAX_COLS], *paths[PARAM_COUNT + MAX_COLS];
    lua_settop(L, 3);
    int n = rows(L, 2);
    int list = lua_gettop(L);
    int nc = given_columns(L, 3, cols);
    for (int c = 0; c < nc; c++)
        paths[c] = cols[c];
    if (nc < 0) {
        nc = 0;
        for (int id = 0; id < PARAM_COUNT; id++, nc++)
            cols[nc] = paths[nc] = param_table[id].key;
        for (int k = 0; report_columns[k].name; k++, nc++)
            cols[nc] = report_columns[k].name, paths[nc] = report_columns[k].path;
        if (any_error(L, list, n))
            cols[nc] = paths[nc] = "error", nc++;
    }
    /* The text is made in memory first: the lookups below can raise a Lua error, which must
     * not leave an outfile open (its temporary, its held-back signals). The box's __gc frees
     * the buffer whichever way this ends. */
    struct text_box *box = lua_newuserdatauv(L, sizeof *box, 0);
    memset(box, 0, sizeof *box);
    if (luaL_newmetatable(L, "situ.csv text")) {
        lua_pushcfunction(L, text_box_gc);
        lua_setfield(L, -2, "__gc");
    }
    lua_setmetatable(L, -2);
    FILE *f = box->f = open_memstream(&box->text, &box->len);
    if (!f)
        return luaL_error(L, "situ.csv: out of memory");
    for (int c = 0; c < nc; c++) {
        csv_field(f, cols[c]);
        fputc(c + 1 < nc ? ',' : '\n', f);
    }
    for (int i = 1; i <= n; i++) {
        lua_rawgeti(L, list, i);
        for (int c = 0; c < nc; c++) {
            char v[1024];
            lookup(L, lua_gettop(L), paths[c]);
            cell(L, v, sizeof v, true);
            csv_field(f, v);
            fputc(c + 1 < nc ? ',' : '\n', f);
        }
        lua_pop(L, 1);
    }
    bool made = fclose(f) == 0;
    box->f = NULL;
    if (!made)
        return luaL_error(L, "situ.csv: out of memory");
    struct outfile out;
    if (outfile_open(&out, path, err, sizeof err) < 0)
        return script_fail(L, 1, "situ.csv: %s", err);
    outfile_write(&out, box->text, box->len);
    if (outfile_commit(&out, err, sizeof err) < 0)
        return script_fail(L, 1, "situ.csv: %s", err);
    lua_pushinteger(L, n);
    return 1;
}
