return {name = "x", particles = 1, halo = {x = 1},
  cost = function(ctx) return ctx.step % 3 == 2 and 0/0 or 1e-6 end}
