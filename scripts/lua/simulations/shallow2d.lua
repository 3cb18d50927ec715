-- shallow2d: a 2D shallow-water ocean basin (a closed box: walls, not periodic) on a side^2
-- grid cut into the most square px * py tiles. Its cost is not linear in the cells: a
-- second-order explicit flux update per cell, plus a semi-implicit free-surface solve whose
-- conjugate-gradient iterations grow with the grid's side (the Laplacian's condition number
-- grows as side^2, CG's iterations as its square root). Its halo is two cells wide (the
-- second-order reconstruction reads two neighbours) of three fields (h, hu, hv). The solver's
-- global reductions (a few allreduces per CG iteration) are not modelled.
return {
  name = "shallow2d",
  description = "2D shallow water, closed basin, 2-cell halo, semi-implicit solve ~ side",
  params = {
    { name = "side", default = 4096, min = 16, max = 65536, unit = "cells",
      help = "grid points per side of the basin (side^2 in all)" },
    { name = "flux_cost", default = 4e-8, min = 1e-12, max = 1e-3, unit = "s/cell/it",
      help = "seconds per cell per iteration of the explicit flux update, on a reference core" },
    { name = "solve_cost", default = 2e-11, min = 0, max = 1e-3, unit = "s/cell/it/side",
      help = "seconds per cell per iteration of the free-surface solve, per cell of side" },
  },
  decomposition = { dims = 2, periodic = false },
  particles = function(ctx) return ctx.side ^ 2 end,
  cost = function(ctx)
    local cells = ctx.side ^ 2 / ctx.sim_cores
    return cells * (ctx.flux_cost + ctx.solve_cost * ctx.side)
  end,
  -- A tile's edge, two cells deep, three doubles per cell.
  halo = function(ctx)
    return { x = 2 * (ctx.side / ctx.py) * 3 * 8, y = 2 * (ctx.side / ctx.px) * 3 * 8 }
  end,
  halo_period = 1,
  state = function(ctx) return ctx.side ^ 2 / ctx.sim_cores * 3 * 8 end,
}
