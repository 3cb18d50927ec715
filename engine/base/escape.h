/* Text that came from a file (a student's id in a lesson log, a lesson's name), shown on the
 * terminal or in a text report: its escape sequences must not reach the terminal (they can
 * clear the screen, retitle the window, hide a line), and two texts that differ must still
 * look different there. */
#ifndef SITU_ESCAPE_H
#define SITU_ESCAPE_H

/* text with what would drive the terminal or break the line written as visible escapes: the
 * C0 controls and DEL ("\e", "\n", "\t", "\x01"), the C1 controls (U+0080 to U+009F, "\u009b"),
 * and bytes that are not UTF-8 ("\xff", a lone 0x9b is CSI on an 8-bit terminal); a backslash
 * doubled, so that "\e" typed and ESC itself stay apart. Valid UTF-8 text ("José") is kept.
 * Whole, however long (malloc'd: the caller frees it); NULL when out of memory. */
char *escape_visible(const char *text);

#endif
