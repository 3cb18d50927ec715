return {name = "x", particles = 1, halo = {x = 1},
  cost = function(ctx) return ctx.region * 1e-9 end}
