#!/bin/sh
# Install the Debian packages uplift needs when any is missing (run as root
# on a fresh machine, or through sudo when that is available).  With the
# argument `fuzz`, also clang-16 and its libFuzzer runtime (make fuzz);
# with `bench`, clang-16 (with Polly, the peer of make bench).
set -e
need=""
pkg-config --version >/dev/null 2>&1 || need="$need pkg-config"
for p in isl:libisl-dev gmp:libgmp-dev z3:libz3-dev libffi:libffi-dev \
         openblas:libopenblas-dev libcjson:libcjson-dev; do
  mod=${p%%:*}; deb=${p#*:}
  pkg-config --exists "$mod" 2>/dev/null || need="$need $deb"
done
command -v mlir-opt-16 >/dev/null 2>&1 && command -v mlir-cpu-runner-16 >/dev/null 2>&1 \
  || need="$need mlir-16-tools"
ls /usr/lib/llvm-16/lib/libmlir_c_runner_utils.so* >/dev/null 2>&1 || need="$need libmlir-16"
command -v cc >/dev/null 2>&1 || need="$need gcc"
if [ "$1" = bench ]; then
  command -v clang-16 >/dev/null 2>&1 || need="$need clang-16"
fi
if [ "$1" = fuzz ]; then
  command -v clang-16 >/dev/null 2>&1 || need="$need clang-16"
  # libclang_rt.fuzzer (and the ASan/UBSan runtimes) for clang-16
  ls /usr/lib/llvm-16/lib/clang/16/lib/linux/libclang_rt.fuzzer-*.a >/dev/null 2>&1 \
    || need="$need libclang-rt-16-dev"
fi
# tests and make bench read JSON with python3
command -v python3 >/dev/null 2>&1 || need="$need python3"
# tests/e2e_batch.sh runs README's GNU parallel recipe
command -v parallel >/dev/null 2>&1 || need="$need parallel"
[ -z "$need" ] && exit 0
echo "uplift: installing missing packages:$need"
if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q $need
