return {name = "x", cost = function(ctx) return -1 end}
