-- scatter: the analytics of the paper's Fig. 9, whose time grows with the number of nodes its
-- actors are scattered on. Think of a global density field: every actor bins its particles on
-- a G^3 grid, the actors allgather their partial grids, and every actor merges the grids of
-- the other nodes before computing on the whole field.
--
-- The law, per analysis, with P particles, K analytics cores on n analytics nodes (k per node):
--   cost     = P * 1e-7 * compute_scaling        binning, 0.1 us per particle
--            + K * (n - 1) * G^3 * 5e-9          each actor merges n - 1 partial grids, 5 ns/cell
--   exchange = allgather of G^3 * 4 bytes        (float32 grid) per actor: each node sends
--                                                k * 3.5 MB to each of the n - 1 others
--   bytes    = P * 8 * data_scaling              one double per particle reaches the analytics
-- On one analytics node (in transit) the merge and the exchange vanish; on 16 nodes (in situ,
-- ratio 15: 2 actors per node) they add 66 ms + 92 ms (10 Gb/s links, crossed both ways at
-- once) to every analysis. In transit pays instead for the states crossing the network, 9 ms
-- per unit of data_scaling.
-- The two makespans cross near data_scaling = 17 (situ model: 17.0; situ run: 17.0):
--   situ model --nodes 16 --ratio 15 --analytics scatter --mapping insitu|intransit \
--              --data-scaling 1|10|100|1000
local G = 96

return {
  name = "scatter",
  description = "global density grid, allgathered: costs grow with the analytics nodes",
  cost = function(ctx)
    local binning = ctx.particles * 1e-7 * ctx.compute_scaling
    local merging = ctx.analytics_cores * (ctx.analytics_nodes - 1) * G ^ 3 * 5e-9
    return binning + merging
  end,
  bytes = function(ctx)
    return ctx.particles * 8 * ctx.data_scaling
  end,
  exchange = function(ctx)
    return { pattern = "allgather", bytes = G ^ 3 * 4 }
  end,
}
