return {name = "x", cost = function(ctx) error("cost failed") end}
