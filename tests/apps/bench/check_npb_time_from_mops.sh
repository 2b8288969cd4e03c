#!/bin/sh
# check_npb_time_from_mops.sh TABLE_SCRIPT DIR: fake logs of two rows. NPB prints 0.24 s; its
# Mop/s (6180.00) and Armada's operation count (0.225 s x 6666.666667 Mop/s = 1500 Mop) give
# 0.2427 s, which the CG row must carry (0.243). In the MG row NPB's Mop/s gives 0.30 s, more than
# the printed 0.24's rounding allows: the printed time must stay.
set -u
table_script=$1 dir=$2
rm -rf "$dir"; mkdir -p "$dir"
npb() { printf ' Time in seconds =                     %s\n Mop/s total     =                   %s\n Verification    =               SUCCESSFUL\n' "$1" "$2" > "$dir/$3"; }
armada() { printf ' report\n{"benchmark":"X","time_s":%s,"mops":%s,"verified":true}\n' "$1" "$2" > "$dir/$3"; }
for app in cg mg; do
  if [ $app = cg ]; then npb 0.24 6180.00 ${app}n; else npb 0.24 5000.00 ${app}n; fi
  armada 0.225 6666.666667 ${app}r; armada 0.230 6521.739130 ${app}m
  for rep in 1 2 3; do
    for impl in npb:n rma:r mpi:m; do
      printf '{"app":"%s","class":"A","ranks":2,"bind":"none","impl":"%s","repetition":%d,"exit":0,"load":0.1,"log":"%s"}\n' \
        "$app" "${impl%%:*}" "$rep" "$dir/$app${impl#*:}" >> "$dir/npb.jsonl"
    done
  done
done
python3 "$table_script" "$dir/npb.jsonl" "$dir/npb.md" || { echo "the table failed"; exit 1; }
cat "$dir/npb.md"
grep -q "^| CG | A | 2 | none | 0.243 \[0.243..0.243\] | 0.225 " "$dir/npb.md" || { echo "NPB's time was not taken from its Mop/s"; exit 1; }
grep -q "^| MG | A | 2 | none | 0.240 \[0.240..0.240\] | 0.225 " "$dir/npb.md" || { echo "a Mop/s that disagrees with the printed time was used"; exit 1; }
grep -q "3 of its 6 launches carry the time its Mop/s gives" "$dir/npb.md" || { echo "the header does not say which times were refined"; exit 1; }
echo "NPB's time comes from its Mop/s where that agrees with the printed time"
