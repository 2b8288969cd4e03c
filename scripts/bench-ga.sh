#!/usr/bin/env bash
# Global Arrays' API on Armada against Global Arrays itself (issue 27): one GA program
# (bench/ga/ga_bench.cpp) built on Armada's ga.h (armada-bench-ga) and on Debian's Global Arrays
# 5.8 over ARMCI-MPI (armada-bench-ga-ref), launched alternately in this one run of the script
# (the two define the same GA_* symbols: they cannot share a process). The order of the two
# rotates from one repetition to the next. Reports, per figure, the median over launches of each
# launch's median, [min..max] over launches, the ratio Armada / GA (time: lower is better) and
# the verdict against issue 27's targets: patch get/put/acc and read_inc <= 0.7, dgemm <= 1.0.
#
#   scripts/bench-ga.sh                      2 and 4 ranks, 3 repetitions
#   scripts/bench-ga.sh --ranks 2 --repeats 5
#   scripts/bench-ga.sh --quick              smoke test (1 repetition, small sizes)
#
# Options: --ranks "2 4", --repeats N (launches of each build; default 3), --reps N (repetitions
# inside a launch; default 7), --quick, --no-build, --out DIR.
# Writes results/ga-<UTC date>/ (or --out): ga.md (the table, also printed), results.jsonl (every
# record of every launch, with "impl", "launch" and "load"), command.txt (commands, machine,
# loads), logs/. A launch that fails or does not verify fails the run (exit 1).
# Wall times mean something only on a quiet machine: the load average is in the table.
set -euo pipefail
source "$(dirname "$0")/common.sh"

build=${BUILD_DIR:-$armada_root/build-release}
ranks_list="2 4"
repeats=3
reps=7
quick=0
do_build=1
out=""
limit=${CASE_TIMEOUT:-900}
while [ $# -gt 0 ]; do
  case $1 in
    --ranks) ranks_list=$2; shift ;;
    --repeats) repeats=$2; shift ;;
    --reps) reps=$2; shift ;;
    --quick) quick=1; repeats=1 ;;
    --no-build) do_build=0 ;;
    --out) out=$2; shift ;;
    -h|--help) awk 'NR > 1 && !/^#/ {exit} NR > 1 {sub(/^# ?/, ""); print}' "$0"; exit 0 ;;
    *) echo "bench-ga.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done
[[ $repeats =~ ^[1-9][0-9]*$ ]] || { echo "bench-ga.sh: --repeats '$repeats' is not a positive number" >&2; exit 2; }
[[ $reps =~ ^[1-9][0-9]*$ ]] || { echo "bench-ga.sh: --reps '$reps' is not a positive number" >&2; exit 2; }
for n in $ranks_list; do [[ $n =~ ^[1-9][0-9]*$ ]] || { echo "bench-ga.sh: --ranks: '$n' is not a rank count" >&2; exit 2; }; done

programs=(armada-bench-ga armada-bench-ga-ref)
if [ $do_build = 1 ]; then
  if [ ! -f "$build/CMakeCache.txt" ]; then
    echo "== configure ($build, Release)"
    cmake -S "$armada_root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DARMADA_BUILD_TESTS=OFF -DARMADA_BUILD_BENCH=ON
  fi
  echo "== build ${programs[*]} ($build)"
  cmake --build "$build" -j"$jobs" --target "${programs[@]}" ||
    { echo "bench-ga.sh: building failed; armada-bench-ga-ref needs libglobalarrays-dev and libarmci-mpi-dev (scripts/setup.sh)" >&2; exit 1; }
fi
for p in "${programs[@]}"; do
  [ -x "$build/bench/$p" ] || { echo "bench-ga.sh: $build/bench/$p is not built" >&2; exit 1; }
done

[ -n "$out" ] || out="$armada_root/results/ga-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$out/logs"
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
cpu=$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -n1)
{
  echo "# scripts/bench-ga.sh (ranks $ranks_list, repeats $repeats, reps $reps, quick $quick)"
  echo "# $(uname -n), $(nproc) CPUs ($cpu), $(date -u), load average before: $load_start"
} > "$out/command.txt"
: > "$out/results.jsonl"
args=(--reps "$reps")
[ $quick = 0 ] || args+=(--quick)

failed=0
for ranks in $ranks_list; do
  for rep in $(seq 1 "$repeats"); do
    order=("${programs[@]}")
    [ $((rep % 2)) = 1 ] || order=("${programs[1]}" "${programs[0]}")
    for p in "${order[@]}"; do
      log="$out/logs/$p.np$ranks.$rep.log"
      json="$out/logs/$p.np$ranks.$rep.jsonl"
      load=$(cut -d' ' -f1 /proc/loadavg)
      echo "timeout $limit mpiexec -n $ranks $p ${args[*]} --output $json   # load $load" >> "$out/command.txt"
      echo "== $p, $ranks ranks (launch $rep/$repeats, load $load)"
      status=0
      timeout "$limit" bash -c "$(declare -f armada_mpiexec); armada_mpiexec -n $ranks \"\$@\"" _ \
        "$build/bench/$p" "${args[@]}" --output "$json" < /dev/null > "$log" 2>&1 || status=$?
      if [ $status != 0 ] || ! grep -q '^all data checks passed' "$log"; then
        echo "bench-ga.sh: $p at $ranks ranks failed (exit $status): $log" >&2; tail -n 20 "$log" >&2; failed=1; continue
      fi
      python3 -c 'import json,sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get("bench") == "_meta": continue
    r.update(impl=sys.argv[2], launch=int(sys.argv[3]), load=float(sys.argv[4])); print(json.dumps(r))' \
        "$json" "$p" "$rep" "$load" >> "$out/results.jsonl"
    done
  done
done
load_end=$(cut -d' ' -f1-3 /proc/loadavg)
echo "# load average after: $load_end" >> "$out/command.txt"
python3 "$armada_root/scripts/bench_ga_report.py" "$out/results.jsonl" "$out/ga.md" \
  --cpu "$cpu" --load-before "$load_start" --load-after "$load_end" || failed=1
cat "$out/ga.md"
echo "== results in $out"
exit $failed
