/* Times and sizes as Situ writes them for people: the one home of their units and precision,
 * for the tables (report.c), the explorer's cells (tui/) and the figures (cli/reproduce_*). */
#ifndef SITU_UNITS_H
#define SITU_UNITS_H

#include <stddef.h>

/* Seconds for a table: "0 s", "750 us", "1.23 ms", "45.28 s", "45278 s (12.58 h)". */
const char *units_time(double seconds, char *buf, size_t len);

/* Seconds in at most 7 cells: "750 ms", "1.23 s", "45278 s", "12.6 h"; "-" if not a time. */
const char *units_time_short(double seconds, char *buf, size_t len);

/* seconds in the unit units_time_short picks for ref (an axis' largest value): one unit per
 * axis ("252 h" over "9.09 h"). */
const char *units_time_as(double seconds, double ref, char *buf, size_t len);

/* Bytes in decimal units, three digits: "512 B", "1.37 MB", "2.1 TB". */
const char *units_bytes(double bytes, char *buf, size_t len);

#endif
