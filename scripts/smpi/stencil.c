/* A 3D heat equation (7-point Jacobi stencil) on an N^3 grid, slabs along z, coupled in situ to
 * Situ's analytics through situ_dtl: every STRIDE steps each rank puts its slab.
 *
 *   usage: stencil N STEPS STRIDE
 *   situ run --smpi-app build/stencil 48 40 10 --iterations 40 --stride 10 --nodes 2 ...
 *
 * The kernel computes for real; SMPI_SAMPLE_LOCAL runs it for real 3 times per rank (the
 * threshold never asks for more) and then injects their mean time, so a long run simulates
 * quickly. Prints the heat left in the domain as a check: the sweeps and the halos conserve it
 * until it reaches the cold faces x, y = 0, N-1. */
#include <mpi.h>
#include <smpi/smpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "situ_dtl.h"

#define AT(x, y, z) ((size_t)(z)*n * n + (size_t)(y)*n + (size_t)(x))

static int n;

static void sweep(const double *u, double *v, int planes)
{
    for (int z = 1; z <= planes; z++)
        for (int y = 1; y < n - 1; y++)
            for (int x = 1; x < n - 1; x++)
                v[AT(x, y, z)] = u[AT(x, y, z)] + 0.1 * (u[AT(x - 1, y, z)] + u[AT(x + 1, y, z)] +
                                                         u[AT(x, y - 1, z)] + u[AT(x, y + 1, z)] +
                                                         u[AT(x, y, z - 1)] + u[AT(x, y, z + 1)] -
                                                         6 * u[AT(x, y, z)]);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm comm;
    if (!situ_dtl_init(&comm)) { /* one of Situ's own processes: its part is done */
        MPI_Finalize();
        return 0;
    }
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    n = argc > 1 ? atoi(argv[1]) : 0;
    int steps = argc > 2 ? atoi(argv[2]) : 0, stride = argc > 3 ? atoi(argv[3]) : 0;
    if (argc != 4 || n < 3 || steps < 1 || stride < 1 || n % size) {
        if (rank == 0)
            fprintf(stderr, "usage: stencil N STEPS STRIDE (N >= 3 a multiple of %d ranks)\n",
                    size);
        MPI_Abort(comm, 2);
    }
    int planes = n / size, up = (rank + 1) % size, down = (rank + size - 1) % size;
    size_t cells = (size_t)n * n * (planes + 2), plane = (size_t)n * n;
    double *u = calloc(cells, sizeof *u), *v = calloc(cells, sizeof *v);
    if (!u || !v)
        MPI_Abort(comm, 1);
    for (int z = 1; z <= planes; z++) /* a hot cube in the middle */
        for (int y = n / 4; y < 3 * n / 4 && abs(2 * (rank * planes + z - 1) + 1 - n) < n / 2; y++)
            for (int x = n / 4; x < 3 * n / 4; x++)
                u[AT(x, y, z)] = 1;
    for (int step = 1; step <= steps; step++) {
        /* Halos: the first and last planes of the slab, with the neighbours along z. */
        MPI_Sendrecv(u + planes * plane, (int)plane, MPI_DOUBLE, up, 0, u, (int)plane, MPI_DOUBLE,
                     down, 0, comm, MPI_STATUS_IGNORE);
        MPI_Sendrecv(u + plane, (int)plane, MPI_DOUBLE, down, 1, u + (planes + 1) * plane,
                     (int)plane, MPI_DOUBLE, up, 1, comm, MPI_STATUS_IGNORE);
        SMPI_SAMPLE_LOCAL(int once = 0, once < 1, once++, 3, 1e9)
        {
            sweep(u, v, planes);
            double *t = u;
            u = v;
            v = t;
        }
        if (step % stride == 0)
            situ_dtl_put(u + plane, planes * plane * sizeof *u);
    }
    situ_dtl_finalize();
    double heat = 0, total = 0;
    for (size_t i = plane; i < (planes + 1) * plane; i++)
        heat += u[i];
    MPI_Reduce(&heat, &total, 1, MPI_DOUBLE, MPI_SUM, 0, comm);
    if (rank == 0)
        printf("stencil: %d^3 cells, %d ranks, %d steps, heat left %.6f of %.0f\n", n, size, steps,
               total, (double)(n / 2) * (n / 2) * (n / 2));
    free(u);
    free(v);
    MPI_Comm_free(&comm);
    MPI_Finalize();
    return 0;
}
