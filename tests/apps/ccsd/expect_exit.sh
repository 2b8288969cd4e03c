#!/bin/sh
# expect_exit.sh <code> <regex> <launch...>: passes only if the launch exits with exactly <code>
# and its output (stdout and stderr) matches the extended regular expression <regex>.
code=$1; regex=$2; shift 2
out=$("$@" 2>&1); rc=$?
printf '%s\n' "$out"
if [ "$rc" -ne "$code" ]; then
  echo "expect_exit: expected exit code $code, got $rc"; exit 1
fi
if ! printf '%s\n' "$out" | grep -E -q -- "$regex"; then
  echo "expect_exit: the output does not match '$regex'"; exit 1
fi
echo "expect_exit: exit $rc and the expected message"
