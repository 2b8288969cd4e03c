#include "armada/programs/stats.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace armada::programs {

Stats summarize(std::span<const double> samples) {
  Stats s;
  if (samples.empty()) return s;
  std::vector<double> v(samples.begin(), samples.end());
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  s.count = n;
  s.min = v.front();
  s.max = v.back();
  s.median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  return s;
}

double percentile(std::span<const double> samples, double p) {
  if (samples.empty()) throw std::invalid_argument("percentile of no samples");
  if (!(p >= 0 && p <= 100)) throw std::invalid_argument("percentile " + std::to_string(p) + " is not in [0, 100]");
  std::vector<double> v(samples.begin(), samples.end());
  std::sort(v.begin(), v.end());
  const double rank = p / 100 * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<std::size_t>(rank);
  if (lo + 1 >= v.size()) return v.back();
  const double frac = rank - static_cast<double>(lo);
  return v[lo] + frac * (v[lo + 1] - v[lo]);
}

}  // namespace armada::programs
