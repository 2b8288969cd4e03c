#!/usr/bin/env bash
# The demo command: installs missing packages, builds Release, runs the flagship job.
#   scripts/demo.sh [ranks]      (default 4 ranks)
set -euo pipefail
source "$(dirname "$0")/common.sh"

ranks=${1:-4}
"$armada_root/scripts/setup.sh"
build="$armada_root/build-release"
cmake -S "$armada_root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DARMADA_BUILD_TESTS=OFF >/dev/null
cmake --build "$build" -j "$jobs" --target armada-exchange armada-info

echo "== Armada on $ranks ranks: every rank allocates shared memory, puts to its neighbour,"
echo "   accumulates into rank 0, takes a ticket with fetch-and-add, and verifies the data"
timeout 120 bash -c "$(declare -f armada_mpiexec); armada_mpiexec -n $ranks '$build/apps/armada-exchange'"
echo
echo "== topology and settings (armada-info)"
timeout 60 bash -c "$(declare -f armada_mpiexec); armada_mpiexec -n $ranks '$build/rma/armada-info' --topology"
"$build/rma/armada-info"
