/* The explorer's themes: the default (a dark background), high contrast (for a projector: nothing
 * dim, bright axes and text) and light (a light background: darker colours, nothing dim). Chosen
 * with --theme, SITU_THEME or T; P (presentation) switches high contrast on from the default.
 * No curses here: the app's state names them, the screen draws them. */
#ifndef SITU_TUI_THEME_H
#define SITU_TUI_THEME_H

enum screen_theme { THEME_DARK, THEME_CONTRAST, THEME_LIGHT, THEME_COUNT };

/* "dark", "contrast", "light", in the enum's order, NULL-terminated. */
extern const char *const theme_names[THEME_COUNT + 1];

/* The theme a name gives, -1 if none. */
int theme_find(const char *name);

#endif
