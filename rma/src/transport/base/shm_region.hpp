// A shared-memory object created by one rank of a node and mapped by the others.
//
// The object never has a name (memfd_create; the others open the creator's descriptor through
// /proc), so no moment exists at which a killed job could leave a file in /dev/shm, and no
// other user can open it (/proc/<pid>/fd needs the creator's own user).
#pragma once

#include <mpi.h>

#include <cstddef>

namespace armada::rma::detail {

class ShmRegion {
 public:
  ShmRegion() = default;
  /// Collective over `node_comm` (ranks on one node). Rank 0 of it creates `bytes` bytes
  /// (reserved up front, so running out of /dev/shm is an error here, not a SIGBUS later);
  /// all map it. Throws SystemError on every rank if any rank fails. bytes == 0 maps nothing.
  /// `at`: the address every rank maps it at, inside a PROT_NONE reservation of its own (the
  /// symmetric arena, core/arena.hpp); the region's end puts the reservation back there.
  static ShmRegion create(const char* op, MPI_Comm node_comm, std::size_t bytes, std::byte* at = nullptr);
  ~ShmRegion();
  ShmRegion(ShmRegion&& other) noexcept;
  ShmRegion& operator=(ShmRegion&& other) noexcept;
  ShmRegion(const ShmRegion&) = delete;
  ShmRegion& operator=(const ShmRegion&) = delete;

  std::byte* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  /// The creator's process id and open descriptor of the object: another process of the node
  /// can map it through /proc/<pid>/fd/<fd> while the creator holds the region.
  int creator_pid() const noexcept { return creator_pid_; }
  int creator_fd() const noexcept { return creator_fd_; }

 private:
  std::byte* data_ = nullptr;
  std::size_t size_ = 0;
  int creator_pid_ = -1;
  int creator_fd_ = -1;
  int own_fd_ = -1;  // kept open by the creator only
  bool reserved_ = false;  // mapped into a reservation: unmapping restores it

  void unmap() noexcept;
};

/// Throws SystemError (ENOMEM) naming `op` and `what` ("MPI window memory") when `bytes` exceed
/// this host's memory and swap. For transports whose memory is reserved lazily (an MPI window, a
/// SysV segment): some crash or fault on first touch rather than fail on a size no node holds,
/// where ShmRegion's fallocate refuses at once.
void check_host_memory(const char* op, const char* what, std::size_t bytes);
/// The same for the free space of /dev/shm (where shared memory objects live).
void check_shm_space(const char* op, const char* what, std::size_t bytes);

}  // namespace armada::rma::detail
