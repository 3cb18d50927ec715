#!/bin/sh
# Installs the Debian packages that give the named commands, when any is missing, as
# tools/deps.sh does for the build: for the slow tests' real programs (LAMMPS, Slurm...).
#   sh tools/need.sh TAG COMMAND:PACKAGE...
# TAG names the caller in the one line it prints. Exit 2 when a package is missing and neither
# root nor sudo can install it.
set -eu
tag=$1
shift
missing=""
for pair in "$@"; do
    PATH="$PATH:/usr/sbin:/sbin" command -v "${pair%%:*}" >/dev/null 2>&1 && continue
    case " $missing " in *" ${pair#*:} "*) ;; *) missing="$missing ${pair#*:}" ;; esac
done
[ -z "$missing" ] && exit 0
sudo=""
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || {
        echo "$tag: need root or sudo to install:$missing (as root: apt-get install$missing)" >&2
        exit 2
    }
    sudo=sudo
fi
echo "$tag: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
# shellcheck disable=SC2086
$sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
