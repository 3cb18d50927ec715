/* Situ's own workflow as an MPI program (fidelity=smpi): each process plays a simulation rank
 * (smpi_execute_flops, MPI halo exchanges), an analytics actor or the collector, as runtime.h
 * places it. Built with smpicc; situ runs it under SMPI (smpimain). */
#include <mpi.h>

#include "runtime.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    struct sim_group *g;
    situ_smpi_play(situ_smpi_join(false, &g));
    situ_smpi_leave();
    MPI_Finalize();
    return 0;
}
