#!/bin/sh
# A writer killed while writing a checkpoint leaves the previous one intact.
#   io_killed_writer.sh DIR PROGRAM MPIEXEC [launcher flags...]
# Starts PROGRAM's Cross.CheckpointUntilKilled on 2 ranks (checkpoints of 32 MiB, step after
# step), waits until a checkpoint is complete and the next one is being written (its temporary
# file exists), kills every rank with SIGKILL, checks that the temporary file is still there
# (the kill landed mid-write; otherwise it tries again), then restarts on 3 ranks
# (Cross.RestartAfterKill), which must find the newest complete checkpoint and its values.
set -u
dir=$1; program=$2; shift 2
export ARMADA_IO_CROSS_DIR="$dir"
for attempt in 1 2 3 4 5; do
  rm -rf "$dir"; mkdir -p "$dir"
  timeout 120 "$@" -n 2 "$program" --gtest_filter=Cross.CheckpointUntilKilled >"$dir/writer.log" 2>&1 &
  launcher=$!
  killed=no
  for i in $(seq 1 6000); do
    if ls "$dir"/ck.*.h5 >/dev/null 2>&1 && ls "$dir"/ck.*.h5.armada-tmp.* >/dev/null 2>&1 &&
       [ -f "$dir/pid.0" ] && [ -f "$dir/pid.1" ]; then
      kill -KILL $(cat "$dir/pid.0") $(cat "$dir/pid.1") 2>/dev/null
      killed=yes
      break
    fi
    if ! kill -0 $launcher 2>/dev/null; then break; fi
    sleep 0.01
  done
  wait $launcher
  if [ $killed = no ]; then
    echo "the writer ended before it could be killed:"; cat "$dir/writer.log"; exit 1
  fi
  echo "attempt $attempt: left behind: $(cd "$dir" && echo ck.*)"
  if ls "$dir"/ck.*.h5.armada-tmp.* >/dev/null 2>&1; then
    timeout 120 "$@" -n 3 "$program" --gtest_filter=Cross.RestartAfterKill
    status=$?
    [ $status -eq 0 ] && rm -rf "$dir"   # 64 MiB of checkpoints; kept when the test fails
    exit $status
  fi
  echo "the kill landed between two checkpoints; again"
done
echo "five kills landed between checkpoints"; exit 1
