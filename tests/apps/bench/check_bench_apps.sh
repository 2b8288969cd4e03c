#!/bin/sh
# check_bench_apps.sh SCRIPT BUILD_DIR OUT REFERENCE: runs scripts/bench-apps.sh --quick on the
# programs of BUILD_DIR and checks its table: every MG and CG row (class S, 1 and 2 ranks,
# bindings default and none) has a figure for armada rma and mpi, and for NPB (REFERENCE=npb)
# or the note that no reference was found (REFERENCE=none), and the memory floor measured by
# Armada's programs with rma/floor.
set -u
script=$1 build=$2 out=$3 reference=$4
rm -rf "$out"
BUILD_DIR=$build bash "$script" --quick --no-build --ranks "1 2" --out "$out" mg cg || { echo "bench-apps.sh failed"; exit 1; }
table=$out/npb.md
[ -s "$table" ] || { echo "no $table"; exit 1; }
num='[0-9]+\.[0-9]{3} \[[0-9.]+\.\.[0-9.]+\]'
for app in MG CG; do
  for ranks in 1 2; do
    for bind in default none; do
      if [ "$reference" = npb ]; then cells="$num \| $num \| $num"; else cells="- \| $num \| $num"; fi
      # ... and the memory floor Armada measured in the launch, with rma/floor.
      grep -E -q "^\| $app \| S \| $ranks \| $bind \|([^|]*\|){6} [0-9.e-]+ \[[0-9.e-]+\.\.[0-9.e-]+\] \| [0-9]+\.[0-9]{2} " "$table" ||
        { echo "no memory floor for $app S, $ranks ranks, bind $bind:"; cat "$table"; exit 1; }
      grep -E -q "^\| $app \| S \| $ranks \| $bind \| $cells \|" "$table" ||
        { echo "no complete row for $app S, $ranks ranks, bind $bind ($reference):"; cat "$table"; exit 1; }
    done
  done
done
if [ "$reference" = none ]; then
  grep -q "no NPB reference" "$table" || { echo "the table does not say that NPB is missing"; exit 1; }
fi
grep -q "^- CPU: .*cores" "$table" || { echo "the table does not name the CPU"; exit 1; }
grep -q "load average (1, 5, 15 min) before: [0-9]" "$table" || { echo "no load average in the table"; exit 1; }
echo "bench-apps.sh --quick: complete table ($reference)"
