#include "plot.h"

#include <stdlib.h>
#include <string.h>

int plot_init(struct plot *p, int w, int h, bool braille)
{
    memset(p, 0, sizeof *p);
    if (w <= 0 || h <= 0)
        return -1;
    p->w = w;
    p->h = h;
    p->sx = braille ? 2 : 1;
    p->sy = braille ? 4 : 1;
    p->dots = calloc((size_t)w * h, 1);
    p->layer = malloc((size_t)w * h);
    if (!p->dots || !p->layer) {
        plot_free(p);
        return -1;
    }
    memset(p->layer, -1, (size_t)w * h);
    return 0;
}

void plot_free(struct plot *p)
{
    free(p->dots);
    free(p->layer);
    p->dots = NULL;
    p->layer = NULL;
}

void plot_dot(struct plot *p, int x, int y, int layer)
{
    if (x < 0 || y < 0 || x >= p->w * p->sx || y >= p->h * p->sy)
        return;
    int cell = (y / p->sy) * p->w + x / p->sx;
    if (p->sx == 2) {
        /* Braille dot numbering: left column 1, 2, 3, 7; right column 4, 5, 6, 8. */
        static const unsigned char bit[4][2] = {
            {0x01, 0x08}, {0x02, 0x10}, {0x04, 0x20}, {0x40, 0x80}};
        p->dots[cell] |= bit[y % 4][x % 2];
    } else {
        p->dots[cell] = 0xff;
    }
    p->layer[cell] = (signed char)layer;
}

void plot_line(struct plot *p, int x0, int y0, int x1, int y1, int layer)
{
    if (layer < 0 || layer >= PLOT_LAYERS)
        return;
    int dx = abs(x1 - x0), dy = -abs(y1 - y0);
    int stx = x0 < x1 ? 1 : -1, sty = y0 < y1 ? 1 : -1;
    int e = dx + dy, dash = p->dash[layer];
    /* A segment starts where the previous one ended: that dot is not stepped twice. */
    bool skip = p->run[layer] > 0;
    for (int guard = 0; guard < 100000; guard++) {
        if (!skip) {
            if (!dash || (p->run[layer] / (unsigned)dash) % 2 == 0)
                plot_dot(p, x0, y0, layer);
            p->run[layer]++;
        }
        skip = false;
        if (x0 == x1 && y0 == y1)
            break;
        int e2 = 2 * e;
        if (e2 >= dy) {
            e += dy;
            x0 += stx;
        }
        if (e2 <= dx) {
            e += dx;
            y0 += sty;
        }
    }
}

void plot_set_dash(struct plot *p, int layer, int n)
{
    if (layer >= 0 && layer < PLOT_LAYERS)
        p->dash[layer] = n > 0 ? n : 0;
}

void plot_braille(const struct plot *p, int row, int col, char buf[4])
{
    unsigned char d = p->dots[row * p->w + col];
    if (!d) {
        buf[0] = 0;
        return;
    }
    unsigned cp = 0x2800u + d; /* U+2800..U+28FF: three UTF-8 bytes */
    buf[0] = (char)(0xe0 | (cp >> 12));
    buf[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
    buf[2] = (char)(0x80 | (cp & 0x3f));
    buf[3] = 0;
}
