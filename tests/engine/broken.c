/* An MPI application that goes wrong on purpose, for the engine tests: `broken crash` dereferences
 * NULL after its first put, `broken hang` spins forever without calling MPI, `broken uneven`
 * puts more states on rank 0 than on the others. */
#include <mpi.h>
#include <string.h>

#include "situ_dtl.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm comm;
    if (!situ_dtl_init(&comm)) {
        MPI_Finalize();
        return 0;
    }
    int rank;
    MPI_Comm_rank(comm, &rank);
    const char *mode = argc > 1 ? argv[1] : "";
    situ_dtl_put(NULL, 1000);
    if (!strcmp(mode, "crash") && rank == 1)
        *(volatile int *)0 = 1;
    if (!strcmp(mode, "hang") && rank == 1)
        for (volatile long spin = 0;; spin++)
            ;
    if (!strcmp(mode, "uneven") && rank == 0)
        situ_dtl_put(NULL, 1000);
    situ_dtl_finalize();
    MPI_Finalize();
    return 0;
}
