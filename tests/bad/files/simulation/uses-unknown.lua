return {name = "x", particles = 1, halo = {x = 1}, cost = 0, uses = {"region", "cells"}}
