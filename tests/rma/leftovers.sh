# Sourced by check_shm_cleanup.sh and check_shm_churn.sh: what a job's ranks left behind.
#   ucx_files_before            (call before the job) the /dev/shm/ucx_shm_posix_* files there now
#   leftovers <pids> <before>   prints what the ranks <pids> left: /dev/shm/armada.<pid>.* objects,
#                               SysV segments they created, UCX files not in <before> that no live
#                               process holds; nothing if clean
#   marked_pids <dir>           the pids the ranks announced (shm_abort's files pid.<n> in <dir>)
# shellcheck shell=sh
marked_pids() { ls "$1" 2>/dev/null | sed -n 's/^pid\.\([0-9][0-9]*\)$/\1/p'; }
ucx_files_before() { ls /dev/shm 2>/dev/null | grep '^ucx_shm_posix_' | sort; }
# A UCX file some live process holds (open or mapped) belongs to a job still running (ctest runs
# jobs side by side, and UCX's files exist for a moment while it makes them), not to the killed
# one: only files nobody holds are leftovers.
ucx_unheld() {
  for _f in $1; do
    if [ -e "/dev/shm/$_f" ] && ! cat /proc/[0-9]*/maps 2>/dev/null | grep -q -F "/dev/shm/$_f" &&
       ! ls -l /proc/[0-9]*/fd 2>/dev/null | grep -q -F "/dev/shm/$_f"; then
      printf '%s\n' "$_f"
    fi
  done
}
leftovers() {
  _left=""
  for _p in $1; do
    _left="$_left$(ls /dev/shm 2>/dev/null | grep "^armada\.$_p\.")"
    _left="$_left$(ipcs -m -p 2>/dev/null | awk -v p="$_p" '$3 == p {print " sysv:" $1}')"
  done
  _ucx=$(ucx_files_before)
  if [ -n "$2" ]; then _ucx=$(printf '%s\n' "$_ucx" | grep -v -x -F "$2"); fi
  _ucx=$(ucx_unheld "$_ucx")
  printf '%s' "$_left$(printf '%s' "$_ucx" | tr '\n' ' ')"
}
