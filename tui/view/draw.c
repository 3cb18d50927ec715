#include "draw.h"

#include <curses.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* Bytes of the first `cells` display cells of a UTF-8 string. */
static int prefix_bytes(const char *text, int cells, int *used)
{
    int b = 0, n = 0;
    while (text[b] && n < cells) {
        b++;
        while (((unsigned char)text[b] & 0xc0) == 0x80)
            b++;
        n++;
    }
    *used = n;
    return b;
}

int draw_width(const char *text)
{
    int cells;
    prefix_bytes(text, INT_MAX, &cells);
    return cells;
}

int draw_text(const struct screen *s, int y, int x, int w, enum colour c, const char *text)
{
    if (w <= 0 || y < 0 || y >= s->rows || x < 0 || x >= s->cols)
        return 0;
    if (x + w > s->cols)
        w = s->cols - x;
    int cells;
    int bytes = prefix_bytes(text, w, &cells);
    attrset(screen_attr(s, c));
    mvaddnstr(y, x, text, bytes);
    attrset(A_NORMAL);
    return cells;
}

int draw_text_cut(const struct screen *s, int y, int x, int w, enum colour c, const char *text)
{
    int e = draw_width(s->g->ellipsis); /* "..." in ASCII */
    if (w <= e || draw_width(text) <= w)
        return draw_text(s, y, x, w, c, text);
    int n = draw_text(s, y, x, w - e, c, text);
    return n + draw_text(s, y, x + n, e, c, s->g->ellipsis);
}

int draw_fmt(const struct screen *s, int y, int x, int w, enum colour c, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return draw_text(s, y, x, w, c, buf);
}

void draw_right(const struct screen *s, int y, int x, int w, enum colour c, const char *text)
{
    int n = screen_cells(text);
    if (n < w)
        draw_text(s, y, x + w - n, n, c, text);
    else
        draw_text(s, y, x, w, c, text);
}

void draw_fill(const struct screen *s, int y, int x, int n, enum colour c, const char *glyph)
{
    if (n <= 0 || y < 0 || y >= s->rows)
        return;
    if (x + n > s->cols)
        n = s->cols - x;
    attrset(screen_attr(s, c));
    move(y, x);
    for (int i = 0; i < n; i++)
        addstr(glyph);
    attrset(A_NORMAL);
}

void draw_bar(const struct screen *s, int y, int x, int w, const struct bar_seg *segs, int n,
              const char *rest)
{
    double cum = 0;
    int at = 0;
    for (int i = 0; i < n; i++) {
        double f = segs[i].frac > 0 ? segs[i].frac : 0;
        cum = fmin(1, cum + f);
        int end = (int)lround(cum * w);
        draw_fill(s, y, x + at, end - at, segs[i].c, segs[i].glyph);
        at = end;
    }
    if (at < w)
        draw_fill(s, y, x + at, w - at, COL_IDLE, rest ? rest : " ");
}

void draw_track(const struct screen *s, int y, int x, int w, double pos)
{
    if (w <= 0)
        return;
    pos = isfinite(pos) ? fmin(1, fmax(0, pos)) : 0;
    int knob = (int)lround(pos * (w - 1));
    draw_fill(s, y, x, knob, COL_TRACK, s->g->track_on);
    draw_fill(s, y, x + knob, 1, COL_KNOB, s->g->knob);
    draw_fill(s, y, x + knob + 1, w - knob - 1, COL_MUTED, s->g->track_off);
}

int draw_wrap(const char *text, int w, char lines[][256], int max)
{
    int n = 0;
    const char *p = text;
    if (w > 255)
        w = 255;
    while (*p) {
        const char *nl = strchr(p, '\n');
        int len = nl ? (int)(nl - p) : (int)strlen(p);
        int take = len;
        if (take > w) {
            take = w;
            while (take > 0 && p[take] != ' ')
                take--;
            if (take == 0)
                take = w;
        }
        if (n < max) {
            memcpy(lines[n], p, (size_t)take);
            lines[n][take] = 0;
        }
        n++;
        p += take;
        if (take < len) {
            while (*p == ' ')
                p++;
        } else if (*p == '\n') {
            p++;
        }
    }
    return n;
}

void draw_reflow(const char *text, char *out, size_t len)
{
    size_t o = 0;
    for (const char *c = text; *c && o + 1 < len; c++) {
        bool join = c[0] == '\n' && c > text && c[-1] != '\n' && c[1] && c[1] != '\n' &&
                    c[1] != ' ' && c[1] != '-' && c[1] != '*';
        out[o++] = join ? ' ' : *c;
    }
    if (len)
        out[o < len ? o : len - 1] = 0;
}
