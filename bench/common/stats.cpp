#include "common/stats.hpp"

#include <algorithm>
#include <vector>

namespace armada::bench {

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

}  // namespace armada::bench
