-- scripts/lua/examples/simulations/jacobi2d.lua: a simulation profile. A 2D Jacobi solver on a
-- periodic n x n grid of doubles, cut into tiles, with a halo `ghost` cells deep exchanged
-- every `ghost` iterations (a deep halo trades bytes for fewer exchanges).
-- situ model --simulation scripts/lua/examples/simulations/jacobi2d.lua --nodes 4 --ghost 2
return {
  name = "jacobi2d",
  description = "2D Jacobi, periodic, tiles, a halo ghost cells deep every ghost iterations",
  params = {  -- each becomes a flag (--n, --ghost), a slider, a JSON key and a ctx field
    { name = "n", default = 8192, min = 64, max = 1e6, unit = "cells",
      help = "grid points per side" },
    { name = "ghost", default = 1, min = 1, max = 16, unit = "cells", scale = "linear",
      help = "halo depth, and iterations between two exchanges" },
    { name = "point_cost", default = 3e-9, min = 1e-12, max = 1e-3, unit = "s/cell/it",
      help = "seconds per grid point per iteration on a reference core" },
  },
  decomposition = { dims = 2, periodic = true },
  particles = function(ctx) return ctx.n * ctx.n end,    -- what the analytics count
  cost = function(ctx)   -- reference-core seconds, one iteration of one rank
    return ctx.n * ctx.n / ctx.sim_cores * ctx.point_cost
  end,
  halo = function(ctx)   -- bytes of one message across a face perpendicular to x, y
    local g = math.floor(ctx.ghost)
    return { x = g * ctx.n / ctx.py * 8, y = g * ctx.n / ctx.px * 8 }
  end,
  halo_period = function(ctx) return math.floor(ctx.ghost) end,
  state = function(ctx) return ctx.n * ctx.n / ctx.sim_cores * 8 end,  -- a tile of doubles
}
