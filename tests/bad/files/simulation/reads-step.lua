return {name = "x", particles = 1, halo = {x = 1},
  cost = function(ctx) return ctx.step end}
