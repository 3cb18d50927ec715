#!/bin/sh
# Runs LAMMPS's LJ melt (in.melt here) on this machine and keeps each run's log:
#   sh tests/calibrate/record.sh DIR [REPEATS] [CONFIG ...]
# CONFIG is N:P:RDF:STEPS (box of N^3 FCC cells, P MPI ranks, an RDF every RDF steps or 0 for
# none, STEPS MD steps); the default set is the fixtures' (tests/calibrate/logs). Each
# configuration runs REPEATS times (default 3), interleaved (one round of every configuration,
# then the next) so that a slow spell of the machine spreads over configurations rather than
# falling on one's repeats. Logs: DIR/melt-nN-pP-rdfRDF-K.log. Ranks are not bound to cores
# (--bind-to none): bound and oversubscribed, two ranks on two shared cores ran 2.5x slower.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
dir=$1
repeats=${2:-3}
if [ $# -ge 2 ]; then shift 2; else shift $#; fi
configs="$*"
[ -n "$configs" ] || configs="10:1:0:200 14:1:0:100 18:1:0:60 10:1:5:200 14:1:5:100 18:1:5:60 14:1:20:100
18:1:2:60 10:1:2:200 10:2:0:200 14:2:0:100 18:2:0:60 14:2:5:100 18:2:20:60 10:2:2:200"
mkdir -p "$dir"
mpi=""
[ "$(id -u)" -eq 0 ] && mpi="--allow-run-as-root"
k=1
while [ "$k" -le "$repeats" ]; do
    for c in $configs; do
        IFS=: read -r n p rdf steps <<CFG
$c
CFG
        log="$dir/melt-n$n-p$p-rdf$rdf-$k.log"
        if [ "$p" -eq 1 ]; then
            lmp -var n "$n" -var steps "$steps" -var rdf "$rdf" -in "$here/in.melt" \
                -log "$log" -screen none
        else
            mpirun --oversubscribe --bind-to none $mpi -np "$p" lmp -var n "$n" -var steps "$steps" \
                -var rdf "$rdf" -in "$here/in.melt" -log "$log" -screen none
        fi
        grep -h "^Loop time" "$log" | sed "s|^|$(basename "$log"): |"
    done
    k=$((k + 1))
done
