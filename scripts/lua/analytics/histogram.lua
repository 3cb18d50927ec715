-- histogram: a radial distribution function g(r), heavier than thermo. Every analysis visits
-- each particle's neighbours within the cutoff (about 12 per particle in an LJ melt at 2.5
-- sigma, so 12 times thermo's cost per particle), and the actors' partial histograms are then
-- summed with an allreduce of 2048 bins of 8 bytes. The states are the same as thermo's.
local BINS = 2048

return {
  name = "histogram",
  description = "radial distribution function: 12x thermo's cost, allreduce of 2048 bins",
  cost = function(ctx)
    return ctx.particles * ctx.analytics_cost * 12 * ctx.compute_scaling
  end,
  bytes = function(ctx)
    return ctx.particles * ctx.data_size * ctx.data_scaling
  end,
  exchange = function(ctx)
    return { pattern = "allreduce", bytes = BINS * 8 }
  end,
}
