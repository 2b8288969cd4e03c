// Direct delivery: the node server moves a transfer's data between the target's memory and the
// origin's own buffer with one kernel copy (Linux cross-memory attach: process_vm_writev for a
// get, process_vm_readv for a put or accumulate), instead of as MPI messages.
//
// This is the part RDMA plays in ARMCI's server protocol on networks that have it: the server
// writes a get's data into the origin's buffer and the origin's CPU takes no part, so a
// nonblocking get completes while the origin computes (with two-sided messages, the receiver
// must copy: see server_transport.hpp). Here it is available between processes of one host that
// sit in different nodes (virtual nodes, ARMADA_NODE_SIZE); between hosts the data travels as
// messages. An RDMA transport would slot in at the same point with ibv_post_send.
#pragma once

#include <mpi.h>
#include <sys/uio.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace armada::rma::detail::server {

enum class DirectMode { Off, Auto, On };

/// Collective over `comm`: every rank's pid, and whether every rank can read the memory of a
/// rank on its host (a cross-memory-attach read of a known word; containers and Yama ptrace
/// settings may forbid it). `host_of[r]` names rank r's physical host.
struct DirectPeers {
  std::vector<int> pid_of;
  bool usable = false;    // every pair of processes of one host can copy
  std::string refusal;    // why not, when !usable (for ARMADA_SERVER_DIRECT=on's error)
};
DirectPeers probe_direct(MPI_Comm comm, const std::vector<int>& host_of);

/// Copies between this process's runs `local` and [remote, remote + their total) in process
/// `pid`: into the remote range when `to_remote`, out of it otherwise. Returns 0, or the errno of
/// the failing call (nothing is retried: the kernel stops only at an unmapped page or a refusal).
int direct_copy(bool to_remote, int pid, std::span<const iovec> local, std::uint64_t remote);

}  // namespace armada::rma::detail::server
