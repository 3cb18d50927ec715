-- melt: the paper's ExaMiniMD Lennard-Jones melt, as Situ's built-in computes it (--simulation
-- melt gives exactly the built-in's numbers: the same arithmetic in the same order). It reads
-- the built-in parameters region, sim_cost and halo_period (its uses), and declares none of its
-- own.
return {
  name = "melt",
  uses = { "region", "sim_cost", "halo_period" },
  description = "ExaMiniMD LJ melt: 4 particles per FCC cell, region^3 cells, 3D periodic",
  -- Ranks cut the box into the most cubic px * py * pz bricks; the box wraps around.
  decomposition = { dims = 3, periodic = true },
  -- Particles of the whole box: what the analytics count (their ctx.particles).
  particles = function(ctx)
    local L = ctx.region * 1.0
    return 4 * L * L * L
  end,
  -- Reference-core seconds for one MD iteration of one rank: its particles times sim_cost.
  cost = function(ctx)
    local L = ctx.region * 1.0
    return 4 * L * L * L / ctx.sim_cores * ctx.sim_cost
  end,
  -- One halo message across a face: a ghost shell one cell thick, 4 particles per cell, 32 bytes
  -- per ghost particle (3 double positions, id and type).
  halo = function(ctx)
    local L = ctx.region * 1.0
    local sx, sy, sz = L / ctx.px, L / ctx.py, L / ctx.pz
    return { x = sy * sz * 4 * 32, y = sx * sz * 4 * 32, z = sx * sy * 4 * 32 }
  end,
  -- The neighbour lists are rebuilt, and the ghosts exchanged, every halo_period iterations.
  halo_period = function(ctx) return ctx.halo_period end,
  -- One rank's state for the analytics: data_size bytes per particle.
  state = function(ctx)
    local L = ctx.region * 1.0
    return 4 * L * L * L / ctx.sim_cores * ctx.data_size * ctx.data_scaling
  end,
}
