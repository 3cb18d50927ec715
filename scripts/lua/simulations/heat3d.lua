-- heat3d: a 3D heat equation, a 7-point Jacobi stencil on a cells^3 grid cut into slabs, each
-- rank exchanging one plane of doubles with each of its two neighbours every iteration: the
-- workload of the SMPI example scripts/smpi/stencil.c (whose ring of slabs wraps around).
return {
  name = "heat3d",
  description = "3D heat equation, 7-point stencil, slabs, one plane of halo per iteration",
  params = {
    { name = "cells", default = 256, min = 8, max = 8192, unit = "cells",
      help = "grid points per side of the cube (cells^3 in all)" },
    { name = "cell_cost", default = 2e-9, min = 1e-12, max = 1e-3, unit = "s/cell/it",
      help = "seconds per grid point per iteration on a reference core (8 flops and the loads)" },
  },
  -- Slabs along one axis, in a ring, as the example's ranks (up = rank + 1 mod size).
  decomposition = { dims = 1, periodic = true },
  -- The grid points: what the analytics count (their ctx.particles).
  particles = function(ctx) return ctx.cells ^ 3 end,
  cost = function(ctx) return ctx.cells ^ 3 / ctx.sim_cores * ctx.cell_cost end,
  -- One plane of cells^2 doubles to each neighbour; nothing across the other axes.
  halo = function(ctx) return { x = ctx.cells ^ 2 * 8 } end,
  halo_period = 1,
  -- A rank's slab of doubles.
  state = function(ctx) return ctx.cells ^ 3 / ctx.sim_cores * 8 end,
}
