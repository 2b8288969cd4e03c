#!/bin/sh
# Checks what `armada-bench --quick --output-dir DIR` wrote: check_suite_output.sh DIR ARMADA_BENCH
set -u
dir=$1
exe=$2
fail() { echo "FAIL: $*"; exit 1; }

for f in armada-bench.json armada-bench.csv armada-bench.gp; do
  [ -s "$dir/$f" ] || fail "$dir/$f is missing or empty"
done
header='transport,node_size,ranks,family,op,method,metric,unit,bytes,seg_bytes,nseg,x,median,min,max,p25,p75,reps,iterations,verified,mpi,host,date'
[ "$(head -n 1 "$dir/armada-bench.csv")" = "$header" ] || fail "CSV header differs: $(head -n 1 "$dir/armada-bench.csv")"
rows=$(($(wc -l < "$dir/armada-bench.csv") - 1))
[ "$rows" -ge 100 ] || fail "only $rows CSV rows"
# Every result's data was verified.
if grep -q '"verified":false' "$dir/armada-bench.json"; then fail "a result is not verified"; fi
if grep -q ',no,[^,]*,[^,]*,[^,]*$' "$dir/armada-bench.csv"; then fail "a CSV row is not verified"; fi
# Every family, and every transport either measured or reported as not available.
for family in contig strided overlap aggregate atomic fence; do
  grep -q "\"family\":\"$family\"" "$dir/armada-bench.json" || fail "no $family results"
done
for t in shm server mpi-rma; do
  grep -q "{\"transport\":\"$t\",[^}]*\"status\":\"\(ok\|not available in this build[^\"]*\)\"" "$dir/armada-bench.json" ||
    fail "transport $t is neither measured nor reported as not available"
done
grep -q '"transport":"shm","node_size":0,"ranks":2,"mpi":"' "$dir/armada-bench.json" || fail "the run configuration is not recorded with the results"
# The plots the run drew, and the JSON read back and drawn again.
n=$(ls "$dir"/*.png 2>/dev/null | wc -l)
[ "$n" -ge 8 ] || fail "only $n PNG plots"
for png in "$dir"/*.png; do
  [ "$(head -c 4 "$png" | od -An -c | tr -d ' ')" = '211PNG' ] || fail "$png is not a PNG file"
done
rm -rf "$dir/replot"
"$exe" --plot "$dir/armada-bench.json" --output-dir "$dir/replot" > "$dir/replot.log" 2>&1 || fail "re-plotting failed: $(cat "$dir/replot.log")"
[ "$(ls "$dir"/replot/*.png | wc -l)" -eq "$n" ] || fail "re-plotting drew a different number of plots"
# Without gnuplot: exit status 4 and a message that says what to install.
out=$(PATH=/nonexistent "$exe" --plot "$dir/armada-bench.json" --output-dir "$dir/nognuplot" 2>&1)
rc=$?
[ $rc -eq 4 ] || fail "without gnuplot the exit status is $rc, not 4"
echo "$out" | grep -q 'gnuplot is not installed.*gnuplot-nox' || fail "without gnuplot the message is: $out"
echo "suite output OK: $rows CSV rows, $n plots"
