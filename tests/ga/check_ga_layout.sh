#!/bin/sh
# check_ga_layout.sh <layout> <bytes> <mpicc> <mpifort|""> <source dir>: GA's installation layout
# (ga/compat) as NWChem's EXTERNAL_GA_PATH build and Debian's GA users read it: bin/ga-config
# answers every option GA 5.8's does (also through a symbolic link), include/ has GA's headers
# with GA's type layout, and programs link `-lga -larmci` from it (NWChem's recipe: the last word
# of --cppflags and --ldflags, then --network_ldflags/--network_libs; Debian's: --libs) into
# binaries that use Armada's libraries and run.
set -u
layout=$1 bytes=$2 mpicc=$3 mpifort=$4 src=$5
config=$(cd "$layout" && pwd)/bin/ga-config
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
answer() { "$config" "$1" 2>&1 || fail "ga-config $1 failed: $("$config" "$1" 2>&1)"; }
last_word() { set -- $1; eval "echo \${$#}"; }

# Every option of GA 5.8's ga-config, with the values that describe Armada.
[ "$(answer --enable-f77)" = yes ] || fail "--enable-f77 = '$(answer --enable-f77)'"
[ "$(answer --use_scalapack)" = 1 ] || fail "--use_scalapack = '$(answer --use_scalapack)'"
for o in --use_blas --use_lapack; do [ "$(answer $o)" = 1 ] || fail "$o"; done
for o in --use_peigs --use_elpa --use_elpa_2015 --use_elpa_2016 --use_sicm; do [ "$(answer $o)" = 0 ] || fail "$o"; done
[ "$(answer --sicm_dev)" = no ] || fail "--sicm_dev"
case $(answer --blas_size)$(answer --scalapack_size) in 44|88) ;; *) fail "--blas_size/--scalapack_size";; esac
for o in --cc --f77 --cppflags --ldflags --libs --flibs --network_ldflags --network_libs --version --prefix; do
  [ -n "$(answer $o)" ] || fail "$o is empty"
done
answer --network_cppflags >/dev/null; answer --cflags >/dev/null
if [ "$bytes" = 8 ]; then fint=-fdefault-integer-8; else fint=""; fi
[ "$(answer --fint)" = "$fint" ] || fail "--fint = '$(answer --fint)', expected '$fint'"
"$config" --no-such-option >/dev/null 2>&1 && fail "an unknown option was accepted"
# Through a symbolic link named ga-config elsewhere: the same answers (paths of the layout).
ln -s "$config" "$dir/ga-config"
[ "$("$dir/ga-config" --cppflags)" = "$(answer --cppflags)" ] || fail "through a link: $("$dir/ga-config" --cppflags)"

# Headers: GA's, with GA's type layout (typesf2c.h owns Integer; ga.h includes it).
inc=$(last_word "$(answer --cppflags)"); inc=${inc#-I}
for h in ga.h gacommon.h macommon.h typesf2c.h macdecls.h ga-mpi.h ga-wapi.h global.fh mafdecls.fh \
         tcgmsg.h tcgmsg.fh msgtypesc.h msgtypesf.h eaf.h eaf.fh dra.h dra.fh sf.h sf.fh chemio.h elio.h \
         armci.h message.h armcix.h; do
  [ -f "$inc/$h" ] || fail "include/$h is missing"
done
grep -q wnga_set_property "$inc/ga-wapi.h" || fail "ga-wapi.h does not declare wnga_set_property"
c_max=$(sed -n 's/^#define GA_MAX_DIM \([0-9]*\).*/\1/p' "$inc/gacommon.h")
f_max=$(sed -n 's/^ *parameter (ga_max_dim = \([0-9]*\)).*/\1/p' "$inc/global.fh")
[ -n "$c_max" ] && [ "$c_max" = "$f_max" ] || fail "global.fh's ga_max_dim ($f_max) is not gacommon.h's GA_MAX_DIM ($c_max)"
cat > "$dir/types.c" <<'C'
#include "typesf2c.h"
#include "ga.h"
#include "macdecls.h"
#include "ga-wapi.h"
Integer n = 1; DoubleComplex z; logical l; FATR void f(void) {}
int main(void) { return sizeof(Integer) == 8 && sizeof(z) == 16 ? 0 : 1; }
C
"$mpicc" -I"$inc" -c "$dir/types.c" -o "$dir/types.o" || fail "typesf2c.h + ga.h + macdecls.h + ga-wapi.h do not compile together"
# An ARMCI program compiles from the layout's include/ alone (GA installs ARMCI's headers).
printf '#include <armci.h>\n#include "message.h"\nint main(void) { return ARMCI_Init() || ARMCI_Finalize(); }\n' >"$dir/armci.c"
"$mpicc" -I"$inc" -c "$dir/armci.c" -o "$dir/armci.o" || fail "armci.h and message.h do not compile from include/"

# NWChem's recipe and Debian's, for the C example; then the binary's libraries.
libpath=$(last_word "$(answer --ldflags)")
"$mpicc" -I"$inc" "$src/examples/ga_example.c" -o "$dir/c_nwchem" $libpath -lga -larmci \
  $(answer --network_ldflags) $(answer --network_libs) -lm || fail "NWChem's link recipe failed"
"$mpicc" $(answer --cppflags) "$src/examples/ga_example.c" -o "$dir/c_debian" $(answer --libs) -lm \
  || fail "Debian's link recipe (--libs) failed"
for exe in c_nwchem c_debian; do
  needed=$(readelf -d "$dir/$exe" | grep NEEDED)
  case $needed in *libarmada_ga.so*) ;; *) fail "$exe does not use Armada's GA: $needed";; esac
  case $needed in *libga*|*libarmci*) fail "$exe uses another GA or ARMCI: $needed";; esac
  out=$("$dir/$exe" 2>&1) || fail "$exe failed: $out"
  case $out in *passed*) ;; *) fail "$exe: $out";; esac
done

# A Fortran program compiled for this layout's INTEGER width, linked as NWChem links.
if [ -n "$mpifort" ]; then
  "$mpifort" $(answer --fflags) "$src/examples/ga_fortran.F90" -o "$dir/f" $libpath -lga -larmci \
    $(answer --network_ldflags) $(answer --network_libs) || fail "the Fortran example did not build"
  out=$("$dir/f" 2>&1) || fail "the Fortran example failed: $out"
  case $out in *"eigenvector passed"*) ;; *) fail "Fortran example: $out";; esac
fi
echo "GA layout $layout ($bytes-byte INTEGER): ga-config's options, headers, NWChem's and Debian's link recipes passed"
