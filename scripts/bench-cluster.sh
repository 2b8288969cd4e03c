#!/usr/bin/env bash
# armada-bench across an emulated cluster (docs/cluster.md): ranks 0 and 1 on two hosts made of
# namespaces, Open MPI over TCP, every inter-node transport with MPI's send/recv and RMA baselines
# and the link's own limit (a plain TCP socket between the same two ranks); each transport in a
# launch of its own, as a job runs one (in one process, a transport measured after another's pass
# was slower: tcp's put_notify seen 2x, docs/benchmarks.md, session 29); several rounds of
# launches, then the verdict across them (scripts/bench_cluster_report.py: medians of the
# launches' medians, spread, the fastest transport per figure, the targets against the link).
# Each launch then runs NAS MG and CG (class A by default) across the same hosts with
# `--comm rma` and `--comm mpi` on the default (`auto`) transport, the order swapped every launch,
# at 1 and 2 ranks per host (--app-ranks-per-host); the report gives their medians, rma/mpi and
# the transport auto ran. --app-transports runs `--comm rma` on each transport named (auto, or
# ARMADA_TRANSPORT values: "auto server" sets the server beside auto's choice, tcp, on the same hosts).
#
#   scripts/bench-cluster.sh                         3 launches, contig + atomic + overlap, MG, CG
#   scripts/bench-cluster.sh --launches 5 --quick    any armada-bench option after the script's own
#   scripts/bench-cluster.sh --apps "" --app-class B no apps; or another NPB class
#   scripts/bench-cluster.sh --app-ranks-per-host 1  the programs at 1 rank per host only
#   scripts/bench-cluster.sh --app-transports "auto server"  --comm rma on auto and on server, each launch
#   scripts/bench-cluster.sh --no-full-node          without the full-node pair below
#   BUILD_DIR=build scripts/bench-cluster.sh         an existing build (default build-release/)
#
# Each launch also times auto's 8 B get on a full node (issue 50): one armada-bench launch on the
# same hosts as a job sees them, and one with a busy loop beside every rank (cluster.sh --busy),
# the order swapped every launch; the report gives busy over quiet against the target (<= 3x).
# Both passes give each host cores of its own (cluster.sh --cores-per-host: the machine's cores
# split among the hosts), as separate machines have: sharing them, two hosts' polling threads can
# meet on one core, which no cluster does (docs/benchmarks.md, session 42).
#
# Needs root (namespaces; cluster.sh exits 77 otherwise). Writes results/bench-cluster-<UTC date>/
# with launch-<i>/<transport>/ (armada-bench's JSON, CSV, plots, stdout), launch-<i>/apps/,
# launch-<i>/full-node/{quiet,busy}/ and report.txt. `--transports a,b` (an armada-bench option)
# names the transports instead.
set -euo pipefail
source "$(dirname "$0")/common.sh"

launches=3
hosts=2
apps="mg cg"
app_class=A
app_ranks_per_host="1 2"
app_transports=auto
full_node=1
while (($#)); do
  case $1 in
    --launches) launches=${2:?--launches needs a number}; shift 2 ;;
    --hosts) hosts=${2:?--hosts needs a number}; shift 2 ;;
    --apps) apps=${2?--apps needs a list (mg, cg or both; empty for none)}; shift 2 ;;
    --app-class) app_class=${2:?--app-class needs S, W, A, B or C}; shift 2 ;;
    --app-ranks-per-host) app_ranks_per_host=${2:?--app-ranks-per-host needs a list, e.g. "1 2"}; shift 2 ;;
    --app-transports) app_transports=${2:?--app-transports needs a list, e.g. "auto tcp"}; shift 2 ;;
    --no-full-node) full_node=0; shift ;;
    -h|--help) sed -n '2,30p' "$0"; exit 0 ;;
    *) break ;;
  esac
done
[[ $launches =~ ^[1-9][0-9]*$ ]] || { echo "bench-cluster.sh: --launches: '$launches' is not a positive number" >&2; exit 2; }
[[ $app_class =~ ^[SWABC]$ ]] || { echo "bench-cluster.sh: --app-class: '$app_class' is not S, W, A, B or C" >&2; exit 2; }
for app in $apps; do
  case $app in mg|cg) ;; *) echo "bench-cluster.sh: --apps: '$app' is not mg or cg" >&2; exit 2 ;; esac
done
for t in $app_transports; do
  [[ $t =~ ^[a-z][a-z0-9_-]*$ ]] || { echo "bench-cluster.sh: --app-transports: '$t' is not a transport name" >&2; exit 2; }
done
for rph in $app_ranks_per_host; do
  [[ $rph =~ ^[1-9][0-9]*$ ]] || { echo "bench-cluster.sh: --app-ranks-per-host: '$rph' is not a positive number" >&2; exit 2; }
done

build=${BUILD_DIR:-$armada_root/build-release}
if [ ! -f "$build/CMakeCache.txt" ]; then
  echo "== configure ($build, Release)"
  cmake -S "$armada_root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DARMADA_BUILD_TESTS=OFF -DARMADA_BUILD_BENCH=ON
fi
echo "== build armada-bench ($build)"
app_targets=(); for app in $apps; do app_targets+=("armada-$app"); done
cmake --build "$build" -j"$jobs" --target armada-bench "${app_targets[@]}"
exe=$build/bench/armada-bench

# One NPB program across the hosts (RANKS_PER_HOST on each), its JSON line kept for the report,
# and its output with ARMADA_VERBOSE=1: the report names the transport that ran (and auto's choice).
run_app() {  # run_app LAUNCH_DIR APP COMM RANKS_PER_HOST [TRANSPORT]
  local dir=$1/apps app=$2 comm=$3 rph=$4 transport=${5:-auto}
  local stem=$dir/$app.$comm.rph$rph
  [ "$comm" = mpi ] || stem=$dir/$app.$comm-$transport.rph$rph
  mkdir -p "$dir"
  echo "   $app class $app_class --comm $comm${5:+ on $transport}, $rph rank(s) per host (load average $(cut -d' ' -f1-3 /proc/loadavg))"
  "$armada_root/scripts/cluster.sh" --hosts "$hosts" --ranks-per-host "$rph" --timeout 1200 -x UCX_TLS=tcp,self \
    -x ARMADA_VERBOSE=1 -x ARMADA_TRANSPORT="$transport" -- "$build/apps/$app/armada-$app" --class "$app_class" \
    --comm "$comm" --json "$stem.json" > "$stem.txt" 2>&1 ||
    { echo "bench-cluster.sh: $app --comm $comm failed (exit $?): see $stem.txt" >&2; exit 1; }
}
run_rma() {  # run_rma LAUNCH_DIR APP RANKS_PER_HOST: --comm rma on each of --app-transports
  for t in $app_transports; do run_app "$1" "$2" rma "$3" "$t"; done
}

# auto's 8 B get across the hosts as a job finds them, then with a busy loop beside every rank
# (the other work of a full node; cluster.sh --busy), the order swapped every launch.
run_full_node() {  # run_full_node LAUNCH_DIR LAUNCH_NUMBER
  local order=(quiet busy) mode dir own=()
  (($2 % 2)) || order=(busy quiet)
  local per_host=$(($(nproc --all) / hosts)) cores="the hosts sharing the cores"
  if ((per_host > 0)); then
    own=(--cores-per-host "$per_host")
    cores="$per_host core(s) a host"
  fi
  mkdir -p "$1/full-node"
  if ((per_host > 0)); then echo "$per_host"; else echo shared; fi >"$1/full-node/cores-per-host"
  for mode in "${order[@]}"; do
    dir=$1/full-node/$mode
    mkdir -p "$dir"
    echo "   auto's 8 B get, $mode node, $cores (load average $(cut -d' ' -f1-3 /proc/loadavg))"
    local busy=(); [ "$mode" = quiet ] || busy=(--busy)
    "$armada_root/scripts/cluster.sh" "${busy[@]}" "${own[@]}" --hosts "$hosts" --ranks-per-host 1 --timeout 600 -x UCX_TLS=tcp,self -- \
      "$exe" --only contig --transports auto --vnode-size 0 --sizes 8 --output-dir "$dir" > "$dir/stdout.txt" 2> "$dir/stderr.txt" ||
      { echo "bench-cluster.sh: launch $2's $mode full-node pass failed (exit $?): see $dir/stderr.txt" >&2; exit 1; }
  done
}

# The figures the issue asks for across hosts, on every transport of the build that crosses hosts
# (its transports.txt, from the transports' table); the caller's options come after and win.
crossing=$(awk '$2 ~ /(^|,)crosses_hosts(,|$)/ {print $1}' "$build/transports.txt" | paste -sd, -)
options=(--only contig,atomic,overlap --vnode-size 0 --sizes 8,4K,64K,1M)
# The transports, each launched on its own: the build's crossing ones, or the caller's --transports.
bench_args=()
given=("$@")
while (($#)); do
  case $1 in
    --transports) crossing=${2:?--transports needs a list}; shift 2 ;;
    --transports=*) crossing=${1#--transports=}; shift ;;
    *) bench_args+=("$1"); shift ;;
  esac
done
IFS=, read -r -a bench_transports <<< "$crossing"
out=$armada_root/results/bench-cluster-$(date -u +%Y%m%d-%H%M%S)
mkdir -p "$out"
{
  echo "# scripts/bench-cluster.sh --launches $launches --hosts $hosts ${given[*]}"
  echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ), git $(git -C "$armada_root" rev-parse --short HEAD 2>/dev/null || echo '?')"
  echo "# CPUs: $(nproc); $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //')"
  echo "# uptime before: $(uptime)"
} > "$out/command.txt"
n=${#bench_transports[@]}
for ((i = 1; i <= launches; i++)); do
  for ((k = 0; k < n; k++)); do
    t=${bench_transports[$(((k + i - 1) % n))]}  # the order rotated from one round to the next
    dir=$out/launch-$i/$t
    echo "== launch $i of $launches, transport $t (load average $(cut -d' ' -f1-3 /proc/loadavg))"
    mkdir -p "$dir"
    # UCX over TCP between the hosts (its shared-memory transports would take two namespaces of
    # one kernel for one host); ranks 0 and 1 on hosts 0 and 1.
    "$armada_root/scripts/cluster.sh" --hosts "$hosts" --ranks-per-host 1 --timeout 3000 -x UCX_TLS=tcp,self -- \
      "$exe" "${options[@]}" --transports "$t" --output-dir "$dir" "${bench_args[@]}" > "$dir/stdout.txt" 2> "$dir/stderr.txt" ||
      { echo "bench-cluster.sh: launch $i ($t) failed (exit $?): see $dir/stderr.txt" >&2; exit 1; }
    grep -A12 '^######## headline' "$dir/stdout.txt" | tail -n +3 || true
  done
  ((full_node)) && run_full_node "$out/launch-$i" "$i"
  for rph in $app_ranks_per_host; do
    for app in $apps; do
      if [ $((i % 2)) -eq 0 ]; then
        run_app "$out/launch-$i" "$app" mpi "$rph"; run_rma "$out/launch-$i" "$app" "$rph"
      else
        run_rma "$out/launch-$i" "$app" "$rph"; run_app "$out/launch-$i" "$app" mpi "$rph"
      fi
    done
  done
done
echo "# uptime after: $(uptime)" >> "$out/command.txt"
python3 "$armada_root/scripts/bench_cluster_report.py" "$out" | tee "$out/report.txt"
echo "== results in $out"
