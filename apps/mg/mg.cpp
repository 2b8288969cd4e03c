#include "mg.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "armada/rma/runtime.hpp"
#include "zran3.hpp"

namespace armada::mg {

Multigrid::Multigrid(Index n, const ProcessGrid& grid, const Stencil& smoother, Exchange& exchange, MPI_Comm comm)
    : comm_(comm), exchange_(exchange), smoother_(smoother) {
  if (level_count(n) < 2) throw LayoutError("grid size " + std::to_string(n) + " is too small for a V-cycle (at least 4)");
  layouts_ = plan_levels(n, grid);
  const int me = rma::rank();
  for (const LevelLayout& L : layouts_) {
    const std::string k = std::to_string(L.level);
    plans_.push_back(HaloPlan::make(L, me));
    u_.push_back(LevelArray::create(L, "u" + k));
    r_.push_back(LevelArray::create(L, "r" + k));
  }
  v_ = LevelArray::create(layouts_.back(), "v");
  for (int k = 2; k <= levels(); ++k) {
    const LevelLayout half = halved(layout(k)), &coarse = layout(k - 1);
    if (half.grid.p == coarse.grid.p && half.starts == coarse.starts) continue;
    // Only the coarsest distributed level meets a gathered one (grid.hpp).
    if (staging_level_ != 0) throw std::logic_error("armada-mg: levels " + std::to_string(k) + " and " +
                                                    std::to_string(staging_level_) + " both need a staging array");
    staging_level_ = k;
    staging_ = LevelArray::create(half, "staging" + std::to_string(k - 1));
    whole_plan_ = HaloPlan::make(coarse, 0);
    const Index m = coarse.n + 2;
    replica_storage_.assign(static_cast<std::size_t>(m * m * m), 0.0);
    replica_ = {replica_storage_.data(), {coarse.n, coarse.n, coarse.n}, m, m * m};
  }
}

void Multigrid::destroy() {
  for (auto* arrays : {&u_, &r_})
    for (LevelArray& a : *arrays) a.destroy();
  v_.destroy();
  staging_.destroy();
}

void Multigrid::exchange_ghosts(int k, LevelArray& a) { exchange_.ghosts(a, plans_[static_cast<std::size_t>(k - 1)]); }

void Multigrid::initialize() {
  const int lt = levels();
  zero_u(lt);
  prepare_write(v_);
  zran3(v_, layout(lt), plans_.back(), exchange_, comm_);
}

void Multigrid::resid(int k) {
  LevelArray& rk = r(k);
  const Frame& vk = k == levels() ? v_.frame : rk.frame;
  prepare_write(rk);
  armada::mg::resid(u(k).frame, vk, rk.frame, operator_a);
  exchange_ghosts(k, rk);
}

std::string Multigrid::choose_row_isa(std::optional<RowIsa> wanted) {
  if (wanted) {
    use_row_isa(*wanted);
    return std::string(name(*wanted)) + " (--row-isa)";
  }
  constexpr Index kPlanes = 16;
  constexpr int kRounds = 7;
  const int lt = levels();
  const Frame& u_full = u(lt).frame;
  double seconds[kRowIsaCount];  // by RowIsa; a build this rank cannot run never wins
  std::fill(std::begin(seconds), std::end(seconds), std::numeric_limits<double>::infinity());
  const Dim3<Index> slab{std::min(u_full.n[0], kPlanes), u_full.n[1], u_full.n[2]};
  if (u_full.empty()) {  // a rank that owns nothing times nothing, and runs every build it can
    for (RowIsa isa : supported_row_isas()) seconds[static_cast<int>(isa)] = 0.0;
  } else {
    prepare_write(r(lt));
    for (const IsaTime& t : time_row_isas(u_full.sub(0, 0, 0, slab), v_.frame.sub(0, 0, 0, slab),
                                          r(lt).frame.sub(0, 0, 0, slab), operator_a, kRounds))
      seconds[static_cast<int>(t.isa)] = t.seconds;
  }
  MPI_Allreduce(MPI_IN_PLACE, seconds, kRowIsaCount, MPI_DOUBLE, MPI_MAX, comm_);
  use_row_isa(pick_row_isa(seconds));
  std::string text = std::string(name(row_isa())) + " (resid on " + std::to_string(slab[0]) + " planes, fastest of " +
                     std::to_string(kRounds) + ", baseline only if " +
                     std::to_string(static_cast<int>(kBaselineMargin * 100 + 0.5)) + " % faster; slowest rank:";
  for (int i = 0; i < kRowIsaCount; ++i)
    if (std::isfinite(seconds[i])) {
      char ms[64];
      std::snprintf(ms, sizeof ms, " %s %.2f ms,", name(static_cast<RowIsa>(i)), seconds[i] * 1e3);
      text += ms;
    }
  text.back() = ')';
  return text;
}

void Multigrid::psinv(int k) {
  prepare_write(u(k));
  armada::mg::psinv(r(k).frame, u(k).frame, smoother_);
  exchange_ghosts(k, u(k));
}

void Multigrid::rprj3(int k) {
  prepare_write(r(k - 1));
  if (gathered_below(k)) prepare_write(staging_);
  if (gathered_below(k)) {
    armada::mg::rprj3(r(k).frame, staging_.frame);
    exchange_.gather(staging_, r(k - 1), plans_[static_cast<std::size_t>(k - 2)]);
  } else {
    armada::mg::rprj3(r(k).frame, r(k - 1).frame);
    exchange_ghosts(k - 1, r(k - 1));
  }
}

Frame Multigrid::coarse_of(int k) {
  const Frame& fine = u(k).frame;
  if (!gathered_below(k)) return u(k - 1).frame;
  exchange_.replicate(u(k - 1), replica_, whole_plan_);
  if (fine.empty()) return {};
  // The coarse block under this rank's fine block, with its ghost frame, inside the replica.
  const Dim3<Index> m{fine.n[0] / 2, fine.n[1] / 2, fine.n[2] / 2};
  const Dim3<Index>& lo = u(k).lo;
  return replica_.sub(lo[0] / 2, lo[1] / 2, lo[2] / 2, m);
}

void Multigrid::interp(int k) {
  prepare_write(u(k));
  armada::mg::interp(coarse_of(k), u(k).frame);
}

void Multigrid::interp_resid(int k) {
  LevelArray& rk = r(k);
  const Frame& vk = k == levels() ? v_.frame : rk.frame;
  prepare_write(u(k));
  const Frame coarse = coarse_of(k);
  prepare_write(rk);
  armada::mg::interp_resid(coarse, u(k).frame, vk, rk.frame, operator_a);
  exchange_ghosts(k, rk);
}

void Multigrid::zero_u(int k) {
  prepare_write(u(k));
  zero(u(k).frame);
}

void Multigrid::coarse_levels(bool restricted) {
  const int lt = levels();
  for (int k = restricted ? lt - 1 : lt; k >= 2; --k) rprj3(k);
  zero_u(1);
  psinv(1);
  for (int k = 2; k < lt; ++k) {
    zero_u(k);
    interp_resid(k);
    psinv(k);
  }
}

void Multigrid::mg3p() {
  coarse_levels(false);
  interp_resid(levels());
  psinv(levels());
}

void Multigrid::iterations(int count, const std::function<void(int)>& before, const std::function<void(int)>& after) {
  for (int i = 1; i <= count; ++i) {
    if (before) before(i);
    coarse_levels(i > 1);
    finest(i < count);
    if (after) after(i);
  }
}

namespace {

// f(k) for the planes 1..n outside [lo, hi].
template <class F>
void planes_outside(Index n, Index lo, Index hi, F&& f) {
  for (Index k = 1; k <= n; ++k)
    if (k < lo || k > hi) f(k);
}

}  // namespace

void Multigrid::finest(bool restrict_after) {
  const int lt = levels();
  // One pass only where this rank's block spans x and y whole (1, 2 or 3 ranks: the process
  // grid splits z first), so that the x/y ghosts are the block's own wrap, and the level below
  // is distributed (not read through a replica nor restricted into the staging array).
  if (layout(lt).grid.p[1] != 1 || layout(lt).grid.p[2] != 1 || gathered_below(lt)) {
    interp_resid(lt);
    psinv(lt);
    resid(lt);
    if (restrict_after) rprj3(lt);
    return;
  }
  const Frame &fine_u = u(lt).frame, &fine_r = r(lt).frame, &v = v_.frame;
  prepare_write(u(lt));
  prepare_write(r(lt));
  if (restrict_after) prepare_write(r(lt - 1));
  const Frame coarse = restrict_after ? r(lt - 1).frame : Frame{};
  armada::mg::finest_pass(u(lt - 1).frame, fine_u, v, fine_r, operator_a, smoother_, coarse);
  // Each step on the planes next to the z ends, after the exchange it needs, in NPB's order.
  const FinestPassInner in = finest_pass_inner(fine_u.n[0]);
  exchange_ghosts(lt, r(lt));
  planes_outside(fine_u.n[0], in.smooth_lo, in.smooth_hi, [&](Index k) { psinv_planes(fine_r, fine_u, smoother_, k, k); });
  exchange_ghosts(lt, u(lt));
  planes_outside(fine_u.n[0], in.resid_lo, in.resid_hi, [&](Index k) { resid_planes(fine_u, v, fine_r, operator_a, k, k); });
  exchange_ghosts(lt, r(lt));
  if (!restrict_after) return;
  planes_outside(coarse.n[0], in.restrict_lo, in.restrict_hi, [&](Index k) { rprj3_planes(fine_r, coarse, k, k); });
  exchange_ghosts(lt - 1, r(lt - 1));
}

Norms Multigrid::norm2u3(int k) {
  const NormParts local = norm_parts(r(k).frame);
  double sum = 0, max = 0;
  MPI_Allreduce(&local.sum_squares, &sum, 1, MPI_DOUBLE, MPI_SUM, comm_);
  MPI_Allreduce(&local.max_abs, &max, 1, MPI_DOUBLE, MPI_MAX, comm_);
  const double points = std::pow(static_cast<double>(layout(k).n), 3);
  return {std::sqrt(sum / points), max};
}

namespace {

// This rank's points and ghost frame cells of a level.
std::pair<double, double> points_and_frame(const LevelLayout& L, int rank) {
  Dim3<Index> lo, hi;
  L.block(rank, lo, hi);
  double points = 1, framed = 1;
  for (int d = 0; d < 3; ++d) {
    const auto extent = static_cast<double>(std::max<Index>(0, hi[d] - lo[d]));
    points *= extent;
    framed *= extent + 2;
  }
  return {points, points > 0 ? framed - points : 0.0};
}

}  // namespace

double Multigrid::rank_bytes_per_iteration() const {
  const int me = rma::rank();
  double bytes = 0;
  for (int k = 1; k <= levels(); ++k) {
    const auto [p, f] = points_and_frame(layout(k), me);
    bytes += k == 1 ? 32 * p + 32 * f : (k == levels() ? 34 : 74) * p + 64 * f;
  }
  return bytes;
}

double Multigrid::rank_bytes_fixed() const {
  const auto [p, f] = points_and_frame(layout(levels()), rma::rank());
  return 24 * p + 16 * f + 8 * p + 16 * p;
}

}  // namespace armada::mg
