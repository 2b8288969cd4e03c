// The mpi-rma transport: start and stop (the mutex queue window, the progress thread), request
// bookkeeping and completion, atomics. Windows are in windows.cpp, the contiguous and strided
// paths in strided.cpp, the I/O vector paths in vector.cpp; the mutexes in mpi_rma_mutex.cpp.
#include "transport/mpi_rma/mpi_rma_transport.hpp"

#include <time.h>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "common/check.hpp"
#include "common/mpi_errors.hpp"
#include "transport/base/termination.hpp"
#include "transport/mpi_rma/operations.hpp"

namespace armada::rma::detail {

using mpi_rma::check_window;

namespace {

void sleep_us(long us) {
  const timespec ts{us / 1000000, (us % 1000000) * 1000};
  nanosleep(&ts, nullptr);
}

}  // namespace

MpiRmaTransport::MpiRmaTransport(MPI_Comm world, int rank, MpiRmaSettings settings)
    : rank_(rank), settings_(settings) {
  MPI_Comm_dup(world, &comm_);
  allocate_queue_window();
  const auto slots = static_cast<std::size_t>(settings_.mutex_waiters);
  std::memset(queue_nodes_, 0, slots * 2 * sizeof(std::int64_t));
  MPI_Win_lock_all(MPI_MODE_NOCHECK, queue_win_);
  for (int s = settings_.mutex_waiters - 1; s >= 0; --s) free_slots_.push_back(s);
  MPI_Barrier(comm_);  // every queue node is zeroed before anyone can enqueue behind it
  if (settings_.progress_thread) progress_ = std::thread([this] { progress_loop(); });
}

bool is_open_mpi() {
  char version[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  MPI_Get_library_version(version, &length);
  return std::strstr(version, "Open MPI") != nullptr;
}

bool open_mpi_without_osc_ucx() {
  const char* osc = std::getenv("OMPI_MCA_osc");
  return is_open_mpi() && !(osc && std::strstr(osc, "ucx"));
}

// The first window: where an MPI without a one-sided component for this job's hosts fails (Open
// MPI 4.1's default osc rdma over the TCP BTL, i.e. between hosts without osc ucx). The failure
// is agreed on, so that every rank throws the same clear error instead of MPI aborting the job.
void MpiRmaTransport::allocate_queue_window() {
  const auto slots = static_cast<std::size_t>(settings_.mutex_waiters);
  int code = MPI_SUCCESS;
  {
    ErrorsReturn errors(comm_);
    const TerminationDeferred deferred;  // Open MPI's osc sm names the window's memory meanwhile (leftovers.hpp)
    code = MPI_Win_allocate(static_cast<MPI_Aint>(slots * 2 * sizeof(std::int64_t)), sizeof(std::int64_t),
                            MPI_INFO_NULL, comm_, &queue_nodes_, &queue_win_);
  }
  const int ok = code == MPI_SUCCESS;
  int all_ok = 0;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, comm_);
  if (all_ok) return;
  if (ok) MPI_Win_free(&queue_win_);
  MPI_Comm_free(&comm_);
  std::string what = "MPI_Win_allocate failed on at least one rank, so the mpi-rma transport cannot start";
  if (open_mpi_without_osc_ucx())
    what += "; Open MPI has no one-sided component for these processes without osc ucx (its default osc rdma "
            "cannot create windows over the TCP BTL, i.e. across hosts): set OMPI_MCA_osc=sm,ucx in the environment "
            "before MPI starts (mpiexec -x OMPI_MCA_osc=sm,ucx), or let rma::init start MPI (docs/mpi-quirks.md)";
  if (!ok) check_mpi("rma::init (mpi-rma)", what, code);
  throw_state("rma::init (mpi-rma)", what);
}

MpiRmaTransport::~MpiRmaTransport() {
  stop_.store(true, std::memory_order_relaxed);
  if (progress_.joinable()) progress_.join();
  // Windows the program never freed: every member frees them in segment order, a global order,
  // so these collective calls cannot deadlock across overlapping groups.
  for (auto& [id, w] : windows_) {
    MPI_Win_unlock_all(w.win);
    MPI_Win_free(&w.win);
  }
  windows_.clear();
  MPI_Win_unlock_all(queue_win_);
  MPI_Win_free(&queue_win_);
  MPI_Comm_free(&comm_);
}

void MpiRmaTransport::progress_loop() {
  // MPI_Iprobe enters the progress engine, which executes one-sided requests that need the
  // target (active-message atomics and accumulates). A fixed interval: a wake-up costs a few
  // microseconds, so 100 µs keeps the thread near 2-3 % of a core.
  while (!stop_.load(std::memory_order_relaxed)) {
    int flag = 0;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm_, &flag, MPI_STATUS_IGNORE);
    sleep_us(settings_.progress_interval_us);
  }
}


// ---- data movement ----------------------------------------------------------------------------

std::uint64_t MpiRmaTransport::finish(bool blocking, const Slice& slice, bool write,
                                      std::unique_ptr<std::byte[]> staging) {
  Pending p;
  p.win = window_of(slice);
  p.rank = window_rank_of(slice);
  p.write = write;
  if (blocking) {
    complete(p);
    return 0;
  }
  p.staging = std::move(staging);
  const std::uint64_t token = next_token_.fetch_add(1, std::memory_order_relaxed);
  std::lock_guard lock(pending_mutex_);
  pending_.emplace(token, std::move(p));
  return token;
}

void MpiRmaTransport::complete(Pending& p) {
  // A flush completes every operation of this process to that target in that window: a put's
  // remotely (so the next operation to that location, through any transport, is ordered after
  // it), a get's locally (MPI_Rget's request would not be enough on MPICH 4.0 either:
  // docs/mpi-quirks.md, tests/mpi_quirks/rget_derived_target.c).
  if (p.write) MPI_Win_flush(p.rank, p.win);
  else MPI_Win_flush_local(p.rank, p.win);
}


// ---- atomics ----------------------------------------------------------------------------------

void MpiRmaTransport::rmw(RmwOp op, std::size_t width, void* remote, const Slice& slice, int,
                          const void* operand, const void* compare, void* result) {
  check_window("rma::rmw (mpi-rma)", slice);
  const MPI_Datatype type = width == 4 ? MPI_INT32_T : MPI_INT64_T;
  const MPI_Aint disp = window_displacement(slice, remote);
  switch (op) {
    case RmwOp::FetchAdd:
      MPI_Fetch_and_op(operand, result, type, window_rank_of(slice), disp, MPI_SUM, window_of(slice));
      break;
    case RmwOp::Swap:
      MPI_Fetch_and_op(operand, result, type, window_rank_of(slice), disp, MPI_REPLACE, window_of(slice));
      break;
    case RmwOp::CompareSwap:
      MPI_Compare_and_swap(operand, compare, result, type, window_rank_of(slice), disp, window_of(slice));
      break;
  }
  MPI_Win_flush(window_rank_of(slice), window_of(slice));
}

// ---- completion -------------------------------------------------------------------------------

void MpiRmaTransport::wait(std::uint64_t token) {
  if (std::optional<Pending> p = take_entry(pending_mutex_, pending_, token)) complete(*p);
}

bool MpiRmaTransport::test(std::uint64_t token) {
  // Without requests there is nothing to ask MPI short of completing: test completes.
  wait(token);
  return true;
}

std::vector<std::pair<MPI_Win, int>> MpiRmaTransport::pending_writes() {
  std::vector<std::pair<MPI_Win, int>> written;
  std::lock_guard lock(pending_mutex_);
  for (const auto& [token, p] : pending_)
    if (p.write) written.emplace_back(p.win, p.rank);
  return written;
}

// As fence_all, for one target: blocking writes were flushed before they returned, so only the
// windows holding a nonblocking write to `target` not yet waited for are flushed; a fence of a
// target this rank has not written since costs no call to MPI.
void MpiRmaTransport::fence(int target) {
  const std::vector<std::pair<MPI_Win, int>> written = pending_writes();
  if (written.empty()) return;
  std::lock_guard lock(windows_mutex_);
  for (auto& [id, w] : windows_) {
    const int r = w.group.group_rank(target);
    if (r >= 0 && std::find(written.begin(), written.end(), std::make_pair(w.win, r)) != written.end())
      MPI_Win_flush(r, w.win);
  }
}

// A blocking write was flushed to its target before it returned (complete()); what remains are
// the nonblocking writes not yet waited for: each (window, target) of theirs is flushed once, so
// a fence costs the targets written, not every window times every rank (docs/scaling.md).
// Their tokens stay pending: a later wait flushes again, which completes nothing new.
void MpiRmaTransport::fence_all() {
  std::vector<std::pair<MPI_Win, int>> written = pending_writes();
  const auto before = [](const std::pair<MPI_Win, int>& a, const std::pair<MPI_Win, int>& b) {
    return std::less<MPI_Win>()(a.first, b.first) || (a.first == b.first && a.second < b.second);
  };
  std::sort(written.begin(), written.end(), before);
  written.erase(std::unique(written.begin(), written.end()), written.end());
  for (const auto& [win, rank] : written) MPI_Win_flush(rank, win);
}

void MpiRmaTransport::poll() {
  int flag = 0;
  MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm_, &flag, MPI_STATUS_IGNORE);
}

}  // namespace armada::rma::detail
