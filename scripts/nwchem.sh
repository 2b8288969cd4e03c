#!/bin/bash
# scripts/nwchem.sh: NWChem built unchanged on Armada's GA and on Debian's GA 5.8.2 from the same
# source, and NWChem's own QA run on both (docs/nwchem.md). Not part of CI: a build takes most of
# an hour on two cores.
#
#   scripts/nwchem.sh fetch                 Debian's source package nwchem (7.0.2 with Debian's
#                                           patches) into $WORK/src, through a deb-src entry
#                                           given to this one apt call (nothing else changes)
#   scripts/nwchem.sh build armada|ga       build $MODULES against Armada's GA layout
#                                           ($ARMADA_PREFIX/lib/armada/ga) or Debian's GA; the
#                                           binary is checked to hold no GA library but the one asked
#   scripts/nwchem.sh qa armada|ga NP...    NWChem's QA (QA/runtests.mpi.unix, nwparse.pl) for
#                                           $TESTS at each NP, into $WORK/qa-<build>-np<NP>/
#   scripts/nwchem.sh table                 the table test x ranks x build (pass/fail, seconds)
#
# Settings (environment): WORK (default build/nwchem), ARMADA_PREFIX (an installed Armada, or a
# build tree's build/ga/compat: default the build tree), MODULES (default "nwdft driver tce"),
# TESTS (default: QA/doafewqmtests.mpi's list plus tce_h2o and tce_ccsd_t_h2o), JOBS (make -j,
# default 2), MPIRUN_FLAGS (extra mpirun flags, e.g. for virtual nodes or emulated hosts).
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
WORK=${WORK:-$here/build/nwchem}
MODULES=${MODULES:-"nwdft driver tce"}
JOBS=${JOBS:-2}
ARMADA_PREFIX=${ARMADA_PREFIX:-$here/build}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

say() { printf '[nwchem.sh %s] %s\n' "$(date +%H:%M:%S)" "$*"; }
die() { printf 'nwchem.sh: %s\n' "$*" >&2; exit 1; }

# Where a build's GA is: Armada's GA layout (installed, or the build tree's), or Debian's.
ga_path() {
  case $1 in
    armada)
      for p in "$ARMADA_PREFIX/lib/armada/ga" "$ARMADA_PREFIX/ga/compat/ga"; do
        [ -x "$p/bin/ga-config" ] && { echo "$p"; return; }
      done
      die "no Armada GA layout under $ARMADA_PREFIX (lib/armada/ga or ga/compat/ga): build or install Armada first" ;;
    ga)
      local p=/usr/lib/x86_64-linux-gnu/ga/openmpi
      [ -x "$p/bin/ga-config" ] || die "Debian's GA is missing ($p/bin/ga-config): scripts/setup.sh installs libglobalarrays-dev"
      echo "$p" ;;
    *) die "a build is 'armada' or 'ga', not '$1'" ;;
  esac
}

fetch() {
  local src=$WORK/src
  [ -d "$src/nwchem/src" ] && { say "source present in $src/nwchem"; return; }
  mkdir -p "$src/lists/partial"
  cat > "$src/deb-src.sources" <<EOF
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
  local apt=(apt-get -o Dir::Etc::SourceList="$src/deb-src.sources" -o Dir::Etc::SourceParts=/dev/null
             -o Dir::State::Lists="$src/lists")
  say "apt-get update (deb-src entry for this call only)"
  "${apt[@]}" update >"$src/apt.log" 2>&1 || die "apt-get update failed: $src/apt.log"
  say "apt-get source nwchem (Debian's patches applied by dpkg-source)"
  (cd "$src" && "${apt[@]}" source nwchem >>"$src/apt.log" 2>&1) || die "apt-get source failed: $src/apt.log"
  local dir
  dir=$(find "$src" -maxdepth 1 -type d -name 'nwchem-*' | head -1)
  [ -n "$dir" ] || die "apt-get source left no nwchem-* directory: $src/apt.log"
  ln -sfn "$dir" "$src/nwchem"
  say "source in $dir"
}

build() {
  local which=$1 ga top
  ga=$(ga_path "$which")
  top=$WORK/build-$which
  [ -d "$WORK/src/nwchem/src" ] || fetch
  if [ ! -d "$top/src" ]; then
    say "copying the source to $top"
    mkdir -p "$top" && cp -a "$WORK/src/nwchem/." "$top/"
  fi
  # As Debian's package builds it (debian/rules): LINUX64, MPI, 8-byte Fortran INTEGER with
  # 4-byte BLAS (64_to_32), ScaLAPACK; only the GA differs.
  export NWCHEM_TOP=$top NWCHEM_TARGET=LINUX64 NWCHEM_MODULES="$MODULES" USE_MPI=y
  export EXTERNAL_GA_PATH=$ga BLAS_SIZE=4 USE_64TO32=y SCALAPACK_SIZE=4
  export BLASOPT="-lopenblas" LAPACK_LIB="-lopenblas" SCALAPACK="-lscalapack-openmpi" BLACS="-lscalapack-openmpi"
  export MPICC=mpicc.openmpi MPICXX=mpicxx.openmpi MPIF77=mpif77.openmpi MPIF90=mpif90.openmpi MPIFC=mpifort.openmpi
  export MPI_INCLUDE=/usr/include/x86_64-linux-gnu/openmpi LIBMPI="-lmpi_usempif08 -lmpi_usempi_ignore_tkr -lmpi_mpifh -lmpi"
  export USE_NOFSCHECK=TRUE USE_NOIO=TRUE
  local log=$top/build.log
  say "building NWChem ($MODULES) against $ga: $log"
  # Configuration and the 64-to-32 conversion run once (a stamp records them): rerunning them
  # rewrites sources and headers, and make would then recompile the whole tree on a resumed build.
  local stamp=$top/.configured-by-nwchem.sh
  if [ ! -f "$stamp" ]; then
    (cd "$top/src" && make nwchem_config && make 64_to_32) >"$log" 2>&1 \
      || die "configuration failed (last lines of $log):$(printf '\n'; tail -30 "$log")"
    touch "$stamp"
  fi
  (cd "$top/src" && make -j"$JOBS" && make link) >>"$log" 2>&1 \
    || die "the build failed (last lines of $log):$(printf '\n'; tail -30 "$log")"
  local exe=$top/bin/LINUX64/nwchem
  [ -x "$exe" ] || die "no binary at $exe"
  check_binary "$which" "$exe"
  say "built $exe"
}

# The binary holds the GA asked for and no other: Armada's libraries (and no symbol of GA's
# own ARMCI or libga) for 'armada'; Debian's static libga for 'ga' (no Armada library).
check_binary() {
  local which=$1 exe=$2 needed
  needed=$(readelf -d "$exe" | grep NEEDED || true)
  case $which in
    armada)
      case $needed in *libarmada_ga*) ;; *) die "$exe does not load Armada's GA: $needed";; esac
      if nm "$exe" 2>/dev/null | grep -qE ' T (pnga_|armci_msg_init|PARMCI_)'; then
        die "$exe holds GA's own code (pnga_/PARMCI_ symbols): a mixed binary"
      fi ;;
    ga)
      case $needed in *libarmada*) die "$exe loads an Armada library: $needed";; esac ;;
  esac
}

qa() {
  local which=$1; shift
  local top=$WORK/build-$which exe
  exe=$top/bin/LINUX64/nwchem
  [ -x "$exe" ] || die "build $which first (scripts/nwchem.sh build $which)"
  local tests=${TESTS:-"$(grep -oE 'runtests.mpi.unix procs \$np [^ ]+' "$top/QA/doafewqmtests.mpi" | awk '{print $4}') tce_h2o tce_ccsd_t_h2o"}
  for np in "$@"; do
    local out=$WORK/qa-$which-np$np
    mkdir -p "$out"
    for t in $tests; do
      say "QA $t on $np ranks ($which)"
      local start end status=pass
      start=$(date +%s.%N)
      (cd "$top/QA" && NWCHEM_TOP=$top NWCHEM_TARGET=LINUX64 NWCHEM_EXECUTABLE=$exe \
        MPIRUN_PATH=$(command -v mpirun) MPIRUN_NPOPT="-np" \
        NWCHEM_BASIS_LIBRARY=$top/src/basis/libraries/ NWCHEM_NWPW_LIBRARY=$top/src/nwpw/libraryps/ \
        timeout 3600 ./runtests.mpi.unix procs "$np" "$t") >"$out/$t.log" 2>&1 || status=fail
      grep -q "failed" "$out/$t.log" && status=fail
      end=$(date +%s.%N)
      awk -v t="$t" -v np="$np" -v w="$which" -v s="$status" -v a="$start" -v b="$end" 'BEGIN { printf "%s\t%s\t%s\t%s\t%.1f\n", t, np, w, s, b - a }' >>"$WORK/table.tsv"
    done
  done
}

table() {
  [ -f "$WORK/table.tsv" ] || die "no results yet ($WORK/table.tsv): run scripts/nwchem.sh qa first"
  printf '| test | ranks | build | result | seconds |\n|---|---|---|---|---|\n'
  sort -k1,1 -k2,2n -k3,3 "$WORK/table.tsv" | awk -F'\t' '{printf "| %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5}'
}

case ${1:-} in
  fetch) fetch ;;
  build) [ $# -eq 2 ] || die "usage: scripts/nwchem.sh build armada|ga"; build "$2" ;;
  qa) [ $# -ge 3 ] || die "usage: scripts/nwchem.sh qa armada|ga NP..."; shift; qa "$@" ;;
  table) table ;;
  *) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 1 ;;
esac
