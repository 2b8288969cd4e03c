#!/usr/bin/env bash
# The test command: installs missing packages, configures, builds, runs every test under ctest.
# Its exit code is ctest's.
#
#   scripts/test.sh                         RelWithDebInfo build in build/
#   ARMADA_SANITIZE=address,undefined scripts/test.sh    in build-asan/
#   ARMADA_SANITIZE=thread scripts/test.sh               in build-tsan/
#   ARMADA_MPI=mpich scripts/test.sh                     against MPICH, in build-mpich/
#   CTEST_ARGS="-R rma" scripts/test.sh                  a subset
#   ARMADA_BUILD_BENCH=OFF scripts/test.sh               without the benchmarks (and their tests)
#   ARMADA_TEST_DIRS="tests/rma tests/capi" scripts/test.sh   build only those test folders (and
#                                                         what they need); pair it with CTEST_ARGS
set -euo pipefail
source "$(dirname "$0")/common.sh"

"$armada_root/scripts/setup.sh"

build=${ARMADA_BUILD_DIR:-}
sanitize=${ARMADA_SANITIZE:-}
mpi=${ARMADA_MPI:-openmpi}
if [ -z "$build" ]; then
  build="$armada_root/build"
  case "$sanitize" in
    "") ;;
    thread) build="$armada_root/build-tsan" ;;
    *) build="$armada_root/build-asan" ;;
  esac
  [ "$mpi" = openmpi ] || build="$build-$mpi"
fi

echo "== configure ($build)"
cmake -S "$armada_root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DARMADA_SANITIZE="$sanitize" -DARMADA_MPI="$mpi" -DARMADA_BUILD_TESTS=ON -DARMADA_BUILD_BENCH="${ARMADA_BUILD_BENCH:-ON}"
echo "== build"
if [ -n "${ARMADA_TEST_DIRS:-}" ]; then
  # CMake's Makefile generator builds a folder's targets with 'make -C <folder>'.
  for dir in $ARMADA_TEST_DIRS; do make -C "$build/$dir" -j "$jobs" all; done
else
  cmake --build "$build" -j "$jobs"
fi
echo "== test"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}   # MPI's own allocations are not ours to report
# shellcheck disable=SC2086
# The emulated-cluster rows (label cluster, docs/cluster.md) take longer than the rest together:
# only when asked for (CTEST_ARGS="-L cluster"); .ci/run runs a subset.
ctest --test-dir "$build" --output-on-failure -j "$jobs" ${CTEST_ARGS:--LE cluster}
