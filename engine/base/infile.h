/* Every file of the user's that Situ reads opens here (logs, CSVs, presets, hostfiles, platforms,
 * Lua files, results), so that each refuses alike what it cannot read: fopen takes a directory
 * and reads it as an empty file (a student silently missing from a report), a FIFO blocks the
 * open until someone writes to it, and /dev/zero is one endless line that getline grows to
 * gigabytes before failing. So a file is opened without blocking, must be a regular file (and
 * under a size bound when it is read whole), and its lines are read with a bound. Every refusal
 * is one line naming the file: "PATH: cannot read WHAT: a directory, not a regular file". */
#ifndef SITU_INFILE_H
#define SITU_INFILE_H

#include <limits.h>
#include <stdio.h>
#include <sys/types.h>

#define INFILE_ERR_MAX (PATH_MAX + 192)

/* The longest line a line-based reader takes (a log's, a CSV's, a result's): no line of
 * what Situ reads is near it, and it bounds the memory an endless line can take. */
#define INFILE_LINE_MAX (1L << 20)

/* Opens path for reading: a regular file of at most max_bytes (0: any size, for readers that
 * stream it a bounded line at a time). NULL with err "PATH: cannot read WHAT: reason" (WHAT says
 * what the file was to be: "LAMMPS log", "preset"). The descriptor is close-on-exec. */
FILE *infile_open(const char *path, const char *what, off_t max_bytes, char *err, size_t errlen);

/* The same check, the file closed again: for files another reader opens by name (Lua's loader,
 * SimGrid's). 0, or -1 with err. */
int infile_check(const char *path, const char *what, off_t max_bytes, char *err, size_t errlen);

/* The whole file (regular, at most max_bytes), NUL-terminated in *buf (malloc'd, the caller
 * frees it), its length in *len. -1 with err (nothing to free). */
int infile_read(const char *path, const char *what, size_t max_bytes, char **buf, size_t *len,
                char *err, size_t errlen);

/* One line of f into *line (grown as getline grows it, *cap its size), its '\n' kept, a NUL
 * after it: its length; -1 at the end of the file or on a read error (ferror says which); -2
 * when the line is longer than max bytes (the caller stops: the rest of it is unread). */
long infile_line(FILE *f, char **line, size_t *cap, size_t max);

#endif
