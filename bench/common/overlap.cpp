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
  // Each iteration times the blocking operation, the computation alone and the overlapped
  // operation back to back, and a repetition takes the medians of each: timing the three in
  // separate loops let one preempted loop (a busy neighbour, a scheduler slice) swing the
  // share hidden between 0 and 100 % from one repetition or run to the next.
  auto timed = [](auto&& op) {
    const auto t0 = Clock::now();
    op();
    return seconds(t0, Clock::now());
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
      const double ref = op_all.empty() ? timed(blocking) : summarize(op_all).median;
      const auto iters = static_cast<std::uint64_t>(fractions[f] * ref * 1e9 / ns_per_iter);
      std::vector<double> to, tc, tt;
      const auto start = Clock::now();
      do {
        to.push_back(timed(blocking));
        tc.push_back(timed([&] { sink += busy(iters); }));
        tt.push_back(timed([&] { overlapped(iters); }));
      } while (to.size() < 5 || seconds(start, Clock::now()) < 3 * budget);
      op_all.insert(op_all.end(), to.begin(), to.end());
      const double mo = summarize(to).median, mc = summarize(tc).median, mt = summarize(tt).median;
      t_op[f].push_back(mo * 1e6);
      t_comp[f].push_back(mc * 1e6);
      t_total[f].push_back(mt * 1e6);
      hidden[f].push_back(100 * std::clamp((mo + mc - mt) / mo, 0.0, 1.0));
    }
  clobber(&sink);
  std::vector<OverlapPoint> points;
  for (std::size_t f = 0; f < F; ++f)
    points.push_back({fractions[f], summarize(hidden[f]), hidden[f], summarize(t_op[f]).median,
                      summarize(t_comp[f]).median, summarize(t_total[f]).median});
  return points;
}

}  // namespace armada::bench
