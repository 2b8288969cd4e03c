#!/bin/sh
# check_shm_churn.sh <tries> <signals> <launch...>: starts a job that allocates and frees shared
# memory without pause (shm_abort churn), kills it at a random moment while it allocates, and
# checks after every try that none of its ranks left anything behind: no /dev/shm/armada.*
# object, no SysV segment created by a rank, no new /dev/shm/ucx_shm_posix_* file.
# <signals> "kill,term": SIGKILL to one random rank on odd tries, SIGTERM to the launcher on even
# ones; "term": SIGTERM to the launcher only; "term-ranks": SIGTERM to every rank, as a scheduler
# ends a job (under UCX, whose SysV allocation has a window no process can close against SIGKILL:
# Open MPI's mpirun, given SIGTERM, ends its ranks with SIGKILL about a second later instead of
# passing the SIGTERM on, so a SIGTERM to it reaches that window; docs/reliability.md).
. "$(dirname "$0")/leftovers.sh"
tries=$1; signals=$2; shift 2
out=$(mktemp)
marks=$(mktemp -d)
export ARMADA_TEST_MARKS="$marks"
# Open MPI's shared-memory BTL keeps its own files, which a killed job leaves behind: give it a
# directory of ours and remove it at the end (only Armada's leftovers are judged).
vader=$(mktemp -d)
export OMPI_MCA_btl_vader_backing_directory="$vader"
trap 'rm -f "$out"; rm -rf "$vader" "$marks"' EXIT
for try in $(seq 1 "$tries"); do
  ucx_before=$(ucx_files_before)
  : >"$out"  # not the last try's output
  rm -f "$marks"/*  # nor its marks (before the launch: a fast rank marks at once)
  "$@" churn >"$out" 2>&1 &
  launcher=$!
  # Wait (at most 30 s) until every rank has announced its pid and the loop runs (shm_abort
  # marks both with files: output through a launcher can arrive split).
  started=""
  for _ in $(seq 1 300); do
    [ -e "$marks/allocating" ] && started=1 && break
    sleep 0.1
  done
  pids=$(marked_pids "$marks")
  [ -n "$started" ] || { echo "check_shm_churn: try $try: the job did not start"; cat "$out"; kill "$launcher" 2>/dev/null; exit 1; }
  sleep "0.$(shuf -i 0-999 -n 1 | awk '{printf "%03d", $1}')"
  if [ "$signals" = kill,term ] && [ $((try % 2)) -eq 1 ]; then
    victim=$(printf '%s\n' "$pids" | shuf -n 1)
    kill -KILL "$victim" 2>/dev/null; how="SIGKILL to rank pid $victim"
  elif [ "$signals" = term-ranks ]; then
    # shellcheck disable=SC2086
    kill -TERM $pids 2>/dev/null; how="SIGTERM to every rank"
  else
    kill -TERM "$launcher" 2>/dev/null; how="SIGTERM to the launcher"
  fi
  wait "$launcher"; rc=$?
  # A segment stays listed (marked for destruction) while a dying rank still has it attached:
  # look only once every rank has exited (at most 15 s).
  for _ in $(seq 1 150); do
    alive=""
    for p in $pids; do kill -0 "$p" 2>/dev/null && alive="$alive $p"; done
    [ -z "$alive" ] && break
    sleep 0.1
  done
  [ -z "$alive" ] || { echo "check_shm_churn: try $try: ranks$alive still running 15 s after the launcher ended"; exit 1; }
  left=$(leftovers "$pids" "$ucx_before")
  if [ -n "$left" ]; then
    echo "check_shm_churn: try $try ($how, exit $rc): left behind: $left"
    for id in $(printf '%s\n' "$left" | sed -n 's/.*sysv:\([0-9]*\).*/\1/p'); do ipcs -m -i "$id"; done
    exit 1
  fi
  echo "check_shm_churn: try $try: $how while allocating (exit $rc): ranks $(echo $pids | tr '\n' ' ')left nothing"
done
