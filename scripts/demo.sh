#!/usr/bin/env bash
# The demo: what Armada is for, in about a minute after the build.
#   scripts/demo.sh [--quick] [--build-dir DIR] [ranks]      (default 4 ranks)
#  1. NAS MG (class A; --quick: class S) on Armada's one-sided arrays and, in the next launch, the
#     same kernels over MPI messages (--comm mpi): both verified against NPB's official norm;
#  2. a distributed gemm through armada::linalg, every result checked, beside OpenBLAS in one
#     process (armada-bench-linalg);
#  3. the headline of the one-sided benchmark: each figure of Armada's rma layer against its
#     MPI-3 one-sided baseline, measured in the same launch (armada-bench, 2 ranks).
# Each step ends with one "verdict:" line; the script exits nonzero when a step failed.
# Without --build-dir it installs what is missing, builds Release into build-release and runs
# there; with it, it runs the programs of that build tree (built with ARMADA_BUILD_BENCH=ON).
# The figures are a first look on this machine, not measurements (docs/benchmarks.md).
set -uo pipefail
source "$(dirname "$0")/common.sh"

quick=0
build=""
ranks=4
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=1 ;;
    --build-dir) build=$2; shift ;;
    --build-dir=*) build=${1#--build-dir=} ;;
    -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *[!0-9]*|'') echo "demo.sh: unknown argument '$1'" >&2; exit 2 ;;
    *) ranks=$1 ;;
  esac
  shift
done

programs=(armada-mg armada-bench-linalg armada-bench)
if [ -z "$build" ]; then
  set -e
  "$armada_root/scripts/setup.sh"
  build="$armada_root/build-release"
  cmake -S "$armada_root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DARMADA_BUILD_TESTS=OFF \
    -DARMADA_BUILD_BENCH=ON >/dev/null
  cmake --build "$build" -j "$jobs" --target "${programs[@]}"
  set +e
fi
mg="$build/apps/mg/armada-mg"
linalg="$build/bench/linalg/armada-bench-linalg"
bench="$build/bench/armada-bench"
for program in "$mg" "$linalg" "$bench"; do
  [ -x "$program" ] || { echo "demo.sh: $program is missing (build it with ARMADA_BUILD_BENCH=ON)" >&2; exit 2; }
done

run() {  # run <seconds> <ranks> <program> <args...>: the launch's output, its exit code kept
  local seconds=$1 n=$2
  shift 2
  timeout "$seconds" bash -c "$(declare -f armada_mpiexec); armada_mpiexec -n $n $(printf '%q ' "$@")" 2>&1
}
value_of() {  # value_of <label> <NPB report>: the value after "<label> ="
  sed -n "s/^ *$1 *= *//p" <<<"$2" | head -1
}
failed=0

class=A
[ "$quick" = 1 ] && class=S
echo "== 1. NAS MG class $class on $ranks ranks: one-sided arrays (Armada), then the same kernels over MPI messages"
declare -A mg_time mg_verified
for comm in rma mpi; do
  out=$(run 300 "$ranks" "$mg" --class "$class" --comm "$comm")
  status=$?
  printf '%s\n' "$out" | sed -n '/MG Benchmark Completed/,/Verification/p'
  mg_time[$comm]=$(value_of "Time in seconds" "$out")
  mg_verified[$comm]=$([ $status -eq 0 ] && [ "$(value_of Verification "$out")" = SUCCESSFUL ] && echo yes || echo no)
done
if [ "${mg_verified[rma]}" = yes ] && [ "${mg_verified[mpi]}" = yes ]; then
  ratio=$(awk -v a="${mg_time[rma]}" -v b="${mg_time[mpi]}" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')
  echo "verdict: NAS MG class $class verified on one-sided arrays (${mg_time[rma]} s) and on MPI (${mg_time[mpi]} s): time ratio one-sided/MPI $ratio"
else
  echo "verdict: NAS MG class $class FAILED (one-sided arrays verified: ${mg_verified[rma]}, MPI verified: ${mg_verified[mpi]})"
  failed=1
fi

echo
echo "== 2. distributed gemm (armada::linalg) on $ranks ranks, every result checked, beside OpenBLAS in one process"
out=$(run 300 "$ranks" "$linalg" --quick)
status=$?
printf '%s\n' "$out" | grep -E '^(op|gemm) '
if [ $status -eq 0 ] && grep -q '^all results verified' <<<"$out"; then
  best=$(awk '$1 == "gemm" && $3 == "armada" { n = $2; g = $4 } END { if (n) printf "n = %s: %s GF/s", n, g }' <<<"$out")
  echo "verdict: distributed gemm verified ($best on $ranks ranks)"
else
  echo "verdict: distributed gemm FAILED (exit $status)"
  failed=1
fi

echo
echo "== 3. one-sided benchmark headline: Armada's rma layer against MPI-3 one-sided, same launch, 2 ranks"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
out=$(run 300 2 "$bench" --quick --only contig,overlap,atomic --transports shm --no-plot --output-dir "$scratch")
status=$?
headline=$(printf '%s\n' "$out" | sed -n '/######## verdict/,$p')
printf '%s\n' "$headline"
measured=$(grep -c -E '^[^ ].*\((lower|higher) better\) +[0-9.e+-]+ ' <<<"$headline")
if [ $status -eq 0 ] && [ "$measured" -gt 0 ]; then
  echo "verdict: rma benchmark data verified, $measured headline figures measured against their MPI baseline (speed-up vs MPI in the last column, higher is better)"
else
  echo "verdict: rma benchmark FAILED (exit $status, $measured headline figures)"
  failed=1
fi
exit $failed
