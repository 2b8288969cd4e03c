#!/usr/bin/env bash
# The standard benchmark set: builds armada-bench (Release, in build-release/ unless it exists),
# runs it on 2 ranks with every family and transport, and writes results/bench-<UTC date>/ with
# armada-bench.json, .csv, .gp, the PNG plots (one set per transport), the verdict and headline
# (armada-bench-report.txt, printed again at the end), the table (stdout.txt), the progress and
# diagnostics (stderr.txt) and the exact command with the machine's state (command.txt).
#
#   scripts/bench.sh                          the standard set (a few minutes on 2 cores)
#   scripts/bench.sh --quick                  a smoke test (seconds): checks that it runs, measures nothing
#   scripts/bench.sh --transports shm contig  any armada-bench options (docs/benchmarks.md)
#   RANKS=4 BENCH_TIMEOUT=3600 scripts/bench.sh
#   BUILD_DIR=/path/to/build scripts/bench.sh
#   HOSTFILE=hosts scripts/bench.sh           across nodes (Open MPI --hostfile / Hydra -f)
#   SCALE=quick scripts/bench.sh              also a short scaling sweep (armada-scale, server, 2-8 ranks)
#   SCALE_DIR=results/scale-X scripts/bench.sh   add that scripts/bench-scale.sh sweep to the report
#
# The report (armada-bench-report.txt) ends with the scaling section when either is given: the
# plot scale.png beside it and the model table (docs/scaling.md says how to read them).
set -euo pipefail
source "$(dirname "$0")/common.sh"

build=${BUILD_DIR:-$armada_root/build-release}
ranks=${RANKS:-2}
limit=${BENCH_TIMEOUT:-1800}

if ! command -v gnuplot > /dev/null; then
  echo "bench.sh: gnuplot is not installed: run scripts/setup.sh (it installs gnuplot-nox)" >&2
  exit 1
fi
if [ ! -f "$build/CMakeCache.txt" ]; then
  echo "== configure ($build, Release)"
  cmake -S "$armada_root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DARMADA_BUILD_TESTS=OFF -DARMADA_BUILD_BENCH=ON
else
  # Re-run the configuration: the optional bench folders are found at configure time.
  cmake -S "$armada_root" -B "$build" > /dev/null
fi
type=$(sed -n 's/^CMAKE_BUILD_TYPE:STRING=//p' "$build/CMakeCache.txt")
[ "$type" = Release ] || echo "bench.sh: WARNING: $build is a '$type' build, not Release" >&2
echo "== build armada-bench ($build)"
cmake --build "$build" -j"$jobs" --target armada-bench
exe=$build/bench/armada-bench

load=$(cut -d' ' -f1 /proc/loadavg)
if awk -v l="$load" -v n="$(nproc)" 'BEGIN { exit !(l > n / 2) }'; then
  echo "bench.sh: WARNING: load average $load on $(nproc) CPUs: other processes compete for the cores and the figures will be noisy" >&2
fi

# Open MPI one-sided components: osc sm for windows inside one host, osc ucx across hosts, the
# configuration the mpi-rma transport is built for (docs/mpi-quirks.md). The MPI baselines of the
# same launch run on it too. An OMPI_MCA_osc already set wins.
export OMPI_MCA_osc=${OMPI_MCA_osc:-sm,ucx}

smoke=
for a in "$@"; do [ "$a" = --quick ] && smoke="SMOKE TEST (--quick): short repetitions that check the benchmark runs and its data verify; the figures are not measurements"; done
[ -z "$smoke" ] || echo "bench.sh: $smoke"

out=$armada_root/results/bench-$(date -u +%Y%m%d-%H%M%S)
mkdir -p "$out"
hostflags=()
if [ -n "${HOSTFILE:-}" ]; then
  if "${MPIEXEC:-mpiexec}" --version 2>&1 | grep -q -E 'Open MPI|OpenRTE'; then hostflags=(--hostfile "$HOSTFILE"); else hostflags=(-f "$HOSTFILE"); fi
fi

{
  echo "# scripts/bench.sh $*"
  [ -z "$smoke" ] || echo "# $smoke"
  echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname), git $(git -C "$armada_root" rev-parse --short HEAD 2>/dev/null || echo '?')$(git -C "$armada_root" diff --quiet 2>/dev/null || echo ' (with uncommitted changes)')"
  echo "# uptime before: $(uptime)"
  echo "# OMPI_MCA_osc=$OMPI_MCA_osc"
  echo "# CPUs: $(nproc); $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //')"
  echo "# the launch, as executed (bash trace of scripts/common.sh armada_mpiexec under timeout $limit):"
} > "$out/command.txt"

echo "== armada-bench on $ranks ranks -> $out"
status=0
# The trace (set -x) of armada_mpiexec records the exact mpiexec command line and its variables.
timeout --kill-after=30 "$limit" bash -c '
  exec 9>> "$2/command.txt"; BASH_XTRACEFD=9
  source "$1/scripts/common.sh"; shift 2
  set -x
  armada_mpiexec "$@"' _ "$armada_root" "$out" "${hostflags[@]}" -n "$ranks" "$exe" --output-dir "$out" "$@" \
  > >(tee "$out/stdout.txt") 2> >(tee "$out/stderr.txt" >&2) || status=$?
sleep 0.2  # let tee finish
echo "# uptime after: $(uptime)" >> "$out/command.txt"
echo "# exit status: $status" >> "$out/command.txt"

# The scaling section: a sweep run now (SCALE=quick) or an earlier one (SCALE_DIR).
scale_dir=${SCALE_DIR:-}
if [ "${SCALE:-}" = quick ]; then
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

# What to conclude: the verdict at the top of the report (the headline table follows it there).
if [ -s "$out/armada-bench-report.txt" ]; then
  echo
  sed -n '/^######## verdict/,/^######## headline/p' "$out/armada-bench-report.txt" | sed '$d'
  echo "(the verdict and the headline table: $out/armada-bench-report.txt)"
fi
case $status in
  0) echo "== done: $out" ;;
  124|137) echo "bench.sh: the run exceeded BENCH_TIMEOUT=$limit s and was killed; partial output in $out" >&2 ;;
  1) echo "bench.sh: a data check FAILED (see $out/stderr.txt)" >&2 ;;
  4) echo "bench.sh: plotting failed (see $out/stderr.txt); JSON and CSV are in $out" >&2 ;;
  *) echo "bench.sh: armada-bench failed with status $status (see $out/stderr.txt)" >&2 ;;
esac
ls "$out"
exit $status
