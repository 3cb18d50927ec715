return {name = "x", particles = 1, cost = 1,
  halo = function(ctx) return {w = 1} end}
