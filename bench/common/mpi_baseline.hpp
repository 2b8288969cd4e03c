// The MPI baselines the benchmarks run in the same launch as the Armada figures:
//   MpiWindow        MPI-3 RMA on an MPI_Win_allocate window under MPI_Win_lock_all:
//                    MPI_Put / MPI_Get / MPI_Accumulate / MPI_Fetch_and_op, each + MPI_Win_flush,
//                    and MPI_Win_lock(EXCLUSIVE) + MPI_Win_unlock on a window without lock_all
//   pingpong / echo  MPI_Send + MPI_Recv ping-pong (the other side echoes): n round trips
//   stream_send / stream_receive
//                    osu_bw-style streaming: `window` MPI_Isend of the size, the receiver's
//                    `window` MPI_Irecv, MPI_Waitall, a 4-byte ack
// and the sleeping waits the benchmarks' idle ranks use so they leave the CPU to the others.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <memory>
#include <string>

#include "common/results.hpp"
#include "common/sizes.hpp"
#include "common/timing.hpp"

namespace armada::bench {

void sleep_us(long us);

/// Completes `request` without holding a core: MPI_Test, then sleep 50 µs, 100 µs, ... up to
/// 2 ms between tests. Measured: a rank that wakes every ~90 µs to test halves a node server's
/// bandwidth on two cores, so an idle rank backs off quickly; the cost is a slower hand-over
/// between commands, which is never timed.
void wait_sleeping(MPI_Request& request, MPI_Status* status = MPI_STATUS_IGNORE);

/// Receives one fixed-size message of type M (a command) from `source` without holding a core.
template <class M>
M receive_sleeping(MPI_Comm comm, int source, int tag) {
  M m{};
  MPI_Request request;
  MPI_Irecv(&m, sizeof m, MPI_BYTE, source, tag, comm, &request);
  wait_sleeping(request);
  return m;
}

/// The text of an MPI error code.
std::string mpi_error_string(int rc);

/// An MPI_Win_allocate window of `bytes` on the owner (0 elsewhere). Creation errors are not
/// fatal (an osc component may refuse MPI_THREAD_MULTIPLE): ok() is then false on every rank of
/// the communicator and error() says why.
class MpiWindow {
 public:
  MpiWindow() = default;
  MpiWindow(const MpiWindow&) = delete;
  MpiWindow& operator=(const MpiWindow&) = delete;
  ~MpiWindow() { free(); }

  /// Collective over `comm`; `bytes` of this rank (may differ per rank, may be 0; zeroed).
  /// lock_all: open a passive-target epoch to every rank (put, get, acc, fetch_add);
  /// otherwise the window is for lock_exclusive/unlock.
  bool create(MPI_Comm comm, std::size_t bytes, bool lock_all);
  /// Collective over the communicator of create(); nothing if creation failed.
  void free();

  bool ok() const noexcept { return win_ != MPI_WIN_NULL; }
  const std::string& error() const noexcept { return error_; }
  /// This rank's own memory of the window (null if it has none).
  std::byte* local() const noexcept { return local_; }

  /// MPI_Put alone (complete it with flush()).
  void put(const void* src, std::size_t bytes, int target, std::size_t disp) const;
  void flush(int target) const;
  void flush_all() const;
  void put_flush(const void* src, std::size_t bytes, int target, std::size_t disp) const;
  void get_flush(void* dst, std::size_t bytes, int target, std::size_t disp) const;
  /// MPI_Accumulate(MPI_SUM) of `count` doubles + flush.
  void acc_flush(const double* src, std::size_t count, int target, std::size_t disp) const;
  /// MPI_Fetch_and_op(MPI_SUM, MPI_LONG) + flush; returns the previous value.
  long fetch_add(long value, int target, std::size_t disp) const;
  /// MPI_Rget (completed by MPI_Wait on the request).
  MPI_Request rget(void* dst, std::size_t bytes, int target, std::size_t disp) const;
  void lock_exclusive(int target) const;
  void unlock(int target) const;
  /// On the owner: makes its own loads and stores and MPI's updates visible to each other.
  void sync() const;

 private:
  MPI_Win win_ = MPI_WIN_NULL;
  bool lock_all_ = false;
  std::byte* local_ = nullptr;
  std::string error_;
};

/// Origin side: n ping-pongs of `bytes` with `peer`: round trip i sends from src + rot.offset(first + i)
/// and receives into dst + rot.offset(first + i) (a series of calls continues the rotation), so that the baseline meets the caches as the
/// one-sided operations it is compared with do; seconds.
double pingpong(MPI_Comm comm, int peer, int tag, const std::byte* src, std::byte* dst, std::size_t bytes,
                std::size_t n, const Rotation& rot, std::size_t first = 0);
/// Peer side: receive and send back n times, round trip i in buffer + rot.offset(first + i).
void echo(MPI_Comm comm, int peer, int tag, std::byte* buffer, std::size_t bytes, std::size_t n, const Rotation& rot,
          std::size_t first = 0);

/// Sender side: n rounds of `window` MPI_Isend of `bytes` and the receiver's ack; message j
/// leaves from src + rot.offset(first + j); seconds.
double stream_send(MPI_Comm comm, int peer, int tag, int ack_tag, const std::byte* src, std::size_t bytes, int window,
                   std::size_t n, const Rotation& rot, std::size_t first = 0);
/// Receiver side: n rounds of `window` MPI_Irecv, message j into buffers + rot.offset(first + j) (the
/// messages of one round need distinct buffers: rot.count >= window), then an ack.
void stream_receive(MPI_Comm comm, int peer, int tag, int ack_tag, std::byte* buffers, std::size_t bytes, int window,
                    std::size_t n, const Rotation& rot, std::size_t first = 0);

/// The buffers of a stream without rotation: one per message of a round, `stride` apart.
Rotation stream_buffers(std::size_t bytes, std::size_t stride, int window);

}  // namespace armada::bench
