/* The man page's generated sections (`make docs`, tools/docs.sh): the options from the parameter
 * table and the explorer's keys from its key tables, as roff, so that docs/situ.1 says what the
 * program does from the same one home as --help, the README, the footer and `?`. The CLI tests
 * fail when docs/situ.1 is stale. `situ __man-roff params|keys`. */
#include <stdio.h>
#include <string.h>

#include "../tui/state/app.h"
#include "cli.h"

/* Text as roff reads it: '-' is a hyphen unless escaped, '\' starts an escape, and a line
 * starting with '.' or '\'' would be a request. */
static void roff_text(FILE *out, const char *text, bool line_start)
{
    for (const char *c = text; *c; c++) {
        if (line_start && (*c == '.' || *c == '\''))
            fputs("\\&", out);
        line_start = false;
        if (*c == '-' || *c == '\\')
            fputc('\\', out);
        fputc(*c, out);
    }
}

/* A key table's names in words: the screen's glyphs are arrows, the page's are names. */
static void roff_keys(FILE *out, const char *names)
{
    static const char *tokens[][2] = {
        {"<ud>", "Up Down"}, {"<lr>", "Left Right"}, {"<enter>", "Enter"}};
    fputs(".B \"", out);
    for (const char *p = names; *p;) {
        bool hit = false;
        for (size_t k = 0; k < sizeof tokens / sizeof tokens[0] && !hit; k++) {
            size_t n = strlen(tokens[k][0]);
            if (!strncmp(p, tokens[k][0], n)) {
                fputs(tokens[k][1], out);
                p += n;
                hit = true;
                if (*p == '<') /* "<lr><ud>": two names, not one word */
                    fputc(' ', out);
            }
        }
        if (!hit) {
            if (*p == '-' || *p == '\\')
                fputc('\\', out);
            fputc(*p == '"' ? '\'' : *p, out);
            p++;
        }
    }
    fputs("\"\n", out);
}

static void print_params(FILE *out)
{
    struct params p;
    params_defaults(&p);
    for (int id = 0; id < PARAM_COUNT; id++) {
        const struct param_desc *d = &param_table[id];
        char flag[64], def[PARAMS_PATH_MAX], range[160];
        snprintf(flag, sizeof flag, "--%s", d->key);
        for (char *c = flag; *c; c++)
            *c = *c == '_' ? '-' : *c;
        params_format(&p, id, def, sizeof def);
        params_describe_range(id, range, sizeof range);
        const char *arg = d->type == PARAM_INT    ? "n"
                          : d->type == PARAM_REAL ? "x"
                          : d->type == PARAM_PATH ? (params_is_name(id) ? "name" : "file")
                                                  : "choice";
        fputs(".TP\n.BI ", out);
        roff_text(out, flag, false);
        fprintf(out, " \" %s\"\n", arg);
        char help[256]; /* a sentence: its first letter a capital */
        snprintf(help, sizeof help, "%s", d->help);
        if (help[0] >= 'a' && help[0] <= 'z')
            help[0] = (char)(help[0] - 'a' + 'A');
        roff_text(out, help, true);
        fputs(".\n", out);
        range[0] = (char)(range[0] >= 'a' && range[0] <= 'z' ? range[0] - 'a' + 'A' : range[0]);
        roff_text(out, range, true);
        fputs("; ", out);
        if (def[0]) {
            fputs("default ", out);
            roff_text(out, def, false);
        } else {
            fputs("no default", out);
        }
        if (d->unit[0]) {
            fputs("; unit ", out);
            roff_text(out, d->unit, false);
        }
        fputs(".\n", out);
    }
}

/* The main screen's rows as the help (?) lists them: those that work everywhere first, then
 * those of a lesson, a panel or a view; then each other mode's rows in a line. */
static void print_keys(FILE *out)
{
    const struct app_keymap *map = app_keymap(APP_MAIN);
    const unsigned where =
        APP_CTX_LESSON | APP_CTX_SCRIPT | APP_CTX_LINKS | APP_CTX_TEXT | APP_CTX_ADVISE;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < map->n; i++)
            if (map->defs[i].help && !(map->defs[i].ctx & where) == !pass) {
                fputs(".TP\n", out);
                roff_keys(out, map->defs[i].names);
                roff_text(out, map->defs[i].help, true);
                fputs("\n", out);
            }
    static const enum app_mode others[] = {APP_HELP,        APP_PRESETS, APP_EDIT, APP_SCRIPT_PATH,
                                           APP_PRESET_SAVE, APP_ANSWER,  APP_ERROR};
    for (size_t m = 0; m < sizeof others / sizeof others[0]; m++) {
        map = app_keymap(others[m]);
        fputs(".TP\n.I \"", out);
        roff_text(out, map->title, false);
        fputs("\"\n", out);
        bool first = true;
        for (int i = 0; i < map->n; i++) {
            if (!map->defs[i].help)
                continue;
            if (!first)
                fputs(";\n", out);
            first = false;
            roff_keys(out, map->defs[i].names);
            roff_text(out, map->defs[i].help, true);
        }
        fputs(".\n", out);
    }
}

int man_roff_main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[2], "params"))
        print_params(stdout);
    else if (argc == 3 && !strcmp(argv[2], "keys"))
        print_keys(stdout);
    else {
        cli_error("usage: situ __man-roff params|keys");
        return EXIT_BAD_INPUT;
    }
    return 0; /* main checks stdout at exit, as for every command */
}
