return {name = "x", particles = 1, halo = {x = 1}, cost = 1,
  params = {{name = "Width", default = 1, min = 0, max = 2}}}
