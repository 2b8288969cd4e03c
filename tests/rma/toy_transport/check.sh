#!/usr/bin/env bash
# Adding a transport is one folder (docs/architecture.md#adding-a-transport), shown with a toy:
#   check.sh <source tree> <build dir> <scratch dir> <cmake options...>
# copies the source tree into <scratch>/src, adds the folder toy/ beside this script as
# rma/src/transport/toy/ and nothing else, configures it (with the build's options), and checks
# that the build registered the transport, that the test matrix made its rows
# (rma_conformance.toy.vnode1.np2) and no cluster row, and that nothing but the folder differs from
# the tree. It builds only armada_rma there (the programs name no transport: they are the same
# files) and runs the conformance row as the scratch's ctest made it: its launch and environment,
# with the build's rma_conformance on the scratch's library. Then it removes the scratch.
# ccache makes the library's build cheap: <scratch>/src/build sits as deep under its source as
# <build dir> under the tree, so the compile lines are the same relative to base_dir.
set -euo pipefail
src=$1 build=$2 scratch=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "toy_transport: FAILED: $*" >&2; exit 1; }

rm -rf "$scratch"
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/src"
# The tree without version control and build trees: those at its top (build*), and the build
# tree this check runs in, wherever it is inside the tree (the scratch lives there).
excludes=(--exclude=./.git --exclude='./build*')
prunes=(-path ./.git -prune -o -path './build*' -prune -o)
inside=$(realpath --relative-to="$src" "$build")
case $inside in ..*) ;; *) excludes+=(--exclude="./$inside"); prunes+=(-path "./$inside" -prune -o) ;; esac
tar -C "$src" "${excludes[@]}" -cf - . | tar -C "$scratch/src" -xf -
cp -r "$here/toy" "$scratch/src/rma/src/transport/toy"

# The scratch tree is the tree and the folder, nothing else.
manifest() { (cd "$1" && shift && find . "$@" -type f -print0 | sort -z | xargs -0 sha1sum); }
tree=$(manifest "$src" "${prunes[@]}")
grep -q " ./rma/src/transport/transports.cpp.in$" <<< "$tree" || fail "no tree read at $src"
changes=$(diff <(echo "$tree") <(manifest "$scratch/src" -path ./rma/src/transport/toy -prune -o) || true)
[ -z "$changes" ] || fail "the scratch tree differs from the tree beyond the folder: $changes"
[ -f "$scratch/src/rma/src/transport/toy/transport.cmake" ] || fail "the toy folder was not added"

out=$scratch/src/build
cmake -S "$scratch/src" -B "$out" "$@" > "$scratch/configure.log" 2>&1 || { cat "$scratch/configure.log"; fail "configure"; }
grep -q "Armada: transports .*toy" "$scratch/configure.log" || fail "the build did not read the toy's row"
grep -q "&kToyTransport," "$out/rma/generated/transports.cpp" || fail "the registration list lacks the toy"

ctest --test-dir "$out" --show-only=json-v1 > "$scratch/rows.json"
row=$(python3 - "$scratch/rows.json" "$build" "$out" <<'EOF'
import json, shlex, sys
rows, build, out = sys.argv[1:4]
tests = json.load(open(rows))["tests"]
names = [t["name"] for t in tests]
toy = [n for n in names if ".toy." in n or n.endswith(".toy")]
if "rma_conformance.toy.vnode1.np2" not in toy:
    sys.exit("no row rma_conformance.toy.vnode1.np2 (toy rows: %s)" % toy)
if any(".cluster" in n for n in toy):
    sys.exit("cluster rows for a transport without a cluster configuration: %s" % toy)
t = next(t for t in tests if t["name"] == "rma_conformance.toy.vnode1.np2")
env = next(p["value"] for p in t["properties"] if p["name"] == "ENVIRONMENT")
# The build's program in place of the scratch's (not built there).
command = [c.replace(out + "/tests/rma/rma_conformance", build + "/tests/rma/rma_conformance") for c in t["command"]]
# ARMADA_VERBOSE=1: rank 0 prints the transports it started.
# (Open MPI's segment directory is the scratch build's fixture's, which is not run: the default.)
env = [e for e in env if e and not e.startswith("OMPI_MCA_btl_vader_backing_directory=")]
launch = ["env", "LD_LIBRARY_PATH=" + out + "/rma", "ARMADA_VERBOSE=1"] + env + command
print(" ".join(shlex.quote(c) for c in launch))
EOF
) || fail "the test matrix: $row"
echo "toy_transport: row rma_conformance.toy.vnode1.np2: $row"

cmake --build "$out" --target armada_rma -j 2 > "$scratch/build.log" 2>&1 || { tail -40 "$scratch/build.log"; fail "build"; }

eval "$row" > "$scratch/run.log" 2>&1 || { tail -60 "$scratch/run.log"; fail "the conformance row"; }
grep -q "^  transport toy: " "$scratch/run.log" || fail "the row did not start the toy transport"
grep -q "^\[  PASSED  \]" "$scratch/run.log" || { tail -60 "$scratch/run.log"; fail "the conformance row passed no test"; }
echo "toy_transport: the conformance row passed through the toy: $(grep -m1 '^\[  PASSED  \]' "$scratch/run.log")"
