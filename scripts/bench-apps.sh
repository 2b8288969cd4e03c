#!/usr/bin/env bash
# The application benchmarks: NAS MG and CG, the CCSD-like contraction. Builds them (Release, in
# build-release/ unless BUILD_DIR says otherwise), runs every case of apps/<app>/bench-cases.txt
# REPEATS times (default 3) under mpiexec, and writes results/apps-<UTC date>/ with
#   results.jsonl   every launch's JSON line (the program's last stdout line), plus "case",
#                   "launch" and the load average before the launch
#   table.md        per case: median time (s), median rate (Mop/s or GF/s), min-max, launches
#   apps.png        time per case, medians with min-max bars (gnuplot), and apps.gp
#   command.txt     the exact commands, the machine, the load averages
#   logs/           every launch's full output
#
#   scripts/bench-apps.sh                    every app, every case
#   scripts/bench-apps.sh mg cg              some apps
#   REPEATS=5 scripts/bench-apps.sh ccsd
#   CASE_FILTER='--class A' scripts/bench-apps.sh mg   only cases whose line matches
#
# A case is "<program> <ranks> <args...>" ('#' starts a comment). A launch that fails or prints
# no JSON line fails the run (after the other cases), and its log says why.
set -euo pipefail
source "$(dirname "$0")/common.sh"

build=${BUILD_DIR:-$armada_root/build-release}
repeats=${REPEATS:-3}
limit=${CASE_TIMEOUT:-1800}
apps=("$@")
[ ${#apps[@]} -gt 0 ] || apps=(mg cg ccsd)

for app in "${apps[@]}"; do
  [ -f "$armada_root/apps/$app/bench-cases.txt" ] || { echo "bench-apps.sh: no apps/$app/bench-cases.txt" >&2; exit 2; }
done
command -v gnuplot > /dev/null || { echo "bench-apps.sh: gnuplot missing: run scripts/setup.sh" >&2; exit 1; }

if [ ! -f "$build/CMakeCache.txt" ]; then
  echo "== configure ($build, Release)"
  cmake -S "$armada_root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DARMADA_BUILD_TESTS=OFF -DARMADA_BUILD_BENCH=ON
fi
# The programs the cases name.
mapfile -t programs < <(for app in "${apps[@]}"; do grep -v -E '^\s*(#|$)' "$armada_root/apps/$app/bench-cases.txt" | awk '{print $1}'; done | sort -u)
echo "== build ${programs[*]} ($build)"
cmake --build "$build" -j"$jobs" --target "${programs[@]}"

out="$armada_root/results/apps-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$out/logs"
{
  echo "# scripts/bench-apps.sh ${apps[*]} (REPEATS=$repeats)"
  echo "# $(uname -n), $(nproc) CPUs, $(date -u)"
} > "$out/command.txt"

find_exe() { find "$build/apps" -type f -name "$1" -perm -u+x | head -n1; }

failed=0
n=0
total=$(for app in "${apps[@]}"; do grep -v -E '^\s*(#|$)' "$armada_root/apps/$app/bench-cases.txt"; done | grep -c -F -- "${CASE_FILTER:-}" || true)
for app in "${apps[@]}"; do
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
      echo "timeout $limit mpiexec -n $ranks $exe $args   # load $load" >> "$out/command.txt"
      # shellcheck disable=SC2086
      # stdin from /dev/null: mpiexec would otherwise read the rest of the case list.
      if ! timeout "$limit" bash -c "$(declare -f armada_mpiexec); armada_mpiexec -n $ranks $exe $args" < /dev/null > "$log" 2>&1; then
        echo "   FAILED (exit code; see $log)"; failed=1; continue
      fi
      json=$(grep -E '^\{.*\}$' "$log" | tail -n1 || true)
      [ -n "$json" ] || { echo "   FAILED: no JSON line (see $log)"; failed=1; continue; }
      printf '%s\n' "${json%\}},\"case\":\"$program $ranks $args\",\"launch\":$r,\"load\":$load}" >> "$out/results.jsonl"
    done
  done < "$armada_root/apps/$app/bench-cases.txt"
done

# Medians per case (python3 is on every machine this runs on; no packages needed).
python3 - "$out" <<'EOF'
import json, statistics, sys, collections
out = sys.argv[1]
rows = collections.OrderedDict()
try:
    lines = open(f"{out}/results.jsonl").read().splitlines()
except FileNotFoundError:
    lines = []
for line in lines:
    r = json.loads(line)
    rows.setdefault(r["case"], []).append(r)
def rate(r):
    for key, unit in (("mops", "Mop/s"), ("gflops", "GF/s")):
        if isinstance(r.get(key), (int, float)):
            return r[key], unit
    return None, ""
with open(f"{out}/table.md", "w") as t, open(f"{out}/medians.dat", "w") as d:
    t.write("| case | launches | median time (s) | min-max (s) | median rate | verified | load |\n")
    t.write("| --- | --- | --- | --- | --- | --- | --- |\n")
    for i, (case, rs) in enumerate(rows.items()):
        times = [r["time_s"] for r in rs]
        rates = [rate(r)[0] for r in rs if rate(r)[0] is not None]
        unit = rate(rs[0])[1]
        verified = all(r.get("verified", True) is not False for r in rs)  # programs without a check: yes
        med = statistics.median(times)
        rate_txt = f"{statistics.median(rates):.1f} {unit}" if rates else "-"
        loads = ", ".join(f"{r['load']}" for r in rs)
        t.write(f"| `{case}` | {len(rs)} | {med:.3f} | {min(times):.3f}-{max(times):.3f} | {rate_txt} | "
                f"{'yes' if verified else 'NO'} | {loads} |\n")
        d.write(f"{i} \"{case}\" {med} {min(times)} {max(times)}\n")
print(open(f"{out}/table.md").read())
EOF

if [ -s "$out/medians.dat" ]; then
  cat > "$out/apps.gp" <<EOF
set terminal pngcairo size 1200,700
set output '$out/apps.png'
set title 'Armada applications: median time of each case (bars: min-max over $repeats launches)'
set ylabel 'time (s)'
set logscale y
set xtics rotate by -35 font ',8' noenhanced
set key off
set grid ytics
set style fill solid 0.4
set boxwidth 0.6
plot '$out/medians.dat' using 1:3:xtic(2) with boxes lc rgb '#3b6ea5', \
     '' using 1:3:4:5 with yerrorbars lc rgb 'black' pt 7 ps 0.5
EOF
  gnuplot "$out/apps.gp" || echo "bench-apps.sh: gnuplot failed (the table and JSON are complete)" >&2
fi
echo "== results in $out"
exit "$failed"
