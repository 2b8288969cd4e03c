#include "common/overlap.hpp"

#include <algorithm>

#include "common/timing.hpp"

namespace armada::bench {

[[gnu::noinline]] std::uint64_t busy(std::uint64_t iters) {
  std::uint64_t x = 0x9E3779B97F4A7C15ull;
  for (std::uint64_t i = 0; i < iters; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    asm volatile("" : "+r"(x));
  }
  return x;
}

double calibrate_busy() {
  std::uint64_t iters = 1000;
  for (;;) {
    const auto t0 = Clock::now();
    busy(iters);
    if (seconds(t0, Clock::now()) > 0.002) break;
    iters *= 2;
  }
  double best = 1e300;
  for (int i = 0; i < 5; ++i) {
    const auto t0 = Clock::now();
    busy(iters);
    best = std::min(best, seconds(t0, Clock::now()) * 1e9 / static_cast<double>(iters));
  }
  return best;
}

std::vector<OverlapPoint> measure_overlap(std::span<const double> fractions, int reps, double budget,
                                          double ns_per_iter, const std::function<void()>& blocking,
                                          const std::function<void(std::uint64_t)>& overlapped) {
  auto mean_time = [budget](auto&& op) {
    const auto t0 = Clock::now();
    std::size_t k = 0;
    double t = 0;
    do {
      op();
      ++k;
      t = seconds(t0, Clock::now());
    } while (k < 3 || t < budget);
    return t / static_cast<double>(k);
  };
  for (int i = 0; i < 4; ++i) blocking();  // warm-up
  const std::size_t F = fractions.size();
  std::vector<std::vector<double>> t_op(F), t_comp(F), t_total(F), hidden(F);
  std::vector<double> op_all;
  std::uint64_t sink = 0;
  for (int r = 0; r < reps; ++r)
    for (std::size_t f = 0; f < F; ++f) {
      // The computation is a fraction of the median of all blocking times so far, so that it
      // does not jump with one noisy repetition.
      const double to = mean_time(blocking);
      op_all.push_back(to);
      const double ref = summarize(op_all).median;
      const auto iters = static_cast<std::uint64_t>(fractions[f] * ref * 1e9 / ns_per_iter);
      const double tc = mean_time([&] { sink += busy(iters); });
      const double tt = mean_time([&] { overlapped(iters); });
      t_op[f].push_back(to * 1e6);
      t_comp[f].push_back(tc * 1e6);
      t_total[f].push_back(tt * 1e6);
      hidden[f].push_back(100 * std::clamp((to + tc - tt) / to, 0.0, 1.0));
    }
  clobber(&sink);
  std::vector<OverlapPoint> points;
  for (std::size_t f = 0; f < F; ++f)
    points.push_back({fractions[f], summarize(hidden[f]), hidden[f], summarize(t_op[f]).median,
                      summarize(t_comp[f]).median, summarize(t_total[f]).median});
  return points;
}

}  // namespace armada::bench
