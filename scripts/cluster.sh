#!/usr/bin/env bash
# An emulated cluster on one machine: K hosts made of Linux namespaces, a command run across them
# with Open MPI over TCP, everything removed afterwards (docs/cluster.md).
#
#   scripts/cluster.sh [--hosts K] [--ranks-per-host R] [--timeout S] [-x VAR=VALUE]...
#                      [--fault kill-host|link-down|lossy:<host>:<seconds>] [--busy] [--cores-per-host N]
#                      -- program args...
#
# Each host has its own network, UTS (hostname), IPC and mount namespace (a private tmpfs on
# /dev/shm, its own /etc/hosts). Its interface veth0 (192.0.2.10+i/24, RFC 5737 documentation
# range) is one end of a veth pair whose other end is a port of a bridge living in a namespace of
# its own: nothing is added to the root namespace's interfaces or routes, and no host has a route
# beyond the bridge. mpirun runs inside host 0 and reaches the other hosts through an rsh agent that
# enters their namespaces with nsenter; MPI's TCP BTL and out-of-band channel use veth0 only.
#
# Environment for the ranks: every ARMADA_* and UCX_* variable of the caller, plus each -x VAR=VALUE
# (given to mpirun as -x, which sends it to the ranks of every host).
# --fault injects a fault <seconds> after the launch into host <host> (1..K-1; host 0 runs mpirun):
# kill-host SIGKILLs every process of that host, link-down cuts its veth0 (nftables drops every
# packet both ways: a cut cable, the interface still up), lossy makes its
# veth0 slow and lossy both ways (rate and loss below; this kernel has no netem, so both are
# nftables rules on egress and ingress: a policer that drops what exceeds the rate, and a random
# drop).
# A fault injected more than a second late (the kernel busy with the last launch's namespaces)
# counts as not injected (exit 5), so that a row never reads a late fault as no effect.
# --busy: beside each rank, a busy loop (a shell's `while :`) in its host's namespaces for the
# duration of the launch, pinned to a core of its own (taskset; the k-th loop of the cluster to
# core k mod the machine's cores), so that every core has a rank's worth of other work: the full
# node of issue 50 (docs/cluster.md). The loops start before the launch and are killed after it.
# --cores-per-host N: host i runs on cores i*N .. i*N+N-1 only (taskset on its launcher daemon,
# inherited by its ranks and their threads; with --busy, its loops too), as separate machines
# would: without it the hosts share every core, and the scheduler may put two hosts' threads on
# one core, which no real cluster does (a rank polling there waits for the other host's time
# slice). Needs K x N cores.
# --check-leftovers: after the launch, every host must be free of processes (within 10 s), of
# /dev/shm objects and of SysV shared memory segments; otherwise they are listed and the exit status
# is 3 (unless the command's was already nonzero and not 124).
# Exit status: the command's (mpirun's); 124 when --timeout ran out; 77 when this machine cannot
# make namespaces (not root, or ip/nsenter/unshare missing), which ctest reports as skipped;
# 5 when --fault could not be injected (the launch then tested nothing); 2 for bad usage. Every namespace, link, bridge, mount, process and temporary file the script made
# is removed on every exit path, including SIGINT and SIGTERM.
# SC2016: single-quoted text is for other shells (the agent, the holder); SC2317: trap handlers.
# shellcheck disable=SC2016,SC2317
set -u

readonly skip_code=77
# --fault lossy: what the host's link becomes.
readonly lossy_rate_kbytes=12500 lossy_loss_permille=20  # 12500 kbytes/s: 100 Mbit/s
hosts=2
ranks_per_host=1
timeout_s=300
extra_env=()
fault=""
check_leftovers=0
busy=0
cores_per_host=0  # 0: the hosts share every core of the machine

usage() {
  echo "usage: $0 [--hosts K (1..4)] [--ranks-per-host R] [--timeout S] [-x VAR=VALUE]... [--fault kill-host|link-down|lossy:HOST:SECONDS] [--busy] [--cores-per-host N] [--check-leftovers] -- program [args...]" >&2
  exit 2
}

while (($#)); do
  case $1 in
    --hosts) hosts=${2:-}; shift 2 || usage ;;
    --ranks-per-host) ranks_per_host=${2:-}; shift 2 || usage ;;
    --timeout) timeout_s=${2:-}; shift 2 || usage ;;
    -x) [[ ${2:-} == *=* ]] || { echo "cluster.sh: -x needs VAR=VALUE, got '${2:-}'" >&2; exit 2; }
        extra_env+=("$2"); shift 2 ;;
    --fault) fault=${2:-}; shift 2 || usage ;;
    --check-leftovers) check_leftovers=1; shift ;;
    --busy) busy=1; shift ;;
    --cores-per-host) cores_per_host=${2:-}; shift 2 || usage ;;
    --) shift; break ;;
    *) echo "cluster.sh: unknown argument '$1'" >&2; usage ;;
  esac
done
(($# > 0)) || usage
[[ $hosts =~ ^[1-4]$ ]] || { echo "cluster.sh: --hosts must be 1..4, got '$hosts'" >&2; exit 2; }
[[ $ranks_per_host =~ ^[1-9][0-9]*$ ]] || { echo "cluster.sh: --ranks-per-host must be a positive integer, got '$ranks_per_host'" >&2; exit 2; }
if [[ -n $fault ]]; then
  [[ $fault =~ ^(kill-host|link-down|lossy):([1-9]):([0-9]+)$ && ${BASH_REMATCH[2]} -lt $hosts ]] ||
    { echo "cluster.sh: --fault must be kill-host|link-down|lossy:<host 1..hosts-1>:<seconds>, got '$fault'" >&2; exit 2; }
fi
[[ $timeout_s =~ ^[1-9][0-9]*$ ]] || { echo "cluster.sh: --timeout must be positive seconds, got '$timeout_s'" >&2; exit 2; }
[[ $cores_per_host =~ ^[1-9][0-9]*$ || $cores_per_host == 0 ]] ||
  { echo "cluster.sh: --cores-per-host must be a positive integer, got '$cores_per_host'" >&2; exit 2; }
if ((cores_per_host && hosts * cores_per_host > $(nproc --all))); then
  echo "cluster.sh: --cores-per-host $cores_per_host: $hosts hosts need $((hosts * cores_per_host)) cores, this machine has $(nproc --all)" >&2
  exit 2
fi

if ((EUID != 0)); then
  echo "cluster.sh: SKIPPED: an emulated cluster needs root (network, UTS, IPC and mount namespaces)" >&2
  exit $skip_code
fi
tools=(ip nsenter unshare mpirun timeout)
[[ $fault == lossy:* ]] && tools+=(nft)
((busy || cores_per_host)) && tools+=(taskset nproc)
for tool in "${tools[@]}"; do
  command -v "$tool" >/dev/null || { echo "cluster.sh: SKIPPED: '$tool' is not installed" >&2; exit $skip_code; }
done

# Names carry this script's pid, so clusters of parallel ctest rows never collide.
readonly tag=armada-cluster-$$
readonly bridge_ns=$tag-br
host_ns() { echo "$tag-h$1"; }
host_name() { echo "c$$-h$1"; }   # the hostname; unique so that session dirs in /tmp do not collide
host_addr() { echo "192.0.2.$((10 + $1))"; }
# --cores-per-host: host $1's cores as taskset lists them, and the command prefix that keeps a
# process (and what it starts) on them; nothing without the option.
host_cores() { echo "$(($1 * cores_per_host))-$((($1 + 1) * cores_per_host - 1))"; }
host_pin() { ((cores_per_host)) && echo "taskset -c $(host_cores "$1")"; }

workdir=""
holders=()        # pid of the process holding each host's UTS/IPC/mount namespaces
launch_pid=""
fault_pid=""
busy_pids=()      # --busy: the busy loops

# Kills every process inside our host namespaces (mpirun, orted, ranks, holders: all started here),
# then deletes the namespaces (which deletes their veth ends and the bridge) and the temp files.
cleanup() {
  trap '' INT TERM
  stop_busy
  [[ -n $launch_pid ]] && kill -TERM "$launch_pid" 2>/dev/null
  # shellcheck disable=SC2046
  [[ -n $fault_pid ]] && kill -TERM $(ps -o pid= --ppid "$fault_pid") "$fault_pid" 2>/dev/null  # and its sleep
  local i pids round
  for round in TERM TERM KILL; do
    pids=""
    for ((i = 0; i < hosts; i++)); do
      pids+=" $(ip netns pids "$(host_ns $i)" 2>/dev/null | tr '\n' ' ')"
    done
    [[ -z ${pids// /} ]] && break
    # shellcheck disable=SC2086
    kill -"$round" $pids 2>/dev/null
    sleep 1
  done
  [[ -n $launch_pid ]] && wait "$launch_pid" 2>/dev/null
  for ((i = 0; i < hosts; i++)); do
    ip netns del "$(host_ns $i)" 2>/dev/null
  done
  ip netns del "$bridge_ns" 2>/dev/null
  [[ -n $workdir ]] && rm -rf "$workdir"
}
trap cleanup EXIT
trap 'echo "cluster.sh: interrupted" >&2; exit 130' INT
trap 'echo "cluster.sh: terminated" >&2; exit 143' TERM

# --busy: one busy loop per rank in each host's namespaces, each pinned to a core of its own: the
# n-th of the cluster to core n mod the machine's cores, or with --cores-per-host the k-th of host
# i to its host's core k mod N.
start_busy() {
  local i k n=0 cores core used=()
  cores=$(nproc --all)
  for ((i = 0; i < hosts; i++)); do
    for ((k = 0; k < ranks_per_host; k++, n++)); do
      core=$((cores_per_host ? i * cores_per_host + k % cores_per_host : n % cores))
      nsenter -t "${holders[i]}" -n -u -i -m -- taskset -c "$core" sh -c 'while :; do :; done' &
      busy_pids+=($!)
      used+=("$core")
    done
  done
  echo "cluster.sh: --busy: ${#busy_pids[@]} busy loops beside the ranks, on cores ${used[*]}" >&2
}
stop_busy() {
  ((${#busy_pids[@]})) || return 0
  kill -KILL "${busy_pids[@]}" 2>/dev/null
  wait "${busy_pids[@]}" 2>/dev/null
  busy_pids=()
}

# A cluster whose script was SIGKILLed (no trap runs) is removed by the next run.
remove_orphans() {
  local ns pid
  for ns in $(ip netns list | awk '{print $1}' | grep -E '^armada-cluster-[0-9]+-(br|h[0-9])$'); do
    pid=${ns#armada-cluster-}; pid=${pid%%-*}
    if ! kill -0 "$pid" 2>/dev/null; then
      # shellcheck disable=SC2046
      kill -KILL $(ip netns pids "$ns") 2>/dev/null
      ip netns del "$ns" 2>/dev/null
      rm -rf "/run/$ns"
    fi
  done
}

fail() { echo "cluster.sh: $*" >&2; exit 1; }

build_network() {
  ip netns add "$bridge_ns" || fail "cannot create network namespace $bridge_ns"
  ip -n "$bridge_ns" link add br0 type bridge forward_delay 0 || fail "cannot create the bridge"
  ip -n "$bridge_ns" link set br0 up
  local i ns
  for ((i = 0; i < hosts; i++)); do
    ns=$(host_ns $i)
    ip netns add "$ns" || fail "cannot create network namespace $ns"
    ip -n "$bridge_ns" link add "v$i" type veth peer name veth0 netns "$ns" || fail "cannot create veth for host $i"
    ip -n "$bridge_ns" link set "v$i" master br0 up
    ip -n "$ns" addr add "$(host_addr $i)/24" dev veth0
    ip -n "$ns" link set veth0 up
    ip -n "$ns" link set lo up
    # Keepalive (below) only probes an idle connection: one with data the peer never acknowledged
    # (a rank's output that a partitioned host's daemon forwards to mpirun) is retransmitted for
    # tcp_retries2 rounds, 15 by default (~15 min). 4 rounds give up after ~6 s, so a host whose link
    # is cut notices it whether or not it had something to say.
    ip netns exec "$ns" sh -c 'echo 4 > /proc/sys/net/ipv4/tcp_retries2' || fail "cannot set tcp_retries2 on host $i"
  done
}

# One holder per host: a process in the host's network namespace that unshares UTS, IPC and mount
# namespaces, sets the hostname, mounts a private /dev/shm and /etc/hosts, then sleeps. The agent
# and mpirun enter its namespaces with nsenter.
start_hosts() {
  local i
  {
    echo "127.0.0.1 localhost"
    for ((i = 0; i < hosts; i++)); do echo "$(host_addr $i) $(host_name $i)"; done
  } >"$workdir/hosts"
  for ((i = 0; i < hosts; i++)); do
    ip netns exec "$(host_ns $i)" unshare --uts --ipc --mount --propagation private -- \
      sh -c 'hostname "$1" && mount -t tmpfs -o mode=1777 shm /dev/shm && mount --bind "$2" /etc/hosts &&
             touch "$3" && exec sleep infinity' holder "$(host_name $i)" "$workdir/hosts" "$workdir/ready.$i" \
      </dev/null &
    holders[i]=$!
  done
  local waited
  for ((i = 0; i < hosts; i++)); do
    for ((waited = 0; waited < 100; waited++)); do
      [[ -e $workdir/ready.$i ]] && break
      kill -0 "${holders[i]}" 2>/dev/null || fail "host $i failed to start"
      sleep 0.1
    done
    [[ -e $workdir/ready.$i ]] || fail "host $i did not start within 10 s"
  done
}

# The rsh agent mpirun calls as `agent <host> <command>`: runs the command in that host's namespaces.
write_agent() {
  local i
  {
    echo '#!/bin/sh'
    echo 'host=$1; shift'
    echo 'case $host in'
    for ((i = 0; i < hosts; i++)); do
      echo "  $(host_name $i)|$(host_addr $i)) pid=${holders[i]} pin='$(host_pin $i)' ;;"
    done
    echo '  *) echo "cluster.sh agent: unknown host $host" >&2; exit 255 ;;'
    echo 'esac'
    echo 'exec nsenter -t "$pid" -n -u -i -m -- $pin sh -c "$*"'
  } >"$workdir/agent"
  chmod 755 "$workdir/agent"
  for ((i = 0; i < hosts; i++)); do echo "$(host_name $i) slots=$ranks_per_host"; done >"$workdir/hostfile"
}

remove_orphans
workdir=$(mktemp -d "/tmp/$tag.XXXXXX") || fail "cannot create a temporary directory"
build_network
start_hosts
write_agent

env_flags=()
for var in $(compgen -e | grep -E '^(ARMADA|UCX)_'); do env_flags+=(-x "$var"); done
for kv in "${extra_env[@]}"; do env_flags+=(-x "$kv"); done

# Open MPI over TCP on veth0 only; as root; more ranks than cores. TCP keepalive on the launcher's
# own connections (Open MPI's default: the first probe after 300 s of idleness, here 2 s, then 3 probes 1 s
# apart): a host whose link goes down is noticed in about 5 s and the job ends, instead of
# waiting for --timeout.
((busy)) && start_busy
# The emulated hosts share this machine's cores, which Open MPI cannot see: each host's slots
# look free, so its blocking calls poll without ever yielding. With more ranks in all than the
# machine has cores, give them Open MPI's own setting for an oversubscribed node
# (mpi_yield_when_idle), as it would choose if the hosts were the machine: 2 hosts x 2 ranks on 2
# cores took 5.7-6.2 s for NAS CG class A with --comm mpi without it, 0.52-0.62 s with it
# (docs/cluster.md). Armada's waits get the same from ARMADA_SPIN_LIMIT=0, what its rule picks
# where a host's ranks outnumber its cores (NAS class A on 2 hosts x 2 ranks, --comm rma: CG
# rma/mpi 1.08 against 1.10 spinning, MG 1.04 against 1.15, docs/benchmarks.md). A caller's -x
# OMPI_MCA_mpi_yield_when_idle=... or -x ARMADA_SPIN_LIMIT=... wins.
yield_flags=() spin_flags=()
if ((cores_per_host ? ranks_per_host > cores_per_host : hosts * ranks_per_host > $(nproc))); then
  yield_flags=(--mca mpi_yield_when_idle 1)
  spin_flags=(-x ARMADA_SPIN_LIMIT=0)
fi
for kv in "${extra_env[@]}"; do
  [[ $kv == OMPI_MCA_mpi_yield_when_idle=* ]] && yield_flags=()
  [[ $kv == ARMADA_SPIN_LIMIT=* ]] && spin_flags=()
done
keepalive=(--mca oob_tcp_keepalive_time 2 --mca oob_tcp_keepalive_intvl 1 --mca oob_tcp_keepalive_probes 3)
read -ra pin0 <<<"$(host_pin 0)"  # host 0's ranks are mpirun's children
timeout --kill-after=10 "$timeout_s" \
  nsenter -t "${holders[0]}" -n -u -i -m -- "${pin0[@]}" \
  env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
  mpirun --hostfile "$workdir/hostfile" -n $((hosts * ranks_per_host)) --map-by "ppr:$ranks_per_host:node" \
    --oversubscribe --bind-to none --wdir "$PWD" \
    --mca plm_rsh_agent "$workdir/agent" --mca btl tcp,self --mca btl_tcp_if_include veth0 \
    --mca oob_tcp_if_include veth0 "${keepalive[@]}" "${yield_flags[@]}" "${spin_flags[@]}" "${env_flags[@]}" "$@" &
launch_pid=$!
launch_start=$(date +%s)
# A cut link on veth0 of namespace $1: nftables drops every packet both ways; it goes with the
# namespace. Not `ip link set veth0 down`: that waits for the kernel's RTNL lock, which the
# teardown of the last launch's namespaces can hold for tens of seconds (a fault asked for 6 s in
# took effect 24 s later, after the program under test had finished).
cut_link() {
  nsenter --net="/run/netns/$1" nft -f - <<NFT || return 1
table inet armada_cut {
  chain egress { type filter hook output priority 0; oifname "veth0" drop; }
  chain ingress { type filter hook input priority 0; iifname "veth0" drop; }
}
NFT
}
# A slow, lossy link on veth0 of namespace $1: nftables drops what exceeds the rate (a policer,
# not a queue) and a random share of the rest, both ways; it goes with the namespace. Not `tc
# qdisc` (a token bucket that queues): tc needs the kernel's RTNL lock, as `ip link` does (above).
make_lossy() {
  nsenter --net="/run/netns/$1" nft -f - <<NFT || return 1
table inet armada_lossy {
  chain egress {
    type filter hook output priority 0;
    oifname "veth0" limit rate over $lossy_rate_kbytes kbytes/second burst 64 kbytes drop;
    oifname "veth0" numgen random mod 1000 < $lossy_loss_permille drop;
  }
  chain ingress {
    type filter hook input priority 0;
    iifname "veth0" limit rate over $lossy_rate_kbytes kbytes/second burst 64 kbytes drop;
    iifname "veth0" numgen random mod 1000 < $lossy_loss_permille drop;
  }
}
NFT
  echo "cluster.sh: fault: $1 veth0 now at most $lossy_rate_kbytes kbytes/s, $lossy_loss_permille/1000 of packets dropped each way" >&2
}
if [[ -n $fault ]]; then
  IFS=: read -r fault_kind fault_host fault_after <<<"$fault"
  (
    sleep "$fault_after"
    echo "cluster.sh: fault: $fault_kind on host $fault_host ($(host_name "$fault_host"))" >&2
    asked=$(date +%s%N)
    # shellcheck disable=SC2046
    case $fault_kind in
      kill-host) kill -KILL $(ip netns pids "$(host_ns "$fault_host")" | grep -vx "${holders[fault_host]}") 2>/dev/null ;;
      link-down) cut_link "$(host_ns "$fault_host")" || : >"$workdir/fault-failed" ;;
      lossy) make_lossy "$(host_ns "$fault_host")" || : >"$workdir/fault-failed" ;;
    esac
    late_ms=$((($(date +%s%N) - asked) / 1000000))
    if ((late_ms > 1000)); then
      echo "cluster.sh: fault: $fault_kind took effect $late_ms ms after it was asked for" >&2
      : >"$workdir/fault-failed"
    fi
  ) &
  fault_pid=$!
fi
wait "$launch_pid"
status=$?
stop_busy
# timeout(1) exits 137, not 124, when the launch needed its KILL: both are "timed out".
(($(date +%s) - launch_start >= timeout_s && status != 0)) && status=124
launch_pid=""
# What the launch left on each host: processes other than the holder, /dev/shm, SysV segments.
leftovers() {
  local i waited left
  for ((i = 0; i < hosts; i++)); do
    for ((waited = 0; waited < 100; waited++)); do
      left=$(ip netns pids "$(host_ns $i)" | grep -vx "${holders[i]}")
      [[ -z $left ]] && break
      sleep 0.1
    done
    for pid in $left; do echo "host $i: process $pid $(tr '\0' ' ' </proc/"$pid"/cmdline 2>/dev/null)"; done
    nsenter -t "${holders[i]}" -n -u -i -m -- sh -c 'ls -A /dev/shm | sed "s|^|/dev/shm/|"; ipcs -m | awk "\$1 ~ /^0x/ {print \"SysV segment \" \$2}"' |
      sed "s/^/host $i: /"
  done
}
[[ -n $fault ]] && echo "cluster.sh: fault $fault_kind on host $fault_host: the launch ended $(($(date +%s) - launch_start)) s after it began (exit $status)" >&2
if [[ -e $workdir/fault-failed ]]; then
  echo "cluster.sh: the fault '$fault' could not be injected (above): the launch tested nothing" >&2
  status=5
fi
if ((check_leftovers)); then
  left=$(leftovers)
  if [[ -n $left ]]; then
    echo "cluster.sh: left behind by the launch:" >&2
    echo "$left" >&2
    ((status == 0 || status == 124)) && status=3
  else
    echo "cluster.sh: no process, /dev/shm object or SysV segment left on any host" >&2
  fi
fi
((status == 124)) && echo "cluster.sh: the launch did not end within $timeout_s s; killed" >&2
exit "$status"
