// The overlap test of the ARMCI overview paper: how much of a nonblocking operation's time is
// hidden behind computation. Per repetition and compute fraction f, a time-bounded loop times,
// back to back in each iteration, the blocking operation t_op, the computation alone t_compute
// (a calibrated dependent multiply-add loop of f × the median t_op so far) and
// start-nonblocking + computation + wait t_total; from the medians of each,
// overlap = (t_op + t_compute − t_total) / t_op, clamped to [0, 1].
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "common/stats.hpp"

namespace armada::bench {

/// `iters` rounds of a dependent multiply-add (the computation); returns a value to keep.
std::uint64_t busy(std::uint64_t iters);

/// Nanoseconds per busy() iteration: the fastest of a few 2 ms runs.
double calibrate_busy();

struct OverlapPoint {
  double fraction = 0;   ///< computation / median blocking time
  Stats overlap;         ///< percent hidden, over the repetitions
  std::vector<double> hidden;  ///< percent hidden of each repetition
  double t_op_us = 0;    ///< medians
  double t_compute_us = 0;
  double t_total_us = 0;
};

/// blocking(): the blocking operation. overlapped(compute): start it nonblocking, run
/// busy(compute) (adding its result to `sink`), wait. A repetition runs for about 3 × `budget`
/// seconds (at least 5 iterations), so a busy machine cannot stretch it.
std::vector<OverlapPoint> measure_overlap(std::span<const double> fractions, int reps, double budget,
                                          double ns_per_iter, const std::function<void()>& blocking,
                                          const std::function<void(std::uint64_t compute_iters)>& overlapped);

}  // namespace armada::bench
