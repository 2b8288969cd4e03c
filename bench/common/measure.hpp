// The interleaved measurement shared by the benchmarks: each contestant (the Armada operation
// and the baselines it is compared with) is calibrated to about one repetition time, then
// repetition 1 of every contestant runs, repetition 2 of every contestant, and so on, so that
// drift of the machine hits them all alike. The first calibration runs are the warm-up.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "common/results.hpp"
#include "common/stats.hpp"
#include "common/timing.hpp"

namespace armada::bench {

/// run(n) performs n iterations and returns the seconds the timed part took.
/// The figure of a repetition: GB/s = per_iter bytes × n / time; µs = time / (n × per_iter
/// operations); % is not measured this way.
struct Contestant {
  std::string name;
  Unit unit = Unit::Micros;
  double per_iter = 1;
  std::function<double(std::size_t)> run;

  Contestant(std::string name_, std::function<double(std::size_t)> run_)
      : name(std::move(name_)), run(std::move(run_)) {}
  Contestant(std::string name_, Unit unit_, double per_iter_, std::function<double(std::size_t)> run_)
      : name(std::move(name_)), unit(unit_), per_iter(per_iter_), run(std::move(run_)) {}
};

/// The figure of `n` iterations that took `seconds` (see Contestant).
double figure(Unit unit, double per_iter, double seconds, std::size_t n);

/// Calibrates every contestant to about `rep_seconds` per repetition, then runs `reps`
/// repetitions interleaved; one Stats per contestant (median, min, max of the figures).
/// `iterations`, if given, receives the calibrated iteration count of each contestant, and
/// `samples` the figure of every repetition of each contestant.
std::vector<Stats> measure(std::vector<Contestant>& contestants, int reps, double rep_seconds,
                           std::vector<std::size_t>* iterations = nullptr,
                           std::vector<std::vector<double>>* samples = nullptr);

/// A run(n) function: op(i) for i in [0, n), timed as a whole.
template <class Op>
std::function<double(std::size_t)> looped(Op op) {
  return [op](std::size_t n) mutable { return time_loop(op, n); };
}

/// A run(n) function: op() n times, timed as a whole.
template <class Op>
std::function<double(std::size_t)> timed(Op op) {
  return [op](std::size_t n) mutable {
    const auto t0 = Clock::now();
    for (std::size_t i = 0; i < n; ++i) op();
    return seconds(t0, Clock::now());
  };
}

}  // namespace armada::bench
