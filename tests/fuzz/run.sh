#!/bin/sh
# Runs the libFuzzer targets built by `make fuzz-build`.
#   sh tests/fuzz/run.sh BUILD SECONDS TARGET...   fuzz each target for SECONDS, one after another
#   sh tests/fuzz/run.sh BUILD replay TARGET...    run the committed corpus and regression inputs
#                                                  of each target once (fast)
# New inputs go to BUILD/corpus/TARGET; the committed seeds in tests/fuzz/corpus/TARGET are read,
# never written. A crash leaves its input in BUILD/crashes/ and fails the run; turn it into a
# regression (tests/fuzz/regressions/TARGET/) once fixed. Prints one line of stats per target
# and ends with "fuzz: N targets passed, M failed".
set -u
if [ $# -lt 3 ]; then
    echo "usage: sh tests/fuzz/run.sh BUILD SECONDS|replay TARGET..." >&2
    exit 2
fi
build=$1 seconds=$2
shift 2
here=$(dirname "$0")
passed=0 failed=0
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:halt_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"
for t in "$@"; do
    bin=$build/fuzz_$t
    seeds=$here/corpus/$t
    regress=$here/regressions/$t
    log=$build/logs/$t.log
    mkdir -p "$build/corpus/$t" "$build/crashes" "$build/logs"
    if [ ! -x "$bin" ]; then
        echo "fuzz $t: $bin is missing (make fuzz-build)" >&2
        failed=$((failed + 1))
        continue
    fi
    if [ "$seconds" = replay ]; then
        # shellcheck disable=SC2046
        files=$(find "$seeds" "$regress" -type f 2>/dev/null)
        # shellcheck disable=SC2086
        if "$bin" $files >"$log" 2>&1; then
            echo "fuzz $t: replayed $(echo "$files" | grep -c .) inputs"
            passed=$((passed + 1))
        else
            echo "fuzz $t: FAILED replaying the corpus; see $log" >&2
            tail -30 "$log" >&2
            failed=$((failed + 1))
        fi
        continue
    fi
    dict=""
    [ -f "$here/$t.dict" ] && dict="-dict=$here/$t.dict"
    # shellcheck disable=SC2086
    "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$build/crashes/$t-" $dict "$build/corpus/$t" "$seeds" \
        $( [ -d "$regress" ] && echo "$regress") >"$log" 2>&1
    rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    last=$(grep -E '^#[0-9]+' "$log" | tail -1)
    cov=$(echo "$last" | sed -n 's/.*cov: \([0-9]*\).*/\1/p')
    ft=$(echo "$last" | sed -n 's/.*ft: \([0-9]*\).*/\1/p')
    corp=$(echo "$last" | sed -n 's/.*corp: \([0-9]*\/[0-9a-zA-Z]*\).*/\1/p')
    if [ $rc -eq 0 ]; then
        echo "fuzz $t: ${seconds}s, ${execs:-?} execs, cov ${cov:-?}, ft ${ft:-?}, corpus ${corp:-?}"
        passed=$((passed + 1))
    else
        echo "fuzz $t: FAILED after ${execs:-?} execs; crash input in $build/crashes/, log $log" >&2
        grep -E 'ERROR|SUMMARY|fuzz:|==[0-9]+==' "$log" | head -10 >&2
        failed=$((failed + 1))
    fi
done
echo "fuzz: $passed targets passed, $failed failed"
[ $failed -eq 0 ]
