#!/bin/sh
# Runs a test launch whose outcome is checked beyond its exit code.
#   armada-expect.sh timeout -       <program-path> <launch...>   exit 124 from timeout(1), and
#                                                                 no process of this launch still
#                                                                 running <program-path>
#   armada-expect.sh fail    <regex> -              <launch...>   nonzero exit (not a timeout) and
#                                                                 output matching <regex>
#   armada-expect.sh exit    <regex> <code>         <launch...>   exit code exactly <code> and
#                                                                 output matching <regex>
#   armada-expect.sh pass    <regex> -              <launch...>   exit 0 and output matching <regex>
#                                                                 (the whole output as one text:
#                                                                 . matches newlines)
# In fail and exit modes, <regex> may be several, joined by '&&': each must match a line.
#
# Survivors are found by their executable (/proc/<pid>/exe; process names are cut to 15
# characters) and by a mark this launch puts in their environment, so that the same program
# started by another test at the same time is not mistaken for one.
mode=$1; regex=$2; program=$3; shift 3
ARMADA_TEST_LAUNCH="$$.$(date +%s%N)"
export ARMADA_TEST_LAUNCH
out=$("$@" 2>&1); rc=$?
printf '%s\n' "$out"

survivors() {
  target=$(readlink -f "$1")
  for dir in /proc/[0-9]*; do
    [ "$(readlink "$dir/exe" 2>/dev/null)" = "$target" ] || continue
    tr '\0' '\n' < "$dir/environ" 2>/dev/null | grep -qx "ARMADA_TEST_LAUNCH=$ARMADA_TEST_LAUNCH" || continue
    echo "${dir#/proc/}"
  done
}

# Each of the '&&'-joined regexes matches a line of the output.
matches_all() {
  rest=$1
  while :; do
    one=${rest%%&&*}
    if ! printf '%s\n' "$out" | grep -E -q -- "$one"; then
      echo "armada-expect: the output does not match '$one'"; return 1
    fi
    [ "$one" = "$rest" ] && return 0
    rest=${rest#*&&}
  done
}

case "$mode" in
  timeout)
    if [ "$rc" -ne 124 ]; then
      echo "armada-expect: expected the launch to be killed by its timeout (exit 124), got exit $rc"; exit 1
    fi
    sleep 1
    left=$(survivors "$program")
    if [ -n "$left" ]; then
      echo "armada-expect: processes of '$program' survived the timeout: $left"
      kill -9 $left 2>/dev/null
      exit 1
    fi ;;
  fail)
    if [ "$rc" -eq 0 ] || [ "$rc" -eq 124 ]; then
      echo "armada-expect: expected the job to fail (not time out), got exit $rc"; exit 1
    fi
    matches_all "$regex" || exit 1 ;;
  exit)
    if [ "$rc" -ne "$program" ]; then
      echo "armada-expect: expected exit code $program, got $rc"; exit 1
    fi
    matches_all "$regex" || exit 1 ;;
  pass)
    if [ "$rc" -ne 0 ]; then
      echo "armada-expect: expected exit 0, got exit $rc"; exit 1
    fi
    if ! printf '%s' "$out" | grep -z -E -q -- "$regex"; then
      echo "armada-expect: the output does not match '$regex'"; exit 1
    fi ;;
  *) echo "armada-expect: unknown mode '$mode'"; exit 2 ;;
esac
echo "armada-expect: as expected ($mode, exit $rc)"
exit 0
