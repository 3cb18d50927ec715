-- amr3d: heat3d's stencil with adaptive mesh refinement. Every `refine_every` analysis steps
-- the mesh is refined around a moving front for one step: its ranks then compute `refine_cost`
-- times as much per iteration, and each face doubles its points along both of its sides (4x
-- the halo bytes), so the halos of that step grow alike on every axis. The profile reads
-- ctx.step, so Situ evaluates it once per step and groups equal steps into classes (the model
-- sums over them; fast, full and SMPI run each step with its own costs).
return {
  name = "amr3d",
  description = "3D stencil with a refined step every refine_every analyses (ctx.step)",
  params = {
    { name = "cells", default = 256, min = 8, max = 8192, unit = "cells",
      help = "grid points per side of the cube (cells^3 in all)" },
    { name = "cell_cost", default = 2e-9, min = 1e-12, max = 1e-3, unit = "s/cell/it",
      help = "seconds per grid point per iteration on a reference core" },
    { name = "refine_every", default = 5, min = 1, max = 10000, unit = "steps",
      help = "analysis steps between two refined ones (1: every step refined)" },
    { name = "refine_cost", default = 3, min = 1, max = 100, unit = "x",
      help = "compute per iteration of a refined step, over an ordinary step's" },
  },
  decomposition = { dims = 3, periodic = true },
  particles = function(ctx) return ctx.cells ^ 3 end,
  cost = function(ctx)
    local base = ctx.cells ^ 3 / ctx.sim_cores * ctx.cell_cost
    if (ctx.step + 1) % ctx.refine_every == 0 then return base * ctx.refine_cost end
    return base
  end,
  -- One layer of doubles across each face of a rank's block (px x py x pz blocks); a refined
  -- step has twice the points along each side of a face.
  halo = function(ctx)
    local n = ctx.cells
    local f = (ctx.step + 1) % ctx.refine_every == 0 and 4 or 1
    return { x = f * 8 * (n / ctx.py) * (n / ctx.pz), y = f * 8 * (n / ctx.px) * (n / ctx.pz),
             z = f * 8 * (n / ctx.px) * (n / ctx.py) }
  end,
  halo_period = 1,
  state = function(ctx) return ctx.cells ^ 3 / ctx.sim_cores * 8 end,
}
