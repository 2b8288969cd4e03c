#!/bin/sh
# Checks what `armada-bench --quick --output-dir DIR` wrote: check_suite_output.sh DIR ARMADA_BENCH
set -u
dir=$1
exe=$2
fail() { echo "FAIL: $*"; exit 1; }

for f in armada-bench.json armada-bench.csv armada-bench.gp; do
  [ -s "$dir/$f" ] || fail "$dir/$f is missing or empty"
done
header='transport,node_size,ranks,family,op,method,metric,unit,bytes,seg_bytes,nseg,x,median,min,max,p25,p75,reps,iterations,verified,mpi,host,date'
[ "$(head -n 1 "$dir/armada-bench.csv")" = "$header" ] || fail "CSV header differs: $(head -n 1 "$dir/armada-bench.csv")"
rows=$(($(wc -l < "$dir/armada-bench.csv") - 1))
[ "$rows" -ge 100 ] || fail "only $rows CSV rows"
# Every result's data was verified.
if grep -q '"verified":false' "$dir/armada-bench.json"; then fail "a result is not verified"; fi
if grep -q ',no,[^,]*,[^,]*,[^,]*$' "$dir/armada-bench.csv"; then fail "a CSV row is not verified"; fi
# Every family, and every transport either measured or reported as not available.
for family in contig strided overlap aggregate atomic fence cold memory ucx; do
  grep -q "\"family\":\"$family\"" "$dir/armada-bench.json" || fail "no $family results"
done
# The measurements folded in from the former armada-bench-rma and armada-bench-server, on the shm
# pass (and the node servers' memory on the server pass): each present and verified.
has() {  # has TRANSPORT FAMILY OP METHOD
  grep -q "{\"transport\":\"$1\",[^}]*\"family\":\"$2\",\"op\":\"$3\",\"method\":\"$4\",[^}]*\"verified\":true}" "$dir/armada-bench.json" ||
    fail "no verified $2 $3 $4 result on the $1 pass"
}
has shm contig put memcpy
has shm contig put armada_put_fence
has shm contig acc local_axpy
has shm contig acc armada_scale2
has shm contig get armada_after_idle_1ms
# put_notify (issue 50): its stream and the time until the target sees the flag, on every pass
# that ran, the target's flag and the echoes checked.
ran=$(python3 -c "import json, sys; print(' '.join(r['transport'] for r in json.load(open(sys.argv[1]))['runs'] if r['status'] == 'ok'))" "$dir/armada-bench.json") ||
  fail "cannot read the passes of $dir/armada-bench.json"
for t in $ran; do
  has "$t" contig put armada_put_notify
  has "$t" contig notify armada_notify_pingpong_half
done
has shm strided put contiguous
has shm strided get strided_ls2
has shm overlap get_nb armada_target_busy
# The raw UCX baseline and the busy-target figures (where UCX is built; the rdma pass otherwise
# reports itself not available, and the family says so without results).
if grep -q '"transport":"rdma",[^}]*"status":"ok"' "$dir/armada-bench.json"; then
  has rdma ucx "put_flush 8B" raw_ucx
  has rdma ucx "fetch_add" raw_ucx
  has rdma ucx "acc_fence 8B" armada_target_busy
fi
has server overlap get_nb armada_target_busy
has shm aggregate put_scattered vector_sorted
has shm aggregate put_scattered local_scatter
has shm atomic fetch_add local_atomic
has shm atomic lock_unlock local_spinlock
has shm atomic round_trip mpi_pingpong_rtt
for m in "put armada" "put peer_store" "put mpi_put_flush" "get_chain armada" "get_chain peer_load" \
         "fetch_add_chain armada" "fetch_add_chain peer_atomic" "fetch_add_chain mpi_fetch_and_op" "get peer_memcpy"; do
  has shm cold $m
  has server cold $m
done
has server memory node_server "rank 1"
# The link's own limit (a plain TCP socket between ranks 0 and 1) beside every transport's figures,
# its echoes and stream checked like MPI's (the ping-pong also with receivers asleep in recv, at
# latency sizes), and its line under each headline.
for t in shm server; do
  has $t contig sendrecv socket_pingpong_half
  has $t contig sendrecv socket_pingpong_sleep_half
  has $t contig sendrecv socket_stream
done
if grep -q '"transport":"shm",[^}]*"family":"memory"' "$dir/armada-bench.json"; then fail "a node server reported on the shm pass"; fi
for t in shm server mpi-rma rdma; do
  grep -q "{\"transport\":\"$t\",[^}]*\"status\":\"\(ok\|not available in this build[^\"]*\)\"" "$dir/armada-bench.json" ||
    fail "transport $t is neither measured nor reported as not available"
done
grep -q '"transport":"shm","node_size":0,"ranks":2,"mpi":"' "$dir/armada-bench.json" || fail "the run configuration is not recorded with the results"
# The plots the run drew (those its gnuplot script names: the output directory may still hold
# plots of an earlier run under other names), and the JSON read back and drawn again.
plots=$(sed -n 's/^set output "\(.*\)"$/\1/p' "$dir/armada-bench.gp")
n=$(printf '%s\n' "$plots" | grep -c .)
[ "$n" -ge 8 ] || fail "only $n PNG plots"
for png in $plots; do
  case $png in /*) ;; *) png="$dir/$png" ;; esac
  [ "$(head -c 4 "$png" | od -An -c | tr -d ' ')" = '211PNG' ] || fail "$png is not a PNG file"
done
# The headline figure: one series per measured pass, the speed-up on a log axis with 1x marked.
[ -s "$dir/armada-bench-headline.png" ] || fail "no headline figure armada-bench-headline.png"
grep -q '^set title "Armada vs MPI, measured in the same launch: speed-up, higher = Armada faster (transports shm, server, mpi-rma' "$dir/armada-bench.gp" ||
  fail "the headline figure's title does not say what it shows"
grep -q '^set label 1 "1x = as fast as MPI"' "$dir/armada-bench.gp" || fail "the headline figure does not mark 1x"
grep -q 'title "Armada shm transport (shared memory) vs MPI over shared memory"' "$dir/armada-bench.gp" ||
  fail "the headline figure has no shm series in words"
# One set of plots per measured pass, each with that pass's own baselines.
for t in shm server; do
  [ -s "$dir/${t}_contig_put_latency.png" ] || fail "no put latency plot of the $t pass"
done
# The plot script: one colour per method (RGB), the legend below, axis ranges from the data, a
# labelled tick at every size (the 8 B one too), and --quick drawn as points in a smoke test.
grep -q '^set key below' "$dir/armada-bench.gp" || fail "the legend is not below the plots"
grep -q 'lc rgb "#1f77b4" dt 1 pt 7 title "Armada put"' "$dir/armada-bench.gp" || fail "Armada's curves are not coloured by method"
# At most 4 curves per plot (the headline figure: one per pass, at most 4 too).
awk '/^plot /{if(n>4)bad=1; n=1; next} /^     \$/{n++; next} {if(n>4)bad=1; n=0} END{if(n>4)bad=1; exit bad}' "$dir/armada-bench.gp" || fail "a plot has more than 4 curves"
grep -q '^set xtics ("8 B" 8, "4 KiB" 4096, "1 MiB" 1048576)$' "$dir/armada-bench.gp" || fail "the size ticks are not all labelled"
if grep -q 'with yerrorlines' "$dir/armada-bench.gp"; then fail "a --quick run is drawn with lines"; fi
[ "$(grep -c '^set title ".*\\nSMOKE TEST (--quick' "$dir/armada-bench.gp")" -eq "$(grep -c '^set output "' "$dir/armada-bench.gp")" ] ||
  fail "not every plot of a --quick run says it is a smoke test"
[ "$(grep -c '^set yrange \[' "$dir/armada-bench.gp")" -eq "$(grep -c '^set output "' "$dir/armada-bench.gp")" ] ||
  fail "not every plot has a fitted y range"
rm -rf "$dir/replot"
"$exe" --plot "$dir/armada-bench.json" --output-dir "$dir/replot" > "$dir/replot.log" 2>&1 || fail "re-plotting failed: $(cat "$dir/replot.log")"
[ "$(ls "$dir"/replot/*.png | wc -l)" -eq "$n" ] || fail "re-plotting drew a different number of plots"
# The verdict above the headline (in the run's report file, and again from the JSON by --plot):
# the transport a job like this one uses, a smoke test, each transport against MPI in words.
log=$dir/replot.log
[ -s "$dir/armada-bench-report.txt" ] || fail "no report file armada-bench-report.txt"
grep -q '^######## verdict: what to conclude from this launch' "$dir/armada-bench-report.txt" || fail "no verdict in the report file"
[ "$(grep -n '######## verdict' "$log" | cut -d: -f1)" -lt "$(grep -n '######## headline' "$log" | cut -d: -f1)" ] ||
  fail "the verdict is not above the headline: $(cat "$log")"
grep -q '^SMOKE TEST (--quick)' "$log" || fail "a --quick run is not called a smoke test: $(cat "$log")"
grep -q '^A job launched like this one (2 ranks, same environment) runs on inter-node transport none (one node: shared memory reaches every rank); the shm figures below apply$' "$log" ||
  fail "the verdict does not say which transport a job here uses: $(cat "$log")"
grep -q '^shm (what a job here uses) against MPI RMA of the same pass:$' "$log" || fail "no verdict for shm: $(cat "$log")"
for g in latency bandwidth atomics overlap; do
  grep -q "^  $g: " "$log" || fail "no $g line in the verdict: $(cat "$log")"
done
# The headline table (printed at the end of a run, and again from the JSON by --plot): seven rows
# per measured transport, each with its speed-up (higher is better) and range; on one host the
# server pass's MPI baselines go over shared memory, so its speed-ups are labelled as another
# route and explained.
grep -q '^8 B put latency (lower better) .*mpi_put_flush [0-9.e+-]* us *[0-9.e+-]*x \[[0-9.e+-]*\.\.[0-9.e+-]*\]' "$log" ||
  fail "no speed-up with its range in the headline: $(cat "$log")"
grep -q "^== shm (rank 1 through 'shm'; MPI over shared memory)" "$log" || fail "no headline for shm: $(cat "$log")"
grep -q "^== server (rank 1 through 'server'; MPI over shared memory)" "$log" || fail "no headline for server: $(cat "$log")"
for m in "8 B put latency" "8 B get latency" "1 MiB put bandwidth" "1 MiB get bandwidth" "overlap, 1 MiB get_nb" "fetch-add" "lock + unlock"; do
  [ "$(grep -c "^$m" "$log")" -ge 2 ] || fail "headline row '$m' missing: $(cat "$log")"
done
sed -n "/^== server/,/^== /p" "$log" | grep -q 'other route\* (' || fail "the server pass's ratios are not labelled as another route"
grep -q '^   \* other route: Armada through the server transport, the MPI baseline over shared memory' "$log" ||
  fail "no footnote explaining the other route"
if sed -n "/^== shm/,/^== server/p" "$log" | grep -q 'other route'; then fail "the shm pass's ratios are labelled as another route"; fi
# One host: the socket is measured but not compared with Armada's shared memory (only across hosts).
grep -q "^   link limit: not compared (ranks 0 and 1 share a host; a TCP socket is the limit only between hosts)" "$log" ||
  fail "no 'not compared' link line under the headline of a one-host run: $(cat "$log")"
if grep -q "multiple of it" "$log"; then fail "a one-host run compares Armada with the TCP socket: $(cat "$log")"; fi
# Without gnuplot: exit status 4 and a message that says what to install.
out=$(PATH=/nonexistent "$exe" --plot "$dir/armada-bench.json" --output-dir "$dir/nognuplot" 2>&1)
rc=$?
[ $rc -eq 4 ] || fail "without gnuplot the exit status is $rc, not 4"
echo "$out" | grep -q 'gnuplot is not installed.*gnuplot-nox' || fail "without gnuplot the message is: $out"
echo "suite output OK: $rows CSV rows, $n plots"
