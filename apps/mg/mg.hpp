// NAS MG on Armada arrays: the multigrid hierarchy and the V-cycle, step by step with NPB's
// names. Level k (1..lt) holds u(k) and r(k), one LevelArray each (grid.hpp: distributed over
// the process grid, or gathered on rank 0 when coarse); the finest level also holds v.
//
// Every member function is collective over all ranks of `comm` (each rank calls the same
// sequence); ranks that own no block of a level skip its kernels but still take part in its
// synchronization. Steps that write an array finish by exchanging its ghost frame, as NPB's
// do, so the next step finds its inputs' ghosts current.
#pragma once

#include <mpi.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "classes.hpp"
#include "halo.hpp"
#include "kernels.hpp"

namespace armada::mg {

struct Norms {
  double l2 = 0;       ///< sqrt(sum r^2 / n^3): NPB's rnm2, the verified value
  double max_abs = 0;  ///< NPB's rnmu
};

class Multigrid {
 public:
  /// Lays out and creates the arrays of an n^3 problem on `grid` (n a power of two >= 4).
  /// Throws LayoutError when it cannot be laid out. Collective.
  Multigrid(Index n, const ProcessGrid& grid, const Stencil& smoother, Exchange& exchange, MPI_Comm comm);
  Multigrid(const Multigrid&) = delete;
  Multigrid& operator=(const Multigrid&) = delete;
  /// Frees the arrays. Collective (call it on every rank before rma::finalize; if it is never
  /// called, finalize releases the memory).
  void destroy();

  int levels() const noexcept { return static_cast<int>(layouts_.size()); }
  const LevelLayout& layout(int k) const { return layouts_.at(static_cast<std::size_t>(k - 1)); }
  LevelArray& u(int k) { return u_.at(static_cast<std::size_t>(k - 1)); }
  LevelArray& r(int k) { return r_.at(static_cast<std::size_t>(k - 1)); }
  LevelArray& v() { return v_; }
  /// Exchanges the ghost frame of a level-k array (u(k), r(k) or v()).
  void exchange_ghosts(int k, LevelArray& a);
  /// Call before writing an array's block from outside the steps below (they call it
  /// themselves): see Exchange::prepare_write.
  void prepare_write(LevelArray& a) { exchange_.prepare_write(a); }
  /// Synchronizations prepare_write() had to add (none in MG's own sequence of steps).
  long write_syncs() const noexcept { return exchange_.write_syncs(); }

  // ---- the steps of NPB's MG -------------------------------------------------------------------
  /// u(lt) = 0 and v = NPB's charges (zran3).
  void initialize();
  /// r(k) = v - A u(k) with v = v() at the finest level and r(k) itself below; exchanges r(k).
  void resid(int k);
  /// Picks the build of the kernels' row loops (kernels.hpp, RowIsa) on every rank: `wanted`,
  /// or the fastest at resid on the first planes of the finest level (at most 16: tens of ms),
  /// the slowest rank's time deciding so that every rank takes the same. Collective; call it
  /// before the warm-up (it writes the finest residual). Returns what to report, e.g.
  /// "avx2 (resid on 16 planes, fastest of 7, slowest rank: avx512 1.40 ms, avx2 1.06 ms, baseline 1.62 ms)".
  std::string choose_row_isa(std::optional<RowIsa> wanted);
  /// u(k) = u(k) + S r(k); exchanges u(k).
  void psinv(int k);
  /// r(k-1) = P r(k) (gathered onto rank 0 when level k-1 is); exchanges r(k-1).
  void rprj3(int k);
  /// u(k) = u(k) + Q u(k-1) (from a replica of level k-1 when it is gathered).
  void interp(int k);
  /// interp(k) then resid(k) in one pass over the planes (kernels.hpp interp_resid): what the
  /// V-cycle runs.
  void interp_resid(int k);
  /// u(k) = 0, ghosts included.
  void zero_u(int k);
  /// One V-cycle (NPB's mg3P): restrict r down to level 1, smooth there, then prolongate,
  /// recompute the residual and smooth on every finer level.
  void mg3p();
  /// `count` iterations of NPB's timed loop (each mg3p(), then resid(lt)), calling before(i) and
  /// after(i) around iteration i (1-based; either may be empty). The finest level's steps, the
  /// residual after them and the next iteration's first restriction run in one pass over the planes where
  /// the blocks span x and y whole (kernels.hpp finest_pass); the results are mg3p's and
  /// resid's to the bit. Nothing else may write u, r or v between the calls.
  void iterations(int count, const std::function<void(int)>& before = {}, const std::function<void(int)>& after = {});
  /// The norms of r(k) over the whole level.
  Norms norm2u3(int k);

  // ---- the memory floor's count (docs/apps.md "Memory floors") ------------------------------------
  /// The bytes this rank must move in one iteration of the timed section (a V-cycle and the
  /// residual after it). With P_k this rank's points of level k and F_k its ghost frame cells
  /// (an exchange reads each from its owner and writes it into the frame: 16 bytes):
  ///   finest level lt: interp, resid, psinv, the residual after the V-cycle and the next
  ///     cycle's restriction in one pass 34 P (u read and written once, the coarse u read, v
  ///     read, r written, r(lt-1) written), and 4 exchanges: 34 P + 64 F (where the steps run
  ///     one by one, at 4 ranks, they move 90 P: the floor is what the pass needs)
  ///   level 1 < k < lt: zero_u 8 P, interp and resid 33 P, psinv 24 P, rprj3 9 P, 4 exchanges
  ///     (r from rprj3, interp's u, resid's r, psinv's u): 74 P + 64 F
  ///   level 1: zero_u 8 P, psinv 24 P, 2 exchanges: 32 P + 32 F
  double rank_bytes_per_iteration() const;
  /// The rest of the timed section: the first residual (24 P + 16 F), the first cycle's
  /// restriction's read of it (8 P) and two norms (8 P each) of the finest level.
  double rank_bytes_fixed() const;

 private:
  bool gathered_below(int k) const { return staging_level_ == k; }
  /// The coarse frame interp(k) reads: u(k-1)'s block, or (level k-1 gathered) the part of a
  /// fresh replica of it under this rank's fine block (empty where that block is). Collective
  /// when level k-1 is gathered.
  Frame coarse_of(int k);
  /// mg3p()'s steps on the levels below the finest, and the finest level's first restriction
  /// unless `restricted` (the previous iteration's finest() did it).
  void coarse_levels(bool restricted);
  /// mg3p()'s steps on the finest level, the residual after them and, if `restrict_after`, the
  /// next cycle's first restriction: one pass over the planes where it can (kernels.hpp
  /// finest_pass), else step by step.
  void finest(bool restrict_after);

  MPI_Comm comm_;
  Exchange& exchange_;
  Stencil smoother_;
  std::vector<LevelLayout> layouts_;
  std::vector<HaloPlan> plans_;       // this rank's ghost regions per level
  std::vector<LevelArray> u_, r_;
  LevelArray v_;
  // Where the distributed levels meet the gathered ones (level staging_level_ is the coarsest
  // distributed level; 0: none): rprj3 writes into `staging_` (level staging_level_ - 1 laid out
  // as half of staging_level_), gathered from there; interp reads a full copy, `replica_`.
  int staging_level_ = 0;
  LevelArray staging_;
  HaloPlan whole_plan_;               // the single block of the gathered level, for the replica
  std::vector<double> replica_storage_;
  Frame replica_;
};

}  // namespace armada::mg
