return {name = "x", bytes = function(ctx) return "lots" end}
