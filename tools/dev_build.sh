#!/usr/bin/env bash
# Incremental developer build: compiles the engine into build/dev and drops _core*.so into src/mnn/
# so the tests (tests/conftest.py) and PYTHONPATH=src use the source tree. Serialised with a lock, so several
# shells (or agents) can call it at once. Release installs use `pip install .` instead.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
mkdir -p "$root/build/dev"
exec 9>"$root/build/.dev_build.lock"
flock 9
export CCACHE_BASEDIR="$root"  # worktrees share cache entries (paths become relative)
cd "$root/build/dev"
if [ ! -f build.ninja ]; then
  cmake "$root" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -Dpybind11_DIR="$(python3 -c 'import pybind11; print(pybind11.get_cmake_dir())')" >/dev/null
fi
ninja "$@"
# copy then rename: a process that has the old module mapped keeps reading the old file intact
for so in _core*.so; do
  cp -f "$so" "$root/src/mnn/.$so.tmp" && mv -f "$root/src/mnn/.$so.tmp" "$root/src/mnn/$so"
done
