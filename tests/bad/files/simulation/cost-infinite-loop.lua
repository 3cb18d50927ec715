return {name = "x", particles = 1, halo = {x = 1},
  cost = function(ctx) while true do end end}
