#!/usr/bin/env bash
# The README's four examples (C++, C, Fortran GA style, Python), taken from README.md as they
# stand, built against the installed tree the way building.md says, and run on 2 ranks:
#   readme_examples_test.sh README PREFIX WORK
set -u
readme=$1 prefix=$2 work=$3
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
python3 - "$readme" <<'PY' || fail "cannot extract the examples"
import re, sys
blocks = re.findall(r"^```(cpp|c|fortran|python)\n(.*?)^```", open(sys.argv[1]).read(), re.S | re.M)
names = {"cpp": "readme.cpp", "c": "readme.c", "fortran": "readme.F90", "python": "readme.py"}
if sorted(lang for lang, _ in blocks) != sorted(names):
    sys.exit(f"README.md has examples {[lang for lang, _ in blocks]}, not one each of {sorted(names)}")
for lang, code in blocks:
    open(names[lang], "w").write(code)
PY
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
c++ -std=c++20 readme.cpp $(pkg-config --cflags --libs armada-arrays) -o cpp || fail "the C++ example does not build"
cc readme.c $(pkg-config --cflags --libs armada-arrays) -o c || fail "the C example does not build"
mpifort $("$prefix/bin/armada-ga-config" --fflags) readme.F90 -o fortran $("$prefix/bin/armada-ga-config" --flibs) ||
  fail "the Fortran example does not build"
for program in ./cpp ./c ./fortran "$prefix/bin/armada-python readme.py"; do
  # shellcheck disable=SC2086
  timeout 60 mpiexec -n 2 $program > out.txt 2>&1 || { cat out.txt; fail "the example '$program' failed on 2 ranks"; }
  echo "ok: mpiexec -n 2 $program"
done
echo "README examples: 4 built and run"
