#!/bin/sh
# The README's parameter table is generated from the parameter table (engine/model/params.c), its one
# home: `tools/docs.sh SITU` rewrites the block between the README's params markers, and
# `tools/docs.sh SITU --check` fails, naming the command to run, when the README is stale.
set -eu
situ=${1:-./situ}
readme=${README:-README.md}
tmp=$(mktemp)
trap 'rm -f "$tmp" "$tmp.table"' EXIT
"$situ" __params-markdown >"$tmp.table"
awk -v table="$tmp.table" '
	/^<!-- params:/ { print; while ((getline line < table) > 0) print line; skip = 1; next }
	/^<!-- params end -->/ { skip = 0 }
	!skip { print }
' "$readme" >"$tmp"
if [ "${2:-}" = --check ]; then
	if ! cmp -s "$tmp" "$readme"; then
		echo "docs: $readme's parameter table is stale; run 'make docs'" >&2
		exit 1
	fi
	exit 0
fi
cmp -s "$tmp" "$readme" || cat "$tmp" >"$readme"
