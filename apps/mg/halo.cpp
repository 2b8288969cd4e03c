#include "halo.hpp"

#include <algorithm>
#include <stdexcept>

#include "armada/arrays/arrays.hpp"
#include "armada/rma/runtime.hpp"

namespace armada::mg {
namespace aa = armada::arrays;

// ---- level arrays ---------------------------------------------------------------------------------
LevelArray LevelArray::create(const LevelLayout& layout, const std::string& name) {
  aa::ArrayOptions o;
  o.name = name;
  o.ghosts = {1, 1, 1};
  for (const auto& s : layout.starts) o.block_starts.push_back(s);
  LevelArray a;
  a.array = aa::GlobalArray<double>::create({layout.n, layout.n, layout.n}, o);
  layout.block(rma::rank(), a.lo, a.hi);
  const aa::LocalView<double> v = a.array.access_ghosts();
  if (!v.empty() && a.lo != a.hi)
    a.frame = {v.data, {a.hi[0] - a.lo[0], a.hi[1] - a.lo[1], a.hi[2] - a.lo[2]}, v.stride[1], v.stride[0]};
  return a;
}

void LevelArray::destroy() {
  if (!array.valid()) return;
  array.release_update();
  array.destroy();
  frame = {};
}

// ---- plans ----------------------------------------------------------------------------------------
HaloPlan HaloPlan::make(const LevelLayout& layout, int rank) {
  HaloPlan plan;
  plan.local_only = layout.blocks() == 1;
  Dim3<Index> lo, hi;
  layout.block(rank, lo, hi);
  if (lo == hi) return plan;
  const Dim3<int> me = layout.grid.coords(rank);
  for (int t = 0; t < 27; ++t) {
    const Dim3<int> dir{t / 9 - 1, (t / 3) % 3 - 1, t % 3 - 1};
    if (dir == Dim3<int>{0, 0, 0}) continue;
    HaloRegion r;
    r.dir = dir;
    r.tag = t;
    Dim3<int> up = me, down = me;
    for (int d = 0; d < 3; ++d) {
      const Index n = hi[d] - lo[d];
      up[d] += dir[d];
      down[d] -= dir[d];
      if (dir[d] == 0) {
        r.extent[d] = n;
        r.recv[d] = r.send[d] = 1;
        r.src_lo[d] = lo[d];
      } else {
        r.extent[d] = 1;
        r.recv[d] = dir[d] < 0 ? 0 : n + 1;
        r.send[d] = dir[d] < 0 ? n : 1;  // the layer next to the neighbour at -dir
        r.src_lo[d] = ((dir[d] < 0 ? lo[d] - 1 : hi[d]) + layout.n) % layout.n;
      }
      r.src_hi[d] = r.src_lo[d] + r.extent[d];
    }
    r.from = layout.grid.rank_at(up);
    r.to = layout.grid.rank_at(down);
    r.local = r.from == rank;
    bool alone = false, shared = false;  // nonzero components in dimensions with one rank / several
    for (int d = 0; d < 3; ++d)
      if (dir[d] != 0) (layout.grid.p[d] == 1 ? alone : shared) = true;
    r.derived = !r.local && alone && shared;
    if (r.derived) {  // the wrap of the one-rank dimensions lands on this rank's own interior layer
      r.derived_src = r.recv;
      for (int d = 0; d < 3; ++d)
        if (dir[d] != 0 && layout.grid.p[d] == 1) r.derived_src[d] = r.send[d];
    }
    if (r.remote()) {
      r.count = static_cast<std::size_t>(r.extent[0] * r.extent[1] * r.extent[2]);
      r.offset = plan.buffer_doubles;
      plan.buffer_doubles += 2 * r.count;
    }
    plan.regions.push_back(r);
  }
  return plan;
}

void copy_local_regions(const Frame& f, const HaloPlan& plan) {
  for (const HaloRegion& r : plan.regions)
    if (r.local) copy_box(f, r.send, r.recv, r.extent);
}

void copy_derived_regions(const Frame& f, const HaloPlan& plan) {
  for (const HaloRegion& r : plan.regions)
    if (r.derived) copy_box(f, r.derived_src, r.recv, r.extent);
}

namespace {

// The buffer description of a frame for patch operations: extents of dimensions 1 and 2.
aa::Coord frame_ld(const Frame& f) { return {f.sz / f.sy, f.sy}; }

void pack(const Frame& f, Dim3<Index> at, Dim3<Index> ext, double* out) {
  for (Index k = 0; k < ext[0]; ++k)
    for (Index j = 0; j < ext[1]; ++j, out += ext[2]) std::copy_n(&f.at(at[0] + k, at[1] + j, at[2]), ext[2], out);
}

void unpack(const Frame& f, Dim3<Index> at, Dim3<Index> ext, const double* in) {
  for (Index k = 0; k < ext[0]; ++k)
    for (Index j = 0; j < ext[1]; ++j, in += ext[2]) std::copy_n(in, ext[2], &f.at(at[0] + k, at[1] + j, at[2]));
}

// ---- one-sided (Armada arrays) --------------------------------------------------------------------
class RmaExchange final : public Exchange {
 public:
  const char* name() const noexcept override { return "rma"; }

  // Epochs: the intervals between this exchange's synchronizations, counted alike on every rank
  // (all ranks make the same calls). A block read remotely during the current epoch may still be
  // being read; one read in an earlier epoch is done (every reader waited for its gets before
  // reaching the synchronization that ended that epoch).
  void prepare_write(LevelArray& a) override {
    if (a.exposed != epoch_) return;
    a.array.sync();
    ++epoch_;
    ++write_syncs_;
  }
  long write_syncs() const noexcept override { return write_syncs_; }

  // Push form: each owner puts its faces, edges and corners into its neighbours' frames (one
  // put-with-notify each) once they are ready, and waits for its own frame's. Nothing reads the
  // block remotely, so it is not exposed: only gather and replicate expose blocks.
  void ghosts(LevelArray& a, HaloPlan& plan) override {
    if (plan.local_only) {  // one block: nothing crosses ranks, nothing to wait for
      copy_local_regions(a.frame, plan);
      return;
    }
    a.array.update_ghosts(aa::GhostUpdate{.periodic = true, .corners = true, .push = true});
  }

  void gather(LevelArray& staging, LevelArray& coarse, HaloPlan& coarse_plan) override {
    synchronize(staging);  // every rank's part of the staging array is final
    if (!coarse.frame.empty()) {
      const Index n = coarse.hi[0];
      staging.array.get({0, 0, 0}, {n, n, n}, &coarse.frame.at(1, 1, 1), frame_ld(coarse.frame));
      copy_local_regions(coarse.frame, coarse_plan);
    }
  }

  void replicate(LevelArray& coarse, const Frame& replica, const HaloPlan& whole) override {
    synchronize(coarse);  // rank 0 has finished the coarse levels
    const Index n = coarse.array.dims()[0];
    coarse.array.get({0, 0, 0}, {n, n, n}, &replica.at(1, 1, 1), frame_ld(replica));
    copy_local_regions(replica, whole);
  }

 private:
  // Synchronizes the ranks before `read` is read remotely: a new epoch in which it is exposed.
  void synchronize(LevelArray& read) {
    read.array.sync();
    read.exposed = ++epoch_;
  }

  std::uint64_t epoch_ = 1;
  long write_syncs_ = 0;
};

// ---- two-sided MPI (the baseline) -----------------------------------------------------------------
class MpiExchange final : public Exchange {
 public:
  explicit MpiExchange(MPI_Comm comm) : comm_(comm) {}
  const char* name() const noexcept override { return "mpi"; }
  // Nobody reads another rank's block: each rank packs its own data.
  void prepare_write(LevelArray&) override {}
  long write_syncs() const noexcept override { return 0; }

  void ghosts(LevelArray& a, HaloPlan& plan) override {
    const Frame& f = a.frame;
    if (plan.buffer.size() < plan.buffer_doubles) plan.buffer.resize(plan.buffer_doubles);
    requests_.clear();
    for (const HaloRegion& r : plan.regions)
      if (r.remote()) {
        requests_.emplace_back();
        MPI_Irecv(plan.buffer.data() + r.offset, static_cast<int>(r.count), MPI_DOUBLE, r.from, r.tag, comm_,
                  &requests_.back());
      }
    for (const HaloRegion& r : plan.regions)
      if (r.remote()) {
        double* out = plan.buffer.data() + r.offset + r.count;
        pack(f, r.send, r.extent, out);
        requests_.emplace_back();
        MPI_Isend(out, static_cast<int>(r.count), MPI_DOUBLE, r.to, r.tag, comm_, &requests_.back());
      }
    copy_local_regions(f, plan);
    MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
    for (const HaloRegion& r : plan.regions)
      if (r.remote()) unpack(f, r.recv, r.extent, plan.buffer.data() + r.offset);
    copy_derived_regions(f, plan);
  }

  void gather(LevelArray& staging, LevelArray& coarse, HaloPlan& coarse_plan) override {
    int me = 0, size = 0;
    MPI_Comm_rank(comm_, &me);
    MPI_Comm_size(comm_, &size);
    const aa::Distribution& dist = staging.array.distribution();
    std::vector<int> counts(static_cast<std::size_t>(size), 0), displs(counts.size(), 0);
    int total = 0;
    for (int p = 0; p < size; ++p) {
      counts[static_cast<std::size_t>(p)] = static_cast<int>(dist.block(p).elements());
      displs[static_cast<std::size_t>(p)] = total;
      total += counts[static_cast<std::size_t>(p)];
    }
    send_.resize(static_cast<std::size_t>(counts[static_cast<std::size_t>(me)]));
    if (!staging.frame.empty()) pack(staging.frame, {1, 1, 1}, staging.frame.n, send_.data());
    recv_.resize(me == 0 ? static_cast<std::size_t>(total) : 0);
    MPI_Gatherv(send_.data(), static_cast<int>(send_.size()), MPI_DOUBLE, recv_.data(), counts.data(), displs.data(),
                MPI_DOUBLE, 0, comm_);
    if (coarse.frame.empty()) return;
    for (int p = 0; p < size; ++p) {
      const aa::Patch b = dist.block(p);
      if (b.empty()) continue;
      unpack(coarse.frame, {b.lo[0] + 1, b.lo[1] + 1, b.lo[2] + 1}, {b.hi[0] - b.lo[0], b.hi[1] - b.lo[1], b.hi[2] - b.lo[2]},
             recv_.data() + displs[static_cast<std::size_t>(p)]);
    }
    copy_local_regions(coarse.frame, coarse_plan);
  }

  void replicate(LevelArray& coarse, const Frame& replica, const HaloPlan& whole) override {
    const Dim3<Index> n = replica.n;
    send_.resize(static_cast<std::size_t>(n[0] * n[1] * n[2]));
    if (!coarse.frame.empty()) pack(coarse.frame, {1, 1, 1}, n, send_.data());
    MPI_Bcast(send_.data(), static_cast<int>(send_.size()), MPI_DOUBLE, 0, comm_);
    unpack(replica, {1, 1, 1}, n, send_.data());
    copy_local_regions(replica, whole);
  }

 private:
  MPI_Comm comm_;
  std::vector<MPI_Request> requests_;
  std::vector<double> send_, recv_;
};

}  // namespace

std::unique_ptr<Exchange> make_rma_exchange() { return std::make_unique<RmaExchange>(); }
std::unique_ptr<Exchange> make_mpi_exchange(MPI_Comm comm) { return std::make_unique<MpiExchange>(comm); }

}  // namespace armada::mg
