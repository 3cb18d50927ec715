#!/bin/sh
# The generated parts of the documentation, from their one home: the README's parameter table and
# docs/situ.1's options from the parameter table (engine/model/params.c), docs/situ.1's explorer
# keys from the key tables (tui/state/app_keys.c). `tools/docs.sh SITU` rewrites each block between its
# markers; `tools/docs.sh SITU --check` fails, naming the command to run, when one is stale.
# README and MAN override the files (the CLI tests check the tree's own).
set -eu
situ=${1:-./situ}
readme=${README:-README.md}
man=${MAN:-docs/situ.1}
tmp=$(mktemp)
trap 'rm -f "$tmp" "$tmp.table" "$tmp.keys" "$tmp.out"' EXIT
"$situ" __params-markdown >"$tmp.table"
"$situ" __man-roff params >"$tmp.out"
"$situ" __man-roff keys >"$tmp.keys"
stale=""

# splice FILE START END GENERATED: FILE with the lines between the line starting with START and
# the one starting with END replaced by GENERATED's; writes it back (or, with --check, notes it
# stale). The markers are plain text (ENVIRON: awk's -v would read the roff comment's backslash).
splice() {
	START=$2 END=$3 awk -v gen="$4" '
		index($0, ENVIRON["START"]) == 1 { print; while ((getline line < gen) > 0) print line; skip = 1; next }
		index($0, ENVIRON["END"]) == 1 { skip = 0 }
		!skip { print }
	' "$1" >"$tmp"
	if cmp -s "$tmp" "$1"; then
		return 0
	fi
	if [ "$check" = 1 ]; then
		stale="$stale $1"
	else
		cat "$tmp" >"$1"
	fi
}

check=0
[ "${2:-}" = --check ] && check=1
splice "$readme" '<!-- params:' '<!-- params end -->' "$tmp.table"
splice "$man" '.\" params:' '.\" params end' "$tmp.out"
splice "$man" '.\" keys:' '.\" keys end' "$tmp.keys"
if [ -n "$stale" ]; then
	echo "docs: the generated parts of$stale are stale; run 'make docs'" >&2
	exit 1
fi
