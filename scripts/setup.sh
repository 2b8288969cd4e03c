#!/usr/bin/env bash
# Installs the Debian packages Armada needs to build and test, only those missing.
# Non-interactive and idempotent: a second run installs nothing and takes a second.
#
#   ARMADA_MPI=openmpi (default) | mpich   which MPI implementation to install
#   ARMADA_SETUP_EXTRA="pkg ..."           further packages to install
set -euo pipefail

mpi="${ARMADA_MPI:-openmpi}"
case "$mpi" in
  openmpi) mpi_pkgs=(openmpi-bin libopenmpi-dev libscalapack-openmpi-dev libhdf5-openmpi-dev) ;;
  mpich)   mpi_pkgs=(mpich libmpich-dev libscalapack-mpich-dev libhdf5-mpich-dev) ;;
  *) echo "setup.sh: ARMADA_MPI='$mpi' is not one of: openmpi, mpich" >&2; exit 2 ;;
esac

packages=(
  build-essential cmake pkg-config gfortran
  ccache                   # compiles through it when present (cmake/ArmadaOptions.cmake): a second tree of the same sources builds from the cache
  "${mpi_pkgs[@]}"
  libopenblas-dev liblapack-dev libeigen3-dev
  libgtest-dev libgmock-dev
  libibverbs-dev rdma-core
  libucx-dev               # UCX (UCP) for the rdma transport (ARMADA_TRANSPORT=rdma)
  procps
  nftables                 # scripts/cluster.sh --fault lossy: random packet loss on an emulated host's link (no netem here)
  gnuplot-nox              # armada-bench plots (PNG)
  libglobalarrays-dev      # Global Arrays (its static libga for each MPI), for the GA tests and baselines
  libarmci-mpi-dev         # ARMCI-MPI for the Global Arrays baseline of armada-bench-arrays
  hdf5-tools               # h5dump: the independent reader of the files arrays' HDF5 I/O writes
  pybind11-dev python3-dev python3-numpy python3-mpi4py python3-pytest python3-h5py   # python/
  python3-venv             # tests/docs: a python3 without NumPy first on PATH (a venv), as pyenv users have
)
# shellcheck disable=SC2206
packages+=(${ARMADA_SETUP_EXTRA:-})

missing=()
for p in "${packages[@]}"; do
  # dpkg-query prints "install ok installed" only for a fully installed package.
  if [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" != "install ok installed" ]; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup.sh: all ${#packages[@]} packages present"
  exit 0
fi

echo "setup.sh: installing ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup.sh: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo_cmd=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
# Refresh the package index only when it is missing or older than a day.
stamp=/var/lib/apt/periodic/update-success-stamp
lists=$(find /var/lib/apt/lists -maxdepth 1 -name '*_Packages*' 2>/dev/null | head -n1)
if [ -z "$lists" ] || [ -z "$(find /var/lib/apt/lists -maxdepth 1 -name '*_Packages*' -mtime -1 2>/dev/null | head -n1)" ]; then
  "${sudo_cmd[@]}" apt-get update -q
fi
: "$stamp"
"${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
echo "setup.sh: done"
