#!/bin/sh
# check_aliases.sh <python> <generator> <ga.h> <ga-mpi.h>: scripts/gen-ga-aliases.py writes a
# second name as a call of its target, and stops the build, naming the table's line, for a pair
# whose declarations differ or a name ga.h does not declare.
set -u
python=$1 generator=$2 ga_h=$3 ga_mpi_h=$4
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

printf '# a comment\nNGA_Zero = GA_Zero\nNGA_Nodeid = GA_Nodeid\n' > "$dir/good.txt"
"$python" "$generator" "$dir/good.cpp" "$dir/good.txt" "$ga_h" "$ga_mpi_h" || fail "a good table was refused"
grep -q '^void NGA_Zero(int g_a) { GA_Zero(g_a); }$' "$dir/good.cpp" || fail "NGA_Zero not written as a call of GA_Zero: $(cat "$dir/good.cpp")"
grep -q '^int NGA_Nodeid(void) { return GA_Nodeid(); }$' "$dir/good.cpp" || fail "NGA_Nodeid not written: $(cat "$dir/good.cpp")"

expect_refused() {  # <table text> <message part>
  printf '%s\n' "$1" > "$dir/bad.txt"
  if out=$("$python" "$generator" "$dir/bad.cpp" "$dir/bad.txt" "$ga_h" "$ga_mpi_h" 2>&1); then
    fail "table '$1' was accepted"
  fi
  case $out in *"$2"*) ;; *) fail "table '$1': expected '$2' in: $out" ;; esac
}
expect_refused 'NGA_Zero = GA_Fill' 'bad.txt:1: NGA_Zero (void; int) and GA_Fill (void; int, void *) are declared differently'
expect_refused 'NGA_Nodeid = GA_Nnodes_of_nothing' 'bad.txt:1: GA_Nnodes_of_nothing is not declared'
expect_refused 'NGA_Zero GA_Zero' 'bad.txt:1: expected'
echo "gen-ga-aliases: good table written, 3 bad tables refused"
