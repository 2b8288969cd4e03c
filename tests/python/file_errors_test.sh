#!/usr/bin/env bash
# Runs file_errors.py on 2 ranks with a missing file and one the job may not read (mode 000).
# Root reads any file through its capabilities, so as root the job runs without them (setpriv
# drops CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH; the user stays root, the build tree readable):
#   file_errors_test.sh ARMADA_PYTHON WORK
set -eu
python=$1 work=$2
rm -rf "$work" && mkdir -p "$work"
echo 'not for this job' > "$work/unreadable.h5" && chmod 000 "$work/unreadable.h5"
run=()
if [ "$(id -u)" = 0 ]; then
  run=(setpriv --bounding-set=-dac_override,-dac_read_search --inh-caps=-dac_override,-dac_read_search)
fi
exec "${run[@]}" timeout 120 mpiexec -n 2 "$python" "$(dirname "$0")/file_errors.py" "$work/missing.h5" "$work/unreadable.h5"
