#include "simprofile.h"

#include <math.h>

#include "layout.h"

void simprofile_melt(const struct params *p, const struct layout *l, struct sim_profile *out)
{
    out->particles = layout_particles(p);
    /* The model and the engine computed (particles / ranks) * sim_cost: kept in that order, so
     * the built-in's numbers do not move by a rounding. */
    double per_rank = out->particles / l->sim_cores;
    out->cost = per_rank * p->sim_cost;
    for (int d = 0; d < 3; d++)
        out->face[d] = layout_face_bytes(p, l, d);
    out->halo_period = p->halo_period;
    out->state_bytes = per_rank * p->data_size * p->data_scaling;
}

bool simprofile_valid(const struct sim_profile *s)
{
    bool ok = isfinite(s->particles) && s->particles >= 0 && isfinite(s->cost) && s->cost >= 0 &&
              isfinite(s->state_bytes) && s->state_bytes >= 0 && s->halo_period >= 1;
    for (int d = 0; d < 3; d++)
        ok = ok && isfinite(s->face[d]) && s->face[d] >= 0;
    return ok;
}
