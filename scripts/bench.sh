#!/usr/bin/env bash
# The benchmark suite from a source checkout: builds armada-bench (Release, in build-release/)
# and runs it through bench/armada-bench-suite, the driver that is also installed
# (docs/benchmarks.md#running-it). With --prefix DIR or --build-dir DIR nothing is configured or
# built: that install's or build tree's armada-bench runs. Results go to --output-dir, default
# results/bench-<UTC date>/ here (git ignores results/).
#
#   scripts/bench.sh                          the standard set (a few minutes on 2 cores)
#   scripts/bench.sh --quick                  a smoke test (under 15 s): checks that it runs, measures nothing
#   scripts/bench.sh --prefix /opt/armada     an installed Armada, nothing built
#   scripts/bench.sh --transports shm contig  any armada-bench-suite or armada-bench options
#   RANKS=4 BENCH_TIMEOUT=3600 HOSTFILE=hosts scripts/bench.sh    (= --ranks, --timeout, --hostfile)
set -euo pipefail
source "$(dirname "$0")/common.sh"

given_tree=0 given_out=0
for a in "$@"; do
  case $a in
    --prefix|--prefix=*|--build-dir|--build-dir=*) given_tree=1 ;;
    --output-dir|--output-dir=*) given_out=1 ;;
  esac
done
args=()
[ -z "${RANKS:-}" ] || args+=(--ranks "$RANKS")
[ -z "${BENCH_TIMEOUT:-}" ] || args+=(--timeout "$BENCH_TIMEOUT")
[ -z "${HOSTFILE:-}" ] || args+=(--hostfile "$HOSTFILE")
[ $given_out = 1 ] || args+=(--output-dir "$armada_root/results/bench-$(date -u +%Y%m%d-%H%M%S)")

if [ $given_tree = 0 ]; then
  build=${BUILD_DIR:-$armada_root/build-release}
  if [ ! -f "$build/CMakeCache.txt" ]; then
    echo "== configure ($build, Release)"
    cmake -S "$armada_root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DARMADA_BUILD_TESTS=OFF -DARMADA_BUILD_BENCH=ON
  fi
  type=$(sed -n 's/^CMAKE_BUILD_TYPE:STRING=//p' "$build/CMakeCache.txt")
  [ "$type" = Release ] || echo "bench.sh: WARNING: $build is a '$type' build, not Release" >&2
  echo "== build armada-bench ($build)"
  cmake --build "$build" -j"$jobs" --target armada-bench
  args+=(--build-dir "$build")
fi

load=$(cut -d' ' -f1 /proc/loadavg)
if awk -v l="$load" -v n="$(nproc)" 'BEGIN { exit !(l > n / 2) }'; then
  echo "bench.sh: WARNING: load average $load on $(nproc) CPUs: other processes compete for the cores and the figures will be noisy" >&2
fi
exec "$armada_root/bench/armada-bench-suite" "${args[@]}" "$@"
