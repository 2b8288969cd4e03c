#!/usr/bin/env bash
# The application benchmarks. MG and CG run beside NAS Parallel Benchmarks 3.4's own MPI code
# (the reference), alternately in this one launch: for every class, rank count and binding, each
# repetition runs NPB's mg.<class>.x, armada-mg --comm rma and armada-mg --comm mpi (the order
# rotates from one repetition to the next), then the same for CG. The CCSD-like contraction and
# the other programs of apps/<app>/bench-cases.txt run as listed there.
#
#   scripts/bench-apps.sh                          mg, cg (classes A B, 1 2 4 ranks) and ccsd
#   scripts/bench-apps.sh mg cg                    some apps
#   scripts/bench-apps.sh --classes B --ranks 2 mg
#   scripts/bench-apps.sh --quick                  smoke test: class S, 1 repetition, mg and cg
#   REPEATS=5 scripts/bench-apps.sh ccsd
#
# Options: --classes "A B" (default A B; --quick: S), --ranks "1 2 4", --bind "default none"
# (default: the MPI's own default binding, and --bind-to none), --repeats N (or REPEATS, default
# 3; --quick: 1), --no-build (run the programs already in BUILD_DIR), --out DIR.
# The targets of issue 33 are the class A and B rows at 2 ranks (docs/apps.md).
#
# The reference: ../shared/npb/build.sh beside the checkout builds NPB into BUILD_DIR/npb (once);
# otherwise NPB_DIR names a user's NPB build (its bin/ or the folder holding mg.<class>.x and
# cg.<class>.x); without either, the script says so and runs Armada alone.
#
# Writes results/apps-<UTC date>/ (or --out):
#   npb.md          MG and CG beside NPB: medians, [min..max], ratios (median, the worst launch,
#                   every launch's), the memory floor Armada measured in each repetition and the
#                   ratios to it, the targets judged in the worst launch, the CPU, loads (also printed)
#   npb.jsonl       one line per launch (app, class, ranks, bind, impl, repetition, log, load)
#   npb-rows.jsonl  one line per row of npb.md: every launch's ratios, the worst, the verdicts
#   table.md, results.jsonl, apps.png   the bench-cases.txt programs; each "vs_" ratio per launch
#                   and the worst launch's, issue 54's targets judged in the worst launch
#   case-rows.jsonl one line per row of table.md, as npb-rows.jsonl
#   command.txt     the exact commands, the machine, the load averages
#   logs/           every launch's full output
# Every launch's verification is checked: a launch that fails or does not verify fails the run
# (exit 1) and gives no figure. Wall times are only meaningful on a quiet machine (no build or
# test suite running): the load average before and after is in the table for that reason.
set -euo pipefail
source "$(dirname "$0")/common.sh"

build=${BUILD_DIR:-$armada_root/build-release}
repeats=${REPEATS:-3}
limit=${CASE_TIMEOUT:-1800}
classes=""
ranks_list="1 2 4"
bindings="default none"
quick=0
do_build=1
out=""
apps=()
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=1 ;;
    --classes) classes=$2; shift ;;
    --ranks) ranks_list=$2; shift ;;
    --bind) bindings=$2; shift ;;
    --repeats) repeats=$2; repeats_given=1; shift ;;
    --no-build) do_build=0 ;;
    --out) out=$2; shift ;;
    -h|--help) awk 'NR > 1 && !/^#/ {exit} NR > 1 {sub(/^# ?/, ""); print}' "$0"; exit 0 ;;
    -*) echo "bench-apps.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    *) apps+=("$1") ;;
  esac
  shift
done
if [ $quick = 1 ]; then  # explicit --classes / --repeats still win
  [ -n "$classes" ] || classes=S
  [ -n "${repeats_given:-}" ] || repeats=1
  [ ${#apps[@]} -gt 0 ] || apps=(mg cg)
fi
[ -n "$classes" ] || classes="A B"
[ ${#apps[@]} -gt 0 ] || apps=(mg cg ccsd)
[[ $repeats =~ ^[1-9][0-9]*$ ]] || { echo "bench-apps.sh: --repeats '$repeats' is not a positive number" >&2; exit 2; }
for c in $classes; do [[ $c =~ ^[SWABC]$ ]] || { echo "bench-apps.sh: --classes: '$c' is not S, W, A, B or C" >&2; exit 2; }; done
for n in $ranks_list; do [[ $n =~ ^(1|2|4|8|16|32|64)$ ]] || { echo "bench-apps.sh: --ranks: '$n' is not a power of two (NPB needs one)" >&2; exit 2; }; done
for b in $bindings; do [[ $b =~ ^(default|none|core|socket)$ ]] || { echo "bench-apps.sh: --bind: '$b' is not default, none, core or socket" >&2; exit 2; }; done

npb_apps=()     # apps run beside NPB
case_apps=()    # apps with a bench-cases.txt (other programs than armada-mg/armada-cg)
for app in "${apps[@]}"; do
  case $app in
    mg|cg) npb_apps+=("$app") ;;
    ccsd) ;;
    *) [ -f "$armada_root/apps/$app/bench-cases.txt" ] || { echo "bench-apps.sh: unknown app '$app' (mg, cg, ccsd)" >&2; exit 2; } ;;
  esac
  # In a smoke test only the NPB comparison runs (the case files are full-size runs).
  [ $quick = 1 ] || [ ! -f "$armada_root/apps/$app/bench-cases.txt" ] || case_apps+=("$app")
done

# The programs: armada-<app> for the comparison, the first word of every case line.
programs=()
for app in "${npb_apps[@]}"; do programs+=("armada-$app"); done
for app in "${case_apps[@]}"; do
  mapfile -t -O ${#programs[@]} programs < <(grep -v -E '^\s*(#|$)' "$armada_root/apps/$app/bench-cases.txt" | awk '{print $1}' | sort -u)
done
if [ $do_build = 1 ]; then
  command -v gnuplot > /dev/null || { echo "bench-apps.sh: gnuplot missing: run scripts/setup.sh" >&2; exit 1; }
  if [ ! -f "$build/CMakeCache.txt" ]; then
    echo "== configure ($build, Release)"
    cmake -S "$armada_root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DARMADA_BUILD_TESTS=OFF -DARMADA_BUILD_BENCH=ON
  fi
  echo "== build ${programs[*]} ($build)"
  cmake --build "$build" -j"$jobs" --target "${programs[@]}"
fi
find_exe() { find "$build/apps" -type f -name "$1" -perm -u+x 2>/dev/null | head -n1; }

# The reference binaries: bin/ of ../shared/npb/build.sh's output, or NPB_DIR.
npb_bin=""
npb_note=""
if [ ${#npb_apps[@]} -gt 0 ]; then
  shared_npb="$armada_root/../shared/npb/build.sh"
  if [ -n "${NPB_DIR:-}" ]; then
    npb_bin=$NPB_DIR; [ ! -d "$NPB_DIR/bin" ] || npb_bin=$NPB_DIR/bin
    npb_note="NPB from NPB_DIR ($npb_bin)"
  elif [ -f "$shared_npb" ]; then
    echo "== NPB reference: $shared_npb $build/npb $classes"
    # shellcheck disable=SC2086  # one argument per class
    if npb_bin=$(bash "$shared_npb" "$build/npb" $classes | tail -n1); then
      npb_note="NPB 3.4 MPI built by ../shared/npb/build.sh ($npb_bin)"
    else
      echo "bench-apps.sh: building NPB failed (see $build/npb/NPB3.4-MPI/build.log)" >&2; exit 1
    fi
  else
    npb_note="no NPB reference: neither NPB_DIR nor ../shared/npb/build.sh; Armada runs alone"
  fi
  echo "== $npb_note"
fi

[ -n "$out" ] || out="$armada_root/results/apps-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$out/logs"
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
{
  echo "# scripts/bench-apps.sh ${apps[*]} (classes $classes, ranks $ranks_list, bindings $bindings, repeats $repeats)"
  echo "# $(uname -n), $(nproc) CPUs, $(date -u), load average before: $load_start"
  echo "# $npb_note"
} > "$out/command.txt"

failed=0
# launch LOG BINDING RANKS COMMAND...: one mpiexec launch, its output in LOG.
launch() {
  local log=$1 bind=$2 ranks=$3; shift 3
  local load; load=$(cut -d' ' -f1 /proc/loadavg)
  echo "MPIEXEC_BIND=$bind timeout $limit mpiexec -n $ranks $*   # load $load" >> "$out/command.txt"
  # stdin from /dev/null: mpiexec would otherwise read the rest of a case list.
  MPIEXEC_BIND=$bind timeout "$limit" bash -c "$(declare -f armada_mpiexec); armada_mpiexec -n $ranks $*" < /dev/null > "$log" 2>&1
}

# ---- MG and CG beside NPB --------------------------------------------------------------------
: > "$out/npb.jsonl"
for app in "${npb_apps[@]}"; do
  exe=$(find_exe "armada-$app")
  [ -n "$exe" ] || { echo "bench-apps.sh: armada-$app is not built in $build" >&2; exit 1; }
  for cls in $classes; do
    ref=""
    if [ -n "$npb_bin" ]; then
      ref="$npb_bin/$app.$cls.x"
      [ -x "$ref" ] || { echo "== no $ref: class $cls of $app runs without NPB"; ref=""; }
    fi
    impls=(rma mpi); [ -z "$ref" ] || impls=(npb rma mpi)
    for ranks in $ranks_list; do
      for rep in $(seq 1 "$repeats"); do
        for bind in $bindings; do
          # Rotate who goes first, so that no variant always follows the same one.
          order=("${impls[@]:$(( (rep - 1) % ${#impls[@]} ))}" "${impls[@]:0:$(( (rep - 1) % ${#impls[@]} ))}")
          for impl in "${order[@]}"; do
            log="$out/logs/$app.$cls.$ranks.$bind.$impl.$rep.txt"
            load=$(cut -d' ' -f1 /proc/loadavg)
            if [ "$impl" = npb ]; then cmd=("$ref"); else cmd=("$exe" --class "$cls" --comm "$impl"); fi
            status=0
            launch "$log" "$bind" "$ranks" "${cmd[@]}" || status=$?
            printf '== %s class %s, %d ranks, bind %s, %s (%d/%d), load %s: exit %d\n' \
              "$app" "$cls" "$ranks" "$bind" "$impl" "$rep" "$repeats" "$load" "$status"
            printf '{"app":"%s","class":"%s","ranks":%d,"bind":"%s","impl":"%s","repetition":%d,"exit":%d,"load":%s,"log":"%s"}\n' \
              "$app" "$cls" "$ranks" "$bind" "$impl" "$rep" "$status" "$load" "$log" >> "$out/npb.jsonl"
          done
        done
      done
    done
  done
done
if [ ${#npb_apps[@]} -gt 0 ]; then
  load_end=$(cut -d' ' -f1-3 /proc/loadavg)
  python3 "$armada_root/scripts/bench_apps_npb.py" "$out/npb.jsonl" "$out/npb.md" --rows-json "$out/npb-rows.jsonl" \
    --load-before "$load_start" --load-after "$load_end" --note "$npb_note" || failed=1
  cat "$out/npb.md"
fi

# ---- the programs of apps/<app>/bench-cases.txt ------------------------------------------------
if [ ${#case_apps[@]} -gt 0 ]; then
  n=0
  total=$(for app in "${case_apps[@]}"; do grep -v -E '^\s*(#|$)' "$armada_root/apps/$app/bench-cases.txt"; done | grep -c -F -- "${CASE_FILTER:-}" || true)
  for app in "${case_apps[@]}"; do
    while read -r program ranks args; do
      [ -n "$program" ] && [[ $program != \#* ]] || continue
      [ -z "${CASE_FILTER:-}" ] || [[ "$program $ranks $args" == *"$CASE_FILTER"* ]] || continue
      n=$((n + 1))
      exe=$(find_exe "$program")
      [ -n "$exe" ] || { echo "bench-apps.sh: $program was not built" >&2; failed=1; continue; }
      for r in $(seq 1 "$repeats"); do
        load=$(cut -d' ' -f1 /proc/loadavg)
        log="$out/logs/${program}.case$n.run$r.txt"
        echo "== [$n/$total] $program -n $ranks $args (launch $r/$repeats, load $load)"
        # shellcheck disable=SC2086
        if ! launch "$log" "${MPIEXEC_BIND:-none}" "$ranks" "$exe" $args; then
          echo "   FAILED (exit code; see $log)"; failed=1; continue
        fi
        json=$(grep -E '^\{.*\}$' "$log" | tail -n1 || true)
        [ -n "$json" ] || { echo "   FAILED: no JSON line (see $log)"; failed=1; continue; }
        printf '%s\n' "${json%\}},\"case\":\"$program $ranks $args\",\"launch\":$r,\"load\":$load}" >> "$out/results.jsonl"
      done
    done < "$armada_root/apps/$app/bench-cases.txt"
  done
  python3 "$armada_root/scripts/bench_apps_npb.py" --cases "$out/results.jsonl" "$out/table.md" "$out/medians.dat" \
    --rows-json "$out/case-rows.jsonl" || failed=1
  cat "$out/table.md"
  if [ -s "$out/medians.dat" ] && command -v gnuplot > /dev/null; then
    cat > "$out/apps.gp" <<EOF
set terminal pngcairo size 1000,600
set output '$out/apps.png'
set title "Armada applications: median time of each case (bars: min-max over $repeats launches)\\n$(hostname), $(lscpu | sed -n 's/^Model name: *//p' | head -n1), $(nproc) CPUs, $(date -u +%Y-%m-%d)" noenhanced
set ylabel 'time (s), lower is better'
set xlabel 'case: the # column of table.md (its command, ranks and rate)'
set logscale y
set xtics noenhanced
set key off
set grid ytics
set style fill solid 0.4
set boxwidth 0.6
plot '$out/medians.dat' using 1:3:xtic(2) with boxes lc rgb '#3b6ea5', \
     '' using 1:3:4:5 with yerrorbars lc rgb 'black' pt 7 ps 0.5
EOF
    gnuplot "$out/apps.gp" || echo "bench-apps.sh: gnuplot failed (the table and JSON are complete)" >&2
  fi
fi
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/command.txt"
echo "== results in $out"
exit "$failed"
