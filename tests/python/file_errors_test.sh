#!/usr/bin/env bash
# Runs file_errors.py on 2 ranks with a missing file and one the job may not read. Root reads any
# file, so as root the job runs as user nobody (setpriv): file_errors_test.sh ARMADA_PYTHON WORK
set -eu
python=$1 work=$2
rm -rf "$work" && mkdir -p "$work" && chmod 755 "$work"
echo 'not for this job' > "$work/unreadable.h5" && chmod 600 "$work/unreadable.h5"
run=()
if [ "$(id -u)" = 0 ]; then
  chown root "$work/unreadable.h5"
  run=(setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/tmp)
else
  chmod 000 "$work/unreadable.h5"
fi
exec "${run[@]}" timeout 120 mpiexec -n 2 "$python" "$(dirname "$0")/file_errors.py" "$work/missing.h5" "$work/unreadable.h5"
