#!/usr/bin/env bash
# Regenerates docs/configuration.md from the settings table (armada-info --markdown).
#   scripts/update-config-doc.sh [build-dir]     (default: build/)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
info="${1:-$root/build}/programs/armada-info"
[ -x "$info" ] || { echo "update-config-doc.sh: build first ($info not found)" >&2; exit 1; }
{
  echo "# Configuration"
  echo
  echo "Armada reads these environment variables once: rma's at init (\`rma::init\`), linalg's"
  echo "(\`ARMADA_LINALG_*\`) at the first linalg call. A bad value is an error naming the variable."
  echo "\`armada-info\` prints them with their current values; the table below is"
  echo "\`armada-info --markdown\`, generated from the settings tables (the core's in"
  echo "\`rma/src/core/config.cpp\`, each transport's in \`rma/src/transport/<name>/init.cpp\`, linalg's"
  echo "in \`linalg/src/settings.cpp\`, rows of the same form checked by the same rules) by"
  echo "\`scripts/update-config-doc.sh\` (the test \`docs_configuration_in_sync\` fails when it is stale)."
  echo
  "$info" --markdown
} > "$root/docs/configuration.md"
echo "docs/configuration.md regenerated"
