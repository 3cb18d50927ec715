/* cairo, loaded when the first figure is drawn rather than when the program starts: cairo brings
 * twenty libraries (pixman, freetype, fontconfig, X11's), a third of `situ`'s start-up, and most
 * commands draw no figure. Every file that draws includes this instead of <cairo.h>: the calls
 * keep cairo's own names, which this header points at the loaded library. plot_cairo_load must
 * have succeeded before the first of them (chart.c's write_one, the one place a surface is made,
 * calls it). */
#ifndef SITU_PLOT_CAIRO_CALLS_H
#define SITU_PLOT_CAIRO_CALLS_H

#include <cairo-svg.h>
#include <cairo.h>
#include <stddef.h>

/* Every cairo function Situ calls: add one here to use it. */
#define PLOT_CAIRO_CALLS(X)                                                                        \
    X(cairo_arc)                                                                                   \
    X(cairo_clip)                                                                                  \
    X(cairo_close_path)                                                                            \
    X(cairo_create)                                                                                \
    X(cairo_destroy)                                                                               \
    X(cairo_fill)                                                                                  \
    X(cairo_fill_preserve)                                                                         \
    X(cairo_image_surface_create)                                                                  \
    X(cairo_line_to)                                                                               \
    X(cairo_move_to)                                                                               \
    X(cairo_paint)                                                                                 \
    X(cairo_rectangle)                                                                             \
    X(cairo_restore)                                                                               \
    X(cairo_rotate)                                                                                \
    X(cairo_save)                                                                                  \
    X(cairo_select_font_face)                                                                      \
    X(cairo_set_dash)                                                                              \
    X(cairo_set_font_size)                                                                         \
    X(cairo_set_line_width)                                                                        \
    X(cairo_set_source_rgb)                                                                        \
    X(cairo_set_source_rgba)                                                                       \
    X(cairo_show_text)                                                                             \
    X(cairo_status_to_string)                                                                      \
    X(cairo_stroke)                                                                                \
    X(cairo_surface_destroy)                                                                       \
    X(cairo_surface_finish)                                                                        \
    X(cairo_surface_status)                                                                        \
    X(cairo_surface_write_to_png_stream)                                                           \
    X(cairo_svg_surface_create_for_stream)                                                         \
    X(cairo_text_extents)                                                                          \
    X(cairo_translate)                                                                             \
    X(cairo_user_to_device)

struct plot_cairo_calls {
#define PLOT_CAIRO_FIELD(name) __typeof__(&name) name;
    PLOT_CAIRO_CALLS(PLOT_CAIRO_FIELD)
#undef PLOT_CAIRO_FIELD
};
extern struct plot_cairo_calls plot_cairo;

/* Loads cairo once (any thread); 0, or -1 with the loader's reason in err. */
int plot_cairo_load(char *err, size_t errlen);

#ifndef PLOT_CAIRO_LOADER /* cairo_calls.c names the real ones */
#define cairo_arc                           (plot_cairo.cairo_arc)
#define cairo_clip                          (plot_cairo.cairo_clip)
#define cairo_close_path                    (plot_cairo.cairo_close_path)
#define cairo_create                        (plot_cairo.cairo_create)
#define cairo_destroy                       (plot_cairo.cairo_destroy)
#define cairo_fill                          (plot_cairo.cairo_fill)
#define cairo_fill_preserve                 (plot_cairo.cairo_fill_preserve)
#define cairo_image_surface_create          (plot_cairo.cairo_image_surface_create)
#define cairo_line_to                       (plot_cairo.cairo_line_to)
#define cairo_move_to                       (plot_cairo.cairo_move_to)
#define cairo_paint                         (plot_cairo.cairo_paint)
#define cairo_rectangle                     (plot_cairo.cairo_rectangle)
#define cairo_restore                       (plot_cairo.cairo_restore)
#define cairo_rotate                        (plot_cairo.cairo_rotate)
#define cairo_save                          (plot_cairo.cairo_save)
#define cairo_select_font_face              (plot_cairo.cairo_select_font_face)
#define cairo_set_dash                      (plot_cairo.cairo_set_dash)
#define cairo_set_font_size                 (plot_cairo.cairo_set_font_size)
#define cairo_set_line_width                (plot_cairo.cairo_set_line_width)
#define cairo_set_source_rgb                (plot_cairo.cairo_set_source_rgb)
#define cairo_set_source_rgba               (plot_cairo.cairo_set_source_rgba)
#define cairo_show_text                     (plot_cairo.cairo_show_text)
#define cairo_status_to_string              (plot_cairo.cairo_status_to_string)
#define cairo_stroke                        (plot_cairo.cairo_stroke)
#define cairo_surface_destroy               (plot_cairo.cairo_surface_destroy)
#define cairo_surface_finish                (plot_cairo.cairo_surface_finish)
#define cairo_surface_status                (plot_cairo.cairo_surface_status)
#define cairo_surface_write_to_png_stream   (plot_cairo.cairo_surface_write_to_png_stream)
#define cairo_svg_surface_create_for_stream (plot_cairo.cairo_svg_surface_create_for_stream)
#define cairo_text_extents                  (plot_cairo.cairo_text_extents)
#define cairo_translate                     (plot_cairo.cairo_translate)
#define cairo_user_to_device                (plot_cairo.cairo_user_to_device)
#endif

#endif
