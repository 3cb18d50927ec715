return {name = "x", exchange = function(ctx) return {pattern = "broadcast", bytes = 8} end}
