#!/usr/bin/env bash
# Cross-checks the aarch64 neon kernel target on an x86 host (no Python, no arm64 machine):
#  1. the whole engine passes aarch64-linux-gnu-g++ -std=c++17 -fsyntax-only (engine sources as
#     the baseline build compiles them, simd/ sources as the scalar and the neon target do);
#  2. tools/isa_check/isa_check.cpp, linked with the simd/ table sources compiled twice (namespace
#     scalar at level 0, neon at level 1, the CMake flags), runs under qemu-aarch64 and compares
#     every neon table entry with the scalar one; a mismatch exits non-zero.
# Needs Debian's g++-aarch64-linux-gnu and qemu-user (apt-get install -y g++-aarch64-linux-gnu qemu-user).
# Usage: tools/check_neon.sh [--no-syntax]   (CXX, QEMU and JOBS override the defaults)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
CXX="${CXX:-aarch64-linux-gnu-g++}"
QEMU="${QEMU:-$(command -v qemu-aarch64 || command -v qemu-aarch64-static || echo qemu-aarch64)}"
JOBS="${JOBS:-$(nproc)}"
out="$root/build/isa_check_aarch64"
mkdir -p "$out"
cd "$root"

# The CMake flags (CMakeLists.txt: -O3, MNN_FP_FLAGS, MNN_WARNINGS; vmath may contract to FMA): -O3
# matters, it is where GCC vectorises the plain C++ loops.
common=(-std=c++17 -O3 -Wall -Wno-sign-compare -fno-math-errno -fno-trapping-math -ffp-contract=off -Icsrc)
simd_tables=(elementwise_table vmath_kernels reduce_kernels transpose_kernels gemm_kernels)

if [ "${1:-}" != "--no-syntax" ]; then
  echo "== aarch64 -fsyntax-only: engine, then simd/ as the scalar and neon targets"
  shopt -s nullglob  # the CMake globs (MNN_ENGINE_SOURCES, MNN_SIMD_SOURCES); some match nothing
  engine=(csrc/core/*.cpp csrc/ops/*.cpp csrc/ops/*/*.cpp csrc/prims/*.cpp csrc/autograd/*.cpp csrc/engine/*.cpp
          csrc/backends/*.cpp csrc/backends/cpu/*.cpp csrc/backends/cpu/kernels/*.cpp csrc/backends/cpu/kernels/*/*.cpp)
  simd=(csrc/backends/cpu/simd/*.cpp csrc/backends/cpu/simd/*/*.cpp)
  shopt -u nullglob
  printf '%s\n' "${engine[@]}" | xargs -P "$JOBS" -n 4 "$CXX" "${common[@]}" -fsyntax-only -DMNN_HAVE_NEON
  printf '%s\n' "${simd[@]}" | xargs -P "$JOBS" -n 4 "$CXX" "${common[@]}" -fsyntax-only -DMNN_ISA_NS=scalar -DMNN_ISA_LEVEL=0
  printf '%s\n' "${simd[@]}" | xargs -P "$JOBS" -n 4 "$CXX" "${common[@]}" -fsyntax-only -DMNN_ISA_NS=neon -DMNN_ISA_LEVEL=1
  echo "   ${#engine[@]} engine + 2 x ${#simd[@]} simd sources: ok"
fi

echo "== building tools/isa_check for aarch64"
objs=()
pids=()
for target in scalar:0 neon:1; do
  ns=${target%:*} level=${target#*:}
  for f in "${simd_tables[@]}"; do
    extra=()
    [ "$f" = vmath_kernels ] && extra=(-ffp-contract=fast)
    o="$out/${ns}_$f.o"
    "$CXX" "${common[@]}" "${extra[@]}" -DMNN_ISA_NS="$ns" -DMNN_ISA_LEVEL="$level" -c "csrc/backends/cpu/simd/$f.cpp" -o "$o" &
    pids+=($!)
    objs+=("$o")
    # at most JOBS compiles at once
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do sleep 0.2; done
  done
done
"$CXX" "${common[@]}" -c csrc/core/dtype.cpp -o "$out/dtype.o" &
pids+=($!)
"$CXX" "${common[@]}" -DMNN_CHECK_ISA=neon -c tools/isa_check/isa_check.cpp -o "$out/isa_check.o" &
pids+=($!)
for p in "${pids[@]}"; do wait "$p"; done
"$CXX" -o "$out/isa_check" "$out/isa_check.o" "${objs[@]}" "$out/dtype.o"

echo "== running under $(basename "$QEMU")"
"$QEMU" -L /usr/aarch64-linux-gnu "$out/isa_check"
