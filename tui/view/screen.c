#include "screen.h"

#include "../state/app.h" /* the key codes screen_map_key gives */

#include <curses.h>
#include <fcntl.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <term.h>
#include <termios.h>
#include <unistd.h>

static const struct glyphs unicode_glyphs = {
    .block = "█",
    .idle = "░",
    .shade_r = "▒",
    .shade_a = "▓",
    .track_on = "━",
    .track_off = "─",
    .knob = "●",
    .focus = "▸",
    .vline = "│",
    .hline = "─",
    .corner = "└",
    .tick_y = "┤",
    .tick_x = "┬",
    .cross_line = "┊",
    .here = "▲",
    .point = "●",
    .curve = "━━",
    .eta = "η",
    .times = "×",
    .approx = "≈",
    .ge = "≥",
    .ellipsis = "…",
    .ok = "✓",
    .fail = "✗",
    .delta = "Δ",
    .enter = "⏎",
    .arrows_lr = "←→",
    .arrows_ud = "↑↓",
    .dot = "·",
    .arrow = "→",
    .point2 = "◆",
    .curve2 = "╍╍",
    .point3 = "■",
    .curve3 = "┈┈",
    .box_tl = "┌",
    .box_tr = "┐",
    .box_bl = "└",
    .box_br = "┘",
};

static const struct glyphs ascii_glyphs = {
    .block = "#",
    .idle = ".",
    .shade_r = "=",
    .shade_a = "%",
    .track_on = "=",
    .track_off = "-",
    .knob = "O",
    .focus = ">",
    .vline = "|",
    .hline = "-",
    .corner = "+",
    .tick_y = "+",
    .tick_x = "+",
    .cross_line = ":",
    .here = "^",
    .point = "o",
    .curve = "--",
    .eta = "eta",
    .times = "x",
    .approx = "~",
    .ge = ">=",
    .ellipsis = "...",
    .ok = "ok",
    .fail = "X",
    .delta = "D", /* not "d": d is a key (reset the parameter), D is none */
    .enter = "Enter",
    .arrows_lr = "<>",
    .arrows_ud = "^v",
    .dot = "-",
    .arrow = "->",
    .point2 = "x",
    .curve2 = "- ",
    .point3 = "#",
    .curve3 = "..",
    .box_tl = "+",
    .box_tr = "+",
    .box_bl = "+",
    .box_br = "+",
};

struct colour_def {
    short fg, fg256, bg;
    int attr, mono;
};

#define SCREEN_DEF(name, fg, fg256, bg, attr, mono) [name] = {fg, fg256, bg, attr, mono},
static const struct colour_def colour_table[COL_COUNT] = {SCREEN_COLOURS(SCREEN_DEF)};
#undef SCREEN_DEF

/* What a fatal-signal handler needs, prepared while it is still safe to prepare it. */
static struct termios saved_tty;
static bool saved_tty_ok;
static int saved_fl[2] = {-1, -1}; /* stdin's and stdout's file status flags */
static char restore_seq[256];
static size_t restore_len;
static void (*fatal_kill)(void);
static SCREEN *term_screen;

static bool locale_is_utf8(void)
{
    const char *cs = nl_langinfo(CODESET);
    return cs && (!strcasecmp(cs, "UTF-8") || !strcasecmp(cs, "utf8"));
}

static void append_cap(const char *name)
{
    char *cap = tigetstr(name);
    if (!cap || cap == (char *)-1)
        return;
    size_t n = strlen(cap);
    if (restore_len + n < sizeof restore_seq) {
        memcpy(restore_seq + restore_len, cap, n);
        restore_len += n;
    }
}

int screen_open(struct screen *s, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    setlocale(LC_ALL, "");
    const char *ascii = getenv("SITU_ASCII");
    s->unicode = locale_is_utf8() && !(ascii && *ascii && strcmp(ascii, "0"));
    s->g = s->unicode ? &unicode_glyphs : &ascii_glyphs;
    saved_tty_ok = tcgetattr(STDIN_FILENO, &saved_tty) == 0;
    /* libuv makes a polled fd non-blocking, and the open file is the shell's too: a shell that
     * finds its terminal non-blocking after we exit may read EAGAIN as end of input and quit. */
    saved_fl[0] = fcntl(STDIN_FILENO, F_GETFL);
    saved_fl[1] = fcntl(STDOUT_FILENO, F_GETFL);

    term_screen = newterm(NULL, stdout, stdin);
    if (!term_screen) {
        const char *t = getenv("TERM");
        snprintf(err, errlen, "cannot drive this terminal (TERM=%s)", t ? t : "unset");
        return -1;
    }
    set_term(term_screen);
    raw(); /* Ctrl-C arrives as a key, so quitting always goes through the one exit path */
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    nodelay(stdscr, TRUE);
    curs_set(0);
    set_escdelay(25);
    mousemask(BUTTON1_PRESSED | BUTTON1_CLICKED, NULL);
    mouseinterval(0);

    const char *nc = getenv("NO_COLOR");
    s->colour = !(nc && *nc) && has_colors();
    if (s->colour) {
        start_color();
        use_default_colors();
    }
    screen_set_theme(s, s->theme);
    append_cap("sgr0");
    append_cap("cnorm");
    append_cap("rmcup");
    screen_resize(s);
    return 0;
}

static void restore_flags(void)
{
    if (saved_fl[0] >= 0)
        fcntl(STDIN_FILENO, F_SETFL, saved_fl[0]);
    if (saved_fl[1] >= 0)
        fcntl(STDOUT_FILENO, F_SETFL, saved_fl[1]);
}

void screen_close(struct screen *s)
{
    (void)s;
    if (!term_screen)
        return;
    endwin();
    delscreen(term_screen);
    term_screen = NULL;
    restore_len = 0;
    restore_flags();
}

void screen_resize(struct screen *s)
{
    struct winsize ws;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 && ws.ws_col > 0 &&
        (ws.ws_row != LINES || ws.ws_col != COLS))
        resizeterm(ws.ws_row, ws.ws_col);
    s->rows = LINES;
    s->cols = COLS;
    clearok(curscr, TRUE); /* repaint everything: the old frame is meaningless now */
}

const char *const theme_names[THEME_COUNT + 1] = {"dark", "contrast", "light", NULL};

int theme_find(const char *name)
{
    for (int t = 0; t < THEME_COUNT; t++)
        if (!strcmp(name, theme_names[t]))
            return t;
    return -1;
}

/* A colour's foreground in theme t: high contrast brightens the dark ones (the axes' blue, the
 * muted text), light darkens the pale ones for a light background. */
static short theme_fg(int t, enum colour c)
{
    bool wide = COLORS >= 256;
    short fg = wide ? colour_table[c].fg256 : colour_table[c].fg;
    if (t == THEME_CONTRAST) {
        if (c == COL_BORDER || c == COL_UTIL_LOW || c == COL_MUTED || c == COL_IDLE)
            return COLOR_WHITE;
        if (c == COL_TEXT || c == COL_VALUE)
            return COLOR_WHITE;
    } else if (t == THEME_LIGHT) {
        if (c == COL_BORDER || c == COL_UTIL_LOW || c == COL_MUTED || c == COL_IDLE ||
            c == COL_TEXT || c == COL_VALUE)
            return COLOR_BLACK;
        if (fg == OI_SKY || fg == COLOR_CYAN)
            return wide ? OI_BLUE : COLOR_BLUE;
        if (fg == OI_YELLOW || fg == COLOR_YELLOW || fg == OI_ORANGE)
            return wide ? OI_VERMILLION : COLOR_RED;
    }
    return fg;
}

void screen_set_theme(struct screen *s, int t)
{
    s->theme = t >= 0 && t < THEME_COUNT ? t : THEME_DARK;
    if (!s->colour || !term_screen)
        return;
    for (int c = 0; c < COL_COUNT; c++)
        init_pair((short)(c + 1), theme_fg(s->theme, (enum colour)c), colour_table[c].bg);
}

int screen_attr(const struct screen *s, enum colour c)
{
    /* The other themes draw nothing dim: on a projector dim is invisible. */
    int strip = s->theme != THEME_DARK ? A_DIM : 0;
    if (!s->colour)
        return colour_table[c].mono & ~strip;
    return (COLOR_PAIR(c + 1) | colour_table[c].attr) & ~strip;
}

void screen_emergency_restore(void)
{
    if (fatal_kill)
        fatal_kill();
    if (restore_len)
        (void)!write(STDOUT_FILENO, restore_seq, restore_len);
    if (saved_tty_ok)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved_tty);
    restore_flags();
}

static void on_fatal(int sig)
{
    screen_emergency_restore();
    signal(sig, SIG_DFL);
    raise(sig);
}

void screen_on_fatal(void (*kill_children)(void))
{
    fatal_kill = kill_children;
    int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fatal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND;
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        sigaction(sigs[i], &sa, NULL);
}

int screen_cells(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xc0) != 0x80;
    return n;
}

int screen_map_key(int ch)
{
    switch (ch) {
    case KEY_UP:
        return APP_KEY_UP;
    case KEY_DOWN:
        return APP_KEY_DOWN;
    case KEY_LEFT:
        return APP_KEY_LEFT;
    case KEY_RIGHT:
        return APP_KEY_RIGHT;
    case KEY_PPAGE:
        return APP_KEY_PGUP;
    case KEY_NPAGE:
        return APP_KEY_PGDN;
    case KEY_HOME:
        return APP_KEY_HOME;
    case KEY_END:
        return APP_KEY_END;
    case KEY_ENTER:
    case '\r':
    case '\n':
        return APP_KEY_ENTER;
    case 27:
        return APP_KEY_ESC;
    case KEY_BACKSPACE:
    case 127:
    case 8:
        return APP_KEY_BACKSPACE;
    case '\t':
        return APP_KEY_TAB;
    case KEY_BTAB:
        return APP_KEY_BTAB;
    case 3:
        return APP_KEY_CTRL_C;
    case 21:
        return APP_KEY_CTRL_U;
    default:
        return ch >= 0x20 && ch < 0x7f ? ch : -1;
    }
}
