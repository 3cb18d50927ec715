return {name = "x", particles = 1, cost = 1, halo = {x = 1},
  state = function(ctx) return ctx.nosuch end}
