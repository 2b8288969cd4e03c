#!/bin/sh
# vader-cleanup.sh <dir>: the last test of the suite (fixture armada_mpi_segments, see
# cmake/ArmadaMpiTest.cmake). Removes the Open MPI shared-memory segment files in <dir> that no
# process maps or holds open any more (a launch still running elsewhere on this build keeps its
# own), says how many and whose they were, and exits 0: the files are Open MPI's, left by a
# launch that ended abnormally (killed by its timeout, a rank's abort); the test that did so
# has reported its own result already.
dir=$1
[ -d "$dir" ] || { echo "vader-cleanup: $dir does not exist: nothing to remove"; exit 0; }
removed=""
for f in "$dir"/*; do
  [ -e "$f" ] || continue
  if cat /proc/[0-9]*/maps 2>/dev/null | grep -q -F "$f" || ls -l /proc/[0-9]*/fd 2>/dev/null | grep -q -F "$f"; then
    continue  # in use by a running job
  fi
  rm -f "$f" && removed="$removed ${f##*/}"
done
if [ -n "$removed" ]; then
  echo "vader-cleanup: removed Open MPI segment files left by launches that did not end cleanly:$removed"
else
  echo "vader-cleanup: nothing left in $dir"
fi
# The directory itself stays (empty): another ctest of this build tree may be running, and its
# next launch needs it; the fixture's first test makes it again after a reboot.
exit 0
