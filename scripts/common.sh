# Shared by scripts/*.sh: the launcher and the flags Armada's programs need on this machine.
# shellcheck shell=bash

armada_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
jobs=$(nproc 2>/dev/null || echo 2)

# mpiexec with the flags this MPI needs: Open MPI refuses to run as root and to put more ranks
# than cores on a machine unless told; MPICH's Hydra needs neither.
# MPIEXEC_BIND (not an ARMADA_ name: the library warns about those it does not know): the
# binding, "none" when unset; "default" passes no binding flag (the launcher's
# own default: Open MPI 4 binds to cores at up to 2 ranks), anything else is --bind-to's value.
armada_mpiexec() {
  local launcher=${MPIEXEC:-mpiexec} bind=${MPIEXEC_BIND:-none}
  if "$launcher" --version 2>&1 | grep -q -E 'Open MPI|OpenRTE'; then
    [ "$bind" = default ] || set -- --bind-to "$bind" "$@"
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=${OMPI_MCA_btl:-self,vader} \
      "$launcher" --oversubscribe "$@"
  else
    [ "$bind" = default ] || set -- -bind-to "$bind" "$@"
    "$launcher" "$@"
  fi
}
