"""Two study CSVs (situ merge's and situ sweep's) hold the same results: the same rows, whatever
their order, every column equal except wall_seconds (the host's time, not the result).
    python3 tests/scaleout/same.py A.csv B.csv"""
import csv
import sys


def rows(path):
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        header = reader.fieldnames
        kept = [c for c in header if c != "wall_seconds"]
        return header, sorted(tuple(r[c] for c in kept) for r in reader)


def main():
    (ha, a), (hb, b) = rows(sys.argv[1]), rows(sys.argv[2])
    if ha != hb:
        print(f"the columns differ: {ha} / {hb}", file=sys.stderr)
        return 1
    if not a:
        print("no rows", file=sys.stderr)
        return 1
    if a != b:
        extra = set(a) ^ set(b)
        print(f"{len(extra)} rows differ, e.g. {sorted(extra)[0]}", file=sys.stderr)
        return 1
    print(f"same: {len(a)} rows, {len(ha) - 1} columns compared")
    return 0


sys.exit(main())
