#!/bin/sh
# Runs each test suite named on the command line as its own make target (`make test-NAME`),
# every one of them even after a failure, then prints one line per suite (its result and its
# seconds) and fails if any failed: the first red suite no longer hides the others.
# Usage: sh tools/test-suites.sh NAME...   (one suite alone: make test-NAME; one case of it:
# make test-NAME CASE=PATTERN, docs/HACKING.md)
set -u
failed=""
summary=""
total_start=$(date +%s)
for suite in "$@"; do
    start=$(date +%s)
    echo "==== test-$suite"
    if ${MAKE:-make} --no-print-directory "test-$suite"; then
        result=ok
    else
        result=FAILED
        failed="$failed $suite"
    fi
    summary="$summary$(printf '%-8s %5ss  test-%s' "$result" $(($(date +%s) - start)) "$suite")
"
done
echo "==== summary ($(($(date +%s) - total_start)) s)"
printf '%s' "$summary"
if [ -n "$failed" ]; then
    echo "failed:$failed (run one again: make test-NAME, one case: make test-NAME CASE=PATTERN)" >&2
    exit 1
fi
