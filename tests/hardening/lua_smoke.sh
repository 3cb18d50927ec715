#!/bin/sh
# The Lua paths under a sanitizer build (make asan): scenarios with situ.model over a Lua
# analytics, a step-dependent analytics, finalizers at close, io redirected, a lesson walked
# headless, a simulation child evaluating the analytics, and a run stopped by the watchdog. The
# sanitizers' reports fail `make asan` (and valgrind's `make test`'s valgrind-lua: ASan does not
# see inside the system's liblua, where a use of a closed Lua state would read freed memory);
# this script fails if a command's exit status is wrong.
# Usage: [SITU_WRAP='valgrind ...'] sh tests/hardening/lua_smoke.sh PATH/TO/situ
set -u
situ=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/situ-lua-smoke.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
failed=0
expect() { # STATUS COMMAND...: runs it, output discarded, and checks its exit status
    want=$1
    shift
    # shellcheck disable=SC2086
    ${SITU_WRAP:-} "$@" >/dev/null 2>&1
    got=$?
    if [ "$got" -ne "$want" ]; then
        echo "lua smoke: '$*' exited $got, expected $want" >&2
        failed=$((failed + 1))
    fi
}
cat >step.lua <<'LUA'
setmetatable({}, {__gc = function() local t = {} for i = 1, 1000 do t[i] = {} end end})
return { name = 'step', cost = function(ctx)
  io.write('to stderr\n')
  return ctx.step % 4 == 0 and ctx.particles * 8e-6 or ctx.particles * 1e-7
end }
LUA
cat >scenario.lua <<'LUA'
setmetatable({}, {__gc = function() local t = {} for i = 1, 1000 do t[i] = {} end end})
local m = situ.model{ analytics = "step.lua", iterations = 400 }
assert(m.makespan > 0)
local f = assert(io.open("out.txt", "w")) f:write("x") f:close()
print(m.makespan)
LUA
printf 'string.find(("a"):rep(5000), ("a-"):rep(40) .. "b")\n' >hang.lua
expect 0 "$situ" model --analytics "$tmp/step.lua"
expect 0 "$situ" script scenario.lua
expect 0 "$situ" run --iterations 400 --analytics "$tmp/step.lua"
expect 0 "$situ" lesson efficiency --headless
expect 2 "$situ" script --time-limit 0.5 hang.lua
expect 2 "$situ" model --analytics "$tmp/hang.lua" --time-limit 0.5
if [ "$failed" -eq 0 ]; then echo "lua smoke: 6 commands as expected"; else exit 1; fi
