#!/bin/sh
# Proves that Armada's ARMCI library provides every ARMCI symbol Global Arrays needs:
#   check_ga_symbols.sh <libga.a> <libarmada_armci.so>
# Lists the symbols libga leaves undefined and does not define itself, keeps the ARMCI ones
# (ARMCI_*, armci_*, PARMCI_*, parmci_*), and fails naming any the library does not export.
# It fails too when nm fails or finds nothing to check: a check that read nothing proves nothing.
set -eu
ga=$1; lib=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
nm -u "$ga" > "$tmp/u.raw" 2>"$tmp/nm.err" || { echo "nm -u failed on $ga:"; cat "$tmp/nm.err"; exit 1; }
nm --defined-only "$ga" > "$tmp/d.raw" 2>"$tmp/nm.err" || { echo "nm failed on $ga:"; cat "$tmp/nm.err"; exit 1; }
nm -D --defined-only "$lib" > "$tmp/e.raw" 2>"$tmp/nm.err" || { echo "nm -D failed on $lib:"; cat "$tmp/nm.err"; exit 1; }
awk '{print $NF}' "$tmp/u.raw" | sort -u > "$tmp/undefined"
awk 'NF == 3 {print $3}' "$tmp/d.raw" | sort -u > "$tmp/defined"
comm -23 "$tmp/undefined" "$tmp/defined" | grep -i -E '^p?armci' > "$tmp/needed" || true
awk '{print $3}' "$tmp/e.raw" | sort -u > "$tmp/exported"
needed=$(wc -l < "$tmp/needed")
if [ "$needed" -eq 0 ]; then
  echo "found no ARMCI symbol that $ga needs: not a Global Arrays library built on ARMCI?"; exit 1
fi
missing=$(comm -23 "$tmp/needed" "$tmp/exported")
echo "libga needs $needed ARMCI symbols; $(basename "$lib") exports $(grep -c -i -E '^p?armci' "$tmp/exported")"
if [ -n "$missing" ]; then
  echo "missing:"; echo "$missing"; exit 1
fi
echo "all provided"
