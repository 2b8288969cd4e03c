// The distributed storage a contraction runs on, as an interface with two implementations:
// armada::arrays (armada_store.cpp) and Debian's Global Arrays over ARMCI-MPI (ga/ga_store.cpp).
// The algorithm (scheduler.cpp, contraction.cpp) is written once against it, so the two
// libraries run exactly the same gets, accumulates and counter increments.
//
// Each tensor is one 1-D array of doubles (its nonzero blocks one after the other); world rank
// r owns [splits[r], splits[r+1]). Each term has one shared task counter per rank (the NXTVAL
// of coupled-cluster codes; the dynamic schedule uses the first, the locality schedule one per
// rank's task list), all on rank 0. Nonblocking operations are issued into numbered slots and
// completed by wait(slot).
// Who takes part: create, node_copy, reset_counters, sync and destroy_all are collective over the world;
// the rest are not.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "tasks.hpp"

namespace armada::apps::ccsd {

/// Slots of outstanding nonblocking operations (two input sets, two output sets).
inline constexpr int slot_count = 4;

/// Arrays the ranks of a node share, one copy per node (replica.hpp: T's arrangements), each
/// array held and filled by one of the node's ranks. Made by TileStore::node_copy; destroyed
/// collectively (every rank destroys its NodeCopy at the same point).
class NodeCopy {
 public:
  virtual ~NodeCopy() = default;
  /// Whether this rank fills array i (it is in this rank's own memory).
  virtual bool fills(std::size_t i) const = 0;
  /// Array i of this node's copy where this rank reads it in place (writable by the rank that
  /// fills it), or null when the library does not map its holder's memory here: read it with
  /// fetch(). Valid until destruction.
  virtual double* at(std::size_t i) = 0;
  /// Blocking read of all of array i into buf.
  virtual void fetch(std::size_t i, double* buf) = 0;
};

class TileStore {
 public:
  virtual ~TileStore() = default;
  /// "armada" or "ga".
  virtual const char* name() const = 0;
  /// Collective: tensor `id`'s array of splits.back() doubles (splits: ranks + 1 values).
  virtual void create(TensorId id, const std::vector<std::int64_t>& splits) = 0;
  /// This rank's part of tensor `id`, writable in place; `first` is its first storage index.
  /// (The contraction also reads the streamed blocks this rank owns in place, no get.)
  virtual std::span<double> local(TensorId id, std::int64_t& first) = 0;
  /// Ends the access of local(); `updated`: the data may have been written.
  virtual void release_local(TensorId id, bool updated) = 0;
  /// A part of a tensor this rank reads (const double) or writes (double) in place, from
  /// storage index `first` on.
  template <class T>
  struct Part {
    std::int64_t first = 0;
    std::span<T> data;
  };
  using InPlace = Part<const double>;
  using InPlaceUpdate = Part<double>;
  /// The parts of tensor `id` this rank can read in place, ascending: its own and, where the
  /// library maps them, those of its node's ranks (armada: GlobalArray::access_block; Global
  /// Arrays has no such call, so by default only local()'s part): in_place_update()'s, read-only.
  /// Not collective; the owners must not write them until release_in_place(id, false).
  std::vector<InPlace> in_place(TensorId id) {
    std::vector<InPlace> parts;
    for (const InPlaceUpdate& p : in_place_update(id)) parts.push_back({p.first, p.data});
    return parts;
  }
  /// The same parts, writable: for an output with one writer per element between two syncs
  /// (a term's tasks write disjoint blocks of R), which adds into them in place instead of
  /// accumulating. Not collective; the owners must not read or write them until
  /// release_in_place(id, /*updated=*/true). The default: local()'s part.
  virtual std::vector<InPlaceUpdate> in_place_update(TensorId id) {
    std::int64_t first = 0;
    const std::span<double> mine = local(id, first);
    if (mine.empty()) return {};
    return {InPlaceUpdate{first, mine}};
  }
  virtual void release_in_place(TensorId id, bool updated) { release_local(id, updated); }
  /// Where storage [offset, offset + n) lies in `parts` (in_place()'s or in_place_update()'s),
  /// or null.
  template <class T>
  static T* find_in_place(const std::vector<Part<T>>& parts, std::int64_t offset, std::int64_t n) {
    for (const Part<T>& part : parts)
      if (offset >= part.first && offset + n <= part.first + static_cast<std::int64_t>(part.data.size()))
        return part.data.data() + (offset - part.first);
    return nullptr;
  }
  /// Collective: one copy per node of arrays of `sizes` doubles, spread over the node's ranks,
  /// where the library maps the memory of its node's ranks (armada); null where it does not
  /// (Global Arrays), and the caller keeps a copy per rank.
  virtual std::unique_ptr<NodeCopy> node_copy(const std::vector<std::int64_t>& sizes) {
    (void)sizes;
    return nullptr;
  }
  /// Starts reading storage [lo, lo + n) of `id` into buf; complete with wait(slot).
  virtual void get_nb(int slot, TensorId id, std::int64_t lo, std::int64_t n, double* buf) = 0;
  /// Starts storage [lo, lo + n) of `id` += buf (atomic per element); complete with wait(slot).
  virtual void acc_nb(int slot, TensorId id, std::int64_t lo, std::int64_t n, const double* buf) = 0;
  /// Completes every operation issued into `slot`.
  virtual void wait(int slot) = 0;
  /// Blocking read of storage [lo, lo + n).
  virtual void get(TensorId id, std::int64_t lo, std::int64_t n, double* buf) = 0;
  /// Collective: every counter to 0.
  virtual void reset_counters() = 0;
  /// Atomically returns counter `list` (0 <= list < ranks) of `term` and adds 1 to it.
  virtual long read_inc(Term term, int list) = 0;
  /// Collective: completes every operation of every rank, then a barrier.
  virtual void sync() = 0;
  /// Collective: frees every array.
  virtual void destroy_all() = 0;
};

}  // namespace armada::apps::ccsd
