#!/usr/bin/env bash
# The installed armada-bench-suite --quick, from a folder of its own: installed_suite_test.sh PREFIX WORK
# It must exit 0, write the report with the verdict and the headline plot into the output
# directory, record its duration, and write nothing else into the folder it runs from.
set -u
prefix=$1 work=$2
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work/cwd" || fail "cannot create $work"
cd "$work/cwd" || exit 1
"$prefix/bin/armada-bench-suite" --quick --output-dir "$work/out" > "$work/console.txt" 2>&1
status=$?
cat "$work/console.txt"
[ $status = 0 ] || fail "armada-bench-suite --quick exited $status"
[ -z "$(ls -A "$work/cwd")" ] || fail "it wrote into the folder it ran from: $(ls -A "$work/cwd")"
for f in armada-bench-report.txt armada-bench.json armada-bench.csv armada-bench-headline.png command.txt stdout.txt stderr.txt; do
  [ -s "$work/out/$f" ] || fail "$work/out/$f is missing or empty"
done
grep -q '^SMOKE TEST (--quick)' "$work/out/armada-bench-report.txt" || fail "the report does not say it is a smoke test"
grep -q '^######## verdict' "$work/out/armada-bench-report.txt" || fail "the report has no verdict"
grep -q "\"transport\":\"shm\"" "$work/out/armada-bench.json" || fail "no shm pass in the JSON"
if grep -q '"verified":false' "$work/out/armada-bench.json"; then fail "a result is not verified"; fi
grep -q "^# armada-bench-suite --quick --output-dir $work/out" "$work/out/command.txt" || fail "command.txt does not record the command"
# (%q quoting: the commas of --only may come escaped; compared without backslashes)
tr -d '\\' < "$work/out/command.txt" | grep -q "^# launch (under timeout 1800 s): .*$prefix/bin/armada-bench --quick --only contig,atomic --output-dir $work/out" ||
  fail "command.txt does not record the launch of the installed armada-bench"
grep -E -q '^# took [0-9.]+ s; exit status 0$' "$work/out/command.txt" || fail "command.txt does not record the duration"
grep -E -q 'armada-bench-suite: done in [0-9.]+ s \(smoke test, load average [0-9.]+\)' "$work/console.txt" ||
  fail "the console does not end with the duration and the load"
# A second run into the same directory is refused, never overwriting results.
"$prefix/bin/armada-bench-suite" --quick --output-dir "$work/out" > "$work/again.txt" 2>&1
[ $? = 2 ] && grep -q "option --output-dir: '$work/out' exists and is not empty" "$work/again.txt" ||
  fail "a second run into a full output directory was not refused: $(cat "$work/again.txt")"
echo "installed armada-bench-suite --quick: $(sed -n 's/^# took //p' "$work/out/command.txt")"
