-- thermo: the paper's ExaMiniMD analytics (temperature, potential and kinetic energy every
-- `stride` iterations), as Situ's built-in computes it. Selecting it with --analytics thermo
-- gives exactly the built-in's numbers: the same arithmetic in the same order.
return {
  name = "thermo",
  description = "ExaMiniMD thermo: analytics_cost s and data_size B per particle (the paper)",
  -- Reference-core seconds for one analysis of every particle.
  cost = function(ctx)
    return ctx.particles * ctx.analytics_cost * ctx.compute_scaling
  end,
  -- Bytes the simulation sends the analytics for one analysis, in total.
  bytes = function(ctx)
    return ctx.particles * ctx.data_size * ctx.data_scaling
  end,
  -- The metrics are summed by the metric collector: no exchange among the analytics actors.
  exchange = function(ctx)
    return { pattern = "none", bytes = 0 }
  end,
}
