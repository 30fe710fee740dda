#!/usr/bin/env bash
# Builds and runs tests/consumer against pullsched both ways another project would use it:
#   1. cmake --install into a temporary prefix, then find_package(pullsched);
#   2. add_subdirectory of the source tree (tests, benchmarks and the rig off by default).
#   check-consumer.sh [BUILD_DIR]   (BUILD_DIR: a configured pullsched build; default build)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)

echo "--- installed prefix"
cmake --build "$build" --target pullsched_scheduler pullsched_testchain -j "${JOBS:-2}" >/dev/null
cmake --install "$build" --prefix "$work/prefix" >/dev/null
if find "$work/prefix/include" -name 'SchedulerCore.hpp' -o -name 'lockfree*' | grep -q .; then
  echo "FAIL: private headers were installed"; exit 1
fi
cmake -S "$root/tests/consumer" -B "$work/installed" -DCMAKE_PREFIX_PATH="$work/prefix" \
      -DPULLSCHED_EXPECT_TESTCHAIN=ON -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" >/dev/null
cmake --build "$work/installed" -j "${JOBS:-2}" >/dev/null
"$work/installed/consumer"

echo "--- add_subdirectory"
cmake -S "$root/tests/consumer" -B "$work/subdir" -DPULLSCHED_SOURCE_DIR="$root" \
      -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" >/dev/null
# Only the scheduler is built: no test, benchmark or rig targets come along.
extra=$(cmake --build "$work/subdir" --target help | grep -cE 'gtest|benchmark|stressrig|testchain|scheduler_unit' || true)
[ "$extra" -eq 0 ] || { echo "FAIL: add_subdirectory brought $extra test/bench/rig targets"; exit 1; }
cmake --build "$work/subdir" -j "${JOBS:-2}" >/dev/null
"$work/subdir/consumer"
echo "ok: consumer built and ran both ways"
