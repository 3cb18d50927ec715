#!/bin/sh
# The layering rules, read from the compiler's dependency files: -MD writes BUILD/dir/x.d listing
# every header x.c read, system ones included, directly or through another header.
# - engine/ never sees curses, and tui/ never sees SimGrid;
# - only engine/sim/ and helper/ (the simulation helper, situ-sim) see SimGrid: the front end,
#   every other object, links none of it;
# - engine/'s folders are layers, each using only those before it in ENGINE_LAYERS, so their
#   arrows run one way (engine/README.md says what each holds).
# Prints one line per offending object and fails.
#   check-layers.sh --front-end BINARY: the linked front end asks for no SimGrid library and no
#   SimGrid symbol (the dynamic section and the undefined symbols, as the loader sees them).
SIMGRID_HEADERS='/simgrid/|/simgrid\.h$|/xbt/|/xbt\.h$|/smpi/'
if [ "${1:-}" = --front-end ]; then
	bin=$2
	libs=$(readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | grep -iE 'simgrid|ns3' || true)
	syms=$(nm -D --undefined-only "$bin" | awk '{print $NF}' |
		grep -E '^(sg_|simgrid_|xbt_|smpi_|MSG_|SMPI_|_ZN7simgrid|_ZN3xbt)' | head -n 5 || true)
	[ -z "$libs" ] || { echo "layering: $bin needs $libs (only situ-sim may link SimGrid)" >&2; exit 1; }
	[ -z "$syms" ] || { echo "layering: $bin uses SimGrid's" $syms "(only situ-sim may)" >&2; exit 1; }
	exit 0
fi
build=${1:-build}
ENGINE_LAYERS="base model lua run scenario sim"
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
for dir in tui cli plot engine/base engine/model engine/lua engine/run engine/scenario; do
	forbid "$dir" "$SIMGRID_HEADERS" "$dir/ is the front end: only engine/sim/ and helper/ may include SimGrid"
done

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
