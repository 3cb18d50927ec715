return {name = "x", particles = 1, cost = 1, halo = {x = 1},
  halo_period = function(ctx) return 0 end}
