/* A child process of ours between fork() and exec(): the one place that prepares it (the
 * simulations' children, the digest's). And the rule for the fork itself: a process that may
 * have threads forks only to exec; a copy that goes on running our code is made only while the
 * process has one thread (child_threads), because after a fork only the forking thread exists
 * in the copy, and any lock another thread held then (the allocator's, stdio's, libuv's) stays
 * held in it for ever. */
#ifndef SITU_CHILD_H
#define SITU_CHILD_H

#include <sys/types.h>

/* In the forked child: async-signal-safe calls only (the parent may have threads). Its own
 * process group, so that one kill(-pid) takes whatever it starts; default signal dispositions
 * and mask, but a TERM, INT, HUP or PIPE the parent ignored stays ignored (nohup); death with
 * the parent, even a SIGKILLed one (then getppid() is no longer it if it died before prctl);
 * stdin from `in` (/dev/null when -1), stdout and stderr on `out` and `err`, which must be
 * above 2, and no other descriptor of ours. Exits 3 when any of it fails. */
void child_setup(pid_t parent, int in, int out, int err);

/* Starts argv[0] (a path) with argv, and the same setup as child_setup but for the death with
 * the parent, which the program asks for itself (child_die_with): posix_spawn, which runs no
 * pthread_atfork handler (a library's, such as libuv's, that closes descriptors it believes
 * are its own) and is made for processes with threads. 0 with *pid, or -1 with errno. */
int child_spawn(char *const argv[], int in, int out, int err, pid_t *pid);

/* In a program child_spawn started: dies with `parent` (PDEATHSIG), and now if it is gone
 * already. */
void child_die_with(pid_t parent);

/* How many threads this process has now (/proc/self/task); 0 when it cannot tell, which callers
 * take as "several". Only the calling thread can make it grow between this call and a fork, so
 * 1 means a fork copies the whole process. */
int child_threads(void);

/* Moves a pipe end to a descriptor above 2 (close-on-exec), so that child_setup's dup2 onto
 * 0, 1 and 2 cannot close another of them: a caller whose own stdout is closed gets 1 from
 * pipe(). Returns the descriptor, or -1 (fd closed). */
int child_fd_above_std(int fd);

#endif
