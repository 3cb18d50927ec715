/* An MPI application that goes wrong on purpose, for the engine tests, by its first argument:
 *   crash   rank 1 dereferences NULL after its first put
 *   hang    rank 1 spins forever without calling MPI
 *   uneven  rank 0 puts one state more than the others
 *   early   a put before situ_dtl_init
 *   twice   situ_dtl_init called twice
 *   late    a put after situ_dtl_finalize
 *   nofinal MPI_Finalize without situ_dtl_finalize
 *   args    rank 0 prints each argument in hex, one per line ("arg I HEX")
 *   binary  rank 0 prints bytes that are not UTF-8 (and a NUL)
 *   flood   rank 0 prints 65535 'x', then U+00E9 across the 64 KiB mark, then 10000 'y'
 *   abort   rank 1 calls MPI_Abort(comm, 7) after its first put
 *   fork    rank 0 forks a process that waits forever, and one that leaves its group (setsid),
 *           then goes on; "fork hang" then spins as hang does
 * Every rank puts one state (rank 0 two if uneven): run it with --iterations equal to --stride,
 * or twice that to make situ_dtl_finalize find too few. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "situ_dtl.h"

static void linger(void)
{
    for (;;)
        pause();
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    const char *mode = argc > 1 ? argv[1] : "";
    if (!strcmp(mode, "early"))
        situ_dtl_put(NULL, 1000);
    MPI_Comm comm;
    if (!situ_dtl_init(&comm)) {
        MPI_Finalize();
        return 0;
    }
    if (!strcmp(mode, "twice"))
        situ_dtl_init(&comm);
    int rank;
    MPI_Comm_rank(comm, &rank);
    if (rank == 0 && !strcmp(mode, "args"))
        for (int i = 0; i < argc; i++) {
            printf("arg %d ", i);
            for (const unsigned char *c = (const unsigned char *)argv[i]; *c; c++)
                printf("%02x", *c);
            printf("\n");
        }
    if (rank == 0 && !strcmp(mode, "binary")) {
        static const char bytes[] = "ok \xff\xfe \xc3\xa9 \xed\xa0\x80 \0 end\n";
        fwrite(bytes, 1, sizeof bytes - 1, stdout);
    }
    if (rank == 0 && !strcmp(mode, "flood")) {
        for (int i = 0; i < 65535; i++)
            putchar('x');
        fputs("\xc3\xa9", stdout);
        for (int i = 0; i < 10000; i++)
            putchar('y');
    }
    if (rank == 0 && !strcmp(mode, "fork")) {
        fflush(stdout);
        if (fork() == 0)
            linger();
        if (fork() == 0) {
            if (fork() == 0) {
                setsid();
                linger();
            }
            _exit(0);
        }
    }
    situ_dtl_put(NULL, 1000);
    if (!strcmp(mode, "crash") && rank == 1)
        *(volatile int *)0 = 1;
    if (!strcmp(mode, "abort") && rank == 1)
        MPI_Abort(comm, 7);
    if ((!strcmp(mode, "hang") || (argc > 2 && !strcmp(argv[2], "hang"))) && rank == 1)
        for (volatile long spin = 0;; spin++)
            ;
    if (!strcmp(mode, "uneven") && rank == 0)
        situ_dtl_put(NULL, 1000);
    if (strcmp(mode, "nofinal"))
        situ_dtl_finalize();
    if (!strcmp(mode, "late"))
        situ_dtl_put(NULL, 1000);
    MPI_Finalize();
    return 0;
}
