// GlobalArray<T>: a distributed N-d array (1 to 7 dimensions) over an rma segment.
//
// Every rank of the array's group holds its part of the index space (see distribution.hpp) in
// a segment from rma::allocate: one block, row-major, surrounded by its ghost cells when the
// array has them, or, for the block-cyclic layouts, its blocks in a documented order. Any rank reads and updates any patch one-sidedly: a patch operation finds the owners
// of the patch, and issues one strided rma operation per owner, all before waiting for any.
//
// Who takes part: creation, duplicate, destroy, update_ghosts, update_ghost_dir,
// update_ghosts_nb and sync_group are collective over the array's group; arrays::sync() is
// collective over the world; patch operations (get, put, acc, their nonblocking, strided and
// periodic forms, gather, scatter, read_inc), get_ghost_dir_nb and local access are not.
// Completion: as in rma. A blocking put or acc returns when the caller's buffer may be reused;
// a get when the data is in place. Updates from several ranks are visible to every rank after
// arrays::sync() (the world: Global Arrays' GA_Sync), or to the array's group after
// a.sync_group().
// Errors: every argument is checked before any data moves; a bad one throws
// rma::InvalidArgument naming the operation, the array, the argument and its value; an
// operation on a destroyed array throws rma::StateError.
// Thread safety: patch operations may be called from several threads at once; creation and
// destruction may not overlap other calls on the same array.
#pragma once

#include "armada/rma/cxx20.hpp"  // first: one clear error without C++20

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "armada/arrays/distribution.hpp"
#include "armada/arrays/types.hpp"
#include "armada/rma/group.hpp"
#include "armada/rma/handle.hpp"

namespace armada::arrays {

/// How to create an array. Everything is optional.
struct ArrayOptions {
  std::string name;                            ///< for messages, print and summary
  Coord grid;                                  ///< regular: blocks per dimension (empty: balanced)
  Coord chunk;                                 ///< regular: minimum block extents (entries <= 0: none)
  std::vector<std::vector<Index>> block_starts;///< irregular map (non-empty: overrides grid/chunk)
  /// A distribution made beforehand, e.g. Distribution::block_cyclic (overrides grid, chunk and
  /// block_starts): its dims must be the array's, a block-cyclic one must be made for the
  /// group's size, and block-cyclic arrays have no ghost cells.
  std::optional<Distribution> distribution;
  Coord ghosts;                                ///< ghost width per dimension (empty: none)
  std::optional<rma::Group> group;             ///< the processes (default: the world)
};

/// Which ghost cells a ghost update fills, and from where. A rank's ghost frame is the cells
/// within ghosts()[d] of its block in dimension d that are not in the block; its faces are the
/// cells outside the block in exactly one dimension, its corners those outside in more than one.
struct GhostUpdate {
  /// Cells past an edge of the array get the values of the opposite edge (indices wrap modulo
  /// dims: Global Arrays' update); without, cells past an edge are left unchanged.
  bool periodic = false;
  /// Fill the corners too; without, only the faces are filled and the corners left unchanged.
  bool corners = true;
  /// Push form (update_ghosts, update_ghost_dir): each owner puts the pieces of its block that
  /// its neighbours' frames take straight into them, one rma::put_strided_notify per piece (a
  /// neighbour's face is one), and each member waits for its own frame's pieces to arrive; a
  /// member tells the owners it takes from that its frame is free as it enters the update, and
  /// owners push only then. No barrier and no get round trip, but no synchronization either:
  /// every owner pushes what its block holds when it calls, so writes by other ranks to a block
  /// must be completed (sync_group()) before the update, and every member must pass the same
  /// arguments (not checked across members: there is no collective to check them in). The
  /// update returns once this rank's frame is filled; the owner may change its block at once
  /// (the puts have copied it). An array without ghost cells: nothing happens. Default: pull
  /// (the owners' values are fetched, with a synchronization before and after).
  bool push = false;
};

/// One owner of part of a patch: a world rank and the part [lo, hi) it holds.
struct Owner {
  int rank;
  Patch patch;
};

/// The outstanding rma operations of one nonblocking patch operation (one per owner).
/// wait() completes all of them; destruction waits too. Movable, not copyable.
class NbHandle {
 public:
  NbHandle() = default;
  NbHandle(NbHandle&&) noexcept = default;
  NbHandle& operator=(NbHandle&&) noexcept;
  ~NbHandle() { wait(); }
  void wait();
  /// True once every operation has completed (then wait() returns at once).
  bool test();
  /// Number of rma operations it covers.
  std::size_t operations() const noexcept { return handles_.size(); }

 private:
  friend class Array;
  static std::vector<rma::Handle>& handles_of(NbHandle& h);
  static std::unique_ptr<std::byte[]>& scale_of(NbHandle& h);
  std::vector<rma::Handle> handles_;
  std::unique_ptr<std::byte[]> scale_;  // acc: the scale must outlive the operations
};

/// A view of a rank's local block, in place (no copy): element at global index g is
/// data[sum_d (g[d] - lo[d]) * stride[d]]. With ghosts, lo/hi extend past the owned block.
template <class T>
struct LocalView {
  T* data = nullptr;
  Coord lo, hi;    ///< global bounds of the viewed box
  Coord stride;    ///< element strides per dimension (stride[ndim-1] == 1)
  int ndim() const noexcept { return lo.size(); }
  bool empty() const noexcept { return Patch{lo, hi}.empty(); }
  Index size() const noexcept { return Patch{lo, hi}.elements(); }
  /// The element at global index `g` (unchecked).
  template <class U = T>
    requires(!std::is_void_v<U>)
  U& operator[](const Coord& g) const noexcept {
    Index off = 0;
    for (int d = 0; d < lo.size(); ++d) off += (g[d] - lo[d]) * stride[d];
    return data[off];
  }
};

/// The type-erased array. Buffers are untyped and must hold elements of type(); the typed
/// GlobalArray<T> below is what C++ programs normally use. Copies of an Array refer to the
/// same distributed array.
///
/// `ld` arguments describe the caller's buffer as in Global Arrays: ld[d] (d < ndim-1) is the
/// buffer's extent in dimension d+1 (>= the patch extent); empty means a dense buffer.
class Array {
 public:
  struct Impl;
  Array() = default;

  /// Creates an array of `type` with dimensions `dims` (1 to 7 entries, each >= 1).
  /// Collective over the group; every member passes the same arguments.
  static Array create(ElemType type, const Coord& dims, const ArrayOptions& options = {});
  /// A new array with the same type, distribution, ghosts and group (contents not copied).
  /// Collective.
  Array duplicate(const std::string& name = {}) const;
  /// Frees the array. Collective over its group. Any copy of this Array then reports a
  /// destroyed array.
  void destroy();
  /// False for a default-constructed or destroyed array.
  bool valid() const noexcept;

  // ---- inquiry -------------------------------------------------------------------------------
  ElemType type() const;
  std::size_t element_size() const;
  int ndim() const;
  const Coord& dims() const;
  const std::string& name() const;
  void set_name(const std::string& name);
  const Distribution& distribution() const;
  const rma::Group& group() const;
  Coord ghosts() const;
  /// The C API's handle: unique among this process's arrays, and the same on every member of
  /// the array's group (so is the default name, "array<id>").
  int id() const;
  /// The block owned by world rank `rank` (empty if it owns nothing; it must be in the group).
  /// Block-cyclic arrays: InvalidArgument (a rank owns several blocks: distribution().blocks_of()).
  Patch owned(int rank) const;
  /// The block owned by this rank.
  Patch owned() const;
  /// World rank owning the element at `index`.
  int locate(const Coord& index) const;
  /// The owners of the non-empty parts of patch [lo, hi), with the part each holds.
  std::vector<Owner> locate_region(const Coord& lo, const Coord& hi) const;

  // ---- patch operations (one strided rma operation per owner) --------------------------------
  void get(const Coord& lo, const Coord& hi, void* buf, const Coord& ld = {}) const;
  void put(const Coord& lo, const Coord& hi, const void* buf, const Coord& ld = {});
  /// patch += scale * buf; `scale` points to one element of type().
  void acc(const Coord& lo, const Coord& hi, const void* buf, const void* scale, const Coord& ld = {});
  [[nodiscard]] NbHandle get_nb(const Coord& lo, const Coord& hi, void* buf, const Coord& ld = {}) const;
  [[nodiscard]] NbHandle put_nb(const Coord& lo, const Coord& hi, const void* buf, const Coord& ld = {});
  [[nodiscard]] NbHandle acc_nb(const Coord& lo, const Coord& hi, const void* buf, const void* scale,
                                const Coord& ld = {});
  /// Every skip[d]-th element of [lo, hi) starting at lo (skip[d] >= 1); the buffer is dense
  /// over the selected elements: ceil((hi[d]-lo[d]) / skip[d]) per dimension.
  void get_strided(const Coord& lo, const Coord& hi, const Coord& skip, void* buf, const Coord& ld = {}) const;
  void put_strided(const Coord& lo, const Coord& hi, const Coord& skip, const void* buf, const Coord& ld = {});
  void acc_strided(const Coord& lo, const Coord& hi, const Coord& skip, const void* buf, const void* scale,
                   const Coord& ld = {});
  /// Periodic forms: lo may be any integer, indices wrap modulo dims; 0 <= hi[d]-lo[d] <= dims[d].
  void periodic_get(const Coord& lo, const Coord& hi, void* buf, const Coord& ld = {}) const;
  void periodic_put(const Coord& lo, const Coord& hi, const void* buf, const Coord& ld = {});
  void periodic_acc(const Coord& lo, const Coord& hi, const void* buf, const void* scale, const Coord& ld = {});

  /// Element lists: `subscripts` holds n index tuples. One vector rma operation per owner.
  void gather(std::span<const Coord> subscripts, void* values) const;
  /// Two subscripts naming the same element are an error (the result would be undefined).
  void scatter(std::span<const Coord> subscripts, const void* values);
  /// Repeated subscripts accumulate once per occurrence.
  void scatter_acc(std::span<const Coord> subscripts, const void* values, const void* scale);

  /// Atomically adds `increment` to the int or long element at `index` and returns its old value
  /// (the shared counter of dynamic load balancing).
  long read_inc(const Coord& index, long increment = 1);

  // ---- local access (no copies) -------------------------------------------------------------
  /// The owned block (empty view if this rank owns nothing). Pair with release()/release_update().
  /// Block-cyclic arrays: InvalidArgument (use access_blocks()); so for access_ghosts and
  /// access_block.
  LocalView<void> access();
  /// Every block this rank owns, in the order of its local buffer (distribution.hpp), one view
  /// each (global lo/hi, strides in the buffer); the first view's data is the buffer's start
  /// (Layout::proc_grid: ScaLAPACK's local matrix, row-major, local_shape()). Any distribution;
  /// no blocks: an empty vector. One access: pair with release()/release_update().
  std::vector<LocalView<void>> access_blocks();
  /// The owned block with its ghost cells.
  LocalView<void> access_ghosts();
  /// World rank `rank`'s block (a member of the array's group) when this process can load and
  /// store it in place: its own, or a block of its node's shared memory (rma::node_address);
  /// otherwise an empty view with null data (read it with get()). Not collective; counted as an
  /// access until release() or release_update(). Its owner and other ranks may write it: reading
  /// or writing it in place needs the synchronization a get or put would (a sync()).
  LocalView<void> access_block(int rank);
  /// Ends an access that only read the data.
  void release();
  /// Ends an access that modified the data (the stores are made visible to other ranks by the
  /// next sync_group() or arrays::sync()).
  void release_update();

  // ---- ghost cells and synchronization --------------------------------------------------------
  // Every ghost cell receives the value its owner holds (wrapped as GhostUpdate says); nothing
  // is read from other ranks' ghost cells, so updates of different sides may run in any order.
  // Ranks that own nothing have no ghost cells and only take part in the synchronization.

  /// Fills every rank's ghost cells from the owners of those indices; with `periodic`, indices
  /// past an edge wrap around, otherwise ghost cells past an edge are left unchanged.
  /// Collective over the array's group. Synchronizes the group (sync_group()) before, so that
  /// the owners' values are final, and after, so that no owner changes a value before every
  /// ghost copy of it is taken. An array without ghost cells: only the synchronization.
  void update_ghosts(bool periodic = false);
  /// The same, with or without the corners (how.corners; update_ghosts(bool) fills them).
  void update_ghosts(const GhostUpdate& how);
  /// Fills one side of one dimension of every rank's ghost frame: the cells within
  /// ghosts()[dimension] below the block (direction -1) or above it (direction +1) in
  /// `dimension`; in the other dimensions the block's extent, and with how.corners also their
  /// ghost widths (the corners on that side). Collective over the array's group, synchronizing
  /// it before and after as update_ghosts. Every member passes the same dimension, direction
  /// and `how`; dimension in [0, ndim), direction -1 or +1, and the array must have ghost cells
  /// (a dimension of width 0 has no cells to fill there: the call only synchronizes).
  void update_ghost_dir(int dimension, int direction, const GhostUpdate& how = {});
  /// Starts update_ghosts(how) and returns without waiting for the data. Collective over the
  /// array's group: it synchronizes the group before issuing (the owners' values are final),
  /// not after. Until the handle's wait() returns this rank must not read or write its ghost
  /// cells; it may read its block, compute on local data and use other arrays. Until every
  /// member has waited and the group has synchronized (sync_group(), arrays::sync() or the next
  /// ghost update) no member may change its block: other members may still be copying it.
  [[nodiscard]] NbHandle update_ghosts_nb(const GhostUpdate& how = {});
  /// Starts filling the one region of this rank's ghost frame named by `mask` (one entry per
  /// dimension: -1 below the block, +1 above it, 0 the block's extent), periodic as `periodic`
  /// says, and returns its handle. Not collective: it reads the owners' current values, so the
  /// owners must have finished writing them (a sync) and must not change them before wait().
  /// Nothing to fill (all entries 0: the block itself; this rank owns nothing; a non-zero entry
  /// in a dimension of ghost width 0; only cells past an edge without `periodic`): a handle
  /// with no operations. The array must have ghost cells.
  [[nodiscard]] NbHandle get_ghost_dir_nb(const Coord& mask, bool periodic = false);
  /// Completes every operation this rank issued, to any array and any rank (rma fence_all), then
  /// barriers the array's group only: ranks outside the group are not waited for. For Global
  /// Arrays' GA_Sync (every rank of the world) use arrays::sync().
  void sync_group() const;
  /// The same as sync_group(); the older name, kept so that existing code compiles.
  void sync() const { sync_group(); }

  const std::shared_ptr<Impl>& impl() const noexcept { return impl_; }
  explicit Array(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}

 protected:
  const Impl& checked(const char* op) const;
  std::shared_ptr<Impl> impl_;
};

/// Completes every operation this rank issued (rma fence_all), then barriers the whole world:
/// afterwards every rank sees every update issued before it. Global Arrays' GA_Sync. Collective
/// over the world (every rank of the rma runtime, whatever groups its arrays live on).
void sync();

/// The array of `id` (Array::id()), or throws InvalidArgument naming `operation` for an
/// unknown or destroyed id.
Array find_array(int id, const char* operation);
/// Every live array of this process, in creation order.
std::vector<Array> live_arrays();
/// A table of every live array (id, name, type, dims, grid, ghosts, local bytes). Not collective.
std::string summary();

/// The typed array. A GlobalArray<T> made from an Array of another element type is an error.
template <Element T>
class GlobalArray : public Array {
 public:
  using value_type = T;
  GlobalArray() = default;
  /// Views `a` as holding T (throws InvalidArgument if it holds another type).
  explicit GlobalArray(Array a);
  static GlobalArray create(const Coord& dims, const ArrayOptions& options = {}) {
    return GlobalArray(Array::create(type_of<T>(), dims, options));
  }
  GlobalArray duplicate(const std::string& name = {}) const { return GlobalArray(Array::duplicate(name)); }

  void get(const Coord& lo, const Coord& hi, T* buf, const Coord& ld = {}) const { Array::get(lo, hi, buf, ld); }
  /// The patch as a dense row-major vector.
  std::vector<T> get(const Coord& lo, const Coord& hi) const {
    std::vector<T> v(static_cast<std::size_t>(Patch{lo, hi}.elements()));
    Array::get(lo, hi, v.data(), {});
    return v;
  }
  void put(const Coord& lo, const Coord& hi, const T* buf, const Coord& ld = {}) { Array::put(lo, hi, buf, ld); }
  void acc(const Coord& lo, const Coord& hi, const T* buf, T scale = T(1), const Coord& ld = {}) {
    Array::acc(lo, hi, buf, &scale, ld);
  }
  [[nodiscard]] NbHandle get_nb(const Coord& lo, const Coord& hi, T* buf, const Coord& ld = {}) const {
    return Array::get_nb(lo, hi, buf, ld);
  }
  [[nodiscard]] NbHandle put_nb(const Coord& lo, const Coord& hi, const T* buf, const Coord& ld = {}) {
    return Array::put_nb(lo, hi, buf, ld);
  }
  [[nodiscard]] NbHandle acc_nb(const Coord& lo, const Coord& hi, const T* buf, T scale = T(1),
                                const Coord& ld = {}) {
    return Array::acc_nb(lo, hi, buf, &scale, ld);
  }
  void get_strided(const Coord& lo, const Coord& hi, const Coord& skip, T* buf, const Coord& ld = {}) const {
    Array::get_strided(lo, hi, skip, buf, ld);
  }
  void put_strided(const Coord& lo, const Coord& hi, const Coord& skip, const T* buf, const Coord& ld = {}) {
    Array::put_strided(lo, hi, skip, buf, ld);
  }
  void acc_strided(const Coord& lo, const Coord& hi, const Coord& skip, const T* buf, T scale = T(1),
                   const Coord& ld = {}) {
    Array::acc_strided(lo, hi, skip, buf, &scale, ld);
  }
  void periodic_get(const Coord& lo, const Coord& hi, T* buf, const Coord& ld = {}) const {
    Array::periodic_get(lo, hi, buf, ld);
  }
  void periodic_put(const Coord& lo, const Coord& hi, const T* buf, const Coord& ld = {}) {
    Array::periodic_put(lo, hi, buf, ld);
  }
  void periodic_acc(const Coord& lo, const Coord& hi, const T* buf, T scale = T(1), const Coord& ld = {}) {
    Array::periodic_acc(lo, hi, buf, &scale, ld);
  }
  void gather(std::span<const Coord> subscripts, T* values) const { Array::gather(subscripts, values); }
  void scatter(std::span<const Coord> subscripts, const T* values) { Array::scatter(subscripts, values); }
  void scatter_acc(std::span<const Coord> subscripts, const T* values, T scale = T(1)) {
    Array::scatter_acc(subscripts, values, &scale);
  }
  /// The element at `index` (a one-element get).
  T at(const Coord& index) const {
    T v{};
    Coord hi = index;
    for (int d = 0; d < hi.size(); ++d) hi[d] += 1;
    Array::get(index, hi, &v, {});
    return v;
  }

  LocalView<T> access() { return typed(Array::access()); }
  LocalView<T> access_ghosts() { return typed(Array::access_ghosts()); }
  LocalView<T> access_block(int rank) { return typed(Array::access_block(rank)); }
  std::vector<LocalView<T>> access_blocks() {
    std::vector<LocalView<T>> v;
    for (const auto& b : Array::access_blocks()) v.push_back(typed(b));
    return v;
  }

 private:
  static LocalView<T> typed(const LocalView<void>& v) {
    return LocalView<T>{static_cast<T*>(v.data), v.lo, v.hi, v.stride};
  }
};

namespace detail {
/// Throws InvalidArgument unless `a` holds elements of `type` (the typed view's check).
void require_type(const Array& a, ElemType type, const char* operation);
}  // namespace detail

template <Element T>
GlobalArray<T>::GlobalArray(Array a) : Array(std::move(a)) {
  detail::require_type(*this, type_of<T>(), "arrays::GlobalArray");
}

}  // namespace armada::arrays
