#!/bin/sh
# check_shm_cleanup.sh <mode> <launch...>: runs a job that dies with shared memory mapped and
# checks that none of its ranks left anything behind (leftovers.sh): Armada's node memory has no
# name (memfd), so any /dev/shm/armada.<pid>.* would be a regression to named objects; under the
# rdma transport segments are UCX's: SysV segments (ipcs -m, by creator pid) or
# /dev/shm/ucx_shm_posix_* files (compared with those there before the job). Every rank announces
# its pid (a file pid.<n> in $ARMADA_TEST_MARKS: a launcher's output can arrive split).
. "$(dirname "$0")/leftovers.sh"
# Open MPI's shared-memory BTL files, which a killed job leaves behind, go to a directory of ours.
vader=$(mktemp -d)
export OMPI_MCA_btl_vader_backing_directory="$vader"
marks=$(mktemp -d)
export ARMADA_TEST_MARKS="$marks"
trap 'rm -rf "$vader" "$marks"' EXIT
mode=$1; shift
ucx_before=$(ucx_files_before)
out=$("$@" "$mode" 2>&1); rc=$?
printf '%s\n' "$out" | grep -v '^pid ' | head -20
if [ "$rc" -eq 0 ]; then echo "check_shm_cleanup: the job was supposed to die (exit $rc)"; exit 1; fi
pids=$(marked_pids "$marks")
[ -n "$pids" ] || { echo "check_shm_cleanup: no rank announced its pid (no pid.<n> in \$ARMADA_TEST_MARKS)"; exit 1; }
sleep 1
left=$(leftovers "$pids" "$ucx_before")
if [ -n "$left" ]; then echo "check_shm_cleanup: left behind in /dev/shm: $left"; exit 1; fi
echo "check_shm_cleanup: job died ($mode, exit $rc); ranks $(echo $pids | tr '\n' ' ')left nothing in /dev/shm"
