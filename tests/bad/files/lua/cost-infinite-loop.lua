return {name = "x", cost = function(ctx) while true do end end}
