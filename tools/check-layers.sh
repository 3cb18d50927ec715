#!/bin/sh
# The layering rules, read from the compiler's dependency files: -MD writes BUILD/dir/x.d listing
# every header x.c read, system ones included, directly or through another header.
# - engine/ never sees curses, and tui/ never sees SimGrid;
# - engine/'s folders are layers, each using only those before it in ENGINE_LAYERS, so their
#   arrows run one way (engine/README.md says what each holds).
# Prints one line per offending object and fails.
build=${1:-build}
ENGINE_LAYERS="base model lua run sim scenario"
status=0
deps() { find "$build/$1" -name '*.d' 2>/dev/null | sort; }
# Every path a dependency file names, with dir/../ folded (relative includes leave them).
words() { tr ' \\' '\n\n' <"$1" | sed -e :a -e 's|[^/.][^/]*/\.\./||' -e ta -e '/^$/d'; }
fail() {
	echo "layering: $1" >&2
	status=1
}
forbid() { # dir pattern what
	for d in $(deps "$1"); do
		hit=$(words "$d" | grep -E "$2" | head -n 1)
		[ -z "$hit" ] || fail "${d#"$build"/} reaches $hit ($3)"
	done
}
forbid engine '/n?curses(w)?\.h$|/ncursesw?/|/term\.h$' "engine/ must not include curses"
forbid tui '/simgrid/|/simgrid\.h$|/xbt/|/xbt\.h$|/smpi/' "tui/ must not include SimGrid"

rank() { # a layer's position in ENGINE_LAYERS, or nothing
	i=0
	for l in $ENGINE_LAYERS; do
		i=$((i + 1))
		[ "$l" = "$1" ] && echo $i && return
	done
}
for dir in "$build"/engine/*/; do
	layer=$(basename "$dir")
	own=$(rank "$layer")
	[ -n "$own" ] || { fail "engine/$layer/ is not in ENGINE_LAYERS (tools/check-layers.sh)"; continue; }
	for d in $(deps "engine/$layer"); do
		for used in $(words "$d" | sed -n 's|^\(.*/\)\{0,1\}engine/\([a-z_]*\)/[^/]*\.h$|\2|p' | sort -u); do
			r=$(rank "$used")
			if [ -n "$r" ] && [ "$r" -gt "$own" ]; then
				fail "${d#"$build"/} reaches engine/$used/ (engine/$layer/ may use only: $(echo "$ENGINE_LAYERS" | cut -d' ' -f1-"$own"))"
			fi
		done
	done
done
exit $status
