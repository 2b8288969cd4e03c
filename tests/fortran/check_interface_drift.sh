#!/bin/sh
# check_interface_drift.sh <python> <fortran compiler> <module build dir> <fortran/src> <arrays c_api.h> <other headers...>
# A C signature change that the Fortran module does not follow fails the build: armada_gaf_get's
# `lo` is changed to `const int lo[]` in a copy of the arrays C header, module armada_c is
# generated from it as the build generates it, and module armada, which passes int64_t tuples,
# must then fail to compile at that call. Prints the compiler's complaint; exit 0 only if the
# compile failed there and nowhere else.
python=$1; fc=$2; built=$3; src=$4; header=$5; shift 5
root=$(cd "$(dirname "$0")/../.." && pwd)
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
sed 's/int armada_gaf_get(int handle, const int64_t lo\[\]/int armada_gaf_get(int handle, const int lo[]/' "$header" >"$d/c_api.h"
cmp -s "$header" "$d/c_api.h" && { echo "check_interface_drift: armada_gaf_get's declaration was not found to change"; exit 1; }
"$python" "$root/scripts/gen-fortran-interfaces.py" "$d/armada_c.f90" "$d/c_api.h" "$@" || exit 1
grep -A3 'function armada_gaf_get(' "$d/armada_c.f90" | grep -q 'integer(c_int), intent(in) :: lo(\*)' ||
  { echo "check_interface_drift: the generated interface did not follow the header"; exit 1; }
cd "$d" || exit 1
for f in armada_c.f90 "$src/armada_support.f90" "$built/armada_local.f90" "$built/armada_forwarders.f90" \
    "$src/armada_linalg.f90"; do
  "$fc" -std=f2018 -c "$f" || { echo "check_interface_drift: $f failed to compile before the drifted call"; exit 1; }
done
if "$fc" -std=f2018 -c "$src/armada.f90" >"$d/log" 2>&1; then
  echo "check_interface_drift: module armada compiled against a drifted armada_gaf_get"; exit 1
fi
grep -i -B2 -A2 'lo' "$d/log" | head -12
grep -q -i "type mismatch\|rank mismatch\|kind" "$d/log" ||
  { echo "check_interface_drift: the compile failed, but not on the drifted argument:"; cat "$d/log"; exit 1; }
echo "check_interface_drift: module armada does not compile against the drifted header (armada_gaf_get's lo)"
