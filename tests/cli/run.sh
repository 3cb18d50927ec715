#!/bin/sh
# Command-line tests: runs the real `situ` binary on the happy path and on every class of bad
# input. Usage: sh tests/cli/run.sh ./situ
# Bad input must exit 2 with exactly one line on stderr naming the parameter or file, and print
# nothing on stdout. The last line is "cli: N passed, M failed"; the exit status is non-zero if
# anything failed.
set -u

if [ $# -ne 1 ]; then
    echo "usage: sh tests/cli/run.sh PATH/TO/situ" >&2
    exit 2
fi
situ=$1
case $situ in
*/*) ;;
*) situ=./$situ ;;
esac
if [ ! -x "$situ" ]; then
    echo "cli: $situ is not an executable" >&2
    echo "cli: 0 passed, 1 failed"
    exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/situ-cli.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'rm -rf "$tmp"; exit 130' INT TERM
out=$tmp/stdout
err=$tmp/stderr

passed=0
failed=0
why=""

# check CONDITION-DESCRIPTION: records why the current case failed (first reason wins).
miss() {
    [ -z "$why" ] && why=$1
}

. "$(dirname "$0")/../case.sh"

# finish NAME: counts the case and reports a failure with the captured output. Under CASE=PATTERN
# (tests/case.sh) only the cases it selects are counted and reported: the commands of the others
# still run (the cases are steps of one script), so it saves no time here.
finish() {
    if ! case_selected "$1"; then
        why=""
        return
    fi
    if [ -z "$why" ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL: $1: $why" >&2
        sed 's/^/    stdout: /' "$out" | head -5 >&2
        sed 's/^/    stderr: /' "$err" | head -5 >&2
    fi
    why=""
}

# run ARGS...: runs situ with ARGS, stdout and stderr captured; sets rc.
run() {
    "$situ" "$@" >"$out" 2>"$err" </dev/null
    rc=$?
}

have_python=1
command -v python3 >/dev/null 2>&1 || have_python=0

# json_check PYTHON-EXPRESSION...: each expression, with d = the parsed stdout, must be true.
json_check() {
    if [ $have_python -eq 0 ]; then
        miss "python3 is needed to parse the JSON output"
        return
    fi
    msg=$(python3 - "$out" "$@" <<'EOF' 2>&1
import json, sys
try:
    with open(sys.argv[1]) as f:
        d = json.load(f)
except Exception as e:
    print("stdout is not JSON: %s" % e)
    sys.exit(1)
for expr in sys.argv[2:]:
    try:
        ok = eval(expr, {"d": d, "abs": abs, "max": max, "min": min})
    except Exception as e:
        ok = False
        expr += " (%s: %s)" % (type(e).__name__, e)
    if not ok:
        print("not true: " + expr)
        sys.exit(1)
EOF
    ) || miss "$msg"
}

# ---- happy path ----

run model
[ $rc -eq 0 ] || miss "exit $rc, expected 0"
grep -q efficiency "$out" || miss "the table has no 'efficiency'"
grep -q makespan "$out" || miss "the table has no 'makespan'"
[ -s "$err" ] && miss "stderr is not empty"
finish "situ model prints the table"

run model --json
[ $rc -eq 0 ] || miss "exit $rc, expected 0"
[ -s "$err" ] && miss "stderr is not empty"
[ "$(wc -l <"$out")" -eq 1 ] || miss "JSON is not one line"
json_check \
    'all(k in d for k in ["particles", "sim_cores", "analytics_cores", "steps", "stage",
        "sim_active", "sim_idle", "analytics_active", "analytics_idle", "makespan",
        "makespan_eq5", "efficiency", "scenario"])' \
    'all(k in d["stage"] for k in ["S", "Ing", "R", "A"])' \
    'd["particles"] == 1372000' \
    'd["sim_cores"] == 30 and d["analytics_cores"] == 2' \
    'd["steps"] == 400' \
    'd["scenario"] in ("IA", "IS", "balanced")' \
    '0 <= d["efficiency"] <= 1' \
    'd["config"]["stride"] == 20 and d["config"]["mapping"] == "insitu"'
finish "situ model --json has the result keys"

# eq. 5 and 6 hold between the printed stages and the printed results.
run model --json --stride 200 --compute-scaling 10
[ $rc -eq 0 ] || miss "exit $rc, expected 0"
json_check \
    'd["steps"] == 40' \
    'abs(d["efficiency"] - (1 - abs((d["stage"]["S"] + d["stage"]["Ing"]) - (d["stage"]["R"]
        + d["stage"]["A"] + d["stage"]["W"] + d["stage"]["C"])) / max(d["stage"]["S"]
        + d["stage"]["Ing"], d["stage"]["R"] + d["stage"]["A"] + d["stage"]["W"]
        + d["stage"]["C"]))) < 1e-9' \
    '(abs(d["makespan_eq5"] - d["steps"] * (max(d["stage"]["S"] + d["stage"]["Ing"],
        d["stage"]["R"] + d["stage"]["A"] + d["stage"]["W"]) + d["stage"]["C"]))
        < 1e-6 * d["makespan_eq5"])' \
    '(abs(d["makespan"] - d["makespan_eq5"] - min(d["stage"]["S"] + d["stage"]["Ing"],
        d["stage"]["R"] + d["stage"]["A"] + d["stage"]["W"] + d["stage"]["C"]))
        < 1e-6 * d["makespan"])'
finish "situ model --json obeys eq. 5 (C on the ranks' path) and 6; makespan adds fill/drain"

# The paper's Fig. 8 configuration, with every flag spelling: IA at R=15, IS at R=31.
run model --json --stride=1000 --compute_scaling 50 --ratio=15
[ $rc -eq 0 ] || miss "exit $rc, expected 0"
json_check 'd["scenario"] == "IA"' 'd["config"]["compute_scaling"] == 50'
finish "Fig. 8, R=15 is IA"
run model --json --stride 1000 --compute-scaling=50 --ratio 31
[ $rc -eq 0 ] || miss "exit $rc, expected 0"
json_check 'd["scenario"] == "IS"' 'd["sim_cores"] == 31 and d["analytics_cores"] == 1'
finish "Fig. 8, R=31 is IS"

run model --json --nodes 4 --mapping intransit --ratio 3 --dtl queue
[ $rc -eq 0 ] || miss "exit $rc, expected 0"
json_check 'd["sim_nodes"] == 3 and d["analytics_nodes"] == 1' 'd["stage"]["R"] == 0'
finish "intransit on 4 nodes"

printf 'dahu-3.grid5000.fr slots=2   # analytics\n' >"$tmp/hosts.ok"
run model --json --mapping hostfile --hostfile "$tmp/hosts.ok"
[ $rc -eq 0 ] || miss "exit $rc, expected 0"
json_check 'd["analytics_cores"] == 2' 'd["nodes_used"] == 2'
finish "hostfile mapping"

for args in "--help" "model --help" "model --stride 100 --help"; do
    # shellcheck disable=SC2086
    run $args
    [ $rc -eq 0 ] || miss "exit $rc, expected 0"
    grep -q -- "--stride" "$out" || miss "help does not list --stride"
    grep -q -- "--compute-scaling" "$out" || miss "help does not list --compute-scaling"
    [ -s "$err" ] && miss "stderr is not empty"
    finish "situ $args"
done

# A simulation profile's parameters join the table: its help lists them, wherever --help stands.
for args in "--simulation heat3d --help" "model --help --simulation heat3d"; do
    # shellcheck disable=SC2086
    run $args
    [ $rc -eq 0 ] || miss "exit $rc, expected 0"
    grep -q -- "--cell-cost .*seconds per grid point" "$out" || miss "help does not list --cell-cost"
    grep -q -- "--stride" "$out" || miss "help does not list --stride"
    [ -s "$err" ] && miss "stderr is not empty"
    finish "situ $args"
done
run --help
grep -q -- "--cell-cost" "$out" && miss "help lists a profile's parameter without its profile"
finish "situ --help: no profile, no profile parameters"

run --version
[ $rc -eq 0 ] || miss "exit $rc, expected 0"
grep -Eq '^situ [0-9]+\.[0-9]+\.[0-9]+$' "$out" || miss "no 'situ X.Y.Z' line"
[ -s "$err" ] && miss "stderr is not empty"
finish "situ --version"

# ---- an unusable cache directory: one line, and everything else works ----
# Each case stops root too (a file where a directory should be, a directory where a file should
# be); a read-only directory only stops the others. `situ run` must give the result it gives with
# a usable cache, say once that nothing is cached, and leave nothing in TMPDIR (where the platform
# digests went instead).
mkdir -p "$tmp/xdg-good" "$tmp/tmpdir"
XDG_CACHE_HOME=$tmp/xdg-good "$situ" run --json >"$tmp/ref.json" 2>/dev/null
ref=$(python3 -c 'import json,sys; print(repr(json.load(open(sys.argv[1]))["makespan"]))' \
    "$tmp/ref.json" 2>/dev/null)
digest=$(cd "$tmp/xdg-good/situ/platforms" 2>/dev/null && ls | head -1)

# unusable NAME XDG_CACHE_HOME [DIR]: the run, its result, its one line naming DIR (the cache
# directory), an empty TMPDIR. XDG_CACHE_HOME "-" unsets it and HOME.
unusable() {
    name=$1 xdg=$2 dir=${3:-$2/situ}
    if [ "$xdg" = - ]; then
        env -u XDG_CACHE_HOME -u HOME TMPDIR="$tmp/tmpdir" "$situ" run --json >"$out" 2>"$err" </dev/null
    else
        XDG_CACHE_HOME=$xdg TMPDIR="$tmp/tmpdir" "$situ" run --json >"$out" 2>"$err" </dev/null
    fi
    rc=$?
    [ $rc -eq 0 ] || miss "exit $rc, expected 0"
    [ -n "$ref" ] || miss "no reference result (a run with a usable cache failed)"
    json_check "d['makespan'] == ${ref:-0}"
    [ "$(wc -l <"$err")" -eq 1 ] || miss "stderr has $(wc -l <"$err") lines, expected 1"
    if [ "$xdg" = - ]; then
        grep -q '^situ: no cache directory (.*): nothing is cached$' "$err" || miss "no one-line warning"
    else
        grep -qF "situ: cache directory $dir unusable (" "$err" || miss "the warning does not name $dir"
        grep -q '): nothing is cached$' "$err" || miss "the warning does not say nothing is cached"
    fi
    [ -z "$(ls -A "$tmp/tmpdir")" ] || miss "left in TMPDIR: $(ls -A "$tmp/tmpdir")"
    finish "situ run with $name"
}

: >"$tmp/xdg-file"
unusable "XDG_CACHE_HOME a file" "$tmp/xdg-file"
mkdir -p "$tmp/xdg-platforms/situ"
: >"$tmp/xdg-platforms/situ/platforms"
unusable "a file where the digests' directory should be" "$tmp/xdg-platforms"
mkdir -p "$tmp/xdg-entry/situ/platforms/${digest:-none}"
unusable "a directory where the digest file should be" "$tmp/xdg-entry"
unusable "no HOME nor XDG_CACHE_HOME" -
# A bad input's one line stays the only one where the cache cannot be written.
XDG_CACHE_HOME=$tmp/xdg-file "$situ" model --mapping hostfile --hostfile "$tmp/hosts.none" \
    >"$out" 2>"$err" </dev/null
rc=$?
[ $rc -eq 2 ] || miss "exit $rc, expected 2"
[ "$(wc -l <"$err")" -eq 1 ] || miss "stderr has $(wc -l <"$err") lines, expected 1"
grep -qF "$tmp/hosts.none" "$err" || miss "stderr does not name the hostfile"
finish "bad input with an unusable cache directory: one line"
if [ "$(id -u)" -ne 0 ]; then
    mkdir -p "$tmp/xdg-ro/situ"
    chmod 555 "$tmp/xdg-ro/situ"
    unusable "a read-only cache directory" "$tmp/xdg-ro"
    chmod 755 "$tmp/xdg-ro/situ"
fi

# ---- parameter names: '-' and '_' are one letter wherever a name is read (params_find) ----

# rows FILE: the data rows of a CSV (its header off).
rows() {
    echo $(($(wc -l <"$1") - 1))
}

for name in compute_scaling compute-scaling; do
    run model --json "--$name" 3
    [ $rc -eq 0 ] || miss "exit $rc"
    json_check 'd["config"]["compute_scaling"] == 3'
    finish "flag --$name"

    run sweep --model --no-cache "--$name" 1,2
    [ $rc -eq 0 ] && [ "$(rows "$out")" -eq 2 ] || miss "exit $rc, $(rows "$out") rows"
    finish "sweep axis --$name"
    run sweep --model --no-cache "--stride:$name" 20:1,200:10
    [ $rc -eq 0 ] && [ "$(rows "$out")" -eq 2 ] || miss "exit $rc, $(rows "$out") rows"
    grep -q '^1,32,15,200,8000,70,8.2e-07,20,7.93e-07,10,' "$out" || miss "no row at 200:10"
    finish "sweep linked axis --stride:$name"

    for heat in "stride:$name,ratio" "$name,ratio" "ratio,$name:stride"; do
        rm -rf "$tmp/advice"
        run advise --verify 0 --ratio 1,3 "--stride:$name" 20:1,200:10 --heatmap "$heat" \
            --out "$tmp/advice"
        [ $rc -eq 0 ] || miss "exit $rc"
        [ -s "$tmp/advice/heatmap.png" ] || miss "no heatmap.png"
        finish "advise --stride:$name --heatmap $heat"
    done

    printf '%s = 4\nsweep.stride:%s = 20:1, 200:10\n' "$name" "$name" >"$tmp/names.conf"
    run model --json --preset "$tmp/names.conf"
    [ $rc -eq 0 ] || miss "exit $rc"
    json_check 'd["config"]["compute_scaling"] == 4'
    finish "preset key $name"
    run sweep --model --no-cache --preset "$tmp/names.conf"
    [ $rc -eq 0 ] && [ "$(rows "$out")" -eq 2 ] || miss "exit $rc, $(rows "$out") rows"
    finish "preset axis sweep.stride:$name"

    # fig7's axes move compute_scaling: a base flag that names it is refused as such.
    run reproduce fig7 "--$name" 2 --out "$tmp/fig7"
    [ $rc -eq 2 ] || miss "exit $rc, expected 2"
    grep -q "compute_scaling is one of this study's axes" "$err" || miss "not named as an axis"
    finish "reproduce --$name"

    cat >"$tmp/names.lua" <<EOF
local m = situ.model{ ["$name"] = 3 }
assert(m.config.compute_scaling == 3, "situ.model")
local rs = situ.sweep{ ["$name"] = {1, 2}, model = true }
assert(#rs == 2 and rs[2].config.compute_scaling == 2, "situ.sweep: " .. #rs .. " results")
local a = situ.advise{ ["stride:$name"] = {"20:1", "200:10"}, ratio = {1, 3}, verify = 0 }
assert(#a == 4, "situ.advise: " .. #a .. " candidates")
assert(not pcall(situ.model, { compute_scaling = 2, ["compute-scaling"] = 2 }), "twice")
situ.table(rs, { "$name", "makespan" }) -- a column named in either spelling
print("names ok")
EOF
    run script "$tmp/names.lua"
    [ $rc -eq 0 ] && grep -q "names ok" "$out" || miss "exit $rc"
    grep -Eq '^ +2 +[0-9]' "$out" || miss "situ.table's column $name is empty"
    finish "Lua tables: [\"$name\"]"

    run run --json --iterations 400 --compute-scaling 3
    sed "s/\"compute_scaling\"/\"$name\"/" "$out" >"$tmp/names.jsonl"
    run merge "$tmp/names.jsonl"
    [ $rc -eq 0 ] && [ "$(rows "$out")" -eq 1 ] || miss "exit $rc, $(rows "$out") rows"
    finish "merge: JSON key \"$name\""
done

# ---- bad input: exit 2, one line on stderr naming NEEDLE, nothing on stdout ----

# bad NAME NEEDLE ARGS...
bad() {
    name=$1 needle=$2
    shift 2
    run "$@"
    [ $rc -eq 2 ] || miss "exit $rc, expected 2"
    [ -s "$out" ] && miss "stdout is not empty"
    [ "$(wc -l <"$err")" -eq 1 ] || miss "stderr has $(wc -l <"$err") lines, expected 1"
    grep -q '^situ: ' "$err" || miss "stderr does not start with 'situ: '"
    grep -qF -- "$needle" "$err" || miss "stderr does not name '$needle'"
    finish "$name"
}

printf '<?xml version="1.0"?>\n<platform version="4.1">\n<cluster id="x"\n' >"$tmp/bad.xml"
printf '<?xml version="1.0"?>\n<platform version="4.1"><zone id="z" routing="Full">
<cluster id="c" prefix="n" suffix="" radical="1-2" speed="1Gf" core="32" lat="1us"/>
</zone></platform>\n' >"$tmp/nobw.xml"
printf '# analytics\nnode-7 slots=2\n' >"$tmp/hosts.unknown"
printf 'dahu-2.grid5000.fr slots=1\n' >"$tmp/hosts.few"
mkdir "$tmp/dir.xml"

bad "non-numeric" stride model --stride abc
bad "non-numeric real" sim_cost model --sim-cost 1e-6s
bad "negative" nodes model --nodes -2
bad "negative real" data_scaling model --data-scaling=-1
bad "zero stride" stride model --stride 0
bad "NaN" compute_scaling model --compute-scaling nan
bad "inf" analytics_cost model --analytics-cost inf
bad "stride > iterations" stride model --stride 9000 --iterations 8000
bad "unknown key" --bogus model --bogus 1
bad "stray argument" extra model extra
bad "missing value" stride model --stride
bad "unknown mapping" mapping model --mapping nowhere
bad "unrealisable ratio" "3 or 7" model --ratio 5
bad "hostfile mapping without hostfile" hostfile model --mapping hostfile
bad "intransit on 1 node" nodes model --mapping intransit --nodes 1
bad "more nodes than the platform" nodes model --nodes 33
bad "missing platform file" "$tmp/none.xml" model --platform "$tmp/none.xml"
bad "malformed platform XML" "$tmp/bad.xml" model --platform "$tmp/bad.xml"
bad "platform without bw" "$tmp/nobw.xml" model --platform "$tmp/nobw.xml"
bad "platform is a directory" "$tmp/dir.xml" model --platform "$tmp/dir.xml"
bad "hostfile naming unknown hosts" "$tmp/hosts.unknown" \
    model --mapping hostfile --hostfile "$tmp/hosts.unknown"
bad "hostfile with too few slots" "$tmp/hosts.few" \
    model --mapping hostfile --hostfile "$tmp/hosts.few"
bad "missing hostfile" "$tmp/hosts.none" model --mapping hostfile --hostfile "$tmp/hosts.none"
bad "unknown subcommand" frobnicate frobnicate --json
# A sweep's grid is checked against its platform, every value of every axis, before any row is
# modelled or simulated: the row that does not fit is named, and nothing is written.
bad "sweep --model past the platform's hosts" "nodes=33: nodes: 33 asked" \
    sweep --model --no-cache --ratio 1,3 --nodes 1..33 --out "$tmp/never.csv"
[ -e "$tmp/never.csv" ] && miss "$tmp/never.csv was written"
finish "sweep --model past the platform's hosts writes nothing"
bad "sweep --model past a host's cores" "cores_per_node=64: cores_per_node: 64" \
    sweep --model --no-cache --cores-per-node 16,64
bad "sweep --model with an unrealisable ratio" "ratio=5: ratio: 5" \
    sweep --model --no-cache --ratio 1,3,5
bad "sweep --model with a missing platform" "platform=$tmp/none.xml" \
    sweep --model --no-cache --platform "platforms/dahu.xml,$tmp/none.xml"
bad "sweep --model intransit on 1 node" "nodes=1: nodes: mapping=intransit" \
    sweep --model --no-cache --mapping intransit --nodes 2,1
bad "sweep past the platform's hosts" "nodes=33: nodes: 33 asked" \
    sweep --no-cache --iterations 400 --nodes 1,33

# ---- degenerate values terminate (issue 39) ----
# Empty or vanishing states with the staging servers (no bytes, no scaling, 1e-300 B/particle)
# are a figure, not a hang: the model's queue looped for ever on them, in every command that
# evaluates it. `timeout` bounds each case, so a hang fails it in seconds, not the suite.
run_within() { # SECONDS ARGS...: as run, killed after SECONDS (rc 124)
    limit=$1
    shift
    timeout -k 5 "$limit" "$situ" "$@" >"$out" 2>"$err" </dev/null
    rc=$?
}
staging="--nodes 4 --mapping intransit --dtl staging"
for empty in "--data-size 0" "--data-scaling 0" "--data-size 1e-300" "--data-size 1e-12"; do
    # shellcheck disable=SC2086
    run_within 10 model --json $staging $empty
    [ $rc -eq 0 ] || miss "exit $rc, expected 0 (124: it hung)"
    json_check 'd["makespan"] > 0 and d["makespan"] < 1e6' 'd["staging_wait"] == 0'
    finish "model with staging and $empty gives a figure"
done
# shellcheck disable=SC2086
run_within 30 sweep --model --no-cache $staging --data-size 0,1e-300,1 --out "$tmp/empty.csv"
[ $rc -eq 0 ] || miss "exit $rc, expected 0 (124: it hung)"
[ "$(cat "$tmp/empty.csv" 2>/dev/null | wc -l)" -eq 4 ] || miss "not 3 rows in the CSV"
finish "sweep --model with staging and empty states"
# shellcheck disable=SC2086
run_within 30 advise --verify 0 --no-cache $staging --data-size 0,1e-300 --ratio 7,15
[ $rc -eq 0 ] || miss "exit $rc, expected 0 (124: it hung)"
grep -q "data_size=0" "$out" || miss "no candidate with data_size=0"
finish "advise with staging and empty states"
# shellcheck disable=SC2086
XDG_CACHE_HOME=$tmp/xdg-empty run_within 60 run --json $staging --data-size 0 --iterations 200
[ $rc -eq 0 ] || miss "exit $rc, expected 0 (124: it hung)"
json_check 'd["makespan"] > 0' 'd["staging_wait"] == 0'
finish "run with staging and empty states"

# A profile's halo table with a throwing or looping __index is read raw (its metatable is user
# code that once ran outside any protected call: situ aborted, exit 134, even in a script's pcall).
cat >"$tmp/halo-throw.lua" <<'EOF_LUA'
return {name = "x", particles = 1, cost = 1,
  halo = function(ctx) return setmetatable({}, {__index = function() error("boom") end}) end}
EOF_LUA
cat >"$tmp/halo-loop.lua" <<'EOF_LUA'
return {name = "x", particles = 1, cost = 1,
  halo = function(ctx) return setmetatable({}, {__index = function() while true do end end}) end}
EOF_LUA
for f in halo-throw halo-loop; do
    run_within 20 model --json --simulation "$tmp/$f.lua"
    [ $rc -eq 0 ] || miss "exit $rc, expected 0 (134: aborted, 124: hung)"
    finish "profile $f: its halo's __index is not called"
done

# The README's parameter table and the man page's options are generated from the parameter table,
# the man page's keys from the key tables, their one homes: a parameter or key added, renamed or
# re-ranged without `make docs` fails here.
root=$(cd "$(dirname "$0")/../.." && pwd)
README=$root/README.md MAN=$root/docs/situ.1 sh "$root/tools/docs.sh" "$situ" --check >"$out" 2>"$err" ||
    miss "README.md's parameter table or docs/situ.1's options or keys differ from 'situ __params-markdown' and 'situ __man-roff' (run make docs)"
finish "README parameter table and man page options and keys are current"

# Every command that writes a file says so (issue 30): one line on stderr, "situ: wrote PATH
# (what)", once the file is in place; stdout stays the command's data.
wrote_once() { # PATH: stderr is that one line, and PATH exists
    [ "$(wc -l <"$err")" -eq 1 ] || miss "$(wc -l <"$err") lines on stderr, expected 1"
    grep -q "^situ: wrote $1" "$err" || miss "no 'situ: wrote $1' line"
    [ -e "$1" ] || miss "$1 was not written"
}
run sweep --model --no-cache --ratio 1,3 --out "$tmp/wrote.csv"
[ $rc -eq 0 ] || miss "exit $rc"
wrote_once "$tmp/wrote.csv"
grep -qF "(2 rows of 2 configurations: 2 modelled)" "$err" || miss "the rows are not counted"
[ -s "$out" ] && miss "stdout is not empty"
finish "sweep --out says what it wrote"
run run --json --iterations 400
cp "$out" "$tmp/one.jsonl"
run merge "$tmp/one.jsonl" --out "$tmp/merged.csv"
[ $rc -eq 0 ] || miss "exit $rc"
wrote_once "$tmp/merged.csv"
finish "merge --out says what it wrote"
rm -rf "$tmp/advised"
run advise --verify 0 --ratio 1,3 --out "$tmp/advised"
[ $rc -eq 0 ] || miss "exit $rc"
wrote_once "$tmp/advised/"
grep -q "heatmap.png" "$err" || miss "the set's files are not named"
finish "advise --out says what it wrote"

# make install puts the completion where bash and zsh look for it (for the tree's own situ only:
# another build, ASan's, would have make build this one first).
if [ -f "$root/Makefile" ] && [ "$situ" -ef "$root/situ" ]; then
    make -s -C "$root" install DESTDIR="$tmp/inst" PREFIX=/usr/local >"$out" 2>"$err" ||
        miss "make install failed"
    grep -q "^_situ()" "$tmp/inst/usr/local/share/bash-completion/completions/situ" 2>/dev/null ||
        miss "no bash completion installed"
    [ -s "$tmp/inst/usr/local/share/zsh/site-functions/_situ" ] || miss "no zsh completion installed"
    # the simulation helper, where the installed situ looks for it (its data directory)
    "$tmp/inst/usr/local/share/situ/situ-sim" --version >"$out" 2>"$err" ||
        miss "no simulation helper installed in the data directory"
    finish "make install installs the bash and zsh completion and the simulation helper"
fi

# Shell completion (issue 30), generated from the parameter table: bash completes a command, a
# flag, a choice and a lesson as the table and the lessons say.
"$situ" __completion bash >"$tmp/situ.bash" 2>"$err" || miss "__completion bash failed"
complete_words() { # WORD...: what the completion offers for the last word
    bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _situ
        echo "${COMPREPLY[*]}"' sh "$tmp/situ.bash" "$@"
}
[ "$(complete_words situ mod)" = model ] || miss "no command completed: $(complete_words situ mod)"
[ "$(complete_words situ model --data-sc)" = --data-scaling ] || miss "no flag completed"
[ "$(complete_words situ model --mapping intr)" = intransit ] || miss "no choice completed"
[ "$(complete_words situ lesson mapp)" = mapping ] || miss "no lesson completed"
"$situ" __completion zsh | grep -q "^autoload -U +X bashcompinit" || miss "no zsh completion"
bad "completion for another shell" "bash or zsh" __completion fish
finish "bash and zsh completion from the parameter table"
bad "unknown command: did you mean" "did you mean 'model'" modle

case_none_matched cli $((passed + failed)) && failed=$((failed + 1))
echo "cli: $passed passed, $failed failed"
[ $failed -eq 0 ]
