#!/bin/sh
# make test-slow's scale-out check: the README's Slurm path, run for real. Installs Slurm and
# MUNGE when missing (Debian's slurm-wlm and munge), starts a one-node cluster of this machine
# in a temporary directory (munged, slurmctld and slurmd, each on its own socket or port, none
# of the system's files touched), submits scripts/scale-out/situ-array.sbatch for a small study
# as the README says to, and checks that `situ merge` of the array's results equals a local
# `situ sweep` of the same study. Everything it started is stopped on the way out.
#   sh tests/scaleout/slurm.sh ./situ
set -eu
situ=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
sh "$root/tools/need.sh" slurm slurmctld:slurm-wlm slurmd:slurm-wlm sbatch:slurm-wlm munged:munge
PATH="$PATH:/usr/sbin"

dir=$(mktemp -d /tmp/situ-slurm-XXXXXX)
stop() {
    for f in "$dir/slurmd.pid" "$dir/slurmctld.pid" "$dir/munged.pid"; do
        [ -s "$f" ] && kill "$(cat "$f")" 2>/dev/null
    done
    sleep 1
    for f in "$dir/slurmd.pid" "$dir/slurmctld.pid" "$dir/munged.pid"; do
        [ -s "$f" ] && kill -9 "$(cat "$f")" 2>/dev/null
    done
    rm -rf "$dir"
}
trap stop EXIT
trap 'exit 1' INT TERM
fail() {
    echo "FAIL: $*" >&2
    for log in "$dir"/*.log; do
        [ -f "$log" ] && sed "s|^|    $(basename "$log"): |" "$log" | tail -5 >&2
    done
    exit 1
}

# MUNGE: its own key, socket and state, so a machine's own munged (if any) is left alone.
mkdir -p "$dir/munge" "$dir/state" "$dir/spool" "$dir/work"
chmod 700 "$dir/munge"
dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$dir/munge/munge.key"
munged --force --socket="$dir/munge/munge.sock" --key-file="$dir/munge/munge.key" \
    --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" \
    --seed-file="$dir/munge/munged.seed" || fail "munged did not start"

# Ports out of the way of other runs: from the process id, in the dynamic range's lower part.
port=$((20000 + ($$ % 5000) * 2))
host=$(hostname -s)
user=$(id -un)
cat >"$dir/slurm.conf" <<CONF
ClusterName=situtest
SlurmctldHost=$host
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.sock
SlurmUser=$user
SlurmdUser=root
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=situ Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$dir/slurm.conf"
slurmctld || fail "slurmctld did not start"
slurmd || fail "slurmd did not start"
n=0
until sinfo -h -o %T 2>/dev/null | grep -Eq '^(idle|mixed|allocated)'; do
    n=$((n + 1))
    [ $n -gt 60 ] && fail "the node never came up: $(sinfo -h 2>&1 | head -1)"
    sleep 0.5
done

# A small study, as the README writes it: commands, an array, a merge.
study="--ratio 1,7,15 --nodes 1,2 --stride 20,200 --fidelity fast"
cd "$dir/work"
export XDG_CACHE_HOME="$dir/cache"
# shellcheck disable=SC2086
"$situ" sweep $study --emit-commands >commands.txt
count=$(wc -l <commands.txt)
[ "$count" -eq 12 ] || fail "--emit-commands gave $count commands, not 12"
job=$(sbatch --parsable --array=1-"$count" "$root/scripts/scale-out/situ-array.sbatch" commands.txt) ||
    fail "sbatch refused the array script"
n=0
while squeue -h -j "$job" 2>/dev/null | grep -q .; do
    n=$((n + 1))
    [ $n -gt 600 ] && fail "the array did not finish in 5 minutes"
    sleep 0.5
done
done_tasks=$(ls results/*.json 2>/dev/null | wc -l)
[ "$done_tasks" -eq "$count" ] ||
    fail "$done_tasks of $count array tasks left a result ($(cat situ-*.log 2>/dev/null | head -3))"
ls results/*.tmp >/dev/null 2>&1 && fail "a task left a partial result"
"$situ" merge results/*.json --out array.csv || fail "situ merge failed"
# The same study on this machine, with another cache, so neither side reads the other's results.
# shellcheck disable=SC2086
XDG_CACHE_HOME="$dir/cache-local" "$situ" sweep $study --out local.csv >/dev/null 2>"$dir/sweep.log" ||
    fail "the local sweep failed"
python3 "$root/tests/scaleout/same.py" array.csv local.csv || fail "the array's results differ"
echo "ok   a Slurm job array of $count tasks (job $job) merges to the local sweep"
