-- The explorer's scenario test (tests/tui/run.sh): a sweep over two ratios, run through the
-- explorer's runner while the screen stays live, then a table of the efficiency.
-- Full fidelity over 8000 iterations: each simulation takes about a second, long enough for the
-- test to see the panel waiting and to move a slider meanwhile (sampling off: sampled, it takes
-- a tenth of that, and the wait can pass between two looks at the screen).
local base = situ.params{ iterations = 8000, fidelity = "full", sampling = "off", nodes = 4 }
print("argument: " .. tostring(arg[1]))
print("sweeping two ratios")
local rs = situ.sweep{ base = base, ratio = {7, 15} }
situ.table(rs, {"ratio", "efficiency"})
print("scenario finished")
