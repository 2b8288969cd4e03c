#!/bin/sh
# check_shm_cleanup.sh <mode> <launch...>: runs a job that dies with shared memory mapped and
# checks that none of its ranks left a file in /dev/shm. Armada names its objects
# /dev/shm/armada.<creator pid>.<random hex>; every rank prints its pid.
mode=$1; shift
out=$("$@" "$mode" 2>&1); rc=$?
printf '%s\n' "$out" | grep -v '^pid ' | head -20
if [ "$rc" -eq 0 ]; then echo "check_shm_cleanup: the job was supposed to die (exit $rc)"; exit 1; fi
pids=$(printf '%s\n' "$out" | sed -n 's/^pid \([0-9]*\)$/\1/p')
[ -n "$pids" ] || { echo "check_shm_cleanup: the job printed no pids"; exit 1; }
sleep 1
left=""
for p in $pids; do left="$left$(ls /dev/shm 2>/dev/null | grep "^armada\.$p\.")"; done
if [ -n "$left" ]; then echo "check_shm_cleanup: left behind in /dev/shm: $left"; exit 1; fi
echo "check_shm_cleanup: job died ($mode, exit $rc); ranks $(echo $pids | tr '\n' ' ')left nothing in /dev/shm"
