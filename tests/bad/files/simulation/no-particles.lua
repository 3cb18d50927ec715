return {name = "x", halo = {x = 1}, cost = 1}
