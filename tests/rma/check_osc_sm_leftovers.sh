#!/bin/sh
# check_osc_sm_leftovers.sh <launch...>: the mpi-rma transport's first rank on a host removes the
# window files Open MPI's osc sm left there when a job was killed inside MPI_Win_allocate
# (rma/src/transport/mpi_rma/leftovers.hpp), and nothing else. Planted in osc sm's backing
# directory (one of ours): a leftover of this user and host (must go), one a live process holds
# open (a job creating its window: must stay), one of another host sharing the directory and,
# as root, one of another user (must stay). Then the job (shm_abort start) runs once; it must say
# what it removed, and leave no file of its own.
dir=$(mktemp -d)
holder=""
trap 'rm -rf "$dir"; [ -n "$holder" ] && kill "$holder" 2>/dev/null' EXIT
export OMPI_MCA_osc_sm_backing_directory="$dir"
host=$(hostname | cut -d. -f1)
leftover="$dir/osc_sm.$host.dead0001.0.3"
held="$dir/osc_sm.$host.live0001.0.3"
other_host="$dir/osc_sm.not-$host.dead0002.0.3"
other_user="$dir/osc_sm.$host.dead0003.0.3"
for f in "$leftover" "$held" "$other_host" "$other_user"; do truncate -s 1M "$f"; done
keep="$held $other_host"
if [ "$(id -u)" -eq 0 ]; then
  chown 65534 "$other_user"; keep="$keep $other_user"
else
  rm -f "$other_user"; echo "check_osc_sm_leftovers: not root: no file of another user planted"
fi
sleep 60 3<"$held" &
holder=$!
out=$("$@" start 2>&1); rc=$?
printf '%s\n' "$out" | grep -v '^pid '
[ "$rc" -eq 0 ] || { echo "check_osc_sm_leftovers: the job failed (exit $rc)"; exit 1; }
[ -e "$leftover" ] && { echo "check_osc_sm_leftovers: the leftover ${leftover##*/} is still there"; exit 1; }
printf '%s\n' "$out" | grep -q "removed $leftover" ||
  { echo "check_osc_sm_leftovers: the job did not say it removed ${leftover##*/}"; exit 1; }
for f in $keep; do
  [ -e "$f" ] || { echo "check_osc_sm_leftovers: ${f##*/} was removed, though it is not a leftover of this user and host"; exit 1; }
done
extra=$(ls "$dir" | grep -v -x -F -e "${held##*/}" -e "${other_host##*/}" -e "${other_user##*/}")
[ -z "$extra" ] || { echo "check_osc_sm_leftovers: the job left $extra"; exit 1; }
echo "check_osc_sm_leftovers: removed ${leftover##*/}, kept$(for f in $keep; do printf ' %s' "${f##*/}"; done)"
