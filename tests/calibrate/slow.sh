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
missing=""
command -v lmp >/dev/null 2>&1 || missing="$missing lammps"
command -v mpirun >/dev/null 2>&1 || missing="$missing openmpi-bin"
if [ -n "$missing" ]; then
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null 2>&1 || {
            echo "calibrate: need root or sudo to install:$missing" >&2
            exit 2
        }
        sudo=sudo
    fi
    echo "calibrate: installing$missing" >&2
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq
    # shellcheck disable=SC2086
    $sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
dir=$(mktemp -d /tmp/situ-lammps-XXXXXX)
trap 'rm -rf "$dir"' EXIT
sh "$here/record.sh" "$dir" 3
python3 "$here/slow.py" "$situ" "$dir" "$@"
