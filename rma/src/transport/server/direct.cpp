#include "transport/server/direct.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace armada::rma::detail::server {

namespace {

// Each process publishes this word's address; a peer on its host reads it back.
constexpr std::uint64_t kProbeMagic = 0x41524d4144414442ull;  // "ARMADADB"
volatile std::uint64_t g_probe_word = 0;

// One call moves at most this many runs and bytes (the kernel's own limits are IOV_MAX runs
// and a little under 2 GiB; staying below them keeps partial transfers the exception).
constexpr std::size_t kMaxRuns = 1024;
constexpr std::size_t kMaxBytes = std::size_t{1} << 30;

}  // namespace

DirectPeers probe_direct(MPI_Comm comm, const std::vector<int>& host_of) {
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  g_probe_word = kProbeMagic ^ static_cast<std::uint64_t>(rank);
  const std::uint64_t mine[2] = {static_cast<std::uint64_t>(getpid()),
                                 reinterpret_cast<std::uintptr_t>(&g_probe_word)};
  std::vector<std::uint64_t> all(2 * static_cast<std::size_t>(size));
  MPI_Allgather(mine, 2, MPI_UINT64_T, all.data(), 2, MPI_UINT64_T, comm);

  DirectPeers peers;
  peers.pid_of.resize(static_cast<std::size_t>(size));
  for (int r = 0; r < size; ++r) peers.pid_of[static_cast<std::size_t>(r)] = static_cast<int>(all[2 * static_cast<std::size_t>(r)]);
  // Read the next rank of this host (cyclically): every process is then both read and reader.
  int peer = -1;
  for (int k = 1; k < size && peer < 0; ++k) {
    const int r = (rank + k) % size;
    if (host_of[static_cast<std::size_t>(r)] == host_of[static_cast<std::size_t>(rank)]) peer = r;
  }
  int ok = 1, error = 0;
  if (peer >= 0) {
    std::uint64_t seen = 0;
    iovec local{&seen, sizeof seen};
    iovec remote{reinterpret_cast<void*>(all[2 * static_cast<std::size_t>(peer) + 1]), sizeof seen};
    const ssize_t n = process_vm_readv(peers.pid_of[static_cast<std::size_t>(peer)], &local, 1, &remote, 1, 0);
    error = n < 0 ? errno : 0;
    ok = n == static_cast<ssize_t>(sizeof seen) && seen == (kProbeMagic ^ static_cast<std::uint64_t>(peer));
  }
  struct {
    int ok;
    int rank;
  } verdict{ok, rank};
  MPI_Allreduce(MPI_IN_PLACE, &verdict, 1, MPI_2INT, MPI_MINLOC, comm);
  int first_error = error;
  MPI_Bcast(&first_error, 1, MPI_INT, verdict.rank, comm);
  peers.usable = verdict.ok != 0;
  if (!peers.usable)
    peers.refusal = "rank " + std::to_string(verdict.rank) + " could not read another process's memory on its host (" +
                    (first_error ? std::string("process_vm_readv: ") + std::strerror(first_error) : std::string("wrong value")) +
                    "; containers need CAP_SYS_PTRACE, Yama needs kernel.yama.ptrace_scope <= 1)";
  return peers;
}

int direct_copy(bool to_remote, int pid, std::span<const iovec> local, std::uint64_t remote) {
  std::size_t run = 0, run_offset = 0;  // first byte not yet moved
  iovec batch[kMaxRuns];
  while (run < local.size()) {
    std::size_t n = 0, bytes = 0;
    for (std::size_t r = run, off = run_offset; r < local.size() && n < kMaxRuns && bytes < kMaxBytes; ++r, off = 0) {
      const std::size_t take = std::min(local[r].iov_len - off, kMaxBytes - bytes);
      batch[n++] = {static_cast<std::byte*>(local[r].iov_base) + off, take};
      bytes += take;
    }
    if (bytes == 0) {  // only empty runs left
      run = local.size();
      break;
    }
    iovec far{reinterpret_cast<void*>(remote), bytes};
    const ssize_t moved = to_remote ? process_vm_writev(pid, batch, n, &far, 1, 0) : process_vm_readv(pid, batch, n, &far, 1, 0);
    if (moved < 0) return errno;
    if (moved == 0) return EFAULT;
    // Advance past what moved (a partial transfer resumes where it stopped).
    remote += static_cast<std::uint64_t>(moved);
    for (std::size_t left = static_cast<std::size_t>(moved); left > 0;) {
      const std::size_t in_run = local[run].iov_len - run_offset;
      if (left < in_run) {
        run_offset += left;
        left = 0;
      } else {
        left -= in_run;
        ++run;
        run_offset = 0;
      }
    }
    while (run < local.size() && local[run].iov_len == run_offset) {
      ++run;
      run_offset = 0;
    }
  }
  return 0;
}

}  // namespace armada::rma::detail::server
