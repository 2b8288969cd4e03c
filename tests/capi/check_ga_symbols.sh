#!/bin/sh
# Proves that Armada's ARMCI library provides every ARMCI symbol Global Arrays needs:
#   check_ga_symbols.sh <libga.a> <libarmada_armci.so>
# Lists the symbols libga leaves undefined and does not define itself, keeps the ARMCI ones
# (ARMCI_*, armci_*, PARMCI_*, parmci_*), and fails naming any the library does not export.
set -eu
ga=$1; lib=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
nm -u "$ga" 2>/dev/null | awk '{print $NF}' | sort -u > "$tmp/undefined"
nm --defined-only "$ga" 2>/dev/null | awk 'NF == 3 {print $3}' | sort -u > "$tmp/defined"
comm -23 "$tmp/undefined" "$tmp/defined" | grep -i -E '^p?armci' > "$tmp/needed" || true
nm -D --defined-only "$lib" | awk '{print $3}' | sort -u > "$tmp/exported"
missing=$(comm -23 "$tmp/needed" "$tmp/exported")
echo "libga needs $(wc -l < "$tmp/needed") ARMCI symbols; $(basename "$lib") exports $(grep -c -i -E '^p?armci' "$tmp/exported")"
if [ -n "$missing" ]; then
  echo "missing:"; echo "$missing"; exit 1
fi
echo "all provided"
