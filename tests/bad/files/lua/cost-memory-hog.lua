return {name = "x", cost = function(ctx) local t = {} for i = 1, 1e9 do t[i] = i end end}
