return {cost = function(ctx) return 1 end}
