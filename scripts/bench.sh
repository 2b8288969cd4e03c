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
#   SCALE=quick scripts/bench.sh              also a short scaling sweep (armada-scale, server, 2-8 ranks)
#   SCALE_DIR=results/scale-X scripts/bench.sh   add that scripts/bench-scale.sh sweep to the report
#
# The report (armada-bench-report.txt) ends with the scaling section when either is given: the
# plot scale.png beside it and the model table (docs/scaling.md says how to read them).
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
out=""
[ $given_out = 1 ] || { out=$armada_root/results/bench-$(date -u +%Y%m%d-%H%M%S); args+=(--output-dir "$out"); }

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
if [ -z "${SCALE:-}${SCALE_DIR:-}" ]; then
  exec "$armada_root/bench/armada-bench-suite" "${args[@]}" "$@"
fi
[ -n "$out" ] || { echo "bench.sh: SCALE and SCALE_DIR need the default --output-dir" >&2; exit 2; }
status=0
"$armada_root/bench/armada-bench-suite" "${args[@]}" "$@" || status=$?

# The scaling section: a sweep run now (SCALE=quick) or an earlier one (SCALE_DIR).
scale_dir=${SCALE_DIR:-}
if [ "${SCALE:-}" = quick ]; then
  [ $given_tree = 0 ] || { echo "bench.sh: SCALE=quick builds armada-scale: not with --prefix/--build-dir" >&2; exit 2; }
  echo "== scaling sweep (quick: server, 2-8 ranks, node size 2) -> $out/scale"
  cmake --build "$build" -j"$jobs" --target armada-scale
  OUT="$out/scale" BUILD_DIR="$build" TRANSPORTS=server NODE_SIZES=2 RANKS="2 4 8" ARGS="--arrays 10 --groups 100" \
    "$armada_root/scripts/bench-scale.sh" || echo "bench.sh: the scaling sweep failed (see $out/scale)" >&2
  scale_dir=$out/scale
fi
if [ -n "$scale_dir" ] && [ -s "$scale_dir/model.md" ]; then
  [ "$scale_dir" = "$out/scale" ] || cp "$scale_dir/scale.png" "$out/scale.png"
  { echo; echo "######## scaling (armada-scale; plot: $( [ "$scale_dir" = "$out/scale" ] && echo scale/scale.png || echo scale.png ), sweep: $scale_dir) ########"
    cat "$scale_dir/model.md"; } >> "$out/armada-bench-report.txt"
fi
exit $status
