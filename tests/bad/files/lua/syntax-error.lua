return {name = "broken",
