#include "common/measure.hpp"

#include <algorithm>
#include <utility>

namespace armada::bench {

double figure(Unit unit, double per_iter, double seconds, std::size_t n) {
  const double dn = static_cast<double>(n);
  return unit == Unit::GBps ? per_iter * dn / seconds / 1e9 : seconds / (dn * per_iter) * 1e6;
}

std::vector<Stats> measure(std::vector<Contestant>& cs, int reps, double rep_seconds,
                           std::vector<std::size_t>* iterations, std::vector<std::vector<double>>* samples_out) {
  std::vector<std::size_t> iters;
  for (Contestant& k : cs) iters.push_back(calibrate(k.run, rep_seconds));
  // Once more each, now that every contestant has run: the first calibrated while what it talks
  // to was still settling (a target rank that had just answered a command wakes often for a few
  // milliseconds), which made its repetitions a third as long as asked (tcp fetch-add: 130-250
  // iterations of ~30 us for 20 ms), and the transient at the start of each a larger share.
  for (std::size_t i = 0; i < cs.size(); ++i) {
    const double t = cs[i].run(iters[i]);
    if (t > 0) iters[i] = std::max<std::size_t>(1, static_cast<std::size_t>(static_cast<double>(iters[i]) * rep_seconds / t));
  }
  std::vector<std::vector<double>> samples(cs.size());
  for (int r = 0; r < reps; ++r)
    for (std::size_t i = 0; i < cs.size(); ++i)
      samples[i].push_back(figure(cs[i].unit, cs[i].per_iter, cs[i].run(iters[i]), iters[i]));
  std::vector<Stats> stats;
  for (const auto& s : samples) stats.push_back(summarize(s));
  if (iterations) *iterations = iters;
  if (samples_out) *samples_out = std::move(samples);
  return stats;
}

}  // namespace armada::bench
