/* The processes of an SMPI run, and its temporary directory: whatever happens to Situ, every
 * process of the run dies and the directory goes.
 *
 * The simulation child (the caller) forks a warden, which forks smpimain. The warden leaves the
 * simulation child's process group (the runner SIGKILLs that group on a time limit, or when
 * situ gets TERM, INT or HUP) and becomes a child subreaper; smpimain leads a group of its own,
 * with everything the application forks, and dies with the warden (PR_SET_PDEATHSIG). The
 * warden watches two things: smpimain's end, and the end of a pipe only the simulation child
 * writes to, which comes when the caller is done or dead, even SIGKILLed (its own
 * PR_SET_PDEATHSIG takes it with situ). Either way it SIGKILLs smpimain's group, then each
 * process that still comes to it (an orphan that left the group, setsid), reaps them all, and
 * removes the directory once the caller is done with it. It keeps the caller's stdout and
 * stderr open, so that the runner, which waits for both to close, sees the child end only once
 * the warden has cleaned up. */
#ifndef SITU_SIM_SMPI_PROC_H
#define SITU_SIM_SMPI_PROC_H

#include <sys/types.h>

#include "../base/child.h"

/* smpimain's descriptor of the run's directory: SimGrid's --cfg values cannot hold a space or
 * a comma (it splits them there), so the hostfile and the temporary files are named through it. */
#define SIM_SMPI_DIR_FD   3
#define SIM_SMPI_DIR_PATH "/proc/self/fd/3"

struct sim_smpi_proc {
    struct child warden;
    int life;   /* write end: closed when the caller is done */
    int report; /* read end: smpimain's wait status, once everything of the run is dead */
};

/* Starts argv (argv[0] a path; no shell, no PATH search) under a warden that owns `dir`, with
 * stdout and stderr in dir/app.out and dir/app.err and `dir` open as SIM_SMPI_DIR_FD. From here
 * on the warden removes `dir`. Returns 0, or -1 with a reason (then `dir` is the caller's). */
int sim_smpi_proc_start(struct sim_smpi_proc *pr, const char *dir, char *const argv[], char *err,
                        size_t errlen);

/* Waits for the run's end, at most `seconds` (<= 0: no limit). 0: it ended, *status is
 * smpimain's wait status (or *status -1 and *start_errno why it could not start); -1: the time
 * ran out; -2: the warden died without a word. The directory is still there. */
int sim_smpi_proc_wait(struct sim_smpi_proc *pr, double seconds, int *status, int *start_errno);

/* Ends the run (kills whatever still runs) and waits until the warden has removed the
 * directory. */
void sim_smpi_proc_end(struct sim_smpi_proc *pr);

/* Removes a directory and everything in it (no symbolic link followed). */
void sim_smpi_proc_remove_dir(const char *dir);

/* `situ-sim __smpi-warden DIR -- APP [ARG ...]`: the warden, exec'd by sim_smpi_proc_start
 * (its stdin the life pipe, its stdout the report pipe, the caller's stdout at 3). */
int sim_smpi_warden_main(int argc, char **argv);

#endif
