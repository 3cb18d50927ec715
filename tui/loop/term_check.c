/* Whether TERM names a terminal the explorer can draw on. Its own file: <term.h> defines macros
 * (lines, columns, ...) that would collide with ordinary names elsewhere. */
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <term.h>
#include <unistd.h>

#include "../tui.h"

int tui_term_usable(char *err, size_t errlen)
{
    const char *name = getenv("TERM");
    if (!name || !*name) {
        snprintf(
            err, errlen,
            "TERM is not set: the explorer needs the terminal's type (e.g. TERM=xterm-256color)");
        return -1;
    }
    int status = 0;
    if (setupterm(NULL, STDOUT_FILENO, &status) != OK) {
        snprintf(err, errlen,
                 "TERM=%s: no terminfo entry for it (set TERM to your terminal's type, e.g. "
                 "xterm-256color)",
                 name);
        return -1;
    }
    /* A screen needs to place the cursor and clear; "dumb" and its kind cannot. */
    const char *cup = tigetstr("cup"), *clear = tigetstr("clear");
    bool usable = cup && cup != (char *)-1 && clear && clear != (char *)-1;
    del_curterm(cur_term);
    if (!usable) {
        snprintf(err, errlen,
                 "TERM=%s cannot place text on the screen (set TERM to your terminal's type, "
                 "e.g. xterm-256color)",
                 name);
        return -1;
    }
    return 0;
}
