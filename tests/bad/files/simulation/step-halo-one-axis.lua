return {name = "x", particles = 1, cost = 1e-6, decomposition = {dims = 2},
  halo = function(ctx) return {x = 8, y = ctx.step % 2 == 1 and 64 or 8} end}
