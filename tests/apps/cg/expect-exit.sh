#!/bin/sh
# Runs a launch and passes only if it exits with exactly <code> and its output (stdout and
# stderr, then "file: " and the contents of <file> unless it is "-") matches the extended regex <regex>: how
# the CG tests check bad input (exit 2) and the --json file.
#   expect-exit.sh <code> <regex> <file> <launch...>
code=$1; regex=$2; file=$3; shift 3
[ "$file" = "-" ] || rm -f "$file"
out=$("$@" 2>&1); rc=$?
[ "$file" = "-" ] || out="$out
file: $(cat "$file" 2>&1)"
printf '%s\n' "$out"
if [ "$rc" -ne "$code" ]; then echo "expect-exit: expected exit $code, got $rc"; exit 1; fi
if ! printf '%s\n' "$out" | grep -E -q -- "$regex"; then echo "expect-exit: the output does not match '$regex'"; exit 1; fi
echo "expect-exit: exit $rc as expected"
