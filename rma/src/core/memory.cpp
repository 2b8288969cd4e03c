// Collective allocation: one POSIX shared-memory object per node per allocation holds the
// slices of all the group's members on that node (or, under mpi-rma with ARMADA_MPI_MEMORY=mpi,
// each member's MPI window memory); the registry learns every member's slice.
#include "armada/rma/memory.hpp"

#include <sys/mman.h>

#include <cstdint>
#include <cstdlib>
#include <limits>
#include <mutex>
#include <string>
#include <unordered_set>

#include "core/agree.hpp"
#include "core/check.hpp"
#include "core/group_impl.hpp"
#include "core/state.hpp"

namespace armada::rma {

namespace {

constexpr std::size_t kSliceAlign = 4096;  // page: no false sharing between ranks' slices

std::size_t round_up(std::size_t n) { return (n + kSliceAlign - 1) / kSliceAlign * kSliceAlign; }

const Group& checked_group(const char* op, const Group& group) {
  if (!group.impl())
    detail::throw_invalid(op, "group", "an empty group", "needs a group made by Group::world() or Group::create()");
  if (!group.is_member())
    detail::throw_invalid(op, "group", "a group of " + std::to_string(group.size()) + " ranks",
                          "this rank is not a member; only members take part");
  return group;
}

// Where each node-local member's slice lies in the node's shared object: node-local members in
// group order, page aligned. Every rank of a node computes the same plan from the same sizes.
struct NodePlan {
  std::vector<std::size_t> offset;  // per group rank (0 for members on other nodes)
  std::size_t total = 0;
};

NodePlan plan_node(const char* op, const detail::State& s, const Group& group, const std::vector<std::uint64_t>& sizes) {
  const int my_node = s.topology.node_of[static_cast<std::size_t>(s.rank)];
  NodePlan plan;
  plan.offset.assign(sizes.size(), 0);
  for (int r = 0; r < group.size(); ++r) {
    const int w = group.world_rank(r);
    if (s.topology.node_of[static_cast<std::size_t>(w)] != my_node) continue;
    const std::uint64_t bytes = sizes[static_cast<std::size_t>(r)];
    if (bytes > std::numeric_limits<std::size_t>::max() - plan.total - kSliceAlign)
      detail::throw_invalid(op, "bytes", std::to_string(bytes),
                            "rank " + std::to_string(w) + "'s slice overflows its node's total");
    plan.offset[static_cast<std::size_t>(r)] = plan.total;
    plan.total += round_up(bytes);
  }
  return plan;
}

// What every member must know of every slice: its base, where it lies in its window, and the
// shared object holding it (for a node server outside the group).
struct SliceInfo {
  std::uint64_t base, window_offset;
  std::int64_t pid, fd;
  std::uint64_t size, offset;
};

std::vector<detail::Slice> make_slices(const detail::State& s, const Group& group, std::int64_t id,
                                       const std::vector<std::uint64_t>& sizes, const std::vector<SliceInfo>& infos,
                                       const detail::SegmentRecord& rec, const NodePlan& plan, bool mpi_owned) {
  const int my_node = s.topology.node_of[static_cast<std::size_t>(s.rank)];
  std::vector<detail::Slice> slices;
  for (int r = 0; r < group.size(); ++r) {
    if (sizes[static_cast<std::size_t>(r)] == 0) continue;
    const int w = group.world_rank(r);
    const SliceInfo& info = infos[static_cast<std::size_t>(r)];
    detail::Slice slice;
    slice.base = info.base;
    slice.size = sizes[static_cast<std::size_t>(r)];
    slice.segment = id;
    slice.owner = w;
    slice.region_pid = static_cast<int>(info.pid);
    slice.region_fd = static_cast<int>(info.fd);
    slice.region_size = info.size;
    slice.region_offset = info.offset;
    slice.window_offset = info.window_offset;
    if (mpi_owned) {
      if (r == group.rank()) slice.local = static_cast<std::byte*>(rec.my_base);
    } else if (s.topology.node_of[static_cast<std::size_t>(w)] == my_node) {
      slice.local = rec.region.data() + plan.offset[static_cast<std::size_t>(r)];
    }
    slices.push_back(slice);
  }
  return slices;
}

}  // namespace

std::vector<void*> allocate(std::size_t bytes, const Group& g) {
  constexpr const char* op = "rma::allocate";
  auto& s = detail::state(op);
  const Group& group = checked_group(op, g);
  MPI_Comm comm = group.comm();
  const int n = group.size();

  std::vector<std::uint64_t> sizes(static_cast<std::size_t>(n));
  const std::uint64_t mine = bytes;
  MPI_Allgather(&mine, 1, MPI_UINT64_T, sizes.data(), 1, MPI_UINT64_T, comm);
  std::int64_t id = s.next_segment_id;
  MPI_Allreduce(MPI_IN_PLACE, &id, 1, MPI_INT64_T, MPI_MAX, comm);
  s.next_segment_id = id + 1;

  // Who owns the memory: node shared memory (slices of the node's members in one object), or,
  // under mpi-rma with ARMADA_MPI_MEMORY=mpi, the MPI library (one window allocation per rank).
  // Either can fail on some ranks only (a size no node holds, /dev/shm full, MPI refusing):
  // every member agrees before the next collective, and a failure leaves nothing behind.
  const bool mpi_owned = s.mpi && s.config.mpi_memory == "mpi";
  detail::SegmentRecord rec;
  rec.id = id;
  rec.group = group;
  rec.my_size = bytes;
  for (std::uint64_t b : sizes) rec.total_bytes += b;
  NodePlan plan;
  detail::MpiRmaTransport::OwnedWindow owned;
  if (mpi_owned) {
    agree(op, [&] { detail::MpiRmaTransport::check_window_bytes(bytes); }, group);
    agree(op, [&] { owned = s.mpi->allocate(id, group, bytes); }, group);
    rec.my_base = owned.base;
  } else {
    agree(op, [&] {
      plan = plan_node(op, s, group, sizes);
      rec.region = detail::ShmRegion::create(op, group.impl()->node_members(), plan.total);
    }, group);
    rec.my_base = bytes ? rec.region.data() + plan.offset[static_cast<std::size_t>(group.rank())] : nullptr;
  }

  const SliceInfo my_info{reinterpret_cast<std::uintptr_t>(rec.my_base), owned.offset,
                          rec.region.creator_pid(), rec.region.creator_fd(), rec.region.size(),
                          mpi_owned ? 0 : plan.offset[static_cast<std::size_t>(group.rank())]};
  std::vector<SliceInfo> infos(static_cast<std::size_t>(n));
  MPI_Allgather(&my_info, sizeof my_info, MPI_BYTE, infos.data(), sizeof my_info, MPI_BYTE, comm);
  std::vector<void*> bases(static_cast<std::size_t>(n));
  for (int r = 0; r < n; ++r) bases[static_cast<std::size_t>(r)] = reinterpret_cast<void*>(infos[static_cast<std::size_t>(r)].base);

  std::vector<detail::Slice> slices = make_slices(s, group, id, sizes, infos, rec, plan, mpi_owned);
  if (s.mpi) {  // the segment's window: collective over the group, like this whole call
    MPI_Win win = owned.win;
    if (!mpi_owned) agree(op, [&] { win = s.mpi->attach(id, group, rec.my_base, bytes); }, group);
    for (detail::Slice& slice : slices) {
      slice.window = win;
      slice.window_rank = group.group_rank(slice.owner);
    }
  }
  s.registry->add(slices);
  {
    std::lock_guard lock(s.segments_mutex);
    if (rec.my_base) s.segment_by_base[rec.my_base] = id;
    s.segments.emplace(id, std::move(rec));
  }
  // Nobody returns (and starts writing) before every member has registered the segment: a
  // node server executes requests against its own process's registry.
  MPI_Barrier(comm);
  return bases;
}

void free(void* my_base, const Group& g) {
  constexpr const char* op = "rma::free";
  auto& s = detail::state(op);
  const Group& group = checked_group(op, g);
  std::int64_t id = -1;
  {
    std::lock_guard lock(s.segments_mutex);
    if (my_base) {
      auto it = s.segment_by_base.find(my_base);
      if (it == s.segment_by_base.end())
        detail::throw_invalid(op, "my_base", detail::to_hex(my_base),
                              "not the local base of a segment from rma::allocate (or freed already)");
      id = it->second;
      if (!(s.segments.at(id).group == group))
        detail::throw_invalid(op, "group", "a group of " + std::to_string(group.size()) + " ranks",
                              "segment " + std::to_string(id) + " was allocated on another group");
    }
  }
  // A rank that allocated 0 bytes passes null and learns the segment from the others. Ranks
  // with a base agree on the segment, or every rank reports the mismatch.
  MPI_Comm comm = group.comm();
  std::int64_t ids[2] = {id, id < 0 ? std::numeric_limits<std::int64_t>::min() : -id};
  MPI_Allreduce(MPI_IN_PLACE, ids, 2, MPI_INT64_T, MPI_MAX, comm);
  std::int64_t max_id = ids[0];
  // ids[1] stays at its minimum only when every rank passed null (then min_id is unused).
  const std::int64_t min_id = ids[1] == std::numeric_limits<std::int64_t>::min() ? -1 : -ids[1];
  if (max_id < 0) {
    // Every rank passed null: the segment was empty everywhere. Free the newest such segment of
    // this group (every member allocated the same sequence, so all pick the same one).
    std::lock_guard lock(s.segments_mutex);
    for (const auto& [sid, rec] : s.segments)
      if (rec.group == group && rec.total_bytes == 0) max_id = std::max(max_id, sid);
    if (max_id < 0)
      detail::throw_invalid(op, "my_base", "null on every rank", "no segment of this group is empty on every rank");
  }
  if (id >= 0 && min_id != max_id)
    detail::throw_invalid(op, "my_base", detail::to_hex(my_base),
                          "ranks passed bases of different segments (ids " + std::to_string(min_id) +
                              " and " + std::to_string(max_id) + ")");
  id = max_id;

  detail::SegmentRecord doomed;
  {
    std::lock_guard lock(s.segments_mutex);
    auto it = s.segments.find(id);
    if (it == s.segments.end())
      detail::throw_invalid(op, "my_base", "null", "this rank holds no slice record of segment " + std::to_string(id));
    doomed = std::move(it->second);
    s.segments.erase(it);
    if (doomed.my_base) s.segment_by_base.erase(doomed.my_base);
  }
  detail::fence_everything(s);
  MPI_Barrier(doomed.group.comm());  // no member still reads or writes the slices
  s.registry->remove(id);
  if (s.mpi) s.mpi->detach(id);  // collective over the group; before the memory is unmapped
  detail::forget_foreign_segment(s, doomed);
}

std::size_t segment_size(void* my_base) {
  constexpr const char* op = "rma::segment_size";
  auto& s = detail::state(op);
  std::lock_guard lock(s.segments_mutex);
  auto it = s.segment_by_base.find(my_base);
  if (it == s.segment_by_base.end())
    detail::throw_invalid(op, "my_base", detail::to_hex(my_base), "not the local base of a segment from rma::allocate");
  return s.segments.at(it->second).my_size;
}

namespace {
// The blocks allocate_local handed out, so that free_local refuses any other pointer (freeing
// memory the library did not allocate would corrupt the heap far from the mistake).
struct LocalBlocks {
  std::mutex mutex;
  std::unordered_set<void*> live;
};
LocalBlocks& local_blocks() {
  static LocalBlocks blocks;
  return blocks;
}
}  // namespace

void* allocate_local(std::size_t bytes) {
  if (bytes == 0) return nullptr;
  void* p = nullptr;
  if (int e = posix_memalign(&p, kSliceAlign, bytes); e != 0)
    detail::throw_system("rma::allocate_local", "cannot allocate " + std::to_string(bytes) + " bytes", e);
  LocalBlocks& blocks = local_blocks();
  std::lock_guard lock(blocks.mutex);
  blocks.live.insert(p);
  return p;
}

void free_local(void* ptr) {
  if (!ptr) return;
  LocalBlocks& blocks = local_blocks();
  {
    std::lock_guard lock(blocks.mutex);
    if (blocks.live.erase(ptr) == 0)
      detail::throw_invalid("rma::free_local", "ptr", detail::to_hex(ptr),
                            "not memory from rma::allocate_local (or freed already)");
  }
  std::free(ptr);
}

}  // namespace armada::rma
