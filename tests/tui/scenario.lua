-- The explorer's scenario test (tests/tui/run.sh): a sweep over two ratios, run through the
-- explorer's runner while the screen stays live, then a table of the efficiency.
local base = situ.params{ iterations = 400 }
print("sweeping two ratios")
local rs = situ.sweep{ base = base, ratio = {7, 15} }
situ.table(rs, {"ratio", "efficiency"})
print("scenario finished")
