#!/bin/sh
# Runs a launch and passes only if it exits with exactly the expected code and its output
# (stdout and stderr) matches a regular expression.
#   expect-exit.sh <code> <regex> <launch...>
code=$1; regex=$2; shift 2
out=$("$@" 2>&1); rc=$?
printf '%s\n' "$out"
if [ "$rc" -ne "$code" ]; then
  echo "expect-exit: expected exit code $code, got $rc"; exit 1
fi
if ! printf '%s\n' "$out" | grep -E -q -- "$regex"; then
  echo "expect-exit: the output does not match '$regex'"; exit 1
fi
echo "expect-exit: exit code $rc and the expected message"
exit 0
