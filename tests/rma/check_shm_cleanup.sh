#!/bin/sh
# check_shm_cleanup.sh <mode> <launch...>: runs a job that dies with shared memory mapped and
# checks that none of its ranks left a file in /dev/shm. Armada names its objects
# /dev/shm/armada.<creator pid>.<random hex>; every rank prints its pid. Under the rdma transport
# segments are UCX's: SysV segments (ipcs -m, by creator pid) or /dev/shm/ucx_shm_posix_* files
# (compared with those there before the job).
mode=$1; shift
ucx_before=$(ls /dev/shm 2>/dev/null | grep '^ucx_shm_posix_' | sort)
out=$("$@" "$mode" 2>&1); rc=$?
printf '%s\n' "$out" | grep -v '^pid ' | head -20
if [ "$rc" -eq 0 ]; then echo "check_shm_cleanup: the job was supposed to die (exit $rc)"; exit 1; fi
pids=$(printf '%s\n' "$out" | sed -n 's/^pid \([0-9]*\)$/\1/p')
[ -n "$pids" ] || { echo "check_shm_cleanup: the job printed no pids"; exit 1; }
sleep 1
left=""
for p in $pids; do
  left="$left$(ls /dev/shm 2>/dev/null | grep "^armada\.$p\.")"
  left="$left$(ipcs -m -p 2>/dev/null | awk -v p="$p" '$3 == p {print " sysv:" $1}')"
done
ucx_after=$(ls /dev/shm 2>/dev/null | grep '^ucx_shm_posix_' | sort)
if [ -n "$ucx_before" ]; then ucx_after=$(printf '%s\n' "$ucx_after" | grep -v -x -F "$ucx_before"); fi
left="$left$(printf '%s' "$ucx_after" | tr '\n' ' ')"
if [ -n "$left" ]; then echo "check_shm_cleanup: left behind in /dev/shm: $left"; exit 1; fi
echo "check_shm_cleanup: job died ($mode, exit $rc); ranks $(echo $pids | tr '\n' ' ')left nothing in /dev/shm"
