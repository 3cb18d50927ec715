return {name = "x", particles = 1, halo = {x = 1},
  cost = function(ctx) if ctx.step == 2 then error("refinement failed") end return 1 end}
