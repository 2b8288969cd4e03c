#!/usr/bin/env bash
# The test command: installs missing packages, configures, builds, runs every test under ctest,
# and reports where the time went (scripts/test-timing.py). Its exit code is ctest's.
#
#   scripts/test.sh                         RelWithDebInfo build in build/
#   ARMADA_SANITIZE=address,undefined scripts/test.sh    in build-asan/
#   ARMADA_SANITIZE=thread scripts/test.sh               in build-tsan/
#   ARMADA_MPI=mpich scripts/test.sh                     against MPICH, in build-mpich/
#   CTEST_ARGS="-R rma" scripts/test.sh                  a subset
#   ARMADA_BUILD_BENCH=OFF scripts/test.sh               without the benchmarks (and their tests)
#   ARMADA_TEST_DIRS="tests/rma tests/capi" scripts/test.sh   build only those test folders (and
#                                                         what they need); pair it with CTEST_ARGS
#   ARMADA_TEST_JOBS=N scripts/test.sh       ctest -j N (default: twice the cores)
#   ARMADA_TEST_QUICK=1 scripts/test.sh      only the transports' QUICK configurations (their rows
#                                            in rma/src/transport/*/transport.cmake say which):
#                                            leaves out the rows $build/transport-rows-slow.regex
#                                            names, and those of ARMADA_TEST_EXCLUDE (a regex)
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
# The emulated-cluster rows (label cluster, docs/cluster.md) take longer than the rest together:
# only when asked for (CTEST_ARGS="-L cluster"); .ci/run runs a subset.
# -j: ctest gives each row as many slots as its rank count (PROCESSORS), so at the measured best,
# twice the cores, a 4-rank row runs alone and two 2-rank rows share the machine
# (docs/testing.md#timing). The JUnit file is scripts/test-timing.py's input: the slowest rows and
# the time per folder, printed at the end and kept in $build/test-timing.md.
test_jobs=${ARMADA_TEST_JOBS:-$((2 * jobs))}
exclude=${ARMADA_TEST_EXCLUDE:-}
if [ "${ARMADA_TEST_QUICK:-0}" = 1 ]; then
  exclude="$(cat "$build/transport-rows-slow.regex")${exclude:+|$exclude}"
fi
exclude_args=()
[ -z "$exclude" ] || exclude_args=(-E "$exclude")
rc=0
# shellcheck disable=SC2086
ctest --test-dir "$build" --output-on-failure -j "$test_jobs" --output-junit "$build/test-results.xml" \
  ${CTEST_ARGS:--LE cluster} "${exclude_args[@]}" || rc=$?
echo "== timing (scripts/test-timing.py; $build/test-timing.md)"
python3 "$armada_root/scripts/test-timing.py" "$build" || echo "(no timing report: see above)"
exit "$rc"
