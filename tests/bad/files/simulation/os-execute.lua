return {name = "x", particles = 1, halo = {x = 1},
  cost = function(ctx) os.execute("true") return 1 end}
