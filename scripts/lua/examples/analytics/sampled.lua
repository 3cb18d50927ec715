-- scripts/lua/examples/analytics/sampled.lua: a custom analytics. It analyses a 1-in-10 sample
-- of the particles with a kernel 5 times thermo's cost per particle, ships only the sample,
-- and sums 64-byte partial results with an allreduce.
-- situ model --analytics scripts/lua/examples/analytics/sampled.lua --nodes 4
return {
  name = "sampled",
  description = "a 10% sample, 5x thermo's cost per sampled particle",
  cost = function(ctx)   -- reference-core seconds, one analysis of the whole system
    return ctx.particles / 10 * ctx.analytics_cost * 5 * ctx.compute_scaling
  end,
  bytes = function(ctx)  -- bytes the simulation sends, one analysis in total
    return ctx.particles / 10 * ctx.data_size * ctx.data_scaling
  end,
  exchange = function(ctx)
    return { pattern = "allreduce", bytes = 64 }
  end,
}
