#!/bin/sh
# check_failed_verification.sh TABLE_SCRIPT DIR: fake logs of one row, NPB verification
# UNSUCCESSFUL in repetition 2: the table must exit 1, list that launch as failed and leave it out
# of NPB's median (the two good NPB times are 2.00 and 4.00: median 3.000, not 2.000 or 4.000).
set -u
table_script=$1 dir=$2
rm -rf "$dir"; mkdir -p "$dir"
npb() { printf ' Time in seconds =                     %s\n Verification    =               %s\n' "$1" "$2" > "$dir/$3"; }
armada() { printf ' report\n{"benchmark":"MG","time_s":%s,"verified":%s}\n' "$1" "$2" > "$dir/$3"; }
npb 2.00 SUCCESSFUL n1; npb 1.00 UNSUCCESSFUL n2; npb 4.00 SUCCESSFUL n3
armada 1.5 true r1; armada 1.5 true r2; armada 1.5 true r3
armada 2.5 true m1; armada 2.5 false m2; armada 2.5 true m3
for rep in 1 2 3; do
  for impl in npb:n rma:r mpi:m; do
    printf '{"app":"mg","class":"A","ranks":2,"bind":"none","impl":"%s","repetition":%d,"exit":0,"load":0.1,"log":"%s"}\n' \
      "${impl%%:*}" "$rep" "$dir/${impl#*:}$rep" >> "$dir/npb.jsonl"
  done
done
if python3 "$table_script" "$dir/npb.jsonl" "$dir/npb.md"; then echo "a failed verification did not fail the table"; exit 1; fi
cat "$dir/npb.md"
grep -q "mg class A, 2 ranks, bind none, npb, repetition 2: verification failed" "$dir/npb.md" || { echo "NPB's failure not listed"; exit 1; }
grep -q "mg class A, 2 ranks, bind none, mpi, repetition 2: verification failed" "$dir/npb.md" || { echo "Armada's failure not listed"; exit 1; }
grep -q "^| MG | A | 2 | none | 3.000 \[2.000..4.000\] | 1.500 \[1.500..1.500\] | 2.500 \[2.500..2.500\] | 0.50 " "$dir/npb.md" ||
  { echo "the failed launches were counted"; exit 1; }
echo "failed verifications are failures, not figures"
