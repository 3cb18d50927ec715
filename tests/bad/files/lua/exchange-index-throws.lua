return {name = "x", exchange = function(ctx) return setmetatable({}, {__index = function() error("boom") end}) end}
