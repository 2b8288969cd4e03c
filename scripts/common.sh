# Shared by scripts/*.sh: the launcher and the flags Armada's programs need on this machine.
# shellcheck shell=bash

armada_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
jobs=$(nproc 2>/dev/null || echo 2)

# mpiexec with the flags this MPI needs: Open MPI refuses to run as root and to put more ranks
# than cores on a machine unless told; MPICH's Hydra needs neither.
armada_mpiexec() {
  local launcher=${MPIEXEC:-mpiexec}
  if "$launcher" --version 2>&1 | grep -q -E 'Open MPI|OpenRTE'; then
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=${OMPI_MCA_btl:-self,vader} \
      "$launcher" --oversubscribe --bind-to none "$@"
  else
    "$launcher" "$@"
  fi
}
