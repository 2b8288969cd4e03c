#!/bin/sh
# The transports' table (build/transports.txt, from each rma/src/transport/<folder>/transport.cmake)
# and the library agree: the same names in the same order (a row's name is its entry's .name), and
# a row claims crosses_hosts exactly when its entry is an inter-node one.
#   check_transport_table.sh <armada-info> <transports.txt>
set -eu
library=$("$1" | sed -n '/^Transports built in/,/^$/p' | awk 'NR > 1 && NF >= 2 {print $1, ($2 == "inter-node") ? "crosses" : "node"}')
table=$(awk '{print $1, ($2 ~ /(^|,)crosses_hosts(,|$)/) ? "crosses" : "node"}' "$2")
if [ -z "$library" ] || [ "$library" != "$table" ]; then
  printf 'the transports table and the library disagree\ntable:\n%s\nlibrary (armada-info):\n%s\n' "$table" "$library"
  exit 1
fi
echo "transport table agrees with the library: $(echo "$table" | awk '{print $1}' | tr '\n' ' ')"
