/* Every file Situ writes goes through here, so that it is complete or absent: a temporary beside
 * the destination (O_EXCL), every write checked, fsync, then rename over the destination. On any
 * failure the temporary is removed and the caller gets one line naming the file and strerror.
 * Standard output goes through the same calls (no temporary, but the same checks). */
#ifndef SITU_OUTFILE_H
#define SITU_OUTFILE_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define OUTFILE_ERR_MAX (2 * PATH_MAX + 64)

struct outfile {
    FILE *f;             /* where to write: the temporary, or stdout */
    char path[PATH_MAX]; /* the destination; "" for stdout */
    char tmp[PATH_MAX];  /* the temporary beside it */
    int error;           /* errno of the first failed outfile_write; 0: none */
    sigset_t saved;      /* the signal mask before open: TERM, INT, HUP wait until commit */
};

/* Checks a destination before any work is done, without following or deleting anything of the
 * user's: its directory must exist and be writable (a probe file is created in it and removed:
 * a read-only mount, /sys, pass access() but not this), and the path must be absent or a regular
 * file (a symbolic link or a directory there is refused: renaming over it would replace the
 * user's link). -1 with "PATH: reason". */
int outfile_check(const char *path, char *err, size_t errlen);

/* The same for a directory to write files in (advise and reproduce --out): an existing
 * directory we may write in, where each of names (NULL-terminated; NULL: none) passes
 * outfile_check, or an absent one whose parent we may create it in; never a symbolic link to
 * nowhere. Nothing is left behind here (the probe is a directory, removed). */
int outfile_check_dir(const char *dir, const char *const *names, char *err, size_t errlen);

/* Starts writing `path` (NULL: standard output). -1 with "PATH: cannot write: strerror".
 * Until the commit or the abort, TERM, INT and HUP are held back: a signal then ends the process
 * after the file is whole or gone, never with a temporary left behind. */
int outfile_open(struct outfile *o, const char *path, char *err, size_t errlen);

/* Blocks TERM, INT and HUP, the previous mask into *saved, while a temporary file or set exists:
 * a signal then ends the process only after the write has been committed or removed. */
void outfile_hold_signals(sigset_t *saved);

/* fwrite that keeps the errno of the first failure for the commit's message: a large write
 * bypasses the buffer and fails at once, and the flush at commit would then have nothing to
 * report but the error flag. -1 on failure. */
int outfile_write(struct outfile *o, const void *data, size_t len);

/* Flushes, checks for any earlier write error, fsyncs, closes and renames into place. On failure
 * nothing is left at the destination nor beside it: -1 with "PATH: cannot write: strerror". */
int outfile_commit(struct outfile *o, char *err, size_t errlen);

/* Gives up: the temporary is closed and removed; the destination is untouched. */
void outfile_abort(struct outfile *o);

/* A set of files written whole or not at all (advise and reproduce --out DIR, the explorer's
 * export): each file of the set is written (outfile_open, chart_write...) at outset_path, in a
 * temporary directory, and outset_commit moves them all into DIR at once, creating it if absent.
 * On any failure DIR is as it was (outset.c says how) and the temporary directory is gone. Files
 * of DIR not in the set are kept. TERM, INT and HUP wait from open to commit or abort. */
struct outset {
    char dir[PATH_MAX]; /* the destination, trailing slashes dropped */
    char tmp[PATH_MAX]; /* the temporary directory; "" once gone */
    bool fresh;         /* dir was absent: tmp is renamed to it */
    sigset_t saved;
};
/* -1 with "DIR: cannot write: strerror". */
int outset_open(struct outset *s, const char *dir, char *err, size_t errlen);
/* Where to write the set's file `name` (a bare name): in buf, returned. */
const char *outset_path(const struct outset *s, const char *name, char *buf, size_t len);
/* Moves every file written into place: -1 with "PATH: cannot write: strerror", DIR unchanged. */
int outset_commit(struct outset *s, char *err, size_t errlen);
/* Gives up: the files written so far go; DIR is untouched. */
void outset_abort(struct outset *s);
/* outset_abort after a failed write whose message err names the temporary directory: err then
 * names the file in DIR instead. */
void outset_fail(struct outset *s, char *err, size_t errlen);

/* At exit: flushes and closes standard output, checking it (a full disk, /dev/full, a closed
 * pipe). -1 with "standard output: strerror" when something written there was lost. */
int outfile_close_stdout(char *err, size_t errlen);

#endif
