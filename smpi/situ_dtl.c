/* The situ_dtl API (situ_dtl.h) over the engine's rank steps (sim_rank_collect, _put_state,
 * _poison): an application's rank is a simulation group whose compute and halos are its own. */
#include "situ_dtl.h"

#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/model/model_reduce.h"
#include "runtime.h"

/* Per application rank; one address space for all ranks (runtime.h). */
struct app_rank {
    long puts;    /* analysis points so far */
    bool pending; /* metrics of the last put not yet back */
    double mark;  /* simulated date of the end of the last call: compute since is active */
};
static struct app_rank *ranks;

/* The caller's rank; `call` names the situ_dtl call in the reason when there is none. */
static struct sim_group *self(struct app_rank **r, const char *call)
{
    struct engine *e = situ_smpi_engine();
    struct sim_group *g = sg_actor_self_get_data();
    if (!g)
        situ_smpi_die("%s before situ_dtl_init: call situ_dtl_init first, and %s only on the "
                      "ranks it returned 1 to",
                      call, call);
    if (!ranks && !(ranks = calloc(e->nsims, sizeof *ranks)))
        situ_smpi_die("out of memory");
    *r = &ranks[g - e->sims];
    if (g->done && strcmp(call, "situ_dtl_finalize"))
        situ_smpi_die("%s after situ_dtl_finalize: finalize ends the rank's part in the workflow",
                      call);
    return g;
}

int situ_dtl_init(MPI_Comm *comm)
{
    if (sg_actor_self_get_data()) /* joined already: a second join would take another place */
        situ_smpi_die("situ_dtl_init: called a second time on this rank; call it once");
    struct sim_group *g;
    int rank, role = situ_smpi_join(true, &g);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_split(MPI_COMM_WORLD, role == SITU_ROLE_SIM ? 0 : MPI_UNDEFINED, rank, comm);
    if (role == SITU_ROLE_SIM) {
        struct app_rank *r;
        self(&r, "situ_dtl_init");
        r->mark = simgrid_get_clock();
        return 1;
    }
    situ_smpi_play(role);
    situ_smpi_leave();
    return 0;
}

/* Time since the last call was the rank's own work: active in the step it leads to. */
static void account(struct sim_group *g, struct app_rank *r)
{
    double t = simgrid_get_clock();
    if (r->puts < situ_smpi_engine()->steps)
        g->active[r->puts] += t - r->mark;
    else
        g->tail_active += t - r->mark;
}

void situ_dtl_put(const void *state, size_t bytes)
{
    (void)state; /* simulated: only its size travels */
    struct app_rank *r;
    struct sim_group *g = self(&r, "situ_dtl_put");
    struct engine *e = situ_smpi_engine();
    if (r->puts >= e->steps)
        situ_smpi_die("situ_dtl_put: more than the %ld analysis points of --iterations %ld / "
                      "--stride %ld",
                      e->steps, e->p.iterations, e->p.stride);
    account(g, r);
    if (e->l.inline_ranks) { /* the rank analyses its state here, nothing travels */
        sim_rank_analyse_inline(g, r->puts++);
        r->mark = simgrid_get_clock();
        return;
    }
    /* Reduction (model_reduce.h) of the application's own state: its elements are reduced,
     * fewer of its bytes move. The analytics restores Situ's state size (its cost per state). */
    int dims = layout_shape().dims;
    sim_rank_reduce(g, r->puts, reduce_put_cost(&e->p, dims, (double)bytes) * REFERENCE_SPEED);
    if (r->pending)
        sim_rank_collect(g, r->puts);
    sim_rank_put_state(g, r->puts, (double)bytes * reduce_kept(&e->p, dims));
    r->puts++;
    r->pending = true;
    r->mark = simgrid_get_clock();
}

void situ_dtl_wait(void)
{
    struct app_rank *r;
    struct sim_group *g = self(&r, "situ_dtl_wait");
    if (!r->pending)
        return;
    account(g, r);
    sim_rank_collect(g, r->puts - 1);
    r->pending = false;
    r->mark = simgrid_get_clock();
}

void situ_dtl_finalize(void)
{
    struct app_rank *r;
    struct sim_group *g = self(&r, "situ_dtl_finalize");
    if (g->done)
        return;
    situ_dtl_wait();
    account(g, r);
    struct engine *e = situ_smpi_engine();
    /* Situ's side counts on them (the postmen send every step's metrics): all, or none. */
    if (r->puts != e->steps)
        situ_smpi_die("situ_dtl_finalize: rank %ld put %ld states; --iterations %ld / --stride "
                      "%ld make %ld",
                      (long)(g - e->sims), r->puts, e->p.iterations, e->p.stride, e->steps);
    sim_rank_poison(g);
    situ_smpi_leave();
}

/* MPI_Abort, through MPI's profiling interface (SMPI's own is PMPI_Abort): SMPI kills the
 * aborting rank without a word of its error code, and the others then wait for it forever (a
 * "deadlock"). The code is the reason: said, and the whole run ends at once. */
int MPI_Abort(MPI_Comm comm, int errorcode)
{
    int rank = -1, size = 0;
    if (comm == MPI_COMM_NULL || MPI_Comm_rank(comm, &rank) != MPI_SUCCESS ||
        MPI_Comm_size(comm, &size) != MPI_SUCCESS)
        MPI_Comm_rank(MPI_COMM_WORLD, &rank), MPI_Comm_size(MPI_COMM_WORLD, &size);
    situ_smpi_die("MPI_Abort with error code %d, on rank %d of %d", errorcode, rank, size);
}
