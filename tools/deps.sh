#!/bin/sh
# Installs what the build and the tests need on Debian 12, and nothing that is already there.
# Called by `make deps`, which `make`, `make run` and `make test` depend on.
set -eu

# pkg-config module -> Debian package providing it
modules="simgrid:libsimgrid-dev lua5.4:liblua5.4-dev libuv:libuv1-dev ncursesw:libncurses-dev
jansson:libjansson-dev libxml-2.0:libxml2-dev criterion:libcriterion-dev cairo:libcairo2-dev
jemalloc:libjemalloc-dev"
# command -> Debian package providing it
commands="pkg-config:pkg-config tmux:tmux cc:gcc g++:g++ smpicc:libsimgrid-dev smpirun:libsimgrid-dev python3:python3 parallel:parallel clang:clang valgrind:valgrind setpriv:util-linux
pgrep:procps"

missing=""
for pair in $commands; do
    command -v "${pair%%:*}" >/dev/null 2>&1 || missing="$missing ${pair#*:}"
done
for pair in $modules; do
    if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists "${pair%%:*}"; then
        missing="$missing ${pair#*:}"
    fi
done
# libFuzzer's runtime, for make fuzz and make test-slow
ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 ||
    missing="$missing libclang-rt-14-dev"
[ -z "$missing" ] && exit 0

sudo=""
if [ "$(id -u)" -ne 0 ]; then
    # One line that says what to do (nothing was installed, so no "installing" line before it).
    command -v sudo >/dev/null 2>&1 || {
        echo "deps: need root or sudo to install:$missing (as root: apt-get install$missing)" >&2
        exit 2
    }
    sudo=sudo
fi
echo "deps: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
# shellcheck disable=SC2086
$sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
