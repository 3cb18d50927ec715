#!/bin/sh
# make test-slow's LAMMPS check: installs LAMMPS and Open MPI when missing (Debian's lammps and
# openmpi-bin), runs the LJ melt of in.melt at a few sizes and rank counts, with and without an
# inline RDF every N steps, 3 times each (record.sh), then calibrates from some runs and checks
# the predictions of the others against LAMMPS's loop times (slow.py).
#   sh tests/calibrate/slow.sh ./situ [--readme]
set -eu
situ=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
sh "$here/../../tools/need.sh" calibrate lmp:lammps mpirun:openmpi-bin
dir=$(mktemp -d /tmp/situ-lammps-XXXXXX)
trap 'rm -rf "$dir"' EXIT
sh "$here/record.sh" "$dir" 3
python3 "$here/slow.py" "$situ" "$dir" "$@"
