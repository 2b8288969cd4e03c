#!/usr/bin/env bash
# The installed Python entry with a python3 without NumPy first on PATH (a venv without site
# packages, as pyenv and venv interpreters often are): installed_python_test.sh PREFIX WORK
# `armada-python -m armada.demo` from the README must pass on 2 ranks; that python3 must stop at
# `import armada` naming the interpreter the package was built for and armada-python.
set -u
prefix=$1 work=$2
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work" || fail "cannot create $work"
/usr/bin/python3 -m venv --without-pip "$work/venv" || fail "cannot make a venv"
export PATH="$work/venv/bin:$prefix/bin:$PATH"
cd "$work" || exit 1
[ "$(command -v python3)" = "$work/venv/bin/python3" ] || fail "the venv's python3 is not first on PATH"
out=$(timeout 120 mpiexec -n 2 armada-python -m armada.demo 2>&1)   # the README's line as written
echo "$out"
grep -q '^demo passed$' <<<"$out" || fail "mpiexec -n 2 armada-python -m armada.demo did not pass"
site=$(ls -d "$prefix"/lib*/python3*/*-packages 2>/dev/null | head -1)
[ -n "$site" ] || fail "no Python package under $prefix"
out=$(PYTHONPATH=$site python3 -c 'import armada' 2>&1)
echo "$out"
grep -q "armada cannot be imported into $work/venv/bin/python3 (Python [0-9.]*): ModuleNotFoundError: No module named 'numpy'" <<<"$out" ||
  fail "import armada in a python3 without NumPy does not say which interpreter it is"
grep -q "The armada package was built for /.*python3[0-9.]* (Python [0-9.]*) with NumPy and mpi4py" <<<"$out" ||
  fail "the error does not name the interpreter the package was built for"
grep -q "armada-python your_program.py" <<<"$out" || fail "the error does not give the command to use"
echo "installed Python entry: ok"
