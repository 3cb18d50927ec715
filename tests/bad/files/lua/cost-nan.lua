return {name = "x", cost = function(ctx) return 0/0 end}
