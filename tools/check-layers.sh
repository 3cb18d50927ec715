#!/bin/sh
# The layering rule, read from the compiler's dependency files: -MD writes BUILD/dir/x.d listing
# every header x.c read, system ones included, directly or through another header. engine/ never
# sees curses, and tui/ never sees SimGrid. Prints one line per offending object and fails.
build=${1:-build}
status=0
check() { # dir pattern what
	for d in "$build/$1"/*.d; do
		[ -e "$d" ] || continue
		hit=$(tr ' \\' '\n\n' <"$d" | grep -E "$2" | head -n 1)
		if [ -n "$hit" ]; then
			echo "layering: ${d#"$build"/} reaches $hit ($3)" >&2
			status=1
		fi
	done
}
check engine '/n?curses(w)?\.h$|/ncursesw?/|/term\.h$' "engine/ must not include curses"
check tui '/simgrid/|/simgrid\.h$|/xbt/|/xbt\.h$|/smpi/' "tui/ must not include SimGrid"
exit $status
