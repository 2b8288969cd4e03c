// The mpi-rma transport's windows: one per segment (MPI_Win_allocate when the transport allocates
// the segment, MPI_Win_create over node shared memory otherwise), each in a lock_all epoch from
// creation to free.
#include <cstring>
#include <limits>
#include <string>

#include "armada/rma/collectives.hpp"
#include "common/check.hpp"
#include "common/mpi_errors.hpp"
#include "transport/base/shm_region.hpp"
#include "transport/base/termination.hpp"
#include "transport/mpi_rma/mpi_rma_transport.hpp"

namespace armada::rma::detail {

namespace {
// One page of slack so the slice can start on a page, as node shared memory slices do
// (implementations align window memory only to what they need), and whole pages: MPICH 4.0
// reads another rank's memory from windows of other sizes (docs/mpi-quirks.md,
// tests/mpi_quirks/win_allocate_size.c).
constexpr std::size_t kPage = 4096;
std::size_t window_bytes_for(std::size_t bytes) { return bytes ? (bytes + 2 * kPage - 1) / kPage * kPage : 0; }
}  // namespace

void MpiRmaTransport::check_window_bytes(std::size_t bytes) {
  constexpr const char* op = "rma::allocate";
  if (bytes > static_cast<std::size_t>(std::numeric_limits<MPI_Aint>::max()) - 2 * kPage)
    throw_invalid(op, "bytes", std::to_string(bytes), "exceeds the largest MPI window");
  // Implementations reserve window memory up front (a shared file, a registration) and some
  // crash rather than fail on a size no node can hold.
  check_host_memory(op, "MPI window memory", bytes);
}

MpiRmaTransport::OwnedWindow MpiRmaTransport::allocate_window(std::int64_t segment, const Group& group, std::size_t bytes) {
  const std::size_t window_bytes = window_bytes_for(bytes);
  OwnedWindow w;
  void* memory = nullptr;
  {
    ErrorsReturn errors(group.comm());
    const TerminationDeferred deferred;  // Open MPI's osc sm names the window's memory meanwhile (leftovers.hpp)
    check_mpi("rma::allocate", "MPI_Win_allocate of " + std::to_string(window_bytes) + " bytes failed",
              MPI_Win_allocate(static_cast<MPI_Aint>(window_bytes), 1, MPI_INFO_NULL, group.comm(), &memory, &w.win));
  }
  if (bytes) {
    const auto raw = reinterpret_cast<std::uintptr_t>(memory);
    w.offset = (kPage - raw % kPage) % kPage;
    w.base = static_cast<std::byte*>(memory) + w.offset;
    std::memset(w.base, 0, bytes);  // segments start zeroed whoever allocates them
  }
  keep(segment, w.win, group, w.offset);
  return w;
}

MPI_Win MpiRmaTransport::attach(std::int64_t segment, const Group& group, void* base, std::size_t bytes) {
  MPI_Win win = MPI_WIN_NULL;
  {
    ErrorsReturn errors(group.comm());
    check_mpi("rma::allocate", "MPI_Win_create over " + std::to_string(bytes) + " bytes failed",
              MPI_Win_create(bytes ? base : nullptr, static_cast<MPI_Aint>(bytes), 1, MPI_INFO_NULL, group.comm(), &win));
  }
  keep(segment, win, group, 0);
  return win;
}

void MpiRmaTransport::keep(std::int64_t segment, MPI_Win win, const Group& group, std::uint64_t offset) {
  MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
  std::lock_guard lock(windows_mutex_);
  windows_[segment] = Window{win, group, offset};
}

std::byte* MpiRmaTransport::allocate_segment(const SegmentSpec& spec) {
  return allocate_window(spec.id, *spec.group, spec.bytes).base;
}

void MpiRmaTransport::segment_created(const SegmentSpec& spec, std::span<Slice> slices, std::span<const NodeObjectRef>) {
  // The window: MPI's own memory (made in allocate_segment), or node shared memory exposed now.
  // MPI may refuse on one rank only: agree before the next collective.
  if (!settings_.owns_memory) agree(spec.op, [&] { attach(spec.id, *spec.group, spec.my_base, spec.bytes); }, *spec.group);
  Window w;
  const Group* group_of_window = nullptr;  // the map's entry: stable until detach
  {
    std::lock_guard lock(windows_mutex_);
    w = windows_.at(spec.id);
    if (!(*spec.group == Group::world())) group_of_window = &windows_.at(spec.id).group;
  }
  // Every member's offset of its slice in its window memory: displacements are relative to it.
  const Group& group = *spec.group;
  std::vector<std::uint64_t> offsets(static_cast<std::size_t>(group.size()));
  MPI_Allgather(&w.offset, 1, MPI_UINT64_T, offsets.data(), 1, MPI_UINT64_T, group.comm());
  for (Slice& slice : slices) {
    const int rank = group.group_rank(slice.owner);
    slice.set_handle(MpiSlice{w.win, group_of_window, offsets[static_cast<std::size_t>(rank)]});
  }
}

void MpiRmaTransport::detach(std::int64_t segment) {
  std::optional<Window> w = take_entry(windows_mutex_, windows_, segment);
  if (!w) return;
  MPI_Win_unlock_all(w->win);
  MPI_Win_free(&w->win);
}
}  // namespace armada::rma::detail
