return {name = "x", particles = 1, halo = {x = 1}, cost = 1,
  params = {{name = "width", default = 5, min = 0, max = 2}}}
