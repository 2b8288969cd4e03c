// Asynchronous file transfers of one process (EAF's aread/awrite, SF's read/write): a request runs
// pread/pwrite on one of two helper threads, which sleep on a condition variable while there is
// nothing to do; wait blocks on another. Requests have process-wide ids (EAF_Probe takes no fd).
#pragma once

#include <cstddef>
#include <cstdint>

namespace armada::pario {

/// What a finished transfer reports: all bytes moved, end of file before them, or an errno.
struct Outcome {
  enum class Kind { Done, EndOfFile, Failed };
  Kind kind = Kind::Done;
  int error = 0;  // errno when Failed
};

/// Moves `bytes` between `buf` and file descriptor `fd` at `offset`, all of it (a short read or
/// write is continued; EINTR retried).
Outcome transfer(int fd, bool write, std::int64_t offset, void* buf, std::size_t bytes);

/// Starts the transfer on a helper thread; `owner` tags it (an EAF file, an SF handle) so that
/// waits can check it and a close can drain it. Returns the request id (>= 0).
int submit(int owner, int fd, bool write, std::int64_t offset, void* buf, std::size_t bytes);
/// The owner of request `id`, or -1 when no such request is pending or unwaited.
int owner_of(int id);
/// Whether request `id` has finished (false for an unknown id: see owner_of).
bool finished(int id);
/// Blocks until request `id` has finished, forgets it and gives its outcome. False for an unknown id.
bool wait(int id, Outcome* out);
/// Waits for (and forgets) every request of `owner`.
void drain(int owner);

}  // namespace armada::pario
