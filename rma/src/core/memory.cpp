// Collective allocation: one POSIX shared-memory object per node per allocation holds the
// slices of all the group's members on that node (or a transport that allocates segment memory
// itself, mpi-rma with ARMADA_MPI_MEMORY=mpi, gives each member its slice); every started
// transport's segment hooks run (windows, registrations, keys); the registry learns every
// member's slice.
#include "armada/rma/memory.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <limits>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_set>

#include "core/agree.hpp"
#include "common/check.hpp"
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

// What every member must know of every slice: its base, and the node shared object holding it
// (for transports that reach it from outside the group, like a node server).
struct SliceInfo {
  std::uint64_t base;
  std::int64_t pid, fd;
  std::uint64_t size, offset;
};

/// The group's non-empty slices in group order, and where each lies in its node's object.
/// `transport_memory`: a transport allocated the slices (this process maps only its own).
void make_slices(const detail::State& s, const Group& group, std::int64_t id, const std::vector<std::uint64_t>& sizes,
                 const std::vector<SliceInfo>& infos, const detail::SegmentRecord& rec, const NodePlan& plan,
                 bool transport_memory, std::vector<detail::Slice>& slices, std::vector<detail::NodeObjectRef>& objects) {
  const int my_node = s.topology.node_of[static_cast<std::size_t>(s.rank)];
  for (int r = 0; r < group.size(); ++r) {
    if (sizes[static_cast<std::size_t>(r)] == 0) continue;
    const int w = group.world_rank(r);
    const SliceInfo& info = infos[static_cast<std::size_t>(r)];
    detail::Slice slice;
    slice.base = info.base;
    slice.size = sizes[static_cast<std::size_t>(r)];
    slice.segment = id;
    slice.owner = w;
    if (transport_memory) {
      if (r == group.rank()) slice.local = static_cast<std::byte*>(rec.my_base);
    } else if (s.topology.node_of[static_cast<std::size_t>(w)] == my_node) {
      slice.local = rec.region.data() + plan.offset[static_cast<std::size_t>(r)];
    }
    slices.push_back(slice);
    objects.push_back({static_cast<int>(info.pid), static_cast<int>(info.fd), info.size, info.offset});
  }
}

/// Where every member's base should follow from the segment's origin in the symmetric arena:
/// every member holds the same non-zero size, so member g lies at its place among the group's
/// members on its node times the rounded size (plan_node's order). The registry checks it
/// against the slices' bases. Nothing otherwise (bases kept).
std::optional<SymmetricLayout> symmetric_bases(const detail::State& s, const Group& group,
                                               const std::vector<std::uint64_t>& sizes, const detail::SegmentRecord& rec) {
  if (!rec.arena_at || sizes.empty() || sizes[0] == 0) return std::nullopt;
  for (std::uint64_t b : sizes)
    if (b != sizes[0]) return std::nullopt;
  // A transport's own memory: every rank's slice at the range's start in its own address space.
  const std::size_t slot = rec.arena_mapped ? 0 : round_up(sizes[0]);
  return SymmetricLayout{reinterpret_cast<std::uintptr_t>(rec.arena_at), slot, group.impl()->node_places(s.topology)};
}

/// rec.my_base from the transport that allocates segment memory (collective over the group);
/// where it places_segments(), at one range of the symmetric arena on every member (one origin
/// per segment, as node memory), else, or if that fails on any member, where it likes.
void allocate_by_transport(const char* op, detail::State& s, detail::Transport& owner, detail::SegmentSpec& spec,
                           const Group& group, detail::SegmentRecord& rec) {
  agree(op, [&] { owner.check_segment(spec); }, group);
  if (owner.places_segments()) {
    std::uint64_t largest = spec.bytes;
    detail::allreduce_polling(op, &largest, 1, MPI_UINT64_T, MPI_MAX, group.comm());
    rec.arena_at = s.arena->take(op, largest, group.comm());
    rec.arena_bytes = rec.arena_at ? largest : 0;
    rec.arena_mapped = rec.arena_at ? spec.bytes : 0;
    spec.at = rec.arena_at;
  }
  for (;;) {
    try {
      agree(op, [&] { rec.my_base = owner.allocate_segment(spec); }, group);
      return;
    } catch (...) {
      if (rec.my_base) owner.allocation_abandoned(spec);  // another member failed: give ours back
      rec.my_base = nullptr;
      if (!rec.arena_at) throw;
      s.arena->give_back(rec.arena_at, rec.arena_bytes, rec.arena_mapped);
      rec.arena_at = spec.at = nullptr;  // and once more, anywhere
      rec.arena_bytes = rec.arena_mapped = 0;
    }
  }
}

/// rec's node object (and rec.my_base in it) from node shared memory, every node's object at one
/// address (the largest node's size taken from every member's symmetric arena), so that the
/// registry keeps one origin, not a base per member; where the arena is off or has no common
/// room, where mmap puts it. Collective over the group; returns where each slice lies.
NodePlan allocate_on_nodes(const char* op, detail::State& s, const Group& group, const std::vector<std::uint64_t>& sizes,
                           detail::SegmentRecord& rec) {
  NodePlan plan;
  agree(op, [&] { plan = plan_node(op, s, group, sizes); }, group);
  std::uint64_t largest = plan.total;
  detail::allreduce_polling(op, &largest, 1, MPI_UINT64_T, MPI_MAX, group.comm());
  rec.arena_at = s.arena->take(op, largest, group.comm());
  rec.arena_bytes = rec.arena_at ? largest : 0;
  try {
    agree(op, [&] { rec.region = detail::ShmRegion::create(op, group.impl()->node_members(), plan.total, rec.arena_at); },
          group);
  } catch (...) {  // another node failed: this node's object goes first, then its range
    rec.region = detail::ShmRegion();
    if (rec.arena_at) s.arena->give_back(rec.arena_at, rec.arena_bytes, rec.arena_mapped);
    throw;
  }
  const std::size_t mine = static_cast<std::size_t>(group.rank());
  rec.my_base = sizes[mine] ? rec.region.data() + plan.offset[mine] : nullptr;
  return plan;
}

/// The started transport that allocates segment memory itself, or null (node shared memory).
detail::Transport* memory_owner(const detail::State& s) {
  for (const auto& t : s.routes.started)
    if (t->allocates_segments()) return t.get();
  return nullptr;
}

}  // namespace

namespace detail {

std::vector<void*> allocate_segment(const char* op, std::size_t bytes, const Group& g, bool internal) {
  auto& s = detail::state(op);
  const Group& group = checked_group(op, g);
  MPI_Comm comm = group.comm();
  const int n = group.size();

  // Every collective of the call waits serving this rank's node: a member that is still on its
  // way here may first need a request that only this process executes (its node server's).
  std::vector<std::uint64_t> sizes(static_cast<std::size_t>(n));
  const std::uint64_t mine = bytes;
  detail::allgather_polling(op, &mine, 1, MPI_UINT64_T, sizes.data(), comm);
  std::int64_t id = s.next_segment_id;
  detail::allreduce_polling(op, &id, 1, MPI_INT64_T, MPI_MAX, comm);
  s.next_segment_id = id + 1;

  // Who owns the memory: node shared memory (slices of the node's members in one object), or a
  // transport (mpi-rma: one MPI window allocation per rank). Either can fail on some ranks only
  // (a size no node holds, /dev/shm full, MPI refusing): every member agrees before the next
  // collective, and a failure leaves nothing behind.
  detail::Transport* owner = memory_owner(s);
  detail::SegmentRecord rec;
  rec.id = id;
  rec.group = group;
  rec.my_size = bytes;
  for (std::uint64_t b : sizes) rec.total_bytes += b;
  detail::SegmentSpec spec{op, id, &rec.group, bytes, sizes, nullptr, false};
  NodePlan plan;
  if (owner) allocate_by_transport(op, s, *owner, spec, group, rec);
  else plan = allocate_on_nodes(op, s, group, sizes, rec);
  spec.my_base = static_cast<std::byte*>(rec.my_base);
  spec.created_node_object = rec.region.creator_pid() == static_cast<int>(getpid());
  spec.node_comm = group.impl()->node_members();  // collective the first time: every member is here

  const SliceInfo my_info{reinterpret_cast<std::uintptr_t>(rec.my_base), rec.region.creator_pid(),
                          rec.region.creator_fd(), rec.region.size(),
                          owner ? 0 : plan.offset[static_cast<std::size_t>(group.rank())]};
  std::vector<SliceInfo> infos(static_cast<std::size_t>(n));
  detail::allgather_polling(op, &my_info, sizeof my_info, MPI_BYTE, infos.data(), comm);
  std::vector<void*> bases(static_cast<std::size_t>(n));
  for (int r = 0; r < n; ++r) bases[static_cast<std::size_t>(r)] = reinterpret_cast<void*>(infos[static_cast<std::size_t>(r)].base);

  std::vector<detail::Slice> slices;
  std::vector<detail::NodeObjectRef> objects;
  make_slices(s, group, id, sizes, infos, rec, plan, owner != nullptr, slices, objects);
  for (detail::Slice& slice : slices) slice.internal = internal;
  // Windows, registrations, keys: collective over the group, like this whole call.
  try {
    agree(op, [&] {
      for (const auto& t : s.routes.started) t->segment_created(spec, slices, objects);
    }, group);
  } catch (...) {  // every member fails: what the transports made goes, then the memory and its range
    for (const auto& t : s.routes.started) t->allocation_abandoned(spec);
    rec.region = detail::ShmRegion();
    if (rec.arena_at) s.arena->give_back(rec.arena_at, rec.arena_bytes, rec.arena_mapped);
    throw;
  }
  // What the registry keeps is what rma::symmetric_layout tells: the layout only where it took it.
  rec.symmetric = symmetric_bases(s, group, sizes, rec);
  if (!s.registry->add(slices, rec.symmetric)) rec.symmetric.reset();
  {
    std::lock_guard lock(s.segments_mutex);
    if (rec.my_base) s.segment_by_base[rec.my_base] = id;
    s.segments.emplace(id, std::move(rec));
  }
  // Nobody returns (and starts writing) before every member has registered the segment: a
  // node server executes requests against its own process's registry.
  detail::barrier_polling(op, comm);
  return bases;
}

}  // namespace detail

std::vector<void*> allocate(std::size_t bytes, const Group& g) {
  return detail::allocate_segment("rma::allocate", bytes, g, false);
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
  detail::allreduce_polling(op, ids, 2, MPI_INT64_T, MPI_MAX, comm);  // serving, as in allocate
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
  // No member still reads or writes the slices. Serving meanwhile: another member's fence may
  // wait for this rank's node server.
  detail::barrier_polling(op, doomed.group.comm());
  s.registry->remove(id);
  // Windows, registrations, keys, foreign mappings: collective over the group; before the
  // memory is unmapped (when `doomed` goes).
  const detail::SegmentSpec spec{op, id, &doomed.group, doomed.my_size, {}, static_cast<std::byte*>(doomed.my_base),
                                 doomed.region.creator_pid() == static_cast<int>(getpid())};
  for (const auto& t : s.routes.started) t->segment_freed(spec);
  doomed.region = detail::ShmRegion();  // its range is the arena's reservation again
  if (doomed.arena_at) s.arena->give_back(doomed.arena_at, doomed.arena_bytes, doomed.arena_mapped);
}

namespace {
/// What `read` returns of the record of the segment whose local base is `my_base` (under the
/// segments' lock), or InvalidArgument naming `op`.
template <class Read>
auto read_segment(const char* op, void* my_base, Read&& read) {
  auto& s = detail::state(op);
  std::lock_guard lock(s.segments_mutex);
  auto it = s.segment_by_base.find(my_base);
  if (it == s.segment_by_base.end())
    detail::throw_invalid(op, "my_base", detail::to_hex(my_base), "not the local base of a segment from rma::allocate");
  return read(s.segments.at(it->second));
}
}  // namespace

std::optional<SymmetricLayout> symmetric_layout(void* my_base) {
  return read_segment("rma::symmetric_layout", my_base, [](const detail::SegmentRecord& r) { return r.symmetric; });
}

std::size_t segment_size(void* my_base) {
  return read_segment("rma::segment_size", my_base, [](const detail::SegmentRecord& r) { return r.my_size; });
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
