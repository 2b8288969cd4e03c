#!/usr/bin/env bash
# The scaling sweep (issue 53, docs/scaling.md): armada-scale at each rank count, virtual node
# size and transport, one launch each, niced and under timeout; appends every launch's JSON lines
# to results/scale-<UTC date>/scale.jsonl, records uptime before and after each launch in
# command.txt, then fits the model and draws the plots (scripts/scale_model.py).
#
#   scripts/bench-scale.sh                              ranks 1..64, node sizes 1 2 4 8, every transport
#   RANKS="2 4 8" NODE_SIZES="2" TRANSPORTS="server" scripts/bench-scale.sh
#   ARGS="--arrays 10 --groups 100" scripts/bench-scale.sh   armada-scale's options
#   OUT=results/scale-x scripts/bench-scale.sh          append to an existing sweep
#   BUILD_DIR=/path/to/build scripts/bench-scale.sh
#   SERVER_BUFFERS=0 scripts/bench-scale.sh            the server's default buffers (see below)
#
# The server transport runs with ARMADA_SERVER_BUFFERS=4 unless SERVER_BUFFERS says otherwise: 4
# is what its default gives from 256 ranks on, so every predicted size (1k-100k) has it; the
# default's 32 per client up to 32 ranks, then fewer, would bend the measured curve at 64 ranks
# and hide the per-client term from a fit that leaves the 64-rank run out.
#
# Ranks are oversubscribed on this machine's cores: memory figures are robust to that, times are
# not (docs/scaling.md says how to read them).
set -euo pipefail
source "$(dirname "$0")/common.sh"

build=${BUILD_DIR:-$armada_root/build}
exe=$build/bench/armada-scale
limit=${SCALE_TIMEOUT:-600}
out=${OUT:-$armada_root/results/scale-$(date -u +%Y%m%d-%H%M%S)}
[ -x "$exe" ] || { echo "bench-scale.sh: $exe not built (cmake --build $build --target armada-scale)" >&2; exit 1; }
mkdir -p "$out"
export OMPI_MCA_osc=${OMPI_MCA_osc:-sm,ucx}  # as scripts/bench.sh: the components mpi-rma is built for

status=0
# Every transport of the build (its transports.txt, from the transports' table), unless TRANSPORTS.
node_memory=$(awk '$2 ~ /(^|,)node_memory(,|$)/ {print $1}' "$build/transports.txt")
for transport in ${TRANSPORTS:-$(awk '{print $1}' "$build/transports.txt")}; do
  for node_size in ${NODE_SIZES:-1 2 4 8}; do
    for n in ${RANKS:-1 2 4 8 16 32 64}; do
      # The node-memory transport (shm) alone reaches only its own node: one node holding every
      # rank (ARMADA_TRANSPORT=none).
      t=$transport ns=$node_size
      if [ "$transport" = "$node_memory" ]; then t=none ns=$n; fi
      echo "# $(date -u +%H:%M:%S) transport=$transport node_size=$ns ranks=$n ARMADA_SERVER_BUFFERS=${SERVER_BUFFERS:-4} uptime: $(uptime)" >> "$out/command.txt"
      # shellcheck disable=SC2086
      ARMADA_SERVER_BUFFERS=${SERVER_BUFFERS:-4} ARMADA_TRANSPORT=$t ARMADA_NODE_SIZE=$ns nice -n 10 timeout --kill-after=10 "$limit" \
        bash -c 'source "$1/scripts/common.sh"; shift; armada_mpiexec "$@"' _ "$armada_root" \
        -n "$n" "$exe" --output "$out/scale.jsonl" ${ARGS:-} >> "$out/stdout.txt" 2>> "$out/stderr.txt" \
        || { rc=$?; status=1; echo "# exit status $rc" >> "$out/command.txt"; }
    done
    [ "$transport" = "$node_memory" ] && break  # the node size is the job's size
  done
done
echo "# done $(date -u +%H:%M:%S) uptime: $(uptime)" >> "$out/command.txt"
python3 "$armada_root/scripts/scale_model.py" "$out/scale.jsonl" --out "$out" || status=1
echo "bench-scale.sh: $out"
exit "$status"
