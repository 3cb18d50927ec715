# shellcheck shell=sh
# CASE=PATTERN for the shell suites (sourced), as tests/suite.py does for the Python ones: a glob if
# PATTERN has * ? or [, else a substring of the case's name; case-insensitive. `make test-NAME
# CASE=PATTERN` sets it. A suite counts only the cases it selects, and case_none_matched fails one
# that selected none (never a silent pass).

# case_selected NAME: whether CASE selects the case called NAME (every case without CASE).
case_selected() {
    [ -z "${CASE:-}" ] && return 0
    _case_n=$(printf '%s' "$1" | tr '[:upper:]' '[:lower:]')
    _case_p=$(printf '%s' "$CASE" | tr '[:upper:]' '[:lower:]')
    case $_case_p in
    *[*?[]*) ;;
    *) _case_p="*$_case_p*" ;;
    esac
    # shellcheck disable=SC2254
    case $_case_n in
    $_case_p) return 0 ;;
    esac
    return 1
}

# case_none_matched SUITE COUNT: with CASE set and COUNT (the cases counted) 0, says so and
# succeeds (the caller counts a failure); else fails.
case_none_matched() {
    [ -n "${CASE:-}" ] && [ "$2" -eq 0 ] || return 1
    echo "FAIL $1: no case matches CASE='$CASE'" >&2
}
