#!/bin/sh
# Runs a test launch that is supposed to fail, and passes only if it failed the expected way.
#   armada-expect.sh timeout -       <program-name> <launch...>   exit 124 from timeout(1), and
#                                                                 no <program-name> process left
#   armada-expect.sh fail    <regex> -              <launch...>   nonzero exit (not a timeout) and
#                                                                 output matching <regex>
mode=$1; regex=$2; program=$3; shift 3
out=$("$@" 2>&1); rc=$?
printf '%s\n' "$out"
case "$mode" in
  timeout)
    if [ "$rc" -ne 124 ]; then
      echo "armada-expect: expected the launch to be killed by its timeout (exit 124), got exit $rc"; exit 1
    fi
    sleep 1
    if pgrep -x "$program" >/dev/null 2>&1; then
      echo "armada-expect: '$program' processes survived the timeout:"; pgrep -a -x "$program"; exit 1
    fi ;;
  fail)
    if [ "$rc" -eq 0 ] || [ "$rc" -eq 124 ]; then
      echo "armada-expect: expected the job to fail (not time out), got exit $rc"; exit 1
    fi
    if ! printf '%s\n' "$out" | grep -E -q -- "$regex"; then
      echo "armada-expect: the output does not match '$regex'"; exit 1
    fi ;;
  *) echo "armada-expect: unknown mode '$mode'"; exit 2 ;;
esac
echo "armada-expect: failed as expected ($mode, exit $rc)"
exit 0
